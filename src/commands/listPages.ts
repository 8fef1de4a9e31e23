/**
 * Pages of a reading list: a member's saved papers (`/library mine`) or a channel's list and
 * archive (`/library channel`), newest first, or with a query the papers of the list that match
 * it, best first (the same search as `/paper`, within the list). Each card says where it is on
 * the list (who added or shared it, when, the note, how many times shared) and carries its Save
 * button. Prev/Next name the scope and the page; a query is saved as interaction state, so the
 * buttons work after a restart and on any instance. The buttons of a member's list show the
 * list of whoever presses them: the message is private to its owner anyway.
 */
import { UserError } from '../errors.js';
import type { Messages } from '../i18n/index.js';
import { MAX_RESULTS, type MatchedWord } from '../search/engine.js';
import { action, type Block, type Button, type PaperCard, type Reply } from '../reply.js';
import type { ArchiveEntry, ListEntry, ListOwner, ReadingListStore } from '../store/readingLists.js';
import type { StoredPaper } from '../store/papers.js';
import { shorten } from '../text.js';
import { channelLabel, channelList, memberList, saveButton } from './lists.js';
import { cardsFallback, openMenu } from './results.js';
import type { CommandContext } from './types.js';

/** Papers on one page of a list. */
export const LIST_PAGE_SIZE = 5;
/** Most entries of a channel's list and archive read to merge them (a channel's whole history). */
export const MAX_CHANNEL_ENTRIES = 10_000;

export type ListScope = 'mine' | 'channel';

/** What a list message needs to show any of its pages again (saved only when it has a query). */
interface ListState {
  query: string;
  locale?: string;
}

/** One paper of a list as a page shows it. */
export interface Item {
  paperId: string;
  entry?: ListEntry;
  shared?: ArchiveEntry;
}

/**
 * Page `page` (from 0) of a list, with `query` the papers on it that match, best first.
 * @example await listPage(ctx, 'mine', undefined, 0)
 */
export async function listPage(ctx: CommandContext, scope: ListScope, query: string | undefined, page: number, stateId?: string): Promise<Reply> {
  const owner = scope === 'mine' ? memberList(ctx) : channelList(ctx);
  const m = ctx.i18n;
  let items = await listItems(ctx.readingLists, owner);
  const total = items.length;
  // Only document numbers for the whole list (a count, a search within it); the papers
  // themselves are read for the page shown. A paper the store no longer holds (removed by its
  // source) is left out, not shown broken.
  const docs = await ctx.library.docsOf(items.map((i) => i.paperId));
  items = items.filter((i) => docs.has(i.paperId));
  let words: readonly MatchedWord[] = [];
  if (query) {
    const result = await ctx.library.search(query, { limit: MAX_RESULTS, within: [...docs.values()] });
    const byId = new Map(items.map((i) => [i.paperId, i]));
    items = result.hits.flatMap((h) => byId.get(h.id) ?? []);
    words = result.words;
  }
  if (total === 0) return empty(m, scope);
  if (query && items.length === 0) return { locale: m.locale, ...nothingMatches(m, scope, query, total) };
  const pages = Math.max(1, Math.ceil(items.length / LIST_PAGE_SIZE));
  const at = Math.min(Math.max(0, page), pages - 1);
  const papers = await ctx.library.papersByIds(items.slice(at * LIST_PAGE_SIZE, (at + 1) * LIST_PAGE_SIZE).map((i) => i.paperId));
  // Removed between the two reads: left out too.
  const shown = items.slice(at * LIST_PAGE_SIZE, (at + 1) * LIST_PAGE_SIZE).filter((i) => papers.has(i.paperId));
  const state = query && stateId === undefined ? await ctx.states.put({ query, locale: m.locale } satisfies ListState, ctx.now()) : stateId;
  const cards = shown.map((item, i) => card(ctx, scope, papers.get(item.paperId)!, item, at * LIST_PAGE_SIZE + i + 1, words));
  const heading = scope === 'mine' ? m.t('library.mine.heading') : m.t('library.channel.heading', { channel: channelName(ctx) });
  const count = query
    ? m.t('library.countMatching', { matching: items.length, total, query: shorten(query, 60), page: at + 1, pages })
    : m.t('library.count', { total, page: at + 1, pages });
  const blocks: Block[] = [{ kind: 'heading', text: heading }, { kind: 'note', text: count }, ...cards.map((paper): Block => ({ kind: 'paper', paper }))];
  const handle = (n: number) => (state === undefined ? action('library', 'page', scope, n) : action('library', 'page', scope, n, state));
  const nav: Button[] = [
    { id: 'prev', label: m.t('paper.prev'), action: handle(at - 1), disabled: at === 0 },
    { id: 'next', label: m.t('paper.next'), action: handle(at + 1), disabled: at >= pages - 1 },
  ];
  return {
    locale: m.locale,
    fallback: cardsFallback(heading, cards),
    blocks,
    ...(pages > 1 && { buttons: [nav] }),
    menu: openMenu(m, cards),
    // A member's list is theirs alone; a channel's may be shown to the channel.
    ...(scope === 'mine' ? { ephemeral: true } : { shareable: true }),
  };
}

