/**
 * The site's pages, as pure functions of what they show: the home page (search box, the
 * library's size, the topic areas with their counts), a page of results, related work for a
 * pasted text, a paper, a paper's references or citing papers in the library, a topic's papers,
 * and a page that only says something (not found, too many requests).
 */
import type { CitationDirection } from '../../src/papers/citationLists.js';
import type { PaperCard } from '../../src/reply.js';
import type { Taxonomy } from '../../src/topics/taxonomy.js';
import { authorsHtml, cardHtml, linksHtml, metaHtml, topicsHtml } from './cards.js';
import { html, type Html } from './html.js';
import { RELATED_PATH, SITE_NAME, page, pager, searchForm, withLang, type PageContext } from './layout.js';
import { MAX_QUERY_BYTES } from './request.js';

/** Results on one page of the site. */
export const SITE_PAGE_SIZE = 20;

/** A page of results, as the site shows it. */
export interface ResultsView {
  query: string;
  /** Whether the query was cut to {@link MAX_QUERY_BYTES}. */
  cut: boolean;
  total: number;
  /** Hits that can be paged through (the engine's best, at most 200). */
  shown: number;
  /** How the query was read, what was not understood: in the reader's language. */
  notes: string[];
  cards: PaperCard[];
  page: number;
  pages: number;
}

export function homePage(ctx: PageContext, taxonomy: Taxonomy, counts: ReadonlyMap<string, number>): Html {
  const { m } = ctx;
  const areas = taxonomy.areas.map((area) => {
    const items = area.topics.map(
      (t) => html`<li><a href="${withLang(ctx, ctx.links.topic(t.id))}">${t.names[ctx.m.dataLocale] ?? t.name}</a> <span class="n">${m.number(counts.get(t.id) ?? 0)}</span></li>`,
    );
    return html`<section><h3>${taxonomy.areaName(area, m.dataLocale)}</h3><ul>${items}</ul></section>`;
  });
  const body = html`<div class="hero">
<h1>${m.t('web.heading')}</h1>
<p>${m.t('web.tagline', { count: ctx.size })}</p>
${searchForm(ctx, '', { autofocus: true })}
</div>
<h2 class="vh">${m.t('web.topicsHeading')}</h2>
<div class="areas">${areas}</div>`;
  return page(ctx, { title: `${m.t('web.heading')} · ${SITE_NAME}`, body, home: true });
}

export function resultsPage(ctx: PageContext, view: ResultsView, topicIds: ReadonlyMap<string, string>): Html {
  const { m } = ctx;
  const heading = m.t('paper.heading', { query: shortened(view.query) });
  const notes = [...(view.cut ? [m.t('web.queryCut', { max: MAX_QUERY_BYTES })] : []), ...view.notes];
  const body =
    view.cards.length === 0
      ? html`<div class="results-head"><h1>${heading}</h1>${notes.map((n) => html`<p class="note">${n}</p>`)}<p>${m.t('web.noResults', { query: shortened(view.query) })}</p></div>`
      : html`<div class="results-head">
<h1>${heading}</h1>
<p class="note">${m.t('web.count', { total: view.total, page: view.page, pages: view.pages })}</p>
${view.total > view.shown ? html`<p class="note">${m.t('web.capped', { shown: view.shown })}</p>` : ''}
${notes.map((n) => html`<p class="note">${n}</p>`)}
</div>
<nav class="filters" aria-label="${m.t('web.narrow')}">${sortLinks(ctx, view.query)}</nav>
${resultList(ctx, view.cards, view.page, topicIds)}
${pager(ctx, view.page, view.pages, (n) => ctx.links.search(view.query, n))}`;
  return page(ctx, { title: `${heading} · ${SITE_NAME}`, body, query: view.query });
}

/** Cards as a numbered list of results, page `page` of {@link SITE_PAGE_SIZE} (search, related work, citations, a topic). */
function resultList(ctx: PageContext, cards: readonly PaperCard[], page: number, topicIds: ReadonlyMap<string, string>): Html {
  return html`<ol class="results" start="${(page - 1) * SITE_PAGE_SIZE + 1}">${cards.map((c) => html`<li>${cardHtml(ctx, c, topicIds)}</li>`)}</ol>`;
}

