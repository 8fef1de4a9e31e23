/**
 * Posting digests to Discord channels, for the digest runner: a channel message with the same
 * embeds as every other reply, over a REST client of its own that never decides for the runner:
 * no retries (a timed-out post repeated blindly is the duplicate this avoids) and every rate
 * limit handed back instead of slept through.
 *
 * Each post carries the part's key twice: as an enforced nonce, so that Discord drops a repeat
 * within a few minutes ({@link DUPLICATE_WINDOW_MS}), and as a last line of small print
 * (`-# digest <key>`), so that after that window the bot can still find its message by reading
 * the channel (`GET /channels/{id}/messages`; Discord's message history does not return nonces).
 * A bot without Read Message History is shown no messages at all, not refused: an empty read is
 * believed only where the bot may read the history (see {@link historyReadable}); anywhere else
 * the part's fate cannot be told.
 */
import { DiscordAPIError, HTTPError, RateLimitError, REST, Routes, type APIMessage, type APIUser } from 'discord.js';
import type { DiscordConfig } from '../../src/config.js';
import { requestFailure } from '../../src/digest/outcome.js';
import { DeliveryError, type DigestPartId, type DigestSender } from '../../src/digest/sender.js';
import { CONTENT_MAX } from './limits.js';
import { channelPermissions, has, PERMISSION, THREAD_TYPES, type Overwrite } from './permissions.js';
import { renderMessage } from './render.js';

/** Discord accepts nonces of at most 25 characters. */
export const MAX_NONCE_LENGTH = 25;
/**
 * Discord drops a message whose enforced nonce it saw "in the past few minutes": a part of
 * unknown outcome is posted again under its nonce only this soon after its first attempt.
 */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;
/** A digest post or history read that has not been answered by then is given up (outcome unknown). */
export const DIGEST_REQUEST_TIMEOUT_MS = 30_000;
/** The small-print line that names a digest part in its message. */
export const digestKeyLine = (key: string): string => `-# digest ${key}`;
/** Messages read per page (Discord's maximum), and pages read before giving up on a busy channel. */
const PAGE_SIZE = 100;
const MAX_PAGES = 5;
/** Discord's epoch, for snowflakes. */
const DISCORD_EPOCH = 1420070400000n;

