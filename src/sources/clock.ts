/**
 * Time as the sources see it: the current instant and a way to wait. Network code takes a
 * {@link Clock} instead of calling `Date` and `setTimeout` itself, so tests can pass a clock that
 * advances at once and records every wait.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface Clock {
  now(): Date;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason once `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The real clock: `new Date()` and a timer.
 * @example await systemClock.sleep(3000); // three seconds later
 */
export const systemClock: Clock = {
  now: () => new Date(),
  sleep: async (ms, signal) => {
    await delay(Math.max(0, ms), undefined, signal ? { signal } : {});
  },
};
