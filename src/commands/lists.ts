/**
 * Whose reading list (or 👍/👎 and follows) a command means, and which paper: the pieces
 * `/library`, the Save buttons and the archive share. A list is keyed by the platform's ids (server or workspace, then the
 * member or the channel), never by a display name, so one workspace never sees another's.
 */
import { UserError } from '../errors.js';
import type { Messages } from '../i18n/index.js';
import { action, type Button } from '../reply.js';
import { parsePaperRef } from '../papers/ids.js';
import type { Paper } from '../papers/model.js';
import { resolveRef } from '../papers/resolve.js';
import type { Member } from '../store/ratings.js';
import type { ListOwner, Person } from '../store/readingLists.js';
import type { StoredPaper } from '../store/papers.js';
import { shorten } from '../text.js';
import type { CommandContext } from './types.js';

/** The team of a conversation outside any server or workspace (a Discord DM). */
export const NO_TEAM = 'dm';

/** The server or workspace a command runs in (its platform id), or {@link NO_TEAM}. */
export function teamOf(ctx: CommandContext): string {
  return ctx.workspace?.id || NO_TEAM;
}

/**
 * The member who runs a command, in this server or workspace: whose 👍/👎 and follows.
 * @example ratingMember(ctx) // { platform: 'slack', team: 'T01', user: 'U02' }
 */
export function ratingMember(ctx: CommandContext): Member {
  return { platform: ctx.platform, team: teamOf(ctx), user: ctx.user.id };
}

/**
 * The member's own list, in this server or workspace.
 * @example memberList(ctx) // { platform: 'slack', team: 'T01', kind: 'member', id: 'U02' }
 */
export function memberList(ctx: CommandContext): ListOwner {
  return { platform: ctx.platform, team: teamOf(ctx), kind: 'member', id: ctx.user.id };
}

/**
 * The channel's shared list; a conversation that is no channel (a DM, the terminal) has none,
 * which the user is told with what to use instead.
 */
export function channelList(ctx: CommandContext): ListOwner {
  const channel = ctx.channel;
  if (ctx.platform === 'terminal' || !channel || channel.kind === 'dm') throw new UserError('library.onlyInChannels');
  return { platform: ctx.platform, team: teamOf(ctx), kind: 'channel', id: channel.id };
}

/** Who runs the command, as lists record them. */
export function personOf(ctx: CommandContext): Person {
  return { id: ctx.user.id, ...(ctx.user.name && { name: shorten(ctx.user.name, 80) }) };
}

/**
 * The paper an id or link names: held, or looked up as `/paper` does (and then added to the
 * library); otherwise a user error that says so and suggests `/paper`.
 * @example (await paperNamed(ctx, 'https://arxiv.org/abs/1706.03762')).paper.title
 */
export async function paperNamed(ctx: CommandContext, text: string): Promise<StoredPaper> {
  const typed = text.trim();
  const open = /^doc:(\d{1,12})$/.exec(typed);
  if (open) {
    const paper = await ctx.library.paperByDoc(Number(open[1]));
    if (paper) return { doc: Number(open[1]), paper };
  }
  const ref = parsePaperRef(typed);
  if (!ref) {
    const held = await ctx.library.papersByIds([typed]);
    const found = held.get(typed);
    if (found) return found;
    throw new UserError('library.notARef', { text: shorten(typed, 80) });
  }
  const resolved = await resolveRef(ref, { store: ctx.library.store, ...(ctx.lookup && { lookup: ctx.lookup }) });
  if (resolved.kind === 'held' || resolved.kind === 'found') return { doc: resolved.doc, paper: resolved.paper };
  if (resolved.kind === 'unknown') throw new UserError('library.unknownPaper', { text: shorten(typed, 80) });
  throw new UserError(resolved.message);
}

/** A paper by its document number (a button's handle), or the user error of a paper gone. */
export async function paperAt(ctx: CommandContext, doc: number): Promise<Paper> {
  const paper = await ctx.library.paperByDoc(doc);
  if (!paper) throw new UserError('paper.gone');
  return paper;
}

/**
 * A note as lists keep it: one line of plain text (control characters and line breaks become
 * spaces, invisible formatting characters go). Renderers escape it like any paper text, so it
 * can never mention anyone or carry markup; its length is checked against
 * {@link MAX_NOTE_LENGTH} by whoever takes it.
 * @example cleanNote('  read §3\n first\u200b ') // 'read §3 first'
 */
export function cleanNote(note: string): string {
  const text = note
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text;
}

/** A card's Save button: puts the paper on the presser's own list, or takes it off. */
export function saveButton(m: Messages, doc: number): Button {
  return { id: 'save', label: m.t('library.save'), action: action('library', 'save', doc) };
}

/**
 * An opened paper's buttons for lists: Save, and where the conversation is a channel, Save to
 * #channel (its shared reading list).
 */
export function listButtons(ctx: CommandContext, m: Messages, doc: number): Button[] {
  const buttons = [saveButton(m, doc)];
  const channel = ctx.channel;
  if (ctx.platform !== 'terminal' && channel && channel.kind !== 'dm') {
    buttons.push({ id: 'save-channel', label: m.t('library.saveToChannel', { channel: channelLabel(ctx, m) }), action: action('library', 'savech', doc) });
  }
  return buttons;
}

/** The channel as people call it: `#name` where the platform gave its name, else "this channel". */
export function channelLabel(ctx: CommandContext, m: Messages): string {
  return ctx.channel?.name ? `#${ctx.channel.name}` : m.t('library.thisChannel');
}
