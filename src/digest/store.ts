/**
 * Digest state in SQLite: subscriptions, the ledger of what each channel was sent, and one run
 * row per subscription slot (an outbox: the papers chosen and how many parts were confirmed),
 * so that a restart resumes a digest where it stopped and never posts a slot twice.
 */
import { isMessageKey, msg, type Message, type Messages } from '../i18n/index.js';
import type { Db } from '../store/db.js';
import type { DigestDays } from './schedule.js';

export type ChatPlatform = 'discord' | 'slack';

export interface Subscription {
  id: number;
  platform: ChatPlatform;
  /** Discord guild or Slack team. */
  workspace: string;
  channel: string;
  /** The search behind it: `topic:"<id>"` for a topic, else the words given. */
  query: string;
  /** What to call it: the topic label or the query. */
  label: string;
  time: string;
  timezone: string;
  days: DigestDays;
  count: number;
  /** On a day with nothing new, send the best papers the channel has never been sent. */
  fill: boolean;
  createdBy: string;
  createdAt: string;
  /** The last slot whose digest is complete. */
  lastSlot?: string;
  /** When the last digest chose its papers: the next one takes what is newer. */
  lastDigestAt?: string;
  status: 'active' | 'paused';
  /** Why it is paused: a catalog message as JSON (or, from older versions, English text); see {@link pausedReasonText}. */
  pausedReason?: string;
  /** The locale tag its digests are written in (the subscriber's); unset for subscriptions made before it was kept. */
  locale?: string;
}

export type NewSubscription = Omit<Subscription, 'id' | 'status' | 'lastSlot' | 'lastDigestAt' | 'pausedReason'>;

/**
 * A paused subscription's reason in a language.
 * @example pausedReasonText(JSON.stringify(msg('digest.pausedUnknown')), messages('en')) // 'delivery failed'
 */
export function pausedReasonText(stored: string | undefined, m: Messages): string {
  if (stored === undefined) return m.t('digest.pausedUnknown');
  try {
    const parsed = JSON.parse(stored) as Partial<Message>;
    if (typeof parsed.key === 'string' && isMessageKey(parsed.key)) return m.text(msg(parsed.key, parsed.values));
  } catch {
    // Text from a version that stored the reason in English.
  }
  return stored;
}

export type RunState = 'sending' | 'done' | 'failed';

export interface DigestRun {
  subscriptionId: number;
  /** ISO instant of the slot. */
  slot: string;
  /** Paper ids in the order sent. */
  papers: string[];
  /** Whether, with nothing new, the digest fell back to papers the channel had not been sent. */
  fill: boolean;
  /** The papers are those first seen after this instant. */
  since: string;
  /** Messages the digest takes. */
  parts: number;
  partsDone: number;
  /** A part was being sent when the process stopped: it may or may not have arrived. */
  inFlight: boolean;
  state: RunState;
  attempts: number;
  nextAttemptAt?: string;
  lastError?: string;
  createdAt: string;
  updatedAt: string;
}

interface SubscriptionRow {
  id: number;
  platform: ChatPlatform;
  workspace: string;
  channel: string;
  query: string;
  label: string;
  time: string;
  timezone: string;
  days: DigestDays;
  count: number;
  fill: number;
  created_by: string;
  created_at: string;
  last_slot: string | null;
  last_digest_at: string | null;
  status: 'active' | 'paused';
  paused_reason: string | null;
  locale: string | null;
}

