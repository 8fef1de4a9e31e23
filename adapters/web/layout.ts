/**
 * The frame every page shares: the document head (stylesheet, script, icon, OpenSearch link),
 * a skip link, the header with the language switch, the search form, paging, and the footer.
 * Everything goes through `html`, so no text from a paper or a query is ever markup.
 */
import type { Locale, Messages } from '../../src/i18n/index.js';
import type { SiteLinks } from '../../src/site/links.js';
import { ASSETS } from './assets.js';
import { html, type Html, type HtmlValue } from './html.js';
import { SITE_LOCALES } from './request.js';

/** The product's name, the same in every language. */
export const SITE_NAME = 'Paper Scout';

/** Where related work for a pasted text is found. */
export const RELATED_PATH = '/related';

/** Where the OpenSearch description is served. */
export const OPENSEARCH_PATH = '/opensearch.xml';

/** What every page knows of the request it answers. */
export interface PageContext {
  m: Messages;
  locale: Locale;
  /** Whether the reader chose the language with `?lang=` (then every link keeps it). */
  chosen: boolean;
  /** Links relative to the site. */
  links: SiteLinks;
  /** The path and query of this page, for the language switch. */
  url: URL;
  /** Papers in the library. */
  size: number;
}

/**
 * A site address with the reader's chosen language kept on it.
 * @example withLang(ctx, '/search?q=gan') // '/search?q=gan&lang=zh-CN' when the reader chose zh-CN
 */
export function withLang(ctx: Pick<PageContext, 'chosen' | 'locale'>, path: string): string {
  if (!ctx.chosen) return path;
  return `${path}${path.includes('?') ? '&' : '?'}lang=${encodeURIComponent(ctx.locale)}`;
}

/** The whole document (`relatedLink: false` on the related-work page: no link to itself under the box). */
export function page(ctx: PageContext, options: { title: string; body: HtmlValue; home?: boolean; query?: string; relatedLink?: boolean }): Html {
  const { m } = ctx;
  return html`<!doctype html>
<html lang="${ctx.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${options.title}</title>
<link rel="stylesheet" href="${ASSETS.css.path}">
<link rel="icon" href="${ASSETS.icon.path}" type="image/svg+xml">
<link rel="search" type="application/opensearchdescription+xml" title="${SITE_NAME}" href="${withLang(ctx, OPENSEARCH_PATH)}">
<script src="${ASSETS.js.path}" defer></script>
</head>
<body>
<a class="skip" href="#main">${m.t('web.skip')}</a>
<header class="top">
${options.home ? html`<span class="brand">${SITE_NAME}</span>` : html`<a class="brand" href="${withLang(ctx, '/')}">${SITE_NAME}</a>`}
${languageSwitch(ctx)}
</header>
<main id="main">
${options.home ? '' : searchForm(ctx, options.query ?? '', { relatedLink: options.relatedLink ?? true })}
${options.body}
</main>
<footer class="bottom"><p>${SITE_NAME} · ${m.t('web.papers', { count: ctx.size })}</p></footer>
</body>
</html>
`;
}

/** The search box: a plain GET form, so it works without the script; under it the syntax, and a link to related work. */
export function searchForm(ctx: PageContext, query: string, options: { autofocus?: boolean; relatedLink?: boolean } = {}): Html {
  const { m } = ctx;
  return html`<form class="search" action="/search" method="get" role="search">
<label class="vh" for="q">${m.t('web.searchLabel')}</label>
<input id="q" name="q" type="search" value="${query}" placeholder="${m.t('web.searchPlaceholder')}" list="suggestions" autocomplete="off" enterkeyhint="search"${options.autofocus ? html` autofocus` : ''}>
${ctx.chosen ? html`<input type="hidden" name="lang" value="${ctx.locale}">` : ''}
<button type="submit">${m.t('web.searchButton')}</button>
<datalist id="suggestions"></datalist>
</form>
<p class="syntax">${m.t('web.syntax')}</p>
${options.relatedLink === false ? '' : html`<p class="syntax"><a href="${withLang(ctx, RELATED_PATH)}">${m.t('web.relatedLink')}</a></p>`}`;
}

/** Links to this page in the other languages (the current one as plain text). */
function languageSwitch(ctx: PageContext): Html {
  const names: Record<Locale, string> = { en: 'English', 'zh-CN': '中文' };
  const items = SITE_LOCALES.map((locale) => {
    if (locale === ctx.locale) return html`<span aria-current="true">${names[locale]}</span>`;
    const url = new URL(ctx.url.href);
    url.searchParams.set('lang', locale);
    return html`<a href="${`${url.pathname}${url.search}`}" lang="${locale}" hreflang="${locale}">${names[locale]}</a>`;
  });
  return html`<nav class="lang" aria-label="${ctx.m.t('web.language')}">${items}</nav>`;
}

/** Previous / next links and where the reader is, for `pages` pages of results at `href(page)`. */
export function pager(ctx: PageContext, current: number, pages: number, href: (page: number) => string): Html {
  if (pages <= 1) return html``;
  const { m } = ctx;
  return html`<nav class="pages" aria-label="${m.t('web.pages')}">
${current > 1 ? html`<a rel="prev" href="${withLang(ctx, href(current - 1))}">${m.t('web.prev')}</a>` : ''}
<span>${m.t('web.pageOf', { page: current, pages })}</span>
${current < pages ? html`<a rel="next" href="${withLang(ctx, href(current + 1))}">${m.t('web.next')}</a>` : ''}
</nav>`;
}
