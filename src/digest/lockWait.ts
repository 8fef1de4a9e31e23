/**
 * Another process's write lock (an import, a migration, a sqlite3 shell left in a transaction),
 * as one digest pass meets it. Nothing of a digest whose step found the store locked was posted,
 * and every step of a run can be taken again (a run this pass claimed is still its own), so the
 * pass waits for the lock and carries on, within its budget: the first digest to find the store
 * locked waits, trying its own step again with backoff; the others wait for it instead of each
 * trying the lock, since a try blocks the serving bot's event loop (up to 50 ms, its busy
 * timeout). Past the budget, or once the pass is asked to stop, the digests not done are left
 * for the next pass, all at once: the runner says so in one warning.
 */
import type { Clock } from '../clock.js';
import { isStoreBusy } from '../store/errors.js';

/** Pauses between tries of a locked store: short first (an import's batch), then every 4 s. */
const RETRY_MS = [250, 500, 1000, 2000, 4000];

export class LockWait {
  /** Set while one digest waits for the lock; the others wait for it to settle. */
  private waiting: Promise<void> | undefined;
  private spent = false;
  private started: number | undefined;
  private readonly deadline: number;

  constructor(
    private readonly clock: Clock,
    budgetMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.deadline = clock.now().getTime() + budgetMs;
  }

  /** Whether the pass gave up on the lock (budget spent or asked to stop): what is left goes to the next pass. */
  get gaveUp(): boolean {
    return this.spent;
  }

  /** How long the pass waited for the lock, in all (0 when it never met it). */
  get waitedMs(): number {
    return this.started === undefined ? 0 : this.clock.now().getTime() - this.started;
  }

  /**
   * Runs `step`, and again while it finds the store locked, until it goes through (true) or the
   * pass gives up on the lock (false: nothing was done that a later pass cannot take up). Any
   * other error is thrown.
   * @example if (!(await lock.run(() => runSubscription(pass, sender, sub)))) summary.locked++;
   */
  async run(step: () => Promise<void>): Promise<boolean> {
    for (;;) {
      while (this.waiting) await this.waiting;
      if (this.spent) return false;
      if (await this.tried(step)) return true;
      if (this.waiting) continue; // another digest began waiting meanwhile: wait with it
      let settle!: () => void;
      this.waiting = new Promise((resolve) => (settle = resolve));
      this.started ??= this.clock.now().getTime();
      try {
        return await this.waitAndRetry(step);
      } finally {
        this.waiting = undefined;
        settle();
      }
    }
  }

  private async waitAndRetry(step: () => Promise<void>): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      const pause = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]!;
      if (this.signal?.aborted || this.clock.now().getTime() + pause > this.deadline) {
        this.spent = true;
        return false;
      }
      try {
        await this.clock.sleep(pause, this.signal);
      } catch {
        continue; // aborted: given up above
      }
      if (await this.tried(step)) return true;
    }
  }

  /** Whether `step` went through; false when it found the store locked. */
  private async tried(step: () => Promise<void>): Promise<boolean> {
    try {
      await step();
      return true;
    } catch (err) {
      if (isStoreBusy(err)) return false;
      throw err;
    }
  }
}