interface RunRow {
  subscription_id: number;
  slot: string;
  papers: string;
  parts: number;
  parts_done: number;
  in_flight: number;
  state: RunState;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export class DigestStore {
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
      remove: db.prepare<[number]>('DELETE FROM subscriptions WHERE id = ?'),
      removeRuns: db.prepare<[number]>('DELETE FROM digest_runs WHERE subscription_id = ?'),
      complete: db.prepare<[string, number]>('UPDATE subscriptions SET last_slot = ? WHERE id = ?'),
      chosen: db.prepare<[string, number]>('UPDATE subscriptions SET last_digest_at = ? WHERE id = ?'),
      rewind: db.prepare<[string, number, string]>('UPDATE subscriptions SET last_digest_at = ? WHERE id = ? AND (last_digest_at IS NULL OR last_digest_at > ?)'),
      pause: db.prepare<[string, number]>("UPDATE subscriptions SET status = 'paused', paused_reason = ? WHERE id = ?"),
      sent: db.prepare<[string, string, string]>('SELECT 1 FROM digest_ledger WHERE platform = ? AND channel = ? AND key = ?'),
      record: db.prepare('INSERT OR IGNORE INTO digest_ledger (platform, channel, key, paper_id, sent_at) VALUES (?, ?, ?, ?, ?)'),
      unrecord: db.prepare<[string, string, string]>('DELETE FROM digest_ledger WHERE platform = ? AND channel = ? AND paper_id = ?'),
      run: db.prepare<[number, string], RunRow>('SELECT * FROM digest_runs WHERE subscription_id = ? AND slot = ?'),
      openRuns: db.prepare<[number], RunRow>("SELECT * FROM digest_runs WHERE subscription_id = ? AND state = 'sending' ORDER BY slot"),
      insertRun: db.prepare(`INSERT INTO digest_runs (subscription_id, slot, papers, parts, state, created_at, updated_at)
        VALUES (@subscriptionId, @slot, @papers, @parts, 'sending', @now, @now)`),
      startPart: db.prepare<[string, number, string]>('UPDATE digest_runs SET in_flight = 1, updated_at = ? WHERE subscription_id = ? AND slot = ?'),
      finishPart: db.prepare<[number, string, number, string]>('UPDATE digest_runs SET parts_done = ?, in_flight = 0, updated_at = ? WHERE subscription_id = ? AND slot = ?'),
      failPart: db.prepare(`UPDATE digest_runs SET in_flight = 0, attempts = attempts + 1, next_attempt_at = @next, last_error = @error,
        state = @state, updated_at = @now WHERE subscription_id = @id AND slot = @slot`),
      unknown: db.prepare(`UPDATE digest_runs SET attempts = attempts + 1, next_attempt_at = @next, last_error = @error,
        updated_at = @now WHERE subscription_id = @id AND slot = @slot`),
      finishRun: db.prepare<[string, number, string]>("UPDATE digest_runs SET state = 'done', in_flight = 0, updated_at = ? WHERE subscription_id = ? AND slot = ?"),
      dropRun: db.prepare<[number, string]>('DELETE FROM digest_runs WHERE subscription_id = ? AND slot = ?'),
    };
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Adds a subscription, or updates the channel's subscription to the same search. */
  subscribe(sub: NewSubscription): Subscription {
    const { id } = this.stmts.insert.get({ ...sub, fill: sub.fill ? 1 : 0, locale: sub.locale ?? null }) as { id: number };
    return this.get(id)!;
  }

  get(id: number): Subscription | undefined {
    const row = this.stmts.byId.get(id);
    return row && toSubscription(row);
  }

  forChannel(platform: ChatPlatform, channel: string): Subscription[] {
    return this.stmts.byChannel.all(platform, channel).map(toSubscription);
  }

  active(): Subscription[] {
    return this.stmts.active.all().map(toSubscription);
  }

  unsubscribe(id: number): void {
    this.transaction(() => {
      this.stmts.removeRuns.run(id);
      this.stmts.remove.run(id);
    });
  }

  /** Pauses a subscription, with why (shown by /digest list in the reader's language). */
  pause(id: number, reason: Message): void {
    this.stmts.pause.run(JSON.stringify(reason), id);
  }

  /** Whether the channel was sent a paper known by any of `keys`. */
  wasSent(platform: ChatPlatform, channel: string, keys: readonly string[]): boolean {
    return keys.some((key) => this.stmts.sent.get(platform, channel, key) !== undefined);
  }

  run(subscriptionId: number, slot: string): DigestRun | undefined {
    const row = this.stmts.run.get(subscriptionId, slot);
    return row && toRun(row);
  }

  /** Runs of a subscription that are still being sent, oldest first. */
  openRuns(subscriptionId: number): DigestRun[] {
    return this.stmts.openRuns.all(subscriptionId).map(toRun);
  }

  /**
   * Records the papers chosen for a slot, in one transaction with the ledger entries for every
   * key of every paper: from here on the channel counts them as sent, whatever happens next.
   */
  planRun(
    sub: Subscription,
    slot: string,
    plan: { papers: ReadonlyArray<{ id: string; keys: string[] }>; fill: boolean; since: string; until: string },
    parts: number,
    now: Date,
  ): DigestRun {
    const at = now.toISOString();
    const papers = plan.papers;
    const content = JSON.stringify({ ids: papers.map((p) => p.id), fill: plan.fill, since: plan.since });
    this.transaction(() => {
      this.stmts.insertRun.run({ subscriptionId: sub.id, slot, papers: content, parts, now: at });
      for (const paper of papers) for (const key of paper.keys) this.stmts.record.run(sub.platform, sub.channel, key, paper.id, at);
      // The next digest takes papers first seen after the newest this one could see.
      this.stmts.chosen.run(plan.until, sub.id);
    });
    return this.run(sub.id, slot)!;
  }

