/**
 * Work under way (requests being answered), so that a shutdown can let it finish: each piece is
 * tracked from its start to its end, and {@link InFlight.idle} waits until none is left.
 */
export class InFlight {
  private readonly work = new Set<Promise<void>>();

  /** Tracks `work` until it settles (its outcome is its owner's business). */
  readonly track = (work: Promise<unknown>): void => {
    const settled: Promise<void> = work.then(
      () => undefined,
      () => undefined,
    );
    this.work.add(settled);
    void settled.then(() => this.work.delete(settled));
  };

  /** How many pieces of work are under way. */
  get count(): number {
    return this.work.size;
  }

  /**
   * Resolves true once nothing is under way (work that starts meanwhile is waited for too), or
   * false when `signal` aborts first.
   * @example if (!(await inFlight.idle(AbortSignal.timeout(10_000)))) log.warn('gave up waiting');
   */
  async idle(signal?: AbortSignal): Promise<boolean> {
    const aborted = new Promise<false>((resolve) => {
      if (signal?.aborted) resolve(false);
      signal?.addEventListener('abort', () => resolve(false), { once: true });
    });
    while (this.work.size > 0) {
      const done = await Promise.race([Promise.all(this.work).then(() => true), aborted]);
      if (!done) return false;
      // Let the finished pieces leave the set (their cleanup runs right after they settle).
      await Promise.resolve();
    }
    return !signal?.aborted;
  }
}