/** Another page of a list message (its Prev/Next). */
export async function turnListPage(ctx: CommandContext, scope: string | undefined, page: number, stateId: string | undefined): Promise<Reply> {
  if (scope !== 'mine' && scope !== 'channel') throw new UserError('error.brokenButton');
  if (stateId === undefined) return listPage(ctx, scope, undefined, page);
  const state = await ctx.states.get<ListState>(stateId, ctx.now());
  if (!state) throw new UserError('paper.expired');
  return listPage(ctx, scope, state.query, page, stateId);
}

/**
 * The papers of a list, newest first: a member's saved papers, or a channel's list and archive
 * merged (what `/library channel` shows and its export writes).
 * @example (await listItems(ctx.readingLists, channelList(ctx))).map((i) => i.paperId)
 */
export async function listItems(lists: ReadingListStore, owner: ListOwner): Promise<Item[]> {
  const page = { offset: 0, limit: MAX_CHANNEL_ENTRIES };
  const listed = await lists.list(owner, page);
  if (owner.kind === 'member') return listed.entries.map((entry) => ({ paperId: entry.paperId, entry }));
  const archive = await lists.archive(owner.platform, owner.team, owner.id, page);
  const items = new Map<string, Item>();
  for (const entry of listed.entries) items.set(entry.paperId, { paperId: entry.paperId, entry });
  for (const shared of archive.entries) {
    const item = items.get(shared.paperId);
    if (item) item.shared = shared;
    else items.set(shared.paperId, { paperId: shared.paperId, shared });
  }
  const latest = (i: Item) => [i.entry?.addedAt ?? '', i.shared?.lastSharedAt ?? ''].sort().at(-1)!;
  return [...items.values()].sort((a, b) => (latest(a) < latest(b) ? 1 : latest(a) > latest(b) ? -1 : a.paperId < b.paperId ? -1 : 1));
}

function card(ctx: CommandContext, scope: ListScope, stored: StoredPaper, item: Item, position: number, words: readonly MatchedWord[]): PaperCard {
  const m = ctx.i18n;
  const base = ctx.library.card(stored.paper, stored.doc, { position, messages: m, words });
  return { ...base, provenance: provenance(ctx, scope, item), actions: [saveButton(m, stored.doc)] };
}

/**
 * Where a paper is on a list, in one line: who added or shared it and when, the note, how many
 * times it was shared. Names are the ones people had when they did it ("someone" once forgotten).
 */
function provenance(ctx: CommandContext, scope: ListScope, item: Item): string {
  const m = ctx.i18n;
  const zone = ctx.user.timezone ?? 'UTC';
  const someone = m.t('library.someone');
  const parts: string[] = [];
  const { entry, shared } = item;
  if (entry) {
    const when = m.date(new Date(entry.addedAt), zone);
    parts.push(scope === 'mine' ? m.t('library.savedOn', { date: when }) : m.t('library.addedBy', { name: nameOf(entry.addedBy, someone), date: when }));
    if (entry.note) parts.push(m.t('library.note', { note: entry.note }));
  }
  if (shared) {
    parts.push(m.t('library.sharedBy', { name: nameOf(shared.firstSharedBy, someone), date: m.date(new Date(shared.firstSharedAt), zone), shares: shared.shares }));
  }
  return parts.join(' · ');
}

function nameOf(person: { id: string; name?: string } | undefined, someone: string): string {
  return person === undefined ? someone : person.name ?? person.id;
}

function channelName(ctx: CommandContext): string {
  return channelLabel(ctx, ctx.i18n);
}

function empty(m: Messages, scope: ListScope): Reply {
  const text = m.t(scope === 'mine' ? 'library.mine.empty' : 'library.channel.empty');
  return { locale: m.locale, fallback: text, blocks: [{ kind: 'text', text }], ephemeral: true };
}

function nothingMatches(m: Messages, scope: ListScope, query: string, total: number): Reply {
  const text = m.t('library.noneMatch', { query: shorten(query, 80), total, scope });
  return { fallback: text, blocks: [{ kind: 'text', text }], ephemeral: true };
}