  /**
   * Drops a run that delivered nothing, releasing its papers so that the next digest takes them
   * again (a later slot supersedes it: one digest with what was missed).
   */
  dropUndelivered(sub: Subscription, run: DigestRun): void {
    this.transaction(() => {
      this.release(sub, run, run.papers);
      this.stmts.dropRun.run(sub.id, run.slot);
    });
  }

  /**
   * Releases papers of a run that never arrived (the run is being given up), so a later digest
   * can send them: out of the ledger, and the subscription's "new since" moved back to the run's.
   */
  releaseUndelivered(sub: Subscription, run: DigestRun, paperIds: readonly string[]): void {
    this.transaction(() => this.release(sub, run, paperIds));
  }

  private release(sub: Subscription, run: DigestRun, paperIds: readonly string[]): void {
    if (paperIds.length === 0) return;
    for (const id of paperIds) this.stmts.unrecord.run(sub.platform, sub.channel, id);
    this.stmts.rewind.run(run.since, sub.id, run.since);
  }

  /** Marks part `partsDone` as being sent (call right before sending it). */
  startPart(run: DigestRun, now: Date): void {
    this.stmts.startPart.run(now.toISOString(), run.subscriptionId, run.slot);
  }

  /** Records a part as confirmed by the platform. */
  finishPart(run: DigestRun, partsDone: number, now: Date): void {
    this.stmts.finishPart.run(partsDone, now.toISOString(), run.subscriptionId, run.slot);
  }

  /** Records an attempt whose outcome is unknown: the part stays in flight, retried after `next`. */
  recordUnknown(run: DigestRun, error: string, next: Date, now: Date): void {
    this.stmts.unknown.run({ id: run.subscriptionId, slot: run.slot, error, next: next.toISOString(), now: now.toISOString() });
  }

  /** Records a failed attempt; `state: 'failed'` gives up on the run. */
  failPart(run: DigestRun, error: string, next: Date | undefined, state: 'sending' | 'failed', now: Date): void {
    this.stmts.failPart.run({ id: run.subscriptionId, slot: run.slot, error, next: next?.toISOString() ?? null, state, now: now.toISOString() });
  }

  /** Marks the run complete and the slot done. */
  finishRun(sub: Subscription, run: DigestRun, now: Date): void {
    this.transaction(() => {
      this.stmts.finishRun.run(now.toISOString(), run.subscriptionId, run.slot);
      if (!sub.lastSlot || sub.lastSlot < run.slot) this.stmts.complete.run(run.slot, sub.id);
    });
  }

  /** Marks a slot done without a run (a failed run given up on). */
  completeSlot(sub: Subscription, slot: string): void {
    if (!sub.lastSlot || sub.lastSlot < slot) this.stmts.complete.run(slot, sub.id);
  }
}

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    platform: row.platform,
    workspace: row.workspace,
    channel: row.channel,
    query: row.query,
    label: row.label,
    time: row.time,
    timezone: row.timezone,
    days: row.days,
    count: row.count,
    fill: row.fill === 1,
    createdBy: row.created_by,
    createdAt: row.created_at,
    ...(row.last_slot && { lastSlot: row.last_slot }),
    ...(row.last_digest_at && { lastDigestAt: row.last_digest_at }),
    status: row.status,
    ...(row.paused_reason && { pausedReason: row.paused_reason }),
    ...(row.locale && { locale: row.locale }),
  };
}

function toRun(row: RunRow): DigestRun {
  const content = JSON.parse(row.papers) as { ids: string[]; fill: boolean; since: string };
  return {
    subscriptionId: row.subscription_id,
    slot: row.slot,
    papers: content.ids,
    fill: content.fill,
    since: content.since,
    parts: row.parts,
    partsDone: row.parts_done,
    inFlight: row.in_flight === 1,
    state: row.state,
    attempts: row.attempts,
    ...(row.next_attempt_at && { nextAttemptAt: row.next_attempt_at }),
    ...(row.last_error && { lastError: row.last_error }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
