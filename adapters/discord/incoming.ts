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
  return { ...(channelId && { channelId }), ...(kind && { kind }), ...(Object.keys(bot).length > 0 && { bot }) };
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
