/**
 * Leases on scheduled jobs (the daily arXiv sync, the OpenReview refresh), so that a job every
 * instance schedules runs once per slot across all of them. A job's row keeps the last slot done
 * and who is running one, until when: the first instance to claim a slot runs it and renews its
 * lease while it works; the others find the slot taken or done; a lease its holder stopped
 * renewing (a crash) expires and the slot can be claimed again.
 */

/** A claim: `owner` holds it from `now` for `ttlMs`. */
export interface JobLease {
  owner: string;
  now: Date;
  ttlMs: number;
}

export interface JobLeases {
  /**
   * Claims `slot` (e.g. the day, `2026-03-02`) of `job` for the lease's owner. Resolves true when
   * no slot at or after it is done and no one else holds a live lease on the job (or the one who
   * does is `replacing`: a holder known to be dead); atomic across processes and instances.
   */
  claim(job: string, slot: string, lease: JobLease, replacing?: string): Promise<boolean>;
  /** Who holds a live lease on `job` at `now`, and until when (ISO 8601). */
  holder(job: string, now: Date): Promise<{ owner: string; until: string } | undefined>;
  /** Extends the owner's lease; false when the job is no longer the owner's. */
  renew(job: string, lease: JobLease): Promise<boolean>;
  /** Gives the owner's lease up; with `done`, records the slot claimed as done first. */
  release(job: string, owner: string, done: boolean): Promise<void>;
  /** The last slot of `job` done, if any. */
  lastDone(job: string): Promise<string | undefined>;
}
