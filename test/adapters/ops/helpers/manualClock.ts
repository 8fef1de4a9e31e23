/**
 * A {@link Clock} that moves only when the test says: sleeps wait until {@link advance} passes
 * their end (or their signal aborts), so backoff and timeouts run in order without real waits.
 */
import type { Clock } from '../../../../src/clock.js';

interface Sleeper {
  until: number;
  resolve: () => void;
}

export class ManualClock implements Clock {
  private time: number;
  private sleepers: Sleeper[] = [];
  /** Every sleep asked for, in milliseconds, in order. */
  readonly sleeps: number[] = [];

  constructor(start = '2026-05-01T08:00:00Z') {
    this.time = Date.parse(start);
  }

  now(): Date {
    return new Date(this.time);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const sleeper: Sleeper = { until: this.time + Math.max(0, ms), resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** Sleeps still waiting, as milliseconds left. */
  get pending(): number[] {
    return this.sleepers.map((s) => s.until - this.time).sort((a, b) => a - b);
  }

  /** Moves time on by `ms`, waking every sleep that ends by then. */
  advance(ms: number): void {
    this.time += ms;
    const due = this.sleepers.filter((s) => s.until <= this.time);
    this.sleepers = this.sleepers.filter((s) => s.until > this.time);
    for (const s of due) s.resolve();
  }
}
