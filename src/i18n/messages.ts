/**
 * Messages in a language: the catalog's ICU MessageFormat strings (intl-messageformat), numbers,
 * dates and lists by the language's conventions (Intl). Code asks for a key with values and never
 * branches on the language; a {@link Message} is a key with values that can travel (a search's
 * notes, a {@link UserError}) and be put into words where the language is known.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { en, type Catalog, type MessageKey } from './catalog/en.js';
import { zhCN } from './catalog/zh-CN.js';
import { DEFAULT_LOCALE, resolveLocale, type Locale } from './locale.js';

export type { MessageKey };

/**
 * Text in every language at once, for data that has its own translations (topic labels):
 * the entry for the language shown, else English.
 */
export interface Localized {
  readonly en: string;
  readonly [locale: string]: string;
}

/**
 * Messages shown as one list: "a, b and c" (conjunction), "a, b or c" (disjunction), "a, b, c"
 * (unit: "a；b；c" in Chinese), or sentences one after the other.
 */
export interface MessageList {
  readonly items: readonly Message[];
  readonly type: 'conjunction' | 'disjunction' | 'unit' | 'sentences';
}

/** What a message argument can be: text, a number, text in several languages, or messages to list. */
export type MessageValue = string | number | Localized | readonly Message[] | MessageList;
export type MessageValues = Readonly<Record<string, MessageValue>>;

/** A catalog key with its values, put into words later, in the reader's language. */
export interface Message {
  readonly key: MessageKey;
  readonly values?: MessageValues;
}

/**
 * A message to put into words later.
 * @example msg('search.partial') // { key: 'search.partial' }
 */
export function msg(key: MessageKey, values?: MessageValues): Message {
  return values === undefined ? { key } : { key, values };
}

/** Tag of the pseudo-locale the tests render with: every catalog message comes out marked. */
export const PSEUDO_LOCALE = 'en-XA';
/** The marks around each message in the pseudo-locale. */
export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

export interface Messages {
  /** The catalog's locale (the pseudo-locale reports its own tag). */
  readonly locale: Locale | typeof PSEUDO_LOCALE;
  /** The locale whose data (topic names) goes with these messages. */
  readonly dataLocale: Locale;
  /**
   * A catalog message with its values.
   * @example messages('en').t('paper.heading', { query: 'gan' }) // 'Papers for “gan”'
   */
  t(key: MessageKey, values?: MessageValues): string;
  /** A {@link Message} in words. */
  text(message: Message): string;
  /** A number with the language's grouping. */
  number(n: number): string;
  /** A day as people read it in `timeZone`: "Sunday, 29 November 2026", "2026年11月29日星期日". */
  date(date: Date, timeZone: string): string;
  /** Items joined as the language lists them: "a, b and c", "a、b和c". */
  list(items: readonly string[], type?: 'conjunction' | 'disjunction'): string;
  /** The entry of a {@link Localized} for this language. */
  pick(value: Localized): string;
}

const CATALOGS: Readonly<Record<Locale, Catalog>> = { en, 'zh-CN': zhCN };
/** The Intl locale each catalog formats with (English dates as in en-GB: day month year). */
const INTL: Readonly<Record<Locale, string>> = { en: 'en-GB', 'zh-CN': 'zh-CN' };

const cache = new Map<string, Messages>();

/**
 * The messages for a locale tag as a platform reports it (resolved with {@link resolveLocale}).
 * @example messages('zh-TW').t('paper.similar') // '相似论文'
 */
export function messages(tag?: string | null): Messages {
  const key = tag === PSEUDO_LOCALE ? PSEUDO_LOCALE : resolveLocale(tag);
  let found = cache.get(key);
  if (!found) {
    found = key === PSEUDO_LOCALE ? create(DEFAULT_LOCALE, true) : create(key as Locale, false);
    cache.set(key, found);
  }
  return found;
}

/**
 * A message in words in one language, for logs and errors (`translate('en', …)`).
 * @example translate('en', msg('search.partial')) // 'No paper matches every word; these match the most.'
 */
export function translate(tag: string | undefined, message: Message): string {
  return messages(tag).text(message);
}

/** Whether a string is a key of the catalog. */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

function create(locale: Locale, pseudo: boolean): Messages {
  const catalog = CATALOGS[locale];
  const intl = INTL[locale];
  const mark = pseudo ? (s: string) => `${PSEUDO_OPEN}${s}${PSEUDO_CLOSE}` : (s: string) => s;
  const compiled = new Map<MessageKey, IntlMessageFormat>();
  const fixed = new Map<MessageKey, string>();
  const numberFormat = new Intl.NumberFormat(intl);
  const lists = new Map<string, Intl.ListFormat>();
  // By time zone: a digest run formats the dates of thousands of subscriptions in a few zones.
  const dates = new Map<string, Intl.DateTimeFormat>();
  const self: Messages = {
    locale: pseudo ? PSEUDO_LOCALE : locale,
    dataLocale: locale,
    t(key, values) {
      if (values === undefined) {
        // Labels and headings without arguments: formatted once.
        const done = fixed.get(key);
        if (done !== undefined) return done;
      }
      let format = compiled.get(key);
      if (!format) {
        format = new IntlMessageFormat(catalog[key], intl, undefined, { ignoreTag: true });
        compiled.set(key, format);
      }
      const text = mark(String(format.format(values === undefined ? undefined : plainValues(self, values))));
      if (values === undefined) fixed.set(key, text);
      return text;
    },
    text: (message) => self.t(message.key, message.values),
    number: (n) => numberFormat.format(n),
    date(date, timeZone) {
      let format = dates.get(timeZone);
      if (!format) {
        format = new Intl.DateTimeFormat(intl, { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
        dates.set(timeZone, format);
      }
      return mark(format.format(date));
    },
    list(items, type = 'conjunction') {
      let format = lists.get(type);
      if (!format) {
        format = new Intl.ListFormat(intl, { type, style: 'long' });
        lists.set(type, format);
      }
      // A list's connectives ("and", "、") are the language's words too.
      return items.length > 1 ? mark(format.format(items)) : (items[0] ?? '');
    },
    pick: (value) => value[locale] ?? value.en,
  };
  return self;
}

function plainValues(m: Messages, values: MessageValues): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string' || typeof value === 'number') out[name] = value;
    else if (Array.isArray(value)) out[name] = m.list((value as readonly Message[]).map((v) => m.text(v)));
    else if ('items' in value && Array.isArray(value.items)) {
      const list = value as MessageList;
      const items = list.items.map((v) => m.text(v));
      if (list.type === 'sentences') out[name] = items.join(m.t('text.sentenceGap'));
      else if (list.type === 'unit') out[name] = items.join(m.t('text.listSeparator'));
      else out[name] = m.list(items, list.type);
    } else out[name] = m.pick(value as Localized);
  }
  return out;
}
