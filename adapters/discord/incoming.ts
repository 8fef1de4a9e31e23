/**
 * Interaction payloads as they come over the gateway, read before discord.js sees them. Pure.
 *
 * - {@link normalizeInteraction}: discord.js 14 reads some fields as if Discord always sent them
 *   (`entitlements`, `authorizing_integration_owners`, `application_id`), but Discord's own
 *   documented examples and older or user-installed-app captures lack them, and a throw inside
 *   discord.js's packet handler would end the process. Missing ones get their empty value.
 * - {@link placeOf}: where the interaction happened, from the raw payload, because discord.js
 *   keeps only part of it (no channel id without a `channel` object, no channel type without a
 *   cached channel, no way to tell a missing `app_permissions` from an empty one).
 */
import type { BotAccess, ChannelKind } from '../../src/commands/types.js';
import { has, PERMISSION, THREAD_TYPES } from './permissions.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** Discord's channel types that matter here. */
const CHANNEL_TYPE = { dm: 1, groupDm: 3 } as const;
/** Discord's interaction contexts (`context`). */
const CONTEXT = { guild: 0, botDm: 1, privateChannel: 2 } as const;
/** Keys of `authorizing_integration_owners`. */
const INSTALL = { guild: '0', user: '1' } as const;

/**
 * A copy of an INTERACTION_CREATE payload with the fields discord.js cannot do without filled in
 * (anything that is not an object comes back as it is).
 * @example normalizeInteraction({ type: 2, id: '1', token: 't' }, '99').entitlements // []
 */
export function normalizeInteraction(raw: unknown, applicationId: string | undefined): unknown {
  if (!isObject(raw)) return raw;
  const payload: Record<string, any> = { ...raw };
  if (!Array.isArray(payload.entitlements)) payload.entitlements = [];
  if (!isObject(payload.authorizing_integration_owners)) payload.authorizing_integration_owners = {};
  if (typeof payload.application_id !== 'string' && applicationId) payload.application_id = applicationId;
  return payload;
}

/** Where an interaction happened, for the command context. */
export interface Place {
  /** The channel's id: from the `channel` object, else `channel_id`. */
  channelId?: string;
  /** The channel's name, where the payload has a `channel` object with one (a server channel). */
  name?: string;
  kind?: ChannelKind;
  bot?: BotAccess;
}

/**
 * Reads where an interaction happened: the channel, what kind of conversation it is, and what the
 * bot may do there. Unknown stays unset.
 * @example placeOf({ guild_id: '1', channel_id: '2', app_permissions: '3072' }) // { channelId: '2', kind: 'channel', bot: { canView: true, canSend: true, canEmbed: false, canReadHistory: false } }
 */
export function placeOf(raw: unknown): Place {
  if (!isObject(raw)) return {};
  const channel = isObject(raw.channel) ? raw.channel : undefined;
  const channelId = snowflake(channel?.id) ?? snowflake(raw.channel_id);
  const kind = kindOf(raw, channel);
  const bot: BotAccess = { ...inServer(raw, kind), ...permissions(raw.app_permissions, channel?.type) };
  const name = kind === 'channel' && typeof channel?.name === 'string' && channel.name.trim() ? channel.name.trim().slice(0, 100) : undefined;
  return { ...(channelId && { channelId }), ...(name && { name }), ...(kind && { kind }), ...(Object.keys(bot).length > 0 && { bot }) };
}

function kindOf(raw: Record<string, any>, channel: Record<string, any> | undefined): ChannelKind | undefined {
  if (channel?.type === CHANNEL_TYPE.dm) return 'dm';
  if (channel?.type === CHANNEL_TYPE.groupDm) return 'group-dm';
  if (typeof channel?.type === 'number') return 'channel';
  if (raw.context === CONTEXT.guild) return 'channel';
  // A private channel is a DM with someone else or a group DM; without the channel, say DM.
  if (raw.context === CONTEXT.botDm || raw.context === CONTEXT.privateChannel) return 'dm';
  if (snowflake(raw.guild_id)) return 'channel';
  // Discord sends `user` instead of `member` outside servers.
  if (isObject(raw.user) && !isObject(raw.member)) return 'dm';
  return undefined;
}

/**
 * In a server, `authorizing_integration_owners` with only a user install means the app was
 * installed on the user's account and its bot is not in that server.
 */
