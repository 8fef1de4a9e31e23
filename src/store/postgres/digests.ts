/**
 * The digest store in PostgreSQL, shared by every instance (the protocol is in
 * `src/store/digests.ts`). Leases are row leases: `claimRun` is one conditional UPDATE (free,
 * expired or ours, and due), and under READ COMMITTED a concurrent UPDATE of the same row waits
 * for the first to commit and re-checks its WHERE, so of several instances claiming a run exactly
 * one gets it back. Planning a slot is one transaction whose `INSERT … ON CONFLICT DO NOTHING`
 * waits for, then yields to, another instance planning the same slot. Every change names the
 * lease owner, so an instance that lost its lease changes nothing; and every statement can be
 * repeated after a lost connection without effect (see `connection.ts`).
 */
import type { Message } from '../../i18n/index.js';
import type {
  ChatPlatform,
  DigestRun,
  DigestStore,
  Lease,
  NewSubscription,
  PartFailure,
  RunPlan,
  RunRef,
  Subscription,
} from '../digests.js';
import { leaseUntil, toRun, toSubscription, type RunRow, type SubscriptionRow } from '../digestRows.js';
import type pg from 'pg';
import type { Postgres } from './connection.js';

/** The run `$1`/`$2` held by owner `$3`. */
const OURS = 'subscription_id = $1 AND slot = $2 AND lease_owner = $3';
const REWIND = 'UPDATE subscriptions SET last_digest_at = $2 WHERE id = $1 AND (last_digest_at IS NULL OR last_digest_at > $2)';
const COMPLETE = 'UPDATE subscriptions SET last_slot = $2 WHERE id = $1 AND (last_slot IS NULL OR last_slot < $2)';

export class PgDigestStore implements DigestStore {
  constructor(private readonly db: Postgres) {}

  async subscribe(sub: NewSubscription): Promise<Subscription> {
    const { rows } = await this.db.query<SubscriptionRow>(
      `INSERT INTO subscriptions (platform, workspace, channel, query, label, time, timezone, days, count, fill, created_by, created_at, locale)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (platform, channel, query) DO UPDATE SET label = excluded.label, time = excluded.time, timezone = excluded.timezone,
         days = excluded.days, count = excluded.count, fill = excluded.fill, locale = coalesce(excluded.locale, subscriptions.locale),
         status = 'active', paused_reason = NULL
       RETURNING *`,
      [sub.platform, sub.workspace, sub.channel, sub.query, sub.label, sub.time, sub.timezone, sub.days, sub.count, sub.fill, sub.createdBy, sub.createdAt, sub.locale ?? null],
    );
    return toSubscription(rows[0]!);
  }

  async get(id: number): Promise<Subscription | undefined> {
    const { rows } = await this.db.query<SubscriptionRow>('SELECT * FROM subscriptions WHERE id = $1', [id]);
    return rows[0] && toSubscription(rows[0]);
  }

  async forChannel(platform: ChatPlatform, channel: string): Promise<Subscription[]> {
    const { rows } = await this.db.query<SubscriptionRow>('SELECT * FROM subscriptions WHERE platform = $1 AND channel = $2 ORDER BY id', [platform, channel]);
    return rows.map(toSubscription);
  }

  async active(): Promise<Subscription[]> {
    const { rows } = await this.db.query<SubscriptionRow>("SELECT * FROM subscriptions WHERE status = 'active' ORDER BY id");
    return rows.map(toSubscription);
  }

  async all(): Promise<Subscription[]> {
    const { rows } = await this.db.query<SubscriptionRow>('SELECT * FROM subscriptions ORDER BY platform, workspace, channel, id');
    return rows.map(toSubscription);
  }

  async unsubscribe(id: number): Promise<void> {
    await this.db.query('WITH runs AS (DELETE FROM digest_runs WHERE subscription_id = $1) DELETE FROM subscriptions WHERE id = $1', [id]);
  }

