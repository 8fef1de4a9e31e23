/**
 * The digest store in SQLite (the protocol is in `src/store/digests.ts`; each method does its work
 * synchronously and resolves at once). Leases are single UPDATE statements whose WHERE clause
 * says when a run may be taken (free, expired, or already ours); SQLite runs each under its write
 * lock, so of two processes claiming one run exactly one gets a row back. Planning a run is one
 * BEGIN IMMEDIATE transaction (the write lock from the start), so two processes planning one slot
 * cannot both write ledger entries.
 */
import type { Message } from '../../i18n/index.js';
import type { Db } from './db.js';
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

const RUN = 'subscription_id = @id AND slot = @slot';
const OURS = `${RUN} AND lease_owner = @owner`;

export class SqliteDigestStore implements DigestStore {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO subscriptions (platform, workspace, channel, query, label, time, timezone, days, count, fill, created_by, created_at, locale)
        VALUES (@platform, @workspace, @channel, @query, @label, @time, @timezone, @days, @count, @fill, @createdBy, @createdAt, @locale)
        ON CONFLICT (platform, channel, query) DO UPDATE SET label = excluded.label, time = excluded.time, timezone = excluded.timezone,
          days = excluded.days, count = excluded.count, fill = excluded.fill, locale = coalesce(excluded.locale, locale), status = 'active', paused_reason = NULL
        RETURNING id`),
      byId: db.prepare<[number], SubscriptionRow>('SELECT * FROM subscriptions WHERE id = ?'),
      byChannel: db.prepare<[string, string], SubscriptionRow>('SELECT * FROM subscriptions WHERE platform = ? AND channel = ? ORDER BY id'),
      active: db.prepare<[], SubscriptionRow>("SELECT * FROM subscriptions WHERE status = 'active' ORDER BY id"),
      all: db.prepare<[], SubscriptionRow>('SELECT * FROM subscriptions ORDER BY platform, workspace, channel, id'),
      remove: db.prepare<[number]>('DELETE FROM subscriptions WHERE id = ?'),
      removeRuns: db.prepare<[number]>('DELETE FROM digest_runs WHERE subscription_id = ?'),
      complete: db.prepare<[string, number, string]>('UPDATE subscriptions SET last_slot = ? WHERE id = ? AND (last_slot IS NULL OR last_slot < ?)'),
      chosen: db.prepare<[string, number]>('UPDATE subscriptions SET last_digest_at = ? WHERE id = ?'),
      rewind: db.prepare<[string, number, string]>('UPDATE subscriptions SET last_digest_at = ? WHERE id = ? AND (last_digest_at IS NULL OR last_digest_at > ?)'),
      pause: db.prepare<[string, number]>("UPDATE subscriptions SET status = 'paused', paused_reason = ? WHERE id = ?"),
      sent: db.prepare<[string, string, string], { key: string }>(
        'SELECT key FROM digest_ledger WHERE platform = ? AND channel = ? AND key IN (SELECT value FROM json_each(?))',
      ),
      record: db.prepare('INSERT OR IGNORE INTO digest_ledger (platform, channel, key, paper_id, sent_at) VALUES (?, ?, ?, ?, ?)'),
      unrecord: db.prepare<[string, string, string]>('DELETE FROM digest_ledger WHERE platform = ? AND channel = ? AND paper_id = ?'),
      run: db.prepare<[number, string], RunRow>('SELECT * FROM digest_runs WHERE subscription_id = ? AND slot = ?'),
      openRuns: db.prepare<[number], RunRow>("SELECT * FROM digest_runs WHERE subscription_id = ? AND state = 'sending' ORDER BY slot"),
      insertRun: db.prepare(`INSERT INTO digest_runs (subscription_id, slot, papers, parts, state, lease_owner, lease_until, created_at, updated_at)
        VALUES (@id, @slot, @papers, @parts, 'sending', @owner, @until, @now, @now) ON CONFLICT DO NOTHING`),
      claim: db.prepare(`UPDATE digest_runs SET lease_owner = @owner, lease_until = @until
        WHERE ${RUN} AND state = 'sending' AND (lease_owner IS NULL OR lease_owner = @owner OR lease_until <= @now)
          AND (next_attempt_at IS NULL OR next_attempt_at <= @now) RETURNING *`),
      renew: db.prepare(`UPDATE digest_runs SET lease_until = @until WHERE ${OURS} AND state = 'sending' RETURNING *`),
      release: db.prepare(`UPDATE digest_runs SET lease_owner = NULL, lease_until = NULL WHERE ${OURS}`),
      startPart: db.prepare(`UPDATE digest_runs SET in_flight_since = CASE WHEN in_flight = 1 THEN in_flight_since ELSE @now END,
        in_flight = 1, updated_at = @now WHERE ${OURS}`),
      clearInFlight: db.prepare(`UPDATE digest_runs SET in_flight = 0, in_flight_since = NULL, updated_at = @now WHERE ${OURS}`),
      finishPart: db.prepare(`UPDATE digest_runs SET parts_done = @done, in_flight = 0, in_flight_since = NULL, updated_at = @now WHERE ${OURS}`),
      failPart: db.prepare(`UPDATE digest_runs SET in_flight = @inFlight, in_flight_since = CASE WHEN @inFlight = 1 THEN in_flight_since END,
        attempts = @attempts, next_attempt_at = @next, last_error = @error, state = @state, updated_at = @now WHERE ${OURS}`),
      finishRun: db.prepare(`UPDATE digest_runs SET state = 'done', in_flight = 0, in_flight_since = NULL, lease_owner = NULL, lease_until = NULL,
        updated_at = @now WHERE ${OURS}`),
      dropRun: db.prepare(`DELETE FROM digest_runs WHERE ${OURS}`),
      isOurs: db.prepare(`SELECT 1 FROM digest_runs WHERE ${OURS}`),
    };
  }

  async subscribe(sub: NewSubscription): Promise<Subscription> {
    const { id } = this.stmts.insert.get({ ...sub, fill: sub.fill ? 1 : 0, locale: sub.locale ?? null }) as { id: number };
    return toSubscription(this.stmts.byId.get(id)!);
  }

  async get(id: number): Promise<Subscription | undefined> {
    const row = this.stmts.byId.get(id);
    return row && toSubscription(row);
  }

  async forChannel(platform: ChatPlatform, channel: string): Promise<Subscription[]> {
    return this.stmts.byChannel.all(platform, channel).map(toSubscription);
  }

  async active(): Promise<Subscription[]> {
    return this.stmts.active.all().map(toSubscription);
  }

  async all(): Promise<Subscription[]> {
    return this.stmts.all.all().map(toSubscription);
  }

  async unsubscribe(id: number): Promise<void> {
    this.db.transaction(() => {
      this.stmts.removeRuns.run(id);
      this.stmts.remove.run(id);
    })();
  }

  async forgetWorkspace(platform: ChatPlatform, workspace: string): Promise<number> {
    const of = 'SELECT id FROM subscriptions WHERE platform = @platform AND workspace = @workspace';
    return this.db.transaction(() => {
      this.db
        .prepare(
          `DELETE FROM digest_ledger WHERE platform = @platform
             AND channel IN (SELECT channel FROM subscriptions WHERE platform = @platform AND workspace = @workspace)
             AND channel NOT IN (SELECT channel FROM subscriptions WHERE platform = @platform AND workspace <> @workspace)`,
        )
        .run({ platform, workspace });
      this.db.prepare(`DELETE FROM digest_runs WHERE subscription_id IN (${of})`).run({ platform, workspace });
      return this.db.prepare('DELETE FROM subscriptions WHERE platform = @platform AND workspace = @workspace').run({ platform, workspace }).changes;
    })();
  }

  async pause(id: number, reason: Message): Promise<void> {
    this.stmts.pause.run(JSON.stringify(reason), id);
  }

  async sentAmong(platform: ChatPlatform, channel: string, keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    return new Set(this.stmts.sent.all(platform, channel, JSON.stringify(keys)).map((r) => r.key));
  }

  async completeSlot(sub: Subscription, slot: string): Promise<void> {
    this.stmts.complete.run(slot, sub.id, slot);
  }

  async run(subscriptionId: number, slot: string): Promise<DigestRun | undefined> {
    const row = this.stmts.run.get(subscriptionId, slot);
    return row && toRun(row);
  }

  async openRuns(subscriptionId: number): Promise<DigestRun[]> {
    return this.stmts.openRuns.all(subscriptionId).map(toRun);
  }

  async planRun(sub: Subscription, slot: string, plan: RunPlan, parts: number, lease: Lease): Promise<DigestRun | undefined> {
    const at = lease.now.toISOString();
    const content = JSON.stringify({ ids: plan.papers.map((p) => p.id), fill: plan.fill, since: plan.since });
    const inserted = this.db
      .transaction(() => {
        const { changes } = this.stmts.insertRun.run({ id: sub.id, slot, papers: content, parts, owner: lease.owner, until: leaseUntil(lease), now: at });
        if (changes === 0) return false;
        for (const paper of plan.papers) for (const key of paper.keys) this.stmts.record.run(sub.platform, sub.channel, key, paper.id, at);
        // The next digest takes papers first seen after the newest this one could see.
        this.stmts.chosen.run(plan.until, sub.id);
        return true;
      })
      .immediate();
    const row = inserted ? this.stmts.run.get(sub.id, slot) : undefined;
    return row && toRun(row);
  }

  async claimRun(run: RunRef, lease: Lease): Promise<DigestRun | undefined> {
    const row = this.stmts.claim.get({ ...ref(run), owner: lease.owner, until: leaseUntil(lease), now: lease.now.toISOString() }) as RunRow | undefined;
    return row && toRun(row);
  }

  async renewLease(run: RunRef, lease: Lease): Promise<DigestRun | undefined> {
    const row = this.stmts.renew.get({ ...ref(run), owner: lease.owner, until: leaseUntil(lease) }) as RunRow | undefined;
    return row && toRun(row);
  }

  async releaseRun(run: RunRef, owner: string): Promise<void> {
    this.stmts.release.run({ ...ref(run), owner });
  }

  async startPart(run: RunRef, owner: string, now: Date): Promise<boolean> {
    return this.stmts.startPart.run({ ...ref(run), owner, now: now.toISOString() }).changes === 1;
  }

  async clearInFlight(run: RunRef, owner: string, now: Date): Promise<boolean> {
    return this.stmts.clearInFlight.run({ ...ref(run), owner, now: now.toISOString() }).changes === 1;
  }

  async finishPart(run: RunRef, owner: string, partsDone: number, now: Date): Promise<boolean> {
    return this.stmts.finishPart.run({ ...ref(run), owner, done: partsDone, now: now.toISOString() }).changes === 1;
  }

  async failPart(run: RunRef, owner: string, failure: PartFailure, now: Date): Promise<boolean> {
    return (
      this.stmts.failPart.run({
        ...ref(run),
        owner,
        inFlight: failure.inFlight ? 1 : 0,
        attempts: failure.attempts,
        next: failure.next?.toISOString() ?? null,
        error: failure.error,
        state: failure.state,
        now: now.toISOString(),
      }).changes === 1
    );
  }

  async finishRun(sub: Subscription, run: RunRef, owner: string, now: Date): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.stmts.finishRun.run({ ...ref(run), owner, now: now.toISOString() }).changes === 0) return false;
      this.stmts.complete.run(run.slot, sub.id, run.slot);
      return true;
    })();
  }

  async dropUndelivered(sub: Subscription, run: DigestRun, owner: string): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.stmts.dropRun.run({ ...ref(run), owner }).changes === 0) return false;
      this.release(sub, run, run.papers);
      return true;
    })();
  }

  async releaseUndelivered(sub: Subscription, run: DigestRun, owner: string, paperIds: readonly string[]): Promise<boolean> {
    return this.db.transaction(() => {
      if (!this.stmts.isOurs.get({ ...ref(run), owner })) return false;
      this.release(sub, run, paperIds);
      return true;
    })();
  }

  private release(sub: Subscription, run: DigestRun, paperIds: readonly string[]): void {
    if (paperIds.length === 0) return;
    for (const id of paperIds) this.stmts.unrecord.run(sub.platform, sub.channel, id);
    this.stmts.rewind.run(run.since, sub.id, run.since);
  }
}

function ref(run: RunRef): { id: number; slot: string } {
  return { id: run.subscriptionId, slot: run.slot };
}
