/**
 * A {@link Clock} for tests: time stands still until someone sleeps, and a sleep advances it at
 * once and is recorded, so politeness delays can be asserted without waiting for them.
 */
import type { Clock } from '../../../src/clock.js';

export class FakeClock implements Clock {
  private time: number;
  /** Every sleep asked for, in milliseconds, in order. */
  readonly sleeps: number[] = [];

  constructor(start: string | Date = '2025-04-14T06:30:00Z') {
    this.time = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.time);
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.sleeps.push(ms);
    this.time += Math.max(0, ms);
    await Promise.resolve();
  }

  /** Moves time on without a sleep (a day passing between syncs). */
  advance(ms: number): void {
    this.time += ms;
  }
}