function inServer(raw: Record<string, any>, kind: ChannelKind | undefined): Pick<BotAccess, 'inServer'> {
  const owners = raw.authorizing_integration_owners;
  if (kind !== 'channel' || !isObject(owners)) return {};
  if (owners[INSTALL.guild] !== undefined && owners[INSTALL.guild] !== null) return { inServer: true };
  if (owners[INSTALL.user] !== undefined && owners[INSTALL.user] !== null) return { inServer: false };
  return {};
}

/** The bot's permissions from `app_permissions` (a decimal bitfield string), if it is one. */
function permissions(value: unknown, channelType: unknown): Pick<BotAccess, 'canView' | 'canSend' | 'canEmbed' | 'canReadHistory'> {
  if (typeof value !== 'string' || !/^\d{1,40}$/.test(value)) return {};
  const bits = BigInt(value);
  const thread = typeof channelType === 'number' && THREAD_TYPES.includes(channelType);
  return {
    canView: has(bits, PERMISSION.viewChannel),
    canSend: has(bits, thread ? PERMISSION.sendMessagesInThreads : PERMISSION.sendMessages),
    canEmbed: has(bits, PERMISSION.embedLinks),
    canReadHistory: has(bits, PERMISSION.readMessageHistory),
  };
}

function snowflake(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{1,25}$/.test(value) ? value : undefined;
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A member's message in a server channel that links to something, as the archive reads it. */
export interface SharedMessage {
  /** The message's id: the key that makes the same message one share however often it is seen. */
  id: string;
  channelId: string;
  guildId: string;
  author: { id: string; name: string };
  /** The http(s) links in its text, in order, each once. */
  links: string[];
}

/** Discord's message types a member writes: a message, and a reply. */
const MEMBER_MESSAGE_TYPES = new Set([0, 19]);

/**
 * The message of a MESSAGE_CREATE dispatch as the archive reads it, or undefined when it is none
 * of the archive's business: outside a server (a DM), by a bot, a webhook or Discord itself, or
 * without a link.
 * @example sharedMessage({ id: '3', channel_id: '2', guild_id: '1', type: 0, author: { id: '4', username: 'ada' }, content: 'see https://arxiv.org/abs/1706.03762' })?.links // ['https://arxiv.org/abs/1706.03762']
 */
export function sharedMessage(raw: unknown): SharedMessage | undefined {
  if (!isObject(raw)) return undefined;
  const id = snowflake(raw.id);
  const channelId = snowflake(raw.channel_id);
  const guildId = snowflake(raw.guild_id);
  const author = isObject(raw.author) ? raw.author : undefined;
  const authorId = snowflake(author?.id);
  if (!id || !channelId || !guildId || !author || !authorId) return undefined;
  if (author.bot === true || author.system === true || (raw.webhook_id !== undefined && raw.webhook_id !== null)) return undefined;
  if (!MEMBER_MESSAGE_TYPES.has(raw.type as number)) return undefined;
  const links = linksIn(typeof raw.content === 'string' ? raw.content : '');
  if (links.length === 0) return undefined;
  const member = isObject(raw.member) ? raw.member : undefined;
  const name = [member?.nick, author.global_name, author.username].find((n): n is string => typeof n === 'string' && n.trim() !== '') ?? authorId;
  return { id, channelId, guildId, author: { id: authorId, name: name.trim().slice(0, 80) }, links };
}

/** Longest message text looked at (Discord's own limit, with room for Nitro's). */
const MESSAGE_TEXT_MAX = 4000;
const URL_IN_TEXT = /https?:\/\/[^\s<>"'`|[\]]+/gi;

/**
 * The http(s) links in a message's markdown: bare, in `<…>` (no preview) or masked
 * (`[label](url)`), without the punctuation or unbalanced brackets around them.
 * @example linksIn('read <https://arxiv.org/abs/1706.03762>, and [this](https://doi.org/10.1016/S0140-6736(20)30183-5).') // ['https://arxiv.org/abs/1706.03762', 'https://doi.org/10.1016/S0140-6736(20)30183-5']
 */
export function linksIn(text: string): string[] {
  const found = [...text.slice(0, MESSAGE_TEXT_MAX).matchAll(URL_IN_TEXT)].map((m) => trimLink(m[0]));
  return [...new Set(found.filter((url) => url.length > 'https://'.length))];
}

function trimLink(url: string): string {
  let out = url;
  for (;;) {
    const before = out;
    out = out.replace(/[.,;:!?*_~]+$/, '');
    const open = out.split('(').length - 1;
    const close = out.split(')').length - 1;
    if (out.endsWith(')') && close > open) out = out.slice(0, -1);
    if (out === before) return out;
  }
}
