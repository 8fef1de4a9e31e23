/**
 * What a platform adapter gives the process that started it: a name for the logs, a sender for
 * digests, and a way to stop.
 */
import type { DigestSender } from './digest/sender.js';

export interface RunningAdapter {
  name: string;
  /** Posts digests to the platform's channels. */
  sender?: DigestSender;
  stop(): Promise<void>;
}
