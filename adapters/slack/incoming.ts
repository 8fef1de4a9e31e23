/**
 * What arrives from Slack, read into what the core needs. Pure functions.
 *
 * - A mention (`<@BOT> diffusion transformers`) becomes a command and its text: Slack's markup in
 *   the message (`<https://arxiv.org/abs/1706.03762>`, `&amp;`) is undone first.
 * - Where a command runs: a DM, a group DM or a channel, from the channel's id and name.
 * - A "Share in channel" button carries where its reply came from (the command and its text,
 *   or the action handle), so that sharing redoes it, after a restart too.
 */
import type { ChannelKind } from '../../src/commands/types.js';
import { BUTTON_VALUE_MAX } from './limits.js';

/** How a reply was made, so that it can be made again. */
export type Origin = { kind: 'run'; command: string; text: string } | { kind: 'act'; handle: string };

/**
 * The value of a Share button for a reply, or undefined if it would not fit in a button.
 * @example encodeOrigin({ kind: 'run', command: 'paper', text: 'diffusion' }) // 'run:paper:diffusion'
 */
export function encodeOrigin(origin: Origin): string | undefined {
  const value = origin.kind === 'run' ? `run:${origin.command}:${origin.text}` : `act:${origin.handle}`;
  return value.length <= BUTTON_VALUE_MAX ? value : undefined;
}

/**
 * Reads a Share button's value back.
 * @example decodeOrigin('act:paper:page:k3f9x2:2') // { kind: 'act', handle: 'paper:page:k3f9x2:2' }
 */
export function decodeOrigin(value: string): Origin | undefined {
  const run = /^run:([a-z][a-z0-9-]{0,31}):([\s\S]*)$/.exec(value);
  if (run) return { kind: 'run', command: run[1]!, text: run[2]! };
  const act = /^act:(.+)$/s.exec(value);
  return act ? { kind: 'act', handle: act[1]! } : undefined;
}

/**
 * A mention's text as a command: `/topic llm` and `help` name their command, anything else is a
 * /paper query (a paper link included). An empty text is an empty /paper query.
 * @example mentionRequest('<@U0BOT> diffusion transformers', 'U0BOT', ['paper', 'help']) // { command: 'paper', text: 'diffusion transformers' }
 */
export function mentionRequest(text: string, botUserId: string | undefined, commands: readonly string[]): { command: string; text: string } {
  let rest = botUserId ? text.split(new RegExp(`<@${escapeRegExp(botUserId)}(?:\\|[^>]*)?>`, 'g')).join(' ') : text.replace(/^\s*<@[^>]*>/, '');
  rest = fromSlackMarkup(rest).replace(/\s+/g, ' ').trim();
  const slash = /^\/([a-z][a-z0-9-]*)(?:\s+([\s\S]*))?$/i.exec(rest);
  if (slash && commands.includes(slash[1]!.toLowerCase())) return { command: slash[1]!.toLowerCase(), text: slash[2] ?? '' };
  if (/^help$/i.test(rest) && commands.includes('help')) return { command: 'help', text: '' };
  return { command: 'paper', text: rest };
}

/**
 * Text as the user typed it, from Slack's markup in a message or a slash command's text: links
 * become their URL, user and channel references their name (or nothing), special mentions
 * nothing, entities characters (Slack always sends a typed `<` as `&lt;`).
 * @example fromSlackMarkup('<https://arxiv.org/abs/1706.03762|arxiv.org/abs/1706.03762> &amp; more') // 'https://arxiv.org/abs/1706.03762 & more'
 */
export function fromSlackMarkup(text: string): string {
  return text
    .replace(/<([^<>]*)>/g, (_, inner: string) => {
      const [target = '', label] = inner.split('|', 2);
      if (/^(https?:\/\/|mailto:)/i.test(target)) return target.startsWith('mailto:') ? (label ?? target.slice(7)) : target;
      if (target.startsWith('#')) return label ? `#${label}` : '';
      if (target.startsWith('@')) return label ? `@${label}` : '';
      return '';
    })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * A link from a link_shared event as a URL (Slack may send `&` as `&amp;`).
 * @example sharedLinkUrl('https://openreview.net/forum?id=x&amp;noteId=y') // 'https://openreview.net/forum?id=x&noteId=y'
 */
export function sharedLinkUrl(url: string): string {
  return url.replace(/&amp;/g, '&').trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What kind of conversation a Slack channel is, from what a command, an action or an event says
 * of it: a DM has a `D…` id (commands and actions also name it `directmessage`), a group DM is
 * named `mpdm-…` (its id starts with `G` or `C`, like a private channel's), anything else is a
 * channel.
 * @example channelKind('D024BE91L', 'directmessage') // 'dm'
 */
export function channelKind(id: string, name?: string): ChannelKind {
  if (/^D[A-Z0-9]+$/.test(id) || name === 'directmessage') return 'dm';
  if (name !== undefined && /^mpdm(-|$)/.test(name)) return 'group-dm';
  return 'channel';
}

/** Names Slack gives a conversation instead of its own: a DM, or a private channel in older payloads. */
const STAND_IN_NAMES = new Set(['directmessage', 'privategroup']);

/**
 * A channel's name as people know it (`papers` for #papers), or undefined where Slack sent a
 * stand-in (`directmessage`, `privategroup`) or nothing.
 * @example channelName('privategroup') // undefined
 */
export function channelName(name: string | undefined): string | undefined {
  return name && !STAND_IN_NAMES.has(name) && !/^mpdm-/.test(name) ? name : undefined;
}
