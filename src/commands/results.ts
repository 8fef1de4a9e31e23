/**
 * Result pages and paper detail views, shared by /paper and /topic. A search is saved as
 * interaction state so that its Prev/Next buttons redo it (fast) after any restart.
 */
import { UserError } from '../errors.js';
import { action, type Block, type Button, type PaperCard, type Reply } from '../reply.js';
import { MAX_RESULTS, type SearchResult } from '../search/engine.js';
import type { CommandContext } from './types.js';
import type { PaperRef } from '../papers/ids.js';
import type { PaperLookup } from '../sources/lookup.js';
import { shorten } from '../text.js';

export { shorten };

/** Papers on one page of results. */
export const PAGE_SIZE = 5;
/** Similar papers shown in a detail view. */
export const SIMILAR_COUNT = 5;

/** What a results message needs to show any of its pages again. */
export interface SearchState {
  query: string;
  /** Heading instead of "Papers for …" (topic pages). */
  heading?: string;
}

/**
 * Runs the search, saves it for the buttons, and renders its first page.
 * @example await startSearch(ctx, { query: 'diffusion transformers' })
 */
export function startSearch(ctx: CommandContext, state: SearchState): Reply {
  const result = ctx.library.search(state.query, { limit: MAX_RESULTS });
  if (result.hits.length === 0) return noResults(state, result);
  const stateId = ctx.states.put(state, ctx.now());
  return renderPage(ctx, state, stateId, result, 0);
}

/** Page `page` (0-based) of a saved search, for the Prev/Next buttons. */
export function showPage(ctx: CommandContext, stateId: string, page: number): Reply {
  const state = ctx.states.get<SearchState>(stateId, ctx.now());
  if (!state) throw new UserError('These results have expired. Run the search again to page through it.');
  const result = ctx.library.search(state.query, { limit: MAX_RESULTS });
  if (result.hits.length === 0) return noResults(state, result);
  return renderPage(ctx, state, stateId, result, page);
}

/**
 * One paper in full: abstract, every link, similar papers, and a way back to the results it
 * was opened from.
 */
export function showPaper(ctx: CommandContext, doc: number, back?: { stateId: string; page: number }): Reply {
  const paper = ctx.library.paperByDoc(doc);
  if (!paper) throw new UserError('That paper is no longer in the library. Search again to find it.');
  const card = ctx.library.card(paper, doc, { detail: true });
  const similar = ctx.library.similar(paper, SIMILAR_COUNT);
  const blocks: Block[] = [{ kind: 'paper', paper: card }];
  if (similar.length > 0) {
    blocks.push({
      kind: 'list',
      heading: 'Similar papers',
      items: similar.map((s) => ({
        text: s.paper.title,
        detail: [s.paper.venue, s.paper.year].filter(Boolean).join(' '),
        action: action('paper', 'open', s.doc),
        ...(s.paper.links.page && { url: s.paper.links.page }),
      })),
    });
  }
  const buttons: Button[] = [];
  if (back) buttons.push({ label: '◀ Back to results', action: action('paper', 'page', back.stateId, back.page) });
  return {
    fallback: `${paper.title} (${[paper.venue, paper.year].filter(Boolean).join(' ')})`,
    blocks,
    ...(buttons.length > 0 && { buttons: [buttons] }),
    ...(similar.length > 0 && {
      menu: {
        placeholder: 'Open a similar paper…',
        choices: similar.map((s) => ({
          label: shorten(s.paper.title, 100),
          action: action('paper', 'open', s.doc),
          description: shorten([s.paper.authors[0], s.paper.venue, s.paper.year].filter(Boolean).join(' · '), 100),
        })),
      },
    }),
    shareable: true,
  };
}

/**
 * A paper the library lacked, fetched by `lookup`: shown like any other, with a note that it was
 * just added; or a private line saying why it could not be.
 * @example await showLookedUp(ctx, ctx.lookup, { kind: 'arxiv', id: '1706.03762' })
 */
export async function showLookedUp(ctx: CommandContext, lookup: PaperLookup, ref: PaperRef): Promise<Reply> {
  const outcome = await lookup.find(ref);
  if (outcome.kind !== 'found') return { fallback: outcome.message, blocks: [{ kind: 'text', text: outcome.message }], ephemeral: true };
  const reply = showPaper(ctx, outcome.doc);
  if (!outcome.added) return reply;
  return { ...reply, blocks: [{ kind: 'note', text: `Not in the library yet: fetched from ${outcome.source} and added.` }, ...reply.blocks] };
}

function renderPage(ctx: CommandContext, state: SearchState, stateId: string, result: SearchResult, requested: number): Reply {
  const pages = Math.max(1, Math.ceil(result.hits.length / PAGE_SIZE));
  const page = Math.min(Math.max(0, requested), pages - 1);
  const cards = ctx.library.cards(result, page * PAGE_SIZE, PAGE_SIZE);
  const heading = state.heading ?? `Papers for “${shorten(state.query, 80)}”`;
  const blocks: Block[] = [
    { kind: 'heading', text: heading },
    { kind: 'note', text: [countLine(result, page, pages), ...result.notes].join(' · ') },
    ...cards.map((paper): Block => ({ kind: 'paper', paper })),
  ];
  const nav: Button[] = [
    { label: '◀ Prev', action: action('paper', 'page', stateId, page - 1), disabled: page === 0 },
    { label: 'Next ▶', action: action('paper', 'page', stateId, page + 1), disabled: page >= pages - 1 },
  ];
  return {
    fallback: `${heading}: ${cards.map((c) => `${c.position}. ${c.title}`).join('; ')}`,
    blocks,
    buttons: [nav],
    menu: {
      placeholder: 'Open a paper…',
      choices: cards.map((c) => ({
        label: `${c.position}. ${shorten(c.title, 90)}`,
        action: action('paper', 'open', c.doc, stateId, page),
        description: shorten([c.authors[0], c.venue, c.year].filter(Boolean).join(' · '), 90),
      })),
    },
    shareable: true,
  };
}

function noResults(state: SearchState, result: SearchResult): Reply {
  const what = state.heading ?? `“${shorten(state.query, 80)}”`;
  const notes = result.notes.length > 0 ? ` ${result.notes.join(' ')}` : '';
  const text = `No papers found for ${what}.${notes} Try fewer or other words, or /help for the search syntax.`;
  return { fallback: text, blocks: [{ kind: 'text', text }], ephemeral: true };
}

function countLine(result: SearchResult, page: number, pages: number): string {
  const shown = result.hits.length;
  const total = result.total > shown ? `${shown} best of ${result.total.toLocaleString('en-US')}` : `${shown}`;
  return `${total} paper${shown === 1 ? '' : 's'} · page ${page + 1} of ${pages}`;
}


export type { PaperCard };