  async forgetWorkspace(platform: ChatPlatform, workspace: string): Promise<number> {
    const { rowCount } = await this.db.query(
      `WITH gone AS (SELECT id, channel FROM subscriptions WHERE platform = $1 AND workspace = $2),
         ledger AS (DELETE FROM digest_ledger WHERE platform = $1 AND channel IN (SELECT channel FROM gone)
           AND channel NOT IN (SELECT channel FROM subscriptions WHERE platform = $1 AND workspace <> $2)),
         runs AS (DELETE FROM digest_runs WHERE subscription_id IN (SELECT id FROM gone))
       DELETE FROM subscriptions WHERE id IN (SELECT id FROM gone)`,
      [platform, workspace],
    );
    return rowCount ?? 0;
  }

  async pause(id: number, reason: Message): Promise<void> {
    await this.db.query("UPDATE subscriptions SET status = 'paused', paused_reason = $2 WHERE id = $1", [id, JSON.stringify(reason)]);
  }

  async sentAmong(platform: ChatPlatform, channel: string, keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const { rows } = await this.db.query<{ key: string }>('SELECT key FROM digest_ledger WHERE platform = $1 AND channel = $2 AND key = ANY($3::text[])', [
      platform,
      channel,
      keys,
    ]);
    return new Set(rows.map((r) => r.key));
  }

  async completeSlot(sub: Subscription, slot: string): Promise<void> {
    await this.db.query(COMPLETE, [sub.id, slot]);
  }

  async run(subscriptionId: number, slot: string): Promise<DigestRun | undefined> {
    const { rows } = await this.db.query<RunRow>('SELECT * FROM digest_runs WHERE subscription_id = $1 AND slot = $2', [subscriptionId, slot]);
    return rows[0] && toRun(rows[0]);
  }

  async openRuns(subscriptionId: number): Promise<DigestRun[]> {
    const { rows } = await this.db.query<RunRow>("SELECT * FROM digest_runs WHERE subscription_id = $1 AND state = 'sending' ORDER BY slot", [subscriptionId]);
    return rows.map(toRun);
  }

  async planRun(sub: Subscription, slot: string, plan: RunPlan, parts: number, lease: Lease): Promise<DigestRun | undefined> {
    const at = lease.now.toISOString();
    const content = JSON.stringify({ ids: plan.papers.map((p) => p.id), fill: plan.fill, since: plan.since });
    const keys = plan.papers.flatMap((p) => p.keys.map((key) => [key, p.id] as const));
    return this.db.transaction(async (client) => {
      const { rows } = await client.query<RunRow>(
        `INSERT INTO digest_runs (subscription_id, slot, papers, parts, state, lease_owner, lease_until, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'sending', $5, $6, $7, $7) ON CONFLICT DO NOTHING RETURNING *`,
        [sub.id, slot, content, parts, lease.owner, leaseUntil(lease), at],
      );
      if (rows.length === 0) return undefined;
      if (keys.length > 0) {
        await client.query(
          `INSERT INTO digest_ledger (platform, channel, key, paper_id, sent_at)
           SELECT $1, $2, k, p, $5 FROM unnest($3::text[], $4::text[]) AS t(k, p) ON CONFLICT DO NOTHING`,
          [sub.platform, sub.channel, keys.map((k) => k[0]), keys.map((k) => k[1]), at],
        );
      }
      // The next digest takes papers first seen after the newest this one could see.
      await client.query('UPDATE subscriptions SET last_digest_at = $2 WHERE id = $1', [sub.id, plan.until]);
      return toRun(rows[0]!);
    });
  }

  async claimRun(run: RunRef, lease: Lease): Promise<DigestRun | undefined> {
    const { rows } = await this.db.query<RunRow>(
      `UPDATE digest_runs SET lease_owner = $3, lease_until = $4
       WHERE subscription_id = $1 AND slot = $2 AND state = 'sending' AND (lease_owner IS NULL OR lease_owner = $3 OR lease_until <= $5)
         AND (next_attempt_at IS NULL OR next_attempt_at <= $5) RETURNING *`,
      [run.subscriptionId, run.slot, lease.owner, leaseUntil(lease), lease.now.toISOString()],
    );
    return rows[0] && toRun(rows[0]);
  }

  async renewLease(run: RunRef, lease: Lease): Promise<DigestRun | undefined> {
    const { rows } = await this.db.query<RunRow>(`UPDATE digest_runs SET lease_until = $4 WHERE ${OURS} AND state = 'sending' RETURNING *`, [
      run.subscriptionId,
      run.slot,
      lease.owner,
      leaseUntil(lease),
    ]);
    return rows[0] && toRun(rows[0]);
  }

