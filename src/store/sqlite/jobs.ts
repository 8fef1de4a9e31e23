/**
 * Job leases in SQLite (table `job_leases`): each step is one statement under SQLite's write
 * lock, so of two processes claiming one slot exactly one changes the row.
 */
import type { JobLease, JobLeases } from '../jobs.js';
import type { Db } from './db.js';

export class SqliteJobLeases implements JobLeases {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      ensure: db.prepare<[string]>('INSERT INTO job_leases (job) VALUES (?) ON CONFLICT (job) DO NOTHING'),
      claim: db.prepare(`UPDATE job_leases SET slot = @slot, lease_owner = @owner, lease_until = @until
        WHERE job = @job AND (last_slot IS NULL OR last_slot < @slot)
          AND (lease_owner IS NULL OR lease_owner = @owner OR lease_owner = @replacing OR lease_until <= @now)`),
      holder: db.prepare<[string, string], { lease_owner: string; lease_until: string }>(
        'SELECT lease_owner, lease_until FROM job_leases WHERE job = ? AND lease_owner IS NOT NULL AND lease_until > ?',
      ),
      renew: db.prepare('UPDATE job_leases SET lease_until = @until WHERE job = @job AND lease_owner = @owner'),
      release: db.prepare(`UPDATE job_leases SET last_slot = CASE WHEN @done = 1 THEN slot ELSE last_slot END,
        slot = NULL, lease_owner = NULL, lease_until = NULL WHERE job = @job AND lease_owner = @owner`),
      lastDone: db.prepare<[string], { last_slot: string | null }>('SELECT last_slot FROM job_leases WHERE job = ?'),
    };
  }

  async claim(job: string, slot: string, lease: JobLease, replacing?: string): Promise<boolean> {
    this.stmts.ensure.run(job);
    return this.stmts.claim.run({ job, slot, owner: lease.owner, until: until(lease), now: lease.now.toISOString(), replacing: replacing ?? null }).changes === 1;
  }

  async holder(job: string, now: Date): Promise<{ owner: string; until: string } | undefined> {
    const row = this.stmts.holder.get(job, now.toISOString());
    return row && { owner: row.lease_owner, until: row.lease_until };
  }

  async renew(job: string, lease: JobLease): Promise<boolean> {
    return this.stmts.renew.run({ job, owner: lease.owner, until: until(lease) }).changes === 1;
  }

  async release(job: string, owner: string, done: boolean): Promise<void> {
    this.stmts.release.run({ job, owner, done: done ? 1 : 0 });
  }

  async lastDone(job: string): Promise<string | undefined> {
    return this.stmts.lastDone.get(job)?.last_slot ?? undefined;
  }
}

function until(lease: JobLease): string {
  return new Date(lease.now.getTime() + lease.ttlMs).toISOString();
}
