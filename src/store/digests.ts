/**
 * What digests keep: subscriptions, the ledger of what each channel was sent, and one run per
 * subscription slot (an outbox: the papers chosen, how many parts were confirmed, whether one is
 * in flight with an unknown outcome), so that a restart resumes a digest where it stopped and
 * never posts a slot twice.
 *
 * Several processes may share one store (two `npm start` on one DATA_DIR, overlapping cron runs of
 * `digest run-due`): a run is sent by whoever holds its lease. Every method is one atomic step
 * of the store, and every change to a run names the lease owner and does nothing (returns false
 * or undefined) when the lease is someone else's. The runner relies on nothing else: no
 * transactions of its own, no locks held across a network call.
 *
 * Two implementations, SQLite (`sqlite/digests.ts`) and PostgreSQL (`postgres/digests.ts`), with
 * the rows both keep in `digestRows.ts`, held to this interface by the contract suite
 * (`test/store/digests.contract.test.ts`).
 */
import { isMessageKey, msg, type Message, type Messages } from '../i18n/index.js';

export type ChatPlatform = 'discord' | 'slack';

/** Which days a subscription's digest is due on (`digest/schedule.ts` turns them into slots). */
export type DigestDays = 'daily' | 'weekdays';

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

/** A run is named by its subscription and slot. */
export interface RunRef {
  subscriptionId: number;
  /** ISO instant of the slot. */
  slot: string;
}

export interface DigestRun extends RunRef {
  /** Paper ids in the order sent. */
  papers: string[];
  /** Whether, with nothing new, the digest fell back to papers the channel had not been sent. */
  fill: boolean;
  /** The papers are those first seen after this instant. */
  since: string;
  /** Messages the digest takes. */
  parts: number;
  partsDone: number;
  /** Part `partsDone` was posted and the outcome is unknown: it may or may not have arrived. */
  inFlight: boolean;
  /** When the first attempt of the part in flight started (the platform's copy is no older). */
  inFlightSince?: string;
  state: RunState;
  attempts: number;
  nextAttemptAt?: string;
  lastError?: string;
  /** Who is sending it, until when (a process that stops renewing loses it at `leaseUntil`). */
  leaseOwner?: string;
  leaseUntil?: string;
  createdAt: string;
  updatedAt: string;
}

/** A claim on a run: `owner` holds it from `now` for `ttlMs`. */
export interface Lease {
  owner: string;
  now: Date;
  ttlMs: number;
}

/** The papers a digest will send, as {@link DigestStore.planRun} records them. */
export interface RunPlan {
  papers: ReadonlyArray<{ id: string; keys: string[] }>;
  fill: boolean;
  since: string;
  /** The next digest takes papers first seen after this. */
  until: string;
}

/** A failed attempt at the part being sent. */
export interface PartFailure {
  error: string;
  /** Whether the part may have arrived (an unknown outcome, this attempt's or an earlier one's). */
  inFlight: boolean;
  /** The run's attempt count after this one. */
  attempts: number;
  /** When to try again; none for a run given up. */
  next?: Date;
  /** `failed` gives the run up. */
  state: 'sending' | 'failed';
}

export interface DigestStore {
  /** Adds a subscription, or updates the channel's subscription to the same search. */
  subscribe(sub: NewSubscription): Promise<Subscription>;
  get(id: number): Promise<Subscription | undefined>;
  forChannel(platform: ChatPlatform, channel: string): Promise<Subscription[]>;
  active(): Promise<Subscription[]>;
  /** Every subscription, paused ones too, by platform, workspace and channel (`paperscout digest list`). */
  all(): Promise<Subscription[]>;
  /** Removes a subscription and its runs (a run being sent stops at its next step). */
  unsubscribe(id: number): Promise<void>;
  /**
   * Deletes everything kept for a workspace that removed the app: its subscriptions, their runs,
   * and what its channels were sent (unless another workspace subscribes in the same channel, a
   * shared channel). Returns how many subscriptions went.
   */
  forgetWorkspace(platform: ChatPlatform, workspace: string): Promise<number>;
  /** Pauses a subscription, with why (shown by /digest list in the reader's language). */
  pause(id: number, reason: Message): Promise<void>;
  /** Which of `keys` the channel was sent (a paper is known by several: arXiv id, DOI, title …). */
  sentAmong(platform: ChatPlatform, channel: string, keys: readonly string[]): Promise<Set<string>>;
  /** Marks `slot` done for the subscription unless a later one already is. */
  completeSlot(sub: Subscription, slot: string): Promise<void>;

  run(subscriptionId: number, slot: string): Promise<DigestRun | undefined>;
  /** Runs of a subscription that are still being sent, oldest first. */
  openRuns(subscriptionId: number): Promise<DigestRun[]>;
  /**
   * Records the papers chosen for a slot, with the ledger entries for every key of every paper,
   * and the lease on the new run: from here on the channel counts them as sent. Returns
   * undefined, recording nothing, when the slot already has a run (another process planned it).
   */
  planRun(sub: Subscription, slot: string, plan: RunPlan, parts: number, lease: Lease): Promise<DigestRun | undefined>;
  /**
   * Takes the lease on a run still being sent whose lease is free, expired or already the
   * owner's, and whose next attempt is due; returns the run as stored, or undefined.
   */
  claimRun(run: RunRef, lease: Lease): Promise<DigestRun | undefined>;
  /** Extends the owner's lease; returns the run as stored, or undefined when it is not the owner's. */
  renewLease(run: RunRef, lease: Lease): Promise<DigestRun | undefined>;
  /** Gives the lease up (if it is the owner's). */
  releaseRun(run: RunRef, owner: string): Promise<void>;

  /** Marks part `partsDone` in flight, keeping the start of an earlier unresolved attempt. */
  startPart(run: RunRef, owner: string, now: Date): Promise<boolean>;
  /** The part in flight is known not to have arrived. */
  clearInFlight(run: RunRef, owner: string, now: Date): Promise<boolean>;
  /** Records parts up to `partsDone` as confirmed. */
  finishPart(run: RunRef, owner: string, partsDone: number, now: Date): Promise<boolean>;
  failPart(run: RunRef, owner: string, failure: PartFailure, now: Date): Promise<boolean>;
  /** Marks the run complete, its slot done, and gives up the lease. */
  finishRun(sub: Subscription, run: RunRef, owner: string, now: Date): Promise<boolean>;
  /**
   * Deletes a run that delivered nothing, releasing its papers so that the next digest takes
   * them again (a later slot supersedes it).
   */
  dropUndelivered(sub: Subscription, run: DigestRun, owner: string): Promise<boolean>;
  /**
   * Releases papers of a run that never arrived, so that a later digest can send them: out of
   * the ledger, and the subscription's "new since" moved back to the run's.
   */
  releaseUndelivered(sub: Subscription, run: DigestRun, owner: string, paperIds: readonly string[]): Promise<boolean>;
}
