/**
 * How digests reach a channel: each platform adapter provides a sender. The runner only needs
 * to know whether a post was confirmed, and if not, whether trying again can help.
 */
import type { Reply } from '../reply.js';
import type { ChatPlatform, Subscription } from './store.js';

export interface DigestSender {
  platform: ChatPlatform;
  /**
   * How long after a post repeating it with the same `idempotencyKey` is safe: the platform drops
   * the duplicate (Discord does, for an enforced nonce, for a few minutes). 0 where it does not.
   * A part whose post was under way when the process stopped is posted again only within this
   * window; later, or on a platform without one, it counts as sent rather than risk a duplicate.
   */
  duplicateWindowMs: number;
  /**
   * The language of a digest whose subscription has none stored (one made before the
   * subscriber's locale was kept): the server's default on Discord, the subscriber's on Slack
   * (Slack has no workspace language).
   */
  defaultLocale?(sub: Subscription): Promise<string | undefined>;
  /** Posts one message to a channel; resolves once the platform has accepted it. */
  post(channel: string, reply: Reply, idempotencyKey: string): Promise<void>;
}

/** Why a post failed, as far as retrying goes. */
export type DeliveryFailure =
  /** The channel is gone or the bot may not post there (403/404): retry a few times, then pause. */
  | 'forbidden'
  /** Rate limits or server errors that outlasted the client's own retries: try again later. */
  | 'transient'
  /** The platform refused this message itself (400: too big, malformed): it will never go. */
  | 'rejected';

export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  constructor(
    readonly failure: DeliveryFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
