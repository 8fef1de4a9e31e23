/**
 * `/library recommend [scope:mine|channel]`: papers like a member's saved papers or a channel's
 * reading list and shares, the most alike first, {@link RECOMMEND_PAGE_SIZE} to a page and each
 * page newest first, each card saying why in one line ("like ‹saved title›, ‹word›, ‹word›").
 * A list of fewer than {@link MIN_PROFILE_PAPERS} papers is too little to go on: the reply says
 * so and how to add more.
 *
 * Prev/Next work as a search's do (results.ts): the papers recommended from are saved as
 * interaction state, so the buttons redo the ranking (fast) from the same papers after a
 * restart and on any instance, and a paper saved from page 1 does not shift page 2.
 */
import { UserError } from '../errors.js';
import { messages as messagesFor, type Messages } from '../i18n/index.js';
import type { RecommendedHit } from '../recommend/seeds.js';
import { MIN_PROFILE_PAPERS, whyLine } from '../recommend/reason.js';
import { action, type Block, type Button, type PaperCard, type Reply } from '../reply.js';
import { profilePaperIds } from '../store/readingLists.js';
import { channelLabel, channelList, memberList, saveButton } from './lists.js';
import type { ListScope } from './listPages.js';
import { cardsFallback, openMenu } from './results.js';
import type { CommandContext } from './types.js';

/** Recommendations on one page. */
export const RECOMMEND_PAGE_SIZE = 5;
/** Most recommendations one message pages through (ten pages): past these the likeness is faint. */
export const MAX_RECOMMENDED = 50;

/** What a recommendations message needs to show any of its pages again. */
interface RecommendState {
  scope: ListScope;
  /** The papers recommended from (ids), as the list was when asked. */
  seeds: string[];
  /** The language the message was written in (a locale tag). */
  locale?: string;
}

/**
 * Recommendations for a list, as a reply (private for a member's own list): the first page,
 * with Prev/Next when there are more.
 * @example await recommendForList(ctx, 'mine')
 */
export async function recommendForList(ctx: CommandContext, scope: ListScope): Promise<Reply> {
  const m = ctx.i18n;
  const owner = scope === 'mine' ? memberList(ctx) : channelList(ctx);
  const ids = await profilePaperIds(ctx.readingLists, owner);
  const held = await ctx.library.papersByIds(ids);
  const seeds = ids.filter((id) => held.has(id));
  if (seeds.length < MIN_PROFILE_PAPERS) {
    const text = m.t(scope === 'mine' ? 'library.recommend.tooFewMine' : 'library.recommend.tooFewChannel', { count: seeds.length, least: MIN_PROFILE_PAPERS });
    return { locale: m.locale, fallback: text, blocks: [{ kind: 'text', text }], ephemeral: true };
  }
  const state: RecommendState = { scope, seeds, locale: m.locale };
  const hits = await recommended(ctx, seeds);
  if (hits.length === 0) {
    const text = m.t('library.recommend.none');
    return { locale: m.locale, fallback: text, blocks: [{ kind: 'text', text }], ephemeral: true };
  }
  // The state and the page's papers are read and written at once, as a search's are.
  const [stateId, page] = await Promise.all([ctx.states.put(state, ctx.now()), pageOf(ctx, m, hits, 0)]);
  return render(ctx, m, state, stateId, page);
}

/**
 * Page `page` (from 0) of a recommendations message, for its Prev/Next: from the papers it was
 * recommended from, in the language it was written in.
 */
export async function turnRecommendPage(ctx: CommandContext, stateId: string | undefined, page: number): Promise<Reply> {
  if (!stateId) throw new UserError('error.brokenButton');
  const state = await ctx.states.get<unknown>(stateId, ctx.now());
  if (state === undefined) throw new UserError('library.recommend.expired');
  // State is JSON another kind of button may have saved under a forged id: read it, never trust it.
  if (!isRecommendState(state)) throw new UserError('error.brokenButton');
  const m = state.locale ? messagesFor(state.locale) : ctx.i18n;
  const hits = await recommended(ctx, state.seeds);
  if (hits.length === 0) {
    const text = m.t('library.recommend.none');
    return { locale: m.locale, fallback: text, blocks: [{ kind: 'text', text }], ephemeral: true };
  }
  return render(ctx, m, state, stateId, await pageOf(ctx, m, hits, page));
}