/** Related work for a pasted text, as the site shows it. */
export interface RelatedView {
  /** The text as read (at most its first 10,000 characters), kept in the box; '' before any. */
  text: string;
  /** The text was sent with no word to read: the page says what to paste. */
  hint: boolean;
  /** How the text was read (only its beginning, Chinese through the glossary): in the reader's language. */
  notes: string[];
  cards: PaperCard[];
}

/**
 * Related work: a box to paste an abstract or a paragraph into (a plain POST form, no script),
 * and under it the papers closest to the text, closest first, each with its closest sentence.
 */
export function relatedPage(ctx: PageContext, view: RelatedView, topicIds: ReadonlyMap<string, string>): Html {
  const { m } = ctx;
  const asked = view.text !== '' && !view.hint;
  const results =
    view.cards.length > 0
      ? html`<p class="note">${m.t('web.relatedCount', { shown: view.cards.length })}</p>
${resultList(ctx, view.cards, 1, topicIds)}`
      : asked
        ? html`<p>${m.t('web.relatedNone')}</p>`
        : '';
  const body = html`<div class="results-head">
<h1>${m.t('web.relatedTitle')}</h1>
<p class="note">${m.t('web.relatedIntro')}</p>
</div>
<form class="related" action="${withLang(ctx, RELATED_PATH)}" method="post">
<label for="text">${m.t('web.relatedLabel')}</label>
<textarea id="text" name="text" rows="10" placeholder="${m.t('web.relatedPlaceholder')}">${view.text}</textarea>
<button type="submit">${m.t('web.relatedButton')}</button>
</form>
${view.hint ? html`<p class="note hint" role="alert">${m.t('web.relatedHint')}</p>` : ''}
${view.notes.map((n) => html`<p class="note">${n}</p>`)}
${results}`;
  return page(ctx, { title: `${m.t('web.relatedTitle')} · ${SITE_NAME}`, body, relatedLink: false });
}

/** The orders a result page offers, each a link but the one shown, as `sort:` words. */
const SORTS = [
  { order: 'relevance', label: 'web.sortBest', word: '' },
  { order: 'new', label: 'web.sortNew', word: 'sort:new' },
  { order: 'cited', label: 'web.sortCited', word: 'sort:cited' },
] as const;

/** Which of {@link SORTS} a query asks for, read as the search box reads `sort:`. */
function sortOf(query: string): (typeof SORTS)[number]['order'] {
  if (/(^|\s)sort:(new|newest|recent|date|year)(?=\s|$)/i.test(query)) return 'new';
  if (/(^|\s)sort:(cited|citations|citation|cites|citedby)(?=\s|$)/i.test(query)) return 'cited';
  return 'relevance';
}

function sortLinks(ctx: PageContext, query: string): Html[] {
  const current = sortOf(query);
  const base = query.replace(/(^|\s)sort:\S+/gi, ' ').trim();
  return SORTS.map(({ order, label, word }) =>
    order === current
      ? html`<span aria-current="true">${ctx.m.t(label)}</span>`
      : html`<a href="${withLang(ctx, ctx.links.search(word ? `${base} ${word}` : base))}">${ctx.m.t(label)}</a>`,
  );
}

/** A paper in a list on a paper's page: its id, title, and venue and year (and a count). */
export interface RelatedPaper {
  id: string;
  title: string;
  detail: string;
}

/** The first of a paper's references or citing papers in the library, and how many there are. */
export interface CitedList {
  direction: CitationDirection;
  total: number;
  papers: readonly RelatedPaper[];
}

/**
 * A paper's page: the card in full, its abstract and links, its references and citing papers in
 * the library (the first few, and a link to all of them; nothing where there are none), similar
 * papers and a BibTeX entry.
 */
