/**
 * Posting digests to Discord channels, for the digest runner: a channel message with the same
 * embeds as every other reply. Each post carries a nonce with enforce_nonce, so Discord drops a
 * repeat of a post it already has (a digest part resumed after a crash arrives once).
 */
import { DiscordAPIError, HTTPError, REST, Routes } from 'discord.js';
import type { DiscordConfig } from '../../src/config.js';
import { DeliveryError, type DigestSender } from '../../src/digest/sender.js';
import { renderMessage } from './render.js';

/** Discord accepts nonces of at most 25 characters. */
export const MAX_NONCE_LENGTH = 25;
/**
 * Discord drops a message whose enforced nonce it saw "in the past few minutes": a resumed part
 * is posted again only this soon after the first attempt.
 */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;

/**
 * @example const sender = createDiscordSender(client.rest); await sender.post(channelId, reply, 'd1.abc.0');
 */
export function createDiscordSender(rest: REST): DigestSender {
  // A server's language rarely changes; one lookup per server per process.
  const guildLocales = new Map<string, string>();
  return {
    platform: 'discord',
    duplicateWindowMs: DUPLICATE_WINDOW_MS,
    async defaultLocale(sub) {
      // The server's "preferred locale" (Server Settings → Community → Overview; en-US otherwise).
      if (!sub.workspace) return undefined;
      const cached = guildLocales.get(sub.workspace);
      if (cached !== undefined) return cached;
      const guild = (await rest.get(Routes.guild(sub.workspace))) as { preferred_locale?: string };
      const locale = guild.preferred_locale ?? '';
      guildLocales.set(sub.workspace, locale);
      return locale || undefined;
    },
    async post(channel, reply, idempotencyKey) {
      if (idempotencyKey.length > MAX_NONCE_LENGTH) throw new Error(`digest key "${idempotencyKey}" is longer than a Discord nonce`);
      const { flags: _ephemeral, ...message } = renderMessage(reply);
      try {
        await rest.post(Routes.channelMessages(channel), { body: { ...message, nonce: idempotencyKey, enforce_nonce: true } });
      } catch (err) {
        throw classify(err);
      }
    },
  };
}

/** A REST client for sending digests from a process that is not connected to the gateway. */
export function createDiscordRest(config: DiscordConfig): REST {
  return new REST({ ...(config.apiUrl && { api: config.apiUrl }) }).setToken(config.token);
}

function classify(err: unknown): unknown {
  if (err instanceof DiscordAPIError) {
    // 403 Missing Access / Missing Permissions, 404 Unknown Channel: only a person can fix it.
    if (err.status === 403 || err.status === 404) return new DeliveryError('forbidden', `Discord said ${err.status} ${err.message}`, { cause: err });
    // 400 Invalid Form Body and the like: this message will never be accepted.
    if (err.status === 400 || err.status === 413) return new DeliveryError('rejected', `Discord said ${err.status} ${err.message}`, { cause: err });
    return new DeliveryError('transient', `Discord said ${err.status} ${err.message}`, { cause: err });
  }
  if (err instanceof HTTPError) return new DeliveryError('transient', `Discord answered HTTP ${err.status}`, { cause: err });
  // A timeout or a dropped connection: the post may have arrived. The runner keeps it in flight.
  return err;
}
