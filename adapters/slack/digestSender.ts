/**
 * Posting digests to Slack channels, for the digest runner: chat.postMessage with the same
 * Block Kit as every other reply. Slack's answers are sorted into what retrying can fix.
 */
import { webApi } from '@slack/bolt';
import type { SlackConfig } from '../../src/config.js';
import { DeliveryError, type DigestSender } from '../../src/digest/sender.js';
import { renderReply } from './render.js';

/** Slack errors that mean the bot cannot post in the channel until someone changes something. */
const FORBIDDEN = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'missing_scope',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
  'ekm_access_denied',
  'team_access_not_granted',
  'account_inactive',
  'invalid_auth',
  'not_authed',
  'token_revoked',
]);

/**
 * @example const sender = createSlackSender(bolt.client); await sender.post('C123', reply, 'key');
 */
export function createSlackSender(client: webApi.WebClient): DigestSender {
  return {
    platform: 'slack',
    // Slack has no idempotency key for chat.postMessage: a part whose post may have arrived is
    // counted as sent rather than risk a duplicate.
    idempotent: false,
    async post(channel, reply) {
      try {
        await client.chat.postMessage({ channel, ...renderReply(reply), unfurl_links: false, unfurl_media: false });
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
    return new DeliveryError(FORBIDDEN.has(code) ? 'forbidden' : 'transient', `Slack said ${code}`, { cause: err });
  }
  if (e.code === webApi.ErrorCode.RateLimitedError) return new DeliveryError('transient', 'Slack rate limit (429)', { cause: err });
  if (e.code === webApi.ErrorCode.HTTPError) {
    const status = e.statusCode ?? 0;
    return new DeliveryError(status === 403 || status === 404 ? 'forbidden' : 'transient', `Slack answered HTTP ${status}`, { cause: err });
  }
  // A timeout or a dropped connection: the post may have arrived. The runner keeps it in flight.
  return err;
}
