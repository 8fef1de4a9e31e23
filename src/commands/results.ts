/**
 * Result pages and paper detail views, shared by /paper and /topic. A search (or related work
 * for a pasted text) is saved as interaction state (a {@link SearchState}) so that its
 * Prev/Next buttons redo it (fast) after any restart. Pages are written in the language of the person who asked; a message that others
 * page through stays in the language it was written in.
 */
import { UserError } from '../errors.js';
import { messages as messagesFor, type Messages } from '../i18n/index.js';
import { citedBy, paperLinks } from '../papers/cards.js';
import { CITATION_DIRECTIONS, type CitationDirection, type CitationListPage } from '../papers/citationLists.js';
import type { Paper } from '../papers/model.js';
import { action, type Block, type Button, type ListItem, type PaperCard, type Reply } from '../reply.js';
import { MAX_RESULTS, type SearchResult } from '../search/engine.js';
import { loadSearch, saveSearch, type SearchState } from '../search/state.js';
import type { SiteLinks } from '../site/links.js';
import { listButtons, saveButton } from './lists.js';
import type { CommandContext } from './types.js';
import type { LookupOutcome } from '../sources/lookup.js';
import { collapseWhitespace, shorten } from '../text.js';

/** Papers on one page of results. */
export const PAGE_SIZE = 5;
/** Similar papers shown in a detail view. */
export const SIMILAR_COUNT = 5;
/** References in the library, and papers citing it, shown in a detail view (each list). */
export const CITATION_COUNT = 5;
/** Related papers found for a pasted text: ten pages (the closest come first; the tail drifts). */
export const RELATED_RESULTS = 50;

/**
 * Runs the search, saves it for the buttons, and renders its first page (without Prev/Next,
 * saying so, when the library is too busy to save it).
 * @example await startSearch(ctx, { query: 'diffusion transformers' })
 */
export async function startSearch(ctx: CommandContext, state: SearchState): Promise<Reply> {
  const result = await find(ctx, state);
  if (result.hits.length === 0) return noResults(ctx.i18n, state, result);
  const saved: SearchState = { ...state, locale: ctx.i18n.locale };
  // The state and the page's papers are read and written at once (two round trips where the store is remote, in parallel).
  const [stateId, page] = await Promise.all([saveSearch(ctx.states, saved, ctx.now()), pageCards(ctx, ctx.i18n, result, 0)]);
  return renderPage(ctx.i18n, saved, stateId, result, page, ctx.library.site);
}

/**
 * Page `page` (0-based) of a saved search, for the Prev/Next buttons: in the language the
 * message was written in, or with `inClickersLanguage` in the clicker's (a private copy).
 */
export async function showPage(ctx: CommandContext, stateId: string, page: number, options: { inClickersLanguage?: boolean } = {}): Promise<Reply> {
  const state = await loadSearch(ctx.states, stateId, ctx.now());
  if (!state) throw new UserError('paper.expired');
  const m = options.inClickersLanguage || !state.locale ? ctx.i18n : messagesFor(state.locale);
  const result = await find(ctx, state);
  if (result.hits.length === 0) return { locale: m.locale, ...noResults(m, state, result) };
  return { locale: m.locale, ...renderPage(m, state, stateId, result, await pageCards(ctx, m, result, page), ctx.library.site) };
}

/** The search a state holds, run: related work for its pasted text, else its query. */
function find(ctx: CommandContext, state: SearchState): Promise<SearchResult> {
  return state.like === undefined ? ctx.library.search(state.query, { limit: MAX_RESULTS }) : ctx.library.related(state.like, { limit: RELATED_RESULTS });
}

/**
 * One paper in full: abstract, every link, the papers it references and those citing it that
 * the library holds (most cited first, each with its count, and a link to all of them on the
 * search site), similar papers, and a way back to the results it was opened from (in the
 * language of those results). A list with nothing in it is not shown at all.
 */
