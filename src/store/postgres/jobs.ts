/**
 * Job leases in PostgreSQL (table `job_leases`), shared by every instance. A claim is one
 * conditional UPDATE: under READ COMMITTED a second claimer waits for the first to commit and
 * re-checks the condition, so of several instances claiming a slot exactly one gets the row.
 */
import type { JobLease, JobLeases } from '../jobs.js';
import type { Postgres } from './connection.js';

export class PgJobLeases implements JobLeases {
  constructor(private readonly db: Postgres) {}

  async claim(job: string, slot: string, lease: JobLease, replacing?: string): Promise<boolean> {
    await this.db.query('INSERT INTO job_leases (job) VALUES ($1) ON CONFLICT (job) DO NOTHING', [job]);
    const { rowCount } = await this.db.query(
      `UPDATE job_leases SET slot = $2, lease_owner = $3, lease_until = $4
       WHERE job = $1 AND (last_slot IS NULL OR last_slot < $2)
         AND (lease_owner IS NULL OR lease_owner = $3 OR lease_owner = $6 OR lease_until <= $5)`,
      [job, slot, lease.owner, until(lease), lease.now.toISOString(), replacing ?? null],
    );
    return rowCount === 1;
  }

  async holder(job: string, now: Date): Promise<{ owner: string; until: string } | undefined> {
    const { rows } = await this.db.query<{ lease_owner: string; lease_until: string }>(
      'SELECT lease_owner, lease_until FROM job_leases WHERE job = $1 AND lease_owner IS NOT NULL AND lease_until > $2',
      [job, now.toISOString()],
    );
    return rows[0] && { owner: rows[0].lease_owner, until: rows[0].lease_until };
  }

  async renew(job: string, lease: JobLease): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE job_leases SET lease_until = $3 WHERE job = $1 AND lease_owner = $2', [job, lease.owner, until(lease)]);
    return rowCount === 1;
  }

  async release(job: string, owner: string, done: boolean): Promise<void> {
    await this.db.query(
      `UPDATE job_leases SET last_slot = CASE WHEN $3 THEN slot ELSE last_slot END, slot = NULL, lease_owner = NULL, lease_until = NULL
       WHERE job = $1 AND lease_owner = $2`,
      [job, owner, done],
    );
  }

  async lastDone(job: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ last_slot: string | null }>('SELECT last_slot FROM job_leases WHERE job = $1', [job]);
    return rows[0]?.last_slot ?? undefined;
  }
}

function until(lease: JobLease): string {
  return new Date(lease.now.getTime() + lease.ttlMs).toISOString();
}
