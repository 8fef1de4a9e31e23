/**
 * /library mine | channel | add | remove | export | recommend | forget | archive: a member's
 * saved papers and a channel's reading list and archive, fed from the chat (the Save buttons on
 * every card, links shared in the channel), exported to a reference manager, and the papers
 * like them (`recommendations.ts`). Everything answers the
 * member privately but `/library channel`, which the channel may see.
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import { EXPORT_FORMATS, exportPapers } from '../papers/export/index.js';
import type { Paper } from '../papers/model.js';
import { action, messageReply } from '../reply.js';
import { MAX_NOTE_LENGTH, type ArchiveSetting, type ListOwner } from '../store/readingLists.js';
import { channelList, cleanNote, memberList, paperAt, paperNamed, personOf, ratingMember, teamOf } from './lists.js';
import { listItems, listPage, turnListPage } from './listPages.js';
import { parseOptionText } from './optionText.js';
import { channelSettingRefusal } from './permissions.js';
import { recommendForList, turnRecommendPage } from './recommendations.js';
import { defineCommand, defineSubcommand, type CommandContext } from './types.js';

const SCOPES = ['mine', 'channel'] as const;
type Scope = (typeof SCOPES)[number];

/** Longest query within a list. */
const MAX_LIST_QUERY = 1000;
/** Most papers one export writes. */
export const MAX_EXPORT = 10_000;

const queryOptions = z.object({ query: z.string().trim().max(MAX_LIST_QUERY, 'paper.queryTooLong').optional() });
const paperOption = z.string().trim().min(1, 'library.paperEmpty').max(2000, 'library.paperTooLong');
const scopeOption = z.enum(SCOPES, 'library.badScope').optional();

const mine = defineSubcommand({
  name: 'mine',
  options: queryOptions,
  fromText: (text) => (text.trim() ? { query: text } : {}),
  run: (ctx, { query }) => listPage(ctx, 'mine', query || undefined, 0),
});

const channel = defineSubcommand({
  name: 'channel',
  options: queryOptions,
  fromText: (text) => (text.trim() ? { query: text } : {}),
  run: (ctx, { query }) => listPage(ctx, 'channel', query || undefined, 0),
});

const addOptions = z.object({ paper: paperOption, note: z.string().optional() });
const add = defineSubcommand({
  name: 'add',
  options: addOptions,
  fromText: (text) => addFromText(text),
  async run(ctx, { paper, note }) {
    const owner = channelList(ctx);
    const found = await paperNamed(ctx, paper);
    const cleaned = note === undefined ? undefined : cleanNote(note);
    const length = cleaned === undefined ? 0 : [...cleaned].length;
    if (length > MAX_NOTE_LENGTH) throw new UserError('library.noteTooLong', { max: MAX_NOTE_LENGTH, length });
    const { added, count } = await ctx.readingLists.add(owner, found.paper.id, personOf(ctx), ctx.now(), cleaned || undefined);
    await recordBotShare(ctx, found.paper.id);
    const text = ctx.i18n.t(added ? 'library.addedToChannel' : 'library.updatedInChannel', { title: found.paper.title, count });
    return { fallback: text, blocks: [{ kind: 'text', text }] };
  },
});

const removeOptions = z.object({ paper: paperOption, scope: scopeOption });
const remove = defineSubcommand({
  name: 'remove',
  options: removeOptions,
  fromText: (text) => parseOptionText(text, ['paper', 'scope']) as z.input<typeof removeOptions>,
  async run(ctx, { paper, scope }) {
    const found = await paperNamed(ctx, paper);
    const own = memberList(ctx);
    // Without a scope: the member's own list if it has the paper, else the channel's.
    const chosen: Scope = scope ?? ((await ctx.readingLists.has(own, found.paper.id)) || !ctx.channel ? 'mine' : 'channel');
    const owner = chosen === 'mine' ? own : channelList(ctx);
    if (chosen === 'channel') await requireMayRemove(ctx, owner, found.paper.id);
    const removed = await ctx.readingLists.remove(owner, found.paper.id);
    const key = removed ? (chosen === 'mine' ? 'library.removedMine' : 'library.removedChannel') : chosen === 'mine' ? 'library.notInMine' : 'library.notInChannel';
    return messageReply(ctx.i18n.t(key, { title: found.paper.title }), { ephemeral: true, locale: ctx.i18n.locale });
  },
});

