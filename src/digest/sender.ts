/**
 * How digests reach a channel: each platform adapter provides a sender. The runner needs to know
 * three things about a post: it arrived; it certainly did not (and whether trying again can
 * help); or nobody can tell, because the answer was lost after the request was sent. An unknown
 * post is looked for in the channel ({@link DigestSender.find}) before anything is posted again.
 */
import type { Reply } from '../reply.js';
import type { ChatPlatform, Subscription } from '../store/digests.js';

/** Which part of which digest a message is: carried in the message so that it can be found. */
export interface DigestPartId {
  /** Short and the same on every attempt (at most 25 characters: a Discord nonce). */
  key: string;
  subscription: number;
  /** ISO instant of the digest's slot. */
  slot: string;
  /** 0-based part of the digest. */
  part: number;
  /** The subscription's workspace (Discord guild, Slack team): whose token a multi-workspace app posts with. */
  workspace?: string;
}

/** Where in a channel's history a part posted under an unknown outcome can be. */
export interface LookupWindow {
  from: Date;
  to: Date;
}

export interface DigestSender {
  platform: ChatPlatform;
  /**
   * How long after a post repeating it with the same key is safe because the platform drops the
   * repeat (Discord does, for an enforced nonce, for a few minutes); 0 where it does not. Within
   * it a part of unknown outcome is simply posted again; after it, it is looked for first.
   */
  duplicateWindowMs: number;
  /**
   * The language of a digest whose subscription has none stored (one made before the
   * subscriber's locale was kept): the server's default on Discord, the subscriber's on Slack
   * (Slack has no workspace language).
   */
  defaultLocale?(sub: Subscription): Promise<string | undefined>;
  /**
   * Posts one message to a channel; resolves once the platform has accepted it. Fails with a
   * {@link DeliveryError}; anything else counts as an unknown outcome.
   */
  post(channel: string, reply: Reply, id: DigestPartId): Promise<void>;
  /**
   * Whether the bot's message for `id` is in the channel, among the messages posted within
   * `window`. Fails with a {@link DeliveryError} when it cannot tell (the history cannot be
   * read, the platform is unreachable).
   */
  find(channel: string, id: DigestPartId, window: LookupWindow): Promise<boolean>;
}

/** What a failed post means for trying again. */
export type DeliveryFailure =
  /** The channel is gone or the bot may not post (or read) there: retry a few times, then pause. */
  | 'forbidden'
  /**
   * Certainly not posted (connection refused, DNS or TLS failure, a 5xx answer, the platform
   * unreachable): try again later.
   */
  | 'transient'
  /** Not posted because of a rate limit: try again after `retryAfterMs`. */
  | 'rateLimited'
  /** The platform refused this message itself (400: too big, malformed): it will never go. */
  | 'rejected'
  /** The request went out and its answer was lost (timeout, connection reset): it may have arrived. */
  | 'unknown';

export interface DeliveryErrorOptions {
  cause?: unknown;
  /** For `rateLimited`: how long the platform asked to wait. */
  retryAfterMs?: number;
  /** For `rateLimited`: whether the limit holds for the whole platform (not just this channel). */
  platformWide?: boolean;
}

export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  readonly retryAfterMs: number | undefined;
  readonly platformWide: boolean;
  constructor(
    readonly failure: DeliveryFailure,
    message: string,
    options: DeliveryErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterMs = options.retryAfterMs;
    this.platformWide = options.platformWide ?? false;
  }
}