export interface DiscordSenderOptions {
  /** Default {@link DIGEST_REQUEST_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/**
 * @example const sender = createDiscordSender(config.discord); await sender.post(channelId, reply, partId(sub, run, 0));
 */
export function createDiscordSender(config: DiscordConfig, options: DiscordSenderOptions = {}): DigestSender {
  const rest = new REST({
    ...(config.apiUrl && { api: config.apiUrl }),
    retries: 0,
    timeout: options.timeoutMs ?? DIGEST_REQUEST_TIMEOUT_MS,
    rejectOnRateLimit: () => true,
  }).setToken(config.token);
  let me: Promise<string> | undefined;
  const botUserId = () => {
    me ??= (rest.get(Routes.user('@me')) as Promise<APIUser>).then((user) => user.id);
    me.catch(() => (me = undefined));
    return me;
  };
  // A server's language rarely changes; one lookup per server per process.
  const guildLocales = new Map<string, string>();
  return {
    platform: 'discord',
    duplicateWindowMs: DUPLICATE_WINDOW_MS,
    async defaultLocale(sub) {
      // The server's "preferred locale" (Server Settings → Community → Overview; en-US otherwise).
      if (!sub.workspace) return undefined;
      const cached = guildLocales.get(sub.workspace);
      if (cached !== undefined) return cached || undefined;
      const guild = (await rest.get(Routes.guild(sub.workspace))) as { preferred_locale?: string };
      const locale = guild.preferred_locale ?? '';
      guildLocales.set(sub.workspace, locale);
      return locale || undefined;
    },
    async post(channel, reply, id) {
      if (id.key.length > MAX_NONCE_LENGTH) throw new Error(`digest key "${id.key}" is longer than a Discord nonce`);
      const { flags: _ephemeral, content, ...message } = renderMessage(reply);
      try {
        await rest.post(Routes.channelMessages(channel), { body: { ...message, content: withKey(content, id), nonce: id.key, enforce_nonce: true } });
      } catch (err) {
        throw classify(err);
      }
    },
    async find(channel, id, window) {
      try {
        const author = await botUserId();
        let after = snowflakeAt(window.from.getTime());
        for (let page = 0; page < MAX_PAGES; page++) {
          const query = new URLSearchParams({ after, limit: String(PAGE_SIZE) });
          const messages = (await rest.get(Routes.channelMessages(channel), { query })) as APIMessage[];
          if (messages.some((m) => m.author.id === author && carriesKey(m.content, id.key))) return true;
          if (messages.length < PAGE_SIZE) {
            if (page === 0 && messages.length === 0 && !(await historyReadable(rest, channel, author))) {
              throw new DeliveryError('forbidden', 'Discord showed no messages in the channel, and the bot lacks Read Message History there: whether the digest message arrived cannot be told. Give Paper Scout Read Message History in this channel');
            }
            return false;
          }
          after = messages.reduce((newest, m) => (BigInt(m.id) > BigInt(newest) ? m.id : newest), after);
          if (timeOf(after) > window.to.getTime()) return false;
        }
      } catch (err) {
        throw lookupFailure(err);
      }
      throw new DeliveryError('transient', `more than ${PAGE_SIZE * MAX_PAGES} messages in the channel around the digest's attempt: cannot tell whether it arrived`);
    },
  };
}

/**
 * Whether the bot may read the channel's history (View Channel and Read Message History), worked
 * out from the server's roles, the bot's and the channel's overwrites as Discord does: a history
 * read without it answers an empty list, not an error, so only this tells "no message there"
 * from "not shown". A DM has no permissions to lack.
 */
async function historyReadable(rest: REST, channelId: string, botId: string): Promise<boolean> {
  const channel = (await rest.get(Routes.channel(channelId))) as ChannelShape;
  if (!channel.guild_id) return true;
  const parent = THREAD_TYPES.includes(channel.type) && channel.parent_id ? ((await rest.get(Routes.channel(channel.parent_id))) as ChannelShape) : channel;
  const [guild, member] = (await Promise.all([rest.get(Routes.guild(channel.guild_id)), rest.get(Routes.guildMember(channel.guild_id, botId))])) as [
    { owner_id?: string; roles?: Array<{ id: string; permissions: string }> },
    { roles?: string[] },
  ];
  const permissions = channelPermissions({
    guildId: channel.guild_id,
    ownerId: guild.owner_id,
    roles: guild.roles ?? [],
    member: { id: botId, roles: member.roles ?? [] },
    overwrites: parent.permission_overwrites ?? [],
  });
  return has(permissions, PERMISSION.viewChannel, PERMISSION.readMessageHistory);
}

/** What {@link historyReadable} reads of a channel. */
interface ChannelShape {
  type: number;
  guild_id?: string;
  parent_id?: string | null;
  permission_overwrites?: Overwrite[];
}

/** A REST client for commands (deploy): Discord's defaults, retries and rate-limit waits included. */
export function createDiscordRest(config: DiscordConfig): REST {
  return new REST({ ...(config.apiUrl && { api: config.apiUrl }) }).setToken(config.token);
}

/** The message's content with the part's key line at the end. */
function withKey(content: string | undefined, id: DigestPartId): string {
  const line = digestKeyLine(id.key);
  return content ? `${content.slice(0, CONTENT_MAX - line.length - 1)}\n${line}` : line;
}

function carriesKey(content: string, key: string): boolean {
  return content.split('\n').includes(digestKeyLine(key));
}

/** The smallest snowflake of an instant: `after` it are the messages from then on. */
function snowflakeAt(ms: number): string {
  return String((BigInt(Math.max(ms, Number(DISCORD_EPOCH))) - DISCORD_EPOCH) << 22n);
}

function timeOf(snowflake: string): number {
  return Number((BigInt(snowflake) >> 22n) + DISCORD_EPOCH);
}

function classify(err: unknown): DeliveryError {
  if (err instanceof RateLimitError) {
    return new DeliveryError('rateLimited', `Discord rate limit on ${err.route} (${err.global ? 'global' : err.scope})`, {
      cause: err,
      retryAfterMs: Math.max(err.retryAfter, err.timeToReset, 0),
      platformWide: err.global,
    });
  }
  if (err instanceof DiscordAPIError) {
    // 403 Missing Access / Missing Permissions, 404 Unknown Channel: only a person can fix it.
    if (err.status === 403 || err.status === 404) return new DeliveryError('forbidden', `Discord said ${err.status} ${err.message}`, { cause: err });
    // 400 Invalid Form Body and the like: this message will never be accepted.
    if (err.status === 400 || err.status === 413) return new DeliveryError('rejected', `Discord said ${err.status} ${err.message}`, { cause: err });
    return new DeliveryError('transient', `Discord said ${err.status} ${err.message}`, { cause: err });
  }
  // A 5xx: Discord did not take the message.
  if (err instanceof HTTPError) return new DeliveryError('transient', `Discord answered HTTP ${err.status}`, { cause: err });
  return requestFailure(err, 'Discord');
}

function lookupFailure(err: unknown): DeliveryError {
  if (err instanceof DiscordAPIError && (err.status === 403 || err.status === 404)) {
    return new DeliveryError('forbidden', `Discord said ${err.status} ${err.message} when reading the channel: the bot needs View Channel and Read Message History`, { cause: err });
  }
  const failure = err instanceof DeliveryError ? err : classify(err);
  // A read that got no answer changed nothing: try again later.
  return failure.failure === 'forbidden' ? failure : new DeliveryError('transient', `could not read the channel: ${failure.message}`, { cause: err });
}