const exportOptions = z.object({ format: z.enum(EXPORT_FORMATS, 'library.badFormat'), scope: scopeOption });
const exportList = defineSubcommand({
  name: 'export',
  options: exportOptions,
  fromText(text) {
    const { format, scope } = parseOptionText(text, ['format', 'scope']);
    return { format: format?.trim().toLowerCase(), ...(scope && { scope: scope.trim().toLowerCase() }) } as z.input<typeof exportOptions>;
  },
  async run(ctx, { format, scope }) {
    const chosen: Scope = scope ?? 'mine';
    const owner = chosen === 'mine' ? memberList(ctx) : channelList(ctx);
    const papers = await listPapers(ctx, owner);
    if (papers.length === 0) throw new UserError(chosen === 'mine' ? 'library.mine.empty' : 'library.channel.empty');
    const file = exportPapers(papers, format);
    const text = ctx.i18n.t('library.exported', { count: papers.length, format: ctx.i18n.t(`library.format.${format}`) });
    const name = `paperscout-${chosen === 'mine' ? 'library' : 'channel'}.${file.extension}`;
    return {
      fallback: text,
      blocks: [{ kind: 'text', text }],
      file: { name, mediaType: file.mediaType, content: file.content },
      ...(chosen === 'mine' && { ephemeral: true }),
    };
  },
});

const recommendOptions = z.object({ scope: scopeOption });
const recommend = defineSubcommand({
  name: 'recommend',
  options: recommendOptions,
  fromText(text) {
    const { scope } = parseOptionText(text, ['scope']);
    const value = (scope ?? text).trim().toLowerCase();
    return (value ? { scope: value } : {}) as z.input<typeof recommendOptions>;
  },
  run: (ctx, { scope }) => recommendForList(ctx, scope ?? 'mine'),
});

const forget = defineSubcommand({
  name: 'forget',
  options: z.object({}),
  fromText: () => ({}),
  run(ctx) {
    const m = ctx.i18n;
    const text = m.t('library.forget.confirm');
    return {
      fallback: text,
      blocks: [{ kind: 'text', text }],
      buttons: [[{ id: 'forget', label: m.t('library.forget.button'), action: action('library', 'forget'), style: 'danger' }]],
      ephemeral: true,
    };
  },
});

const archiveOptions = z.object({ state: z.enum(['on', 'off'], 'library.badArchiveState') });
const archive = defineSubcommand({
  name: 'archive',
  options: archiveOptions,
  permission: 'manage-channel',
  fromText: (text) => ({ state: text.trim().toLowerCase() }) as z.input<typeof archiveOptions>,
  async run(ctx, { state }) {
    const owner = channelList(ctx);
    const on = state === 'on';
    const setting = await ctx.readingLists.archiveSetting(owner.platform, owner.team, owner.id);
    // Nothing to change: whoever turned it on stays the one who did.
    if (setting.on === on) return messageReply(ctx.i18n.t(on ? 'library.archiveAlreadyOn' : 'library.archiveAlreadyOff'), { ephemeral: true, locale: ctx.i18n.locale });
    requireMayTurnArchive(ctx, on, setting);
    await ctx.readingLists.setArchiving(owner.platform, owner.team, owner.id, on, personOf(ctx), ctx.now());
    const text = ctx.i18n.t(on ? 'library.archiveOn' : 'library.archiveOff');
    return { fallback: text, blocks: [{ kind: 'text', text }] };
  },
});

export const libraryCommand = defineCommand({
  name: 'library',
  options: z.object({}),
  fromText: () => ({}),
  run: (ctx) => listPage(ctx, 'mine', undefined, 0),
  subcommands: [mine, channel, add, remove, exportList, recommend, forget, archive],
  actions: {
    // A card's Save: onto the presser's own list, or off it again.
    save: async (ctx, [doc]) => {
      const paper = await paperAt(ctx, integer(doc));
      const { saved, count } = await ctx.readingLists.toggle(memberList(ctx), paper.id, personOf(ctx), ctx.now());
      return messageReply(ctx.i18n.t(saved ? 'library.saved' : 'library.unsaved', { count }), { ephemeral: true, locale: ctx.i18n.locale });
    },
    // An opened paper's "Save to #channel".
    savech: async (ctx, [doc]) => {
      const paper = await paperAt(ctx, integer(doc));
      const { added, count } = await ctx.readingLists.add(channelList(ctx), paper.id, personOf(ctx), ctx.now());
      const text = ctx.i18n.t(added ? 'library.addedToChannel' : 'library.alreadyInChannel', { title: paper.title, count });
      return messageReply(text, { ephemeral: true, locale: ctx.i18n.locale });
    },
    page: (ctx, [scope, page, stateId]) => turnListPage(ctx, scope, integer(page), stateId),
    // Prev/Next of /library recommend.
    recommend: (ctx, [stateId, page]) => turnRecommendPage(ctx, stateId, integer(page)),
    forget: async (ctx) => {
      const team = teamOf(ctx);
      const done = await ctx.readingLists.forgetMember(ctx.platform, team, ctx.user.id);
      const signals = await ctx.ratings.forgetMember(ratingMember(ctx));
      return messageReply(ctx.i18n.t('library.forget.done', { ...done, ...signals }), { ephemeral: true, locale: ctx.i18n.locale });
    },
  },
});

