/**
 * How digests reach a channel: each platform adapter provides a sender. The runner only needs
 * to know whether a post was confirmed, and if not, whether trying again can help.
 */
import type { Reply } from '../reply.js';
import type { ChatPlatform } from './store.js';

export interface DigestSender {
  platform: ChatPlatform;
  /**
   * Whether repeating a post with the same `idempotencyKey` is safe (the platform drops the
   * duplicate, as Discord does with an enforced nonce). If not, a part whose post was under way
   * when the process stopped is counted as sent rather than risk posting it twice.
   */
  idempotent: boolean;
  /** Posts one message to a channel; resolves once the platform has accepted it. */
  post(channel: string, reply: Reply, idempotencyKey: string): Promise<void>;
}

/** Why a post failed, as far as retrying goes. */
export type DeliveryFailure =
  /** The channel is gone or the bot may not post there (403/404): retry a few times, then pause. */
  | 'forbidden'
  /** Rate limits or server errors that outlasted the client's own retries: try again later. */
  | 'transient';

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