export async function showPaper(ctx: CommandContext, doc: number, back?: { stateId: string; page: number }): Promise<Reply> {
  const [paper, from] = await Promise.all([ctx.library.paperByDoc(doc), back && loadSearch(ctx.states, back.stateId, ctx.now())]);
  if (!paper) throw new UserError('paper.gone');
  const m = from && from.locale ? messagesFor(from.locale) : ctx.i18n;
  const card = ctx.library.card(paper, doc, { detail: true, messages: m });
  const [similar, cited] = await Promise.all([ctx.library.similar(paper, SIMILAR_COUNT), ctx.library.citations(doc, { offset: 0, limit: CITATION_COUNT })]);
  const citations = CITATION_DIRECTIONS.flatMap((direction): Block[] => {
    const list = cited[direction];
    return list && list.papers.length > 0 ? [citationList(ctx, m, paper.id, direction, list)] : [];
  });
  const lists = [...citations, ...(similar.length > 0 ? [{ kind: 'list' as const, heading: m.t('paper.similar'), items: similar.map((s) => openItem(ctx, s.doc, s.paper)) }] : [])];
  // Every paper listed, once, in the menu that opens them (the lists' order, so `/open N` reads top to bottom).
  const listed = new Map([...cited.references?.papers ?? [], ...cited.citedBy?.papers ?? [], ...similar].map((s) => [action('paper', 'open', s.doc), s.paper]));
  const buttons: Button[] = listButtons(ctx, m, doc);
  if (back) buttons.unshift({ id: 'back', label: m.t('paper.back'), action: action('paper', 'page', back.stateId, back.page) });
  return {
    locale: m.locale,
    fallback: `${paper.title} (${[paper.venue, paper.year].filter(Boolean).join(' ')})`,
    blocks: [{ kind: 'paper', paper: card }, ...lists],
    ...(buttons.length > 0 && { buttons: [buttons] }),
    ...(listed.size > 0 && {
      menu: {
        placeholder: m.t(citations.length === 0 ? 'paper.openSimilarMenu' : 'paper.openMenu'),
        choices: [...listed].map(([handle, p]) => ({
          label: shorten(p.title, 100),
          action: handle,
          description: shorten([p.authors[0], p.venue, p.year].filter(Boolean).join(' · '), 100),
        })),
      },
    }),
    shareable: true,
  };
}

/**
 * A paper in a list of an opened paper: its title, leading where a card's title does (its page
 * on the search site, else its landing page), venue and year (and `more`), and a handle that opens it.
 */
function openItem(ctx: CommandContext, doc: number, paper: Paper, more = ''): ListItem {
  const detail = [[paper.venue, paper.year].filter(Boolean).join(' '), more].filter(Boolean).join(' · ');
  const url = ctx.library.site ? ctx.library.site.paper(paper.id) : paperLinks(paper)[0]?.url;
  return { text: paper.title, ...(detail && { detail }), action: action('paper', 'open', doc), ...(url && { url }) };
}

/** "References in the library (12)" or "Cited by, in the library (40)": the first papers with their counts, and the way to all of them on the site when there are more. */
function citationList(ctx: CommandContext, m: Messages, id: string, direction: CitationDirection, list: CitationListPage): Block {
  const items = list.papers.map((p) => openItem(ctx, p.doc, p.paper, citedBy(p.count, m, 'compact').text));
  const all = direction === 'references' ? 'paper.allReferences' : 'paper.allCitedBy';
  const site = ctx.library.site;
  if (site && list.total > list.papers.length) items.push({ text: m.t(all, { total: list.total }), url: site.citations(id, direction) });
  return { kind: 'list', heading: m.t(direction === 'references' ? 'paper.references' : 'paper.citedByList', { total: list.total }), items };
}

/**
 * A paper the library lacked, as the lookup ended: shown like any other, with a note that it was
 * just added; or a private line saying why it could not be.
 * @example await showLookedUp(ctx, await ctx.lookup.find({ kind: 'arxiv', id: '1706.03762' }))
 */
export async function showLookedUp(ctx: CommandContext, outcome: LookupOutcome): Promise<Reply> {
  const m = ctx.i18n;
  if (outcome.kind !== 'found') {
    const text = m.text(outcome.message);
    return { locale: m.locale, fallback: text, blocks: [{ kind: 'text', text }], ephemeral: true };
  }
  const reply = await showPaper(ctx, outcome.doc);
  if (!outcome.added) return reply;
  return { ...reply, blocks: [{ kind: 'note', text: m.t('lookup.fetched', { source: outcome.source }) }, ...reply.blocks] };
}

/** Page `requested` (kept within the pages there are) and its cards. */
async function pageCards(ctx: CommandContext, m: Messages, result: SearchResult, requested: number): Promise<{ page: number; pages: number; cards: PaperCard[] }> {
  const pages = Math.max(1, Math.ceil(result.hits.length / PAGE_SIZE));
  const page = Math.min(Math.max(0, requested), pages - 1);
  return { page, pages, cards: await ctx.library.cards(result, page * PAGE_SIZE, PAGE_SIZE, m) };
}