  async releaseRun(run: RunRef, owner: string): Promise<void> {
    await this.db.query(`UPDATE digest_runs SET lease_owner = NULL, lease_until = NULL WHERE ${OURS}`, [run.subscriptionId, run.slot, owner]);
  }

  async startPart(run: RunRef, owner: string, now: Date): Promise<boolean> {
    return this.change(
      `UPDATE digest_runs SET in_flight_since = CASE WHEN in_flight THEN in_flight_since ELSE $4 END, in_flight = true, updated_at = $4 WHERE ${OURS}`,
      [run.subscriptionId, run.slot, owner, now.toISOString()],
    );
  }

  async clearInFlight(run: RunRef, owner: string, now: Date): Promise<boolean> {
    return this.change(`UPDATE digest_runs SET in_flight = false, in_flight_since = NULL, updated_at = $4 WHERE ${OURS}`, [
      run.subscriptionId,
      run.slot,
      owner,
      now.toISOString(),
    ]);
  }

  async finishPart(run: RunRef, owner: string, partsDone: number, now: Date): Promise<boolean> {
    return this.change(`UPDATE digest_runs SET parts_done = $5, in_flight = false, in_flight_since = NULL, updated_at = $4 WHERE ${OURS}`, [
      run.subscriptionId,
      run.slot,
      owner,
      now.toISOString(),
      partsDone,
    ]);
  }

  async failPart(run: RunRef, owner: string, failure: PartFailure, now: Date): Promise<boolean> {
    return this.change(
      `UPDATE digest_runs SET in_flight = $5, in_flight_since = CASE WHEN $5 THEN in_flight_since END,
         attempts = $6, next_attempt_at = $7, last_error = $8, state = $9, updated_at = $4 WHERE ${OURS}`,
      [run.subscriptionId, run.slot, owner, now.toISOString(), failure.inFlight, failure.attempts, failure.next?.toISOString() ?? null, failure.error, failure.state],
    );
  }

  async finishRun(sub: Subscription, run: RunRef, owner: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (client) => {
      const { rowCount } = await client.query(
        `UPDATE digest_runs SET state = 'done', in_flight = false, in_flight_since = NULL, lease_owner = NULL, lease_until = NULL, updated_at = $4 WHERE ${OURS}`,
        [run.subscriptionId, run.slot, owner, now.toISOString()],
      );
      if (rowCount !== 1) return false;
      await client.query(COMPLETE, [sub.id, run.slot]);
      return true;
    });
  }

  async dropUndelivered(sub: Subscription, run: DigestRun, owner: string): Promise<boolean> {
    return this.db.transaction(async (client) => {
      const { rowCount } = await client.query(`DELETE FROM digest_runs WHERE ${OURS}`, [run.subscriptionId, run.slot, owner]);
      if (rowCount !== 1) return false;
      await release(client, sub, run, run.papers);
      return true;
    });
  }

  async releaseUndelivered(sub: Subscription, run: DigestRun, owner: string, paperIds: readonly string[]): Promise<boolean> {
    return this.db.transaction(async (client) => {
      // Locks the run row: an instance taking the lease over waits until the papers are released.
      const { rowCount } = await client.query(`SELECT 1 FROM digest_runs WHERE ${OURS} FOR UPDATE`, [run.subscriptionId, run.slot, owner]);
      if (rowCount !== 1) return false;
      await release(client, sub, run, paperIds);
      return true;
    });
  }

  private async change(text: string, values: unknown[]): Promise<boolean> {
    return (await this.db.query(text, values)).rowCount === 1;
  }
}

/** Takes papers out of the channel's ledger and moves "new since" back, so a later digest can send them. */
async function release(client: pg.PoolClient, sub: Subscription, run: DigestRun, paperIds: readonly string[]): Promise<void> {
  if (paperIds.length === 0) return;
  await client.query('DELETE FROM digest_ledger WHERE platform = $1 AND channel = $2 AND paper_id = ANY($3::text[])', [sub.platform, sub.channel, paperIds]);
  await client.query(REWIND, [sub.id, run.since]);
}
