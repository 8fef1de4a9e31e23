/**
 * Posting digests to Slack channels, for the digest runner: chat.postMessage with the same
 * Block Kit as every other reply. Slack's answers are sorted into what retrying can fix.
 */
import { webApi } from '@slack/bolt';
import type { SlackConfig } from '../../src/config.js';
import { DeliveryError, type DigestSender } from '../../src/digest/sender.js';
import { renderReply } from './render.js';

/** Slack errors that mean the bot cannot post in this channel until someone changes something. */
const FORBIDDEN = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
  'ekm_access_denied',
]);

/** Slack errors about this message itself: it will never be accepted. */
const REJECTED = new Set(['invalid_blocks', 'invalid_blocks_format', 'msg_too_long', 'too_many_attachments', 'no_text', 'invalid_arguments']);

// Token and scope problems (invalid_auth, token_revoked, missing_scope, account_inactive …) are
// about the whole app, not a channel: they are retried with backoff and never pause a channel.

/**
 * @example const sender = createSlackSender(bolt.client); await sender.post('C123', reply, 'key');
 */
export function createSlackSender(client: webApi.WebClient): DigestSender {
  return {
    platform: 'slack',
    // Slack has no idempotency key for chat.postMessage: a part whose post may have arrived is
    // counted as sent rather than risk a duplicate.
    duplicateWindowMs: 0,
    async defaultLocale(sub) {
      // Slack has no workspace language (team.info has none): the subscriber's own.
      const info = await client.users.info({ user: sub.createdBy, include_locale: true });
      return info.user?.locale;
    },
    async post(channel, reply) {
      const message = renderReply(reply);
      try {
        await client.chat.postMessage({ channel, ...message, unfurl_links: false, unfurl_media: false });
      } catch (err) {
        throw classify(err);
      }
    },
  };
}

/** A Web API client for sending digests from a process that does not receive Slack's requests. */
export function createSlackClient(config: SlackConfig): webApi.WebClient {
  return new webApi.WebClient(config.botToken, {
    ...(config.apiUrl && { slackApiUrl: config.apiUrl }),
    retryConfig: { retries: 3 },
    timeout: 30_000,
  });
}

function classify(err: unknown): unknown {
  const e = err as { code?: string; data?: { error?: string }; statusCode?: number; message?: string };
  if (e.code === webApi.ErrorCode.PlatformError) {
    const code = e.data?.error ?? 'unknown_error';
    const failure = FORBIDDEN.has(code) ? 'forbidden' : REJECTED.has(code) ? 'rejected' : 'transient';
    return new DeliveryError(failure, `Slack said ${code}`, { cause: err });
  }
  if (e.code === webApi.ErrorCode.RateLimitedError) return new DeliveryError('transient', 'Slack rate limit (429)', { cause: err });
  if (e.code === webApi.ErrorCode.HTTPError) {
    const status = e.statusCode ?? 0;
    return new DeliveryError(status === 403 || status === 404 ? 'forbidden' : 'transient', `Slack answered HTTP ${status}`, { cause: err });
  }
  // A timeout or a dropped connection: the post may have arrived. The runner keeps it in flight.
  return err;
}
