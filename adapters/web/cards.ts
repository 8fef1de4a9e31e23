/**
 * A paper card as HTML: the title linking to the paper's page, authors, venue, year and status
 * (each a link that searches with its filter: `author:`, `venue:`, `year:`), topic labels linking
 * to their topics, the snippet with the query's words marked, and the paper's links. The same
 * neutral {@link PaperCard} the chat adapters render.
 */
import type { PaperCard, TextSegment } from '../../src/reply.js';
import type { Taxonomy } from '../../src/topics/taxonomy.js';
import { html, join, safeHref, type Html } from './html.js';
import { withLang, type PageContext } from './layout.js';

/** Authors a result card names before "et al." (a paper's page names them all). */
export const CARD_AUTHORS = 8;

/**
 * A search filter for a value: `author:"Ada Lovelace"`, `year:2024` (quotes dropped from the
 * value, which the filter syntax cannot hold).
 * @example filter('venue', 'NeurIPS') // 'venue:NeurIPS'
 */
export function filter(name: 'author' | 'venue' | 'year', value: string | number): string {
  const text = String(value).replace(/"/g, '').trim();
  return /\s/.test(text) ? `${name}:"${text}"` : `${name}:${text}`;
}

/** Topic ids by their labels in each language, to link a card's labels to their topics. */
export function topicIdsByLabel(taxonomy: Taxonomy): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const topic of taxonomy.topics) {
    for (const locale of ['en', 'zh-CN'] as const) out.set(taxonomy.label(topic, locale), topic.id);
  }
  return out;
}

/** A result card (`detail` for a paper's own page: every author, no snippet). */
export function cardHtml(ctx: PageContext, card: PaperCard, topicIds: ReadonlyMap<string, string>, options: { heading?: 'h2' | 'h3' } = {}): Html {
  const title = card.title.trim() || ctx.m.t('paper.untitled');
  const href = withLang(ctx, ctx.links.paper(card.id));
  const link = html`<a href="${href}">${title}</a>`;
  return html`<article class="card">
${options.heading === 'h3' ? html`<h3>${link}</h3>` : html`<h2>${link}</h2>`}
${authorsHtml(ctx, card.authors, CARD_AUTHORS)}
${metaHtml(ctx, card)}
${topicsHtml(ctx, card.topics, topicIds)}
${card.snippet && card.snippet.length > 0 ? html`<p class="snippet">${segmentsHtml(card.snippet)}</p>` : ''}
${linksHtml(card)}
</article>`;
}

/** The authors, each a link to their papers; `max` of them and "et al." (all with Infinity). */
export function authorsHtml(ctx: PageContext, authors: readonly string[], max: number): Html {
  const names = authors.map((a) => a.trim()).filter(Boolean);
  if (names.length === 0) return html``;
  const shown = names.slice(0, max).map((name) => html`<a href="${withLang(ctx, ctx.links.search(filter('author', name)))}">${name}</a>`);
  const list = join(shown, ', ');
  return html`<p class="meta authors">${names.length > max ? etAl(ctx, list) : list}</p>`;
}

/** "A, B, C et al." in the reader's language, the names already markup. */
function etAl(ctx: PageContext, list: Html): Html {
  // The catalog's pattern with a marker for the names, so the markup is never passed as a value.
  const marker = '\u0000names\u0000';
  const [before = '', after = ''] = ctx.m.t('paper.authorsMore', { authors: marker }).split(marker);
  return html`${before}${list}${after}`;
}

/** Venue · year · status · citations, the venue and year linking to their filters. */
export function metaHtml(ctx: PageContext, card: Pick<PaperCard, 'venue' | 'year' | 'status' | 'citedBy'>): Html {
  const parts: Html[] = [];
  if (card.venue.trim()) parts.push(html`<a href="${withLang(ctx, ctx.links.search(filter('venue', card.venue)))}">${card.venue}</a>`);
  if (card.year !== null) parts.push(html`<a href="${withLang(ctx, ctx.links.search(filter('year', card.year)))}">${card.year}</a>`);
  if (card.status.trim()) parts.push(html`<span>${card.status}</span>`);
  if (card.citedBy) parts.push(html`<span class="cites">${card.citedBy.text}</span>`);
  return parts.length > 0 ? html`<p class="meta">${join(parts, ' · ')}</p>` : html``;
}

/** Topic labels as links to their topics. */
export function topicsHtml(ctx: PageContext, labels: readonly string[], topicIds: ReadonlyMap<string, string>): Html {
  if (labels.length === 0) return html``;
  const items = labels.map((label) => {
    const id = topicIds.get(label);
    return id ? html`<li><a href="${withLang(ctx, ctx.links.topic(id))}">${label}</a></li>` : html`<li>${label}</li>`;
  });
  return html`<ul class="topics">${items}</ul>`;
}

/** The paper's links (landing page, PDF, code, …), http(s) only, opened without a referrer. */
export function linksHtml(card: Pick<PaperCard, 'links'>): Html {
  const items = card.links.flatMap((l) => {
    const href = safeHref(l.url);
    return href ? [html`<li><a href="${href}" rel="noopener noreferrer nofollow">${l.label}</a></li>`] : [];
  });
  return items.length > 0 ? html`<ul class="links">${items}</ul>` : html``;
}

/** A snippet, the query's words in <mark>. */
export function segmentsHtml(segments: readonly TextSegment[]): Html {
  return html`${segments.map((s) => (s.match ? html`<mark>${s.text}</mark>` : s.text))}`;
}