function renderPage(
  m: Messages,
  state: SearchState,
  stateId: string | undefined,
  result: SearchResult,
  { page, pages, cards }: { page: number; pages: number; cards: PaperCard[] },
  site: SiteLinks | undefined,
): Reply {
  const heading = headingOf(m, state);
  const blocks: Block[] = [
    { kind: 'heading', text: heading },
    { kind: 'note', text: [countLine(m, result, page, pages), ...result.notes.map((n) => m.text(n))].join(' · ') },
    // Each card's Save puts the paper on the presser's own list (library.ts).
    ...cards.map((paper): Block => ({ kind: 'paper', paper: { ...paper, actions: [saveButton(m, paper.doc)] } })),
  ];
  if (stateId === undefined && pages > 1) blocks.push({ kind: 'note', text: m.t('paper.pagingUnavailable') });
  const nav: Button[] | undefined = stateId === undefined ? undefined : [
    { id: 'prev', label: m.t('paper.prev'), action: action('paper', 'page', stateId, page - 1), disabled: page === 0 },
    { id: 'next', label: m.t('paper.next'), action: action('paper', 'page', stateId, page + 1), disabled: page >= pages - 1 },
  ];
  // Every result, on the search site (PUBLIC_URL), for a colleague outside the conversation too;
  // related work (which the site does not search) offers a box for another text instead, where
  // the platform has one.
  const all: Button | undefined =
    state.like !== undefined
      ? { id: 'another', label: m.t('paper.form.button'), form: 'paper' }
      : site && { id: 'all', label: m.t('paper.allResults', { total: result.total }), url: site.search(state.query) };
  const row = [...(nav ?? []), ...(all ? [all] : [])];
  return {
    fallback: cardsFallback(heading, cards),
    blocks,
    ...(row.length > 0 && { buttons: [row] }),
    menu: openMenu(m, cards, stateId === undefined ? undefined : { stateId, page }),
    shareable: true,
    ...(stateId !== undefined && { redo: action('paper', 'page', stateId, page) }),
  };
}

/** A page of cards as plain text, for notifications and clients without blocks. */
export function cardsFallback(heading: string, cards: readonly PaperCard[]): string {
  return `${heading}: ${cards.map((c) => `${c.position}. ${c.title}`).join('; ')}`;
}

/**
 * The menu that opens one of a page's cards ("3. Title", with first author, venue and year);
 * with `back`, the opened paper leads back to that page of a saved search.
 */
export function openMenu(m: Messages, cards: readonly PaperCard[], back?: { stateId: string; page: number }): NonNullable<Reply['menu']> {
  return {
    placeholder: m.t('paper.openMenu'),
    choices: cards.map((c) => ({
      label: m.t('paper.menuItem', { position: c.position ?? 0, title: shorten(c.title, 90) }),
      action: back ? action('paper', 'open', c.doc, back.stateId, back.page) : action('paper', 'open', c.doc),
      description: shorten([c.authors[0], c.venue, c.year].filter(Boolean).join(' · '), 90),
      ...(c.position !== undefined && { position: c.position }),
    })),
  };
}

function headingOf(m: Messages, state: SearchState): string {
  if (state.like !== undefined) return m.t('paper.relatedHeading', { text: echo(state.like) });
  if (state.heading === undefined) return m.t('paper.heading', { query: shorten(state.query, 80) });
  return typeof state.heading === 'string' ? state.heading : m.pick(state.heading);
}

function noResults(m: Messages, state: SearchState, result: SearchResult): Reply {
  const gap = m.t('text.sentenceGap');
  const notes = result.notes.map((n) => `${gap}${m.text(n)}`).join('');
  const text =
    state.like !== undefined
      ? m.t('paper.noRelated', { text: echo(state.like), notes })
      : state.heading === undefined
        ? m.t('paper.noResults', { query: shorten(state.query, 80), notes })
        : m.t('paper.noResultsTopic', { topic: headingOf(m, state), notes });
  return { fallback: text, blocks: [{ kind: 'text', text }], ephemeral: true };
}

/** The start of a pasted text, on one line, to say what the results are for (renderers escape it, as every text). */
function echo(text: string): string {
  return shorten(collapseWhitespace(text), 80);
}

function countLine(m: Messages, result: SearchResult, page: number, pages: number): string {
  const shown = result.hits.length;
  const at = { page: page + 1, pages };
  return result.total > shown ? m.t('paper.countOfTotal', { shown, total: result.total, ...at }) : m.t('paper.count', { shown, ...at });
}