/** Papers like `seeds`, the most alike first, as many as a message pages through. */
async function recommended(ctx: CommandContext, seeds: readonly string[]): Promise<RecommendedHit[]> {
  const found = await ctx.library.recommend(seeds, { limit: MAX_RECOMMENDED });
  if (!found.ok) throw new UserError(found.notes[0]!);
  return found.hits;
}

interface Page {
  page: number;
  pages: number;
  cards: PaperCard[];
}

/** Page `requested` (kept within the pages there are): its papers newest first, numbered on from the pages before. */
async function pageOf(ctx: CommandContext, m: Messages, hits: readonly RecommendedHit[], requested: number): Promise<Page> {
  const pages = Math.ceil(hits.length / RECOMMEND_PAGE_SIZE);
  const page = Math.min(Math.max(0, requested), pages - 1);
  const shown = hits.slice(page * RECOMMEND_PAGE_SIZE, (page + 1) * RECOMMEND_PAGE_SIZE);
  const papers = await ctx.library.papersByDocs(shown.map((h) => h.storeDoc));
  const year = (hit: RecommendedHit) => papers.get(hit.storeDoc)?.year ?? 0;
  const newestFirst = [...shown].sort((a, b) => year(b) - year(a) || b.score - a.score || a.storeDoc - b.storeDoc);
  const cards = newestFirst
    .flatMap((hit) => {
      const paper = papers.get(hit.storeDoc);
      return paper ? [{ hit, paper }] : [];
    })
    .map(({ hit, paper }, i): PaperCard => {
      const card = ctx.library.card(paper, hit.storeDoc, { position: page * RECOMMEND_PAGE_SIZE + i + 1, messages: m });
      return { ...card, provenance: whyLine(m, hit.why), actions: [saveButton(m, hit.storeDoc)] };
    });
  return { page, pages, cards };
}

function render(ctx: CommandContext, m: Messages, state: RecommendState, stateId: string | undefined, { page, pages, cards }: Page): Reply {
  const heading = state.scope === 'mine' ? m.t('library.recommend.headingMine') : m.t('library.recommend.headingChannel', { channel: channelLabel(ctx, m) });
  const blocks: Block[] = [
    { kind: 'heading', text: heading },
    { kind: 'note', text: m.t('library.recommend.basis', { count: state.seeds.length, page: page + 1, pages }) },
    ...cards.map((paper): Block => ({ kind: 'paper', paper })),
  ];
  if (stateId === undefined && pages > 1) blocks.push({ kind: 'note', text: m.t('library.recommend.pagingUnavailable') });
  const nav: Button[] | undefined =
    stateId === undefined || pages < 2
      ? undefined
      : [
          { id: 'prev', label: m.t('paper.prev'), action: action('library', 'recommend', stateId, page - 1), disabled: page === 0 },
          { id: 'next', label: m.t('paper.next'), action: action('library', 'recommend', stateId, page + 1), disabled: page >= pages - 1 },
        ];
  return {
    locale: m.locale,
    fallback: cardsFallback(heading, cards),
    blocks,
    ...(nav && { buttons: [nav] }),
    menu: openMenu(m, cards),
    ...(state.scope === 'mine' ? { ephemeral: true } : { shareable: true }),
  };
}

function isRecommendState(value: unknown): value is RecommendState {
  const state = value as Partial<RecommendState> | null;
  return (
    typeof state === 'object' &&
    state !== null &&
    (state.scope === 'mine' || state.scope === 'channel') &&
    Array.isArray(state.seeds) &&
    state.seeds.length > 0 &&
    state.seeds.every((id) => typeof id === 'string') &&
    (state.locale === undefined || typeof state.locale === 'string')
  );
}