/**
 * `/library add` typed as text: a note is free text, so `note:` takes the rest of the line
 * (quotes around it are dropped); the paper is what comes before.
 * @example addFromText('paper:1706.03762 note:read §3 first') // { paper: '1706.03762', note: 'read §3 first' }
 */
export function addFromText(text: string): z.input<typeof addOptions> {
  const at = /(?:^|\s)note:/i.exec(text);
  const before = at ? text.slice(0, at.index) : text;
  const { paper } = parseOptionText(before, ['paper']);
  if (!at) return { paper: paper ?? '' };
  const note = text.slice(at.index + at[0].length).trim().replace(/^"([\s\S]*)"$/, '$1');
  return { paper: paper ?? '', note };
}

/**
 * The papers of a list, newest first, for an export (at most {@link MAX_EXPORT}): a member's
 * saved papers, or what `/library channel` shows (the channel's list and its archive).
 */
export async function listPapers(ctx: Pick<CommandContext, 'readingLists' | 'library'>, owner: ListOwner): Promise<Paper[]> {
  const ids = owner.kind === 'member' ? await ctx.readingLists.paperIds(owner) : (await listItems(ctx.readingLists, owner)).map((i) => i.paperId);
  ids.splice(MAX_EXPORT);
  const papers = await ctx.library.papersByIds(ids);
  return ids.flatMap((id) => papers.get(id)?.paper ?? []);
}

/**
 * A paper shared through the bot (added to the channel's list): recorded in the channel's
 * archive too, as a link posted there would be, unless the channel turned its archive off.
 */
async function recordBotShare(ctx: CommandContext, paperId: string): Promise<void> {
  const owner = channelList(ctx);
  if (!(await ctx.readingLists.archiveSetting(owner.platform, owner.team, owner.id)).on) return;
  const at = ctx.now();
  await ctx.readingLists.recordShare(owner.platform, owner.team, owner.id, { paperId, by: personOf(ctx), at, message: `bot:${ctx.user.id}:${at.getTime()}` });
}

/**
 * Taking a paper off a channel's list is for whoever added it, and for those who manage the
 * channel (Discord: Manage Channels; Slack: workspace admins).
 */
async function requireMayRemove(ctx: CommandContext, owner: ListOwner, paperId: string): Promise<void> {
  if (ctx.member?.canManageChannel === true || ctx.member?.isAdmin === true) return;
  const entry = (await ctx.readingLists.entries(owner, [paperId])).get(paperId);
  if (entry && entry.addedBy !== undefined && entry.addedBy.id !== ctx.user.id) {
    throw new UserError('library.removeNotYours', { name: entry.addedBy.name ?? entry.addedBy.id });
  }
}

/**
 * Turning a channel's archive on or off is limited as changing its digests is (permissions.ts):
 * on Discord to members with Manage Channels, either way; on Slack anyone may turn it on, and
 * it is turned off by workspace admins or whoever turned it on (an archive on from the start was
 * turned on by nobody, so only admins).
 */
function requireMayTurnArchive(ctx: CommandContext, on: boolean, setting: ArchiveSetting): void {
  const refusal = channelSettingRefusal(ctx, on ? undefined : { setBy: setting.setBy?.id });
  if (refusal === 'needs-manage-channels') throw new UserError('library.archive.needsManageChannels', { state: on ? 'on' : 'off' });
  if (refusal === 'needs-admin') {
    throw setting.setBy ? new UserError('library.archive.needsAdmin', { name: setting.setBy.name ?? setting.setBy.id }) : new UserError('library.archive.needsAdminOnly');
  }
}

function integer(value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isSafeInteger(n)) throw new UserError('error.brokenButton');
  return n;
}
