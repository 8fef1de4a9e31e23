/**
 * Time as the core sees it: the current instant and a way to wait. Network code, digest leases
 * and the store's reconnects take a {@link Clock} instead of calling `Date` and `setTimeout`
 * themselves, so tests can pass a clock that advances at once and records every wait.
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

/**
 * A clock that reads `start` now and runs on in real time: `paperscout digest run-due --at` acts
 * as if it were that instant, for its leases and records as well as for the slots it sends.
 * @example const clock = clockStartingAt(new Date('2026-03-02T09:00:00Z')); clock.now() // 09:00:00.000, then onwards
 */
export function clockStartingAt(start: Date): Clock {
  const origin = performance.now();
  return { now: () => new Date(start.getTime() + (performance.now() - origin)), sleep: systemClock.sleep };
}