export function paperPage(ctx: PageContext, card: PaperCard, lists: { cited: readonly CitedList[]; similar: readonly RelatedPaper[] }, bibtex: string, topicIds: ReadonlyMap<string, string>): Html {
  const { m } = ctx;
  const title = card.title.trim() || m.t('paper.untitled');
  const cited = lists.cited.filter((l) => l.papers.length > 0).map((l) => {
    const heading = m.t(l.direction === 'references' ? 'paper.references' : 'paper.citedByList', { total: l.total });
    const all = l.total > l.papers.length ? html`<p class="more"><a href="${withLang(ctx, ctx.links.citations(card.id, l.direction))}">${m.t(l.direction === 'references' ? 'web.allReferences' : 'web.allCitedBy', { total: l.total })}</a></p>` : '';
    return html`<h2>${heading}</h2>${relatedHtml(ctx, l.papers)}${all}`;
  });
  const body = html`<article class="paper">
<h1>${title}</h1>
${authorsHtml(ctx, card.authors, Infinity)}
${metaHtml(ctx, card)}
${topicsHtml(ctx, card.topics, topicIds)}
${card.abstract ? html`<h2>${m.t('web.abstract')}</h2><p class="abstract">${card.abstract}</p>` : ''}
${card.links.length > 0 ? html`<h2>${m.t('web.links')}</h2>${linksHtml(card)}` : ''}
${cited}
${lists.similar.length > 0 ? html`<h2>${m.t('paper.similar')}</h2>${relatedHtml(ctx, lists.similar)}` : ''}
<h2>${m.t('web.cite')}</h2>
<p class="note">${m.t('web.citeHint')}</p>
<pre class="bibtex">${bibtex}</pre>
</article>`;
  return page(ctx, { title: `${shortened(title)} · ${SITE_NAME}`, body });
}

/** Papers as a list of links to their pages, each with its venue and year. */
function relatedHtml(ctx: PageContext, papers: readonly RelatedPaper[]): Html {
  const items = papers.map((p) => html`<li><a href="${withLang(ctx, ctx.links.paper(p.id))}">${p.title.trim() || ctx.m.t('paper.untitled')}</a>${p.detail ? html` <span class="meta">${p.detail}</span>` : ''}</li>`);
  return html`<ul class="similar">${items}</ul>`;
}

/** A page of a paper's references, or of the papers citing it, in the library. */
export interface CitationsView {
  paper: { id: string; title: string };
  direction: CitationDirection;
  total: number;
  cards: PaperCard[];
  page: number;
  pages: number;
}

/** A paper's references or citing papers in the library, most cited first, {@link SITE_PAGE_SIZE} to a page. */
export function citationsPage(ctx: PageContext, view: CitationsView, topicIds: ReadonlyMap<string, string>): Html {
  const { m } = ctx;
  const references = view.direction === 'references';
  const heading = m.t(references ? 'web.references' : 'web.citedBy');
  const title = view.paper.title.trim() || m.t('paper.untitled');
  const back = html`<p class="note"><a href="${withLang(ctx, ctx.links.paper(view.paper.id))}">${m.t('web.backToPaper', { title: shortened(title, 200) })}</a></p>`;
  const body =
    view.cards.length === 0
      ? html`<div class="results-head"><h1>${heading}</h1>${back}<p>${m.t(references ? 'web.noReferences' : 'web.noCitedBy')}</p></div>`
      : html`<div class="results-head">
<h1>${heading}</h1>
${back}
<p class="note">${m.t('web.mostCited')} · ${m.t('web.count', { total: view.total, page: view.page, pages: view.pages })}</p>
</div>
${resultList(ctx, view.cards, view.page, topicIds)}
${pager(ctx, view.page, view.pages, (n) => ctx.links.citations(view.paper.id, view.direction, n))}`;
  return page(ctx, { title: `${heading} · ${shortened(title)} · ${SITE_NAME}`, body });
}

/** A topic's papers, newest first. */
export function topicPage(ctx: PageContext, label: string, view: ResultsView, topicIds: ReadonlyMap<string, string>, path: (page: number) => string): Html {
  const { m } = ctx;
  const body = html`<div class="results-head">
<h1>${label}</h1>
<p class="note">${m.t('web.newest')} · ${m.t('web.count', { total: view.total, page: view.page, pages: view.pages })}</p>
${view.total > view.shown ? html`<p class="note">${m.t('web.capped', { shown: view.shown })}</p>` : ''}
</div>
${resultList(ctx, view.cards, view.page, topicIds)}
${pager(ctx, view.page, view.pages, path)}`;
  return page(ctx, { title: `${label} · ${SITE_NAME}`, body });
}

/** A page that says one thing (not found, too many requests, a failure). */
export function messagePage(ctx: PageContext, title: string, text: string): Html {
  return page(ctx, { title: `${title} · ${SITE_NAME}`, body: html`<div class="results-head"><h1>${title}</h1><p>${text}</p></div>` });
}

function shortened(text: string, max = 80): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
