/**
 * Posting digests to Slack channels, for the digest runner: chat.postMessage with the same Block
 * Kit as every other reply, over a Web API client of its own that never decides for the runner:
 * no retries (chat.postMessage has no idempotency key, so a blind retry of a slow post is a
 * duplicate) and 429s handed back instead of slept through.
 *
 * Each message carries message metadata (`event_type` {@link DIGEST_EVENT_TYPE}, the part's key,
 * subscription, slot and part in `event_payload`), so that a post whose answer was lost can be
 * looked for with conversations.history (`include_all_metadata`): that needs channels:history
 * (public channels) and groups:history (private ones).
 */
import { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { SlackConfig } from '../../src/config.js';
import { requestFailure } from '../../src/digest/outcome.js';
import { DeliveryError, type DigestSender } from '../../src/digest/sender.js';
import { boltLogger } from './logger.js';
import { renderReply } from './render.js';

/** The message metadata event type of digest messages. */
export const DIGEST_EVENT_TYPE = 'paperscout_digest';
/** A digest post or history read that has not been answered by then is given up (outcome unknown). */
export const DIGEST_REQUEST_TIMEOUT_MS = 30_000;
/** Messages read per page, and pages read before giving up on a busy channel. */
const PAGE_SIZE = 200;
const MAX_PAGES = 5;

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
const REJECTED = new Set(['invalid_blocks', 'invalid_blocks_format', 'msg_too_long', 'too_many_attachments', 'no_text', 'invalid_arguments', 'invalid_metadata_format', 'invalid_metadata_schema']);

/** Slack errors after which "it's possible some aspect of the operation succeeded" (Slack's words). */
const MAYBE_DONE = new Set(['internal_error', 'fatal_error']);

// Token and scope problems (invalid_auth, token_revoked, missing_scope, account_inactive …) on a
// post are about the whole app, not a channel: they are retried with backoff and never pause a
// channel. On a history read, missing_scope and not_in_channel mean the bot cannot check this
// channel: that is reported as forbidden, with the fix.

export interface SlackSenderOptions {
  /** Default {@link DIGEST_REQUEST_TIMEOUT_MS}. */
  timeoutMs?: number;
  /**
   * Many workspaces (OAuth): the bot token of a workspace, from its installation; rejects when
   * it has none. Unset: every post uses SLACK_BOT_TOKEN.
   */
  tokenFor?: (workspace: string) => Promise<string>;
}

/** Workspace clients kept at most (the oldest is dropped first). */
const MAX_CLIENTS = 500;

/**
 * @example const sender = createSlackSender(config.slack, log); await sender.post('C123', reply, partId(sub, run, 0));
 */
export function createSlackSender(config: SlackConfig, log: Logger, options: SlackSenderOptions = {}): DigestSender {
  const clientOptions = {
    ...(config.apiUrl && { slackApiUrl: config.apiUrl }),
    logger: boltLogger(log),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? DIGEST_REQUEST_TIMEOUT_MS,
  };
  const single = new webApi.WebClient(config.botToken, clientOptions);
  const clients = new Map<string, webApi.WebClient>();
  const { tokenFor } = options;
  // Slack's rate limits are per app and workspace: with many workspaces, one's limit is not another's.
  const platformWide = tokenFor === undefined;
  /** The client with the token of the workspace (the one token in single-workspace mode). */
  const clientFor = async (workspace: string | undefined): Promise<webApi.WebClient> => {
    if (!tokenFor) return single;
    let token: string;
    try {
      if (workspace === undefined) throw new Error('the digest names no workspace');
      token = await tokenFor(workspace);
    } catch (err) {
      throw new DeliveryError('forbidden', `Paper Scout has no installation in Slack workspace ${workspace ?? '(none)'}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    let client = clients.get(token);
    if (!client) {
      client = new webApi.WebClient(token, clientOptions);
      clients.set(token, client);
      if (clients.size > MAX_CLIENTS) clients.delete(clients.keys().next().value!);
    }
    return client;
  };
  return {
    platform: 'slack',
    // No idempotency key: a part of unknown outcome is always looked for before it is posted again.
    duplicateWindowMs: 0,
    async defaultLocale(sub) {
      // Slack has no workspace language (team.info has none): the subscriber's own.
      const client = await clientFor(sub.workspace);
      const info = await client.users.info({ user: sub.createdBy, include_locale: true });
      return info.user?.locale;
    },
    async post(channel, reply, id) {
      const message = renderReply(reply);
      const metadata = { event_type: DIGEST_EVENT_TYPE, event_payload: { key: id.key, subscription: id.subscription, slot: id.slot, part: id.part } };
      const client = await clientFor(id.workspace);
      try {
        await client.chat.postMessage({ channel, ...message, unfurl_links: false, unfurl_media: false, metadata });
      } catch (err) {
        throw classify(err, platformWide);
      }
    },
    async find(channel, id, window) {
      const client = await clientFor(id.workspace);
      let cursor: string | undefined;
      try {
        for (let page = 0; page < MAX_PAGES; page++) {
          const result = await client.conversations.history({
            channel,
            oldest: slackTs(window.from),
            latest: slackTs(window.to),
            inclusive: true,
            include_all_metadata: true,
            limit: PAGE_SIZE,
            ...(cursor && { cursor }),
          });
          const found = (result.messages ?? []).some((m) => {
            const metadata = (m as { metadata?: { event_type?: string; event_payload?: { key?: unknown } } }).metadata;
            return metadata?.event_type === DIGEST_EVENT_TYPE && metadata.event_payload?.key === id.key;
          });
          if (found) return true;
          cursor = result.response_metadata?.next_cursor || undefined;
          if (!result.has_more || !cursor) return false;
        }
      } catch (err) {
        throw lookupFailure(err, platformWide);
      }
      throw new DeliveryError('transient', `more than ${PAGE_SIZE * MAX_PAGES} messages in the channel around the digest's attempt: cannot tell whether it arrived`);
    },
  };
}

/** Slack's timestamp form of an instant: seconds with six decimals. */
function slackTs(date: Date): string {
  return (date.getTime() / 1000).toFixed(6);
}

function classify(err: unknown, platformWide: boolean): DeliveryError {
  const e = err as { code?: string; data?: { error?: string }; statusCode?: number; retryAfter?: number };
  if (e.code === webApi.ErrorCode.PlatformError) {
    const code = e.data?.error ?? 'unknown_error';
    if (MAYBE_DONE.has(code)) return new DeliveryError('unknown', `Slack said ${code}`, { cause: err });
    if (code === 'ratelimited') return new DeliveryError('transient', 'Slack said ratelimited', { cause: err });
    const failure = FORBIDDEN.has(code) ? 'forbidden' : REJECTED.has(code) ? 'rejected' : 'transient';
    return new DeliveryError(failure, `Slack said ${code}`, { cause: err });
  }
  if (e.code === webApi.ErrorCode.RateLimitedError) {
    // Slack's limits are per app and workspace: with one workspace, the rest of the pass would meet the same one.
    return new DeliveryError('rateLimited', `Slack rate limit (429, retry after ${e.retryAfter} s)`, { cause: err, retryAfterMs: (e.retryAfter ?? 60) * 1000, platformWide });
  }
  if (e.code === webApi.ErrorCode.HTTPError) {
    const status = e.statusCode ?? 0;
    // A 5xx: Slack did not take the message.
    return new DeliveryError(status === 403 || status === 404 ? 'forbidden' : 'transient', `Slack answered HTTP ${status}`, { cause: err });
  }
  return requestFailure(err, 'Slack');
}

function lookupFailure(err: unknown, platformWide: boolean): DeliveryError {
  const e = err as { code?: string; data?: { error?: string; needed?: string } };
  if (e.code === webApi.ErrorCode.PlatformError) {
    const code = e.data?.error ?? 'unknown_error';
    if (code === 'missing_scope') {
      return new DeliveryError('forbidden', `Slack refused to read the channel's history (missing_scope${e.data?.needed ? `: ${e.data.needed}` : ''}): add the channels:history and groups:history scopes (manifest.yml) and reinstall the app`, { cause: err });
    }
    if (code === 'not_in_channel' || code === 'channel_not_found') {
      return new DeliveryError('forbidden', `Slack refused to read the channel's history (${code}): invite the bot to the channel`, { cause: err });
    }
  }
  const failure = classify(err, platformWide);
  // A read that got no answer changed nothing: try again later.
  return failure.failure === 'forbidden' ? failure : new DeliveryError('transient', `could not read the channel's history: ${failure.message}`, { cause: err });
}
