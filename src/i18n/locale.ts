/**
 * Which language to answer in. Platforms report locales in their own spelling (Discord `zh-CN`,
 * Slack `zh-TW`, POSIX `zh_CN.UTF-8`); every one resolves to a locale Paper Scout has a catalog
 * for: Chinese of any region or script to Simplified Chinese, anything else to English.
 */

/** The languages with a complete catalog, English first (the fallback). */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** The fallback for anything unknown. */
export const DEFAULT_LOCALE: Locale = 'en';

/**
 * The catalog locale for a platform's locale tag (BCP 47 or POSIX); unknown or empty gives English.
 * @example resolveLocale('zh_TW.UTF-8') // 'zh-CN'
 * @example resolveLocale('fr-FR') // 'en'
 */
export function resolveLocale(tag: string | null | undefined): Locale {
  const language = languageOf(tag);
  return (language !== undefined && CATALOG_OF_LANGUAGE.get(language)) || DEFAULT_LOCALE;
}

/**
 * The catalog that serves each language, whatever the region or script: zh-TW and zh-HK read
 * Simplified Chinese far better than English, so one Chinese catalog serves all.
 */
const CATALOG_OF_LANGUAGE: ReadonlyMap<string, Locale> = new Map<string, Locale>([
  ['en', 'en'],
  ['zh', 'zh-CN'],
]);

/**
 * The language subtag of a locale tag, lower case, or undefined when it is not one.
 * @example languageOf('zh_CN.UTF-8@pinyin') // 'zh'
 */
export function languageOf(tag: string | null | undefined): string | undefined {
  if (typeof tag !== 'string') return undefined;
  // POSIX: language[_territory][.codeset][@modifier]; C and POSIX mean "no language".
  const cleaned = tag.trim().replace(/[.@].*$/s, '').replace(/_/g, '-');
  if (cleaned === '' || /^(c|posix)$/i.test(cleaned)) return undefined;
  try {
    return new Intl.Locale(cleaned).language.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * The catalog locale of the first language in an HTTP Accept-Language header (by q-value, then
 * order) that a catalog serves, or undefined when none does: French is passed over for a later
 * Chinese. Only the header's first 500 characters are read.
 * @example acceptedLocale('fr;q=0.9, zh-TW;q=0.8, en;q=0.5') // 'zh-CN'
 */
export function acceptedLocale(header: string | readonly string[] | undefined): Locale | undefined {
  const value = typeof header === 'string' ? header : (header ?? []).join(',');
  const ranges = value
    .slice(0, 500)
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.tag !== '' && r.tag !== '*' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranges) {
    const language = languageOf(r.tag);
    const locale = language === undefined ? undefined : CATALOG_OF_LANGUAGE.get(language);
    if (locale) return locale;
  }
  return undefined;
}

/**
 * The terminal's locale as POSIX defines precedence: LC_ALL, then LC_MESSAGES, then LANG (an
 * empty variable counts as unset).
 * @example posixLocale({ LANG: 'zh_CN.UTF-8', LC_ALL: '' }) // 'zh_CN.UTF-8'
 */
export function posixLocale(env: Record<string, string | undefined>): string | undefined {
  for (const key of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[key]?.trim();
    if (value) return value;
  }
  return undefined;
}
