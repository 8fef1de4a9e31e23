/**
 * One pass of the digest runner, as the runner (`runner.ts`) and the delivery of each run
 * (`deliver.ts`) share it: what it needs, what it counts, and the leases it takes.
 */
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Library } from '../library.js';
import type { ReadingListStore } from '../store/readingLists.js';
import type { StateStore } from '../store/states.js';
import type { ChatPlatform, DigestStore, Lease, Subscription } from '../store/digests.js';
import { channelProfile, libraryFilters } from './source.js';
import type { DigestSender } from './sender.js';

/**
 * How long a lease lasts without renewal. It is renewed before every post (the platform clients
 * end one within 30 s), and before a lookup or a rate-limit wait for as long as that may take: a
 * live sender never loses it, a dead one frees its run this long after its last step.
 */
export const LEASE_TTL_MS = 90_000;

export interface DigestDeps {
  digests: DigestStore;
  library: Library;
  states: StateStore;
  senders: Partial<Record<ChatPlatform, DigestSender>>;
  /** Channels' reading lists and shares: what `source:library` digests rank by (without it, they hold nothing). */
  readingLists?: Pick<ReadingListStore, 'list' | 'archive'>;
  log: Logger;
  /** Time for leases, waits and records; by default it starts at the `at` given and runs in real time. */
  clock?: Clock;
  /** Who holds the leases this pass takes; by default one of its own (host, pid, random). */
  owner?: string;
  /** Ends the pass's waits (a shutdown): what it has not sent is left to the next pass. */
  signal?: AbortSignal;
}

export interface RunDueSummary {
  /** Subscriptions with a digest to send or finish. */
  due: number;
  /** Digests completed. */
  sent: number;
  /** Of those, digests with nothing new (one line). */
  empty: number;
  /** Digests waiting to be retried. */
  retrying: number;
  /** Subscriptions paused because their channel is gone or forbidden. */
  paused: number;
  /** Subscriptions on a platform with no sender here. */
  skipped: number;
  /** Digests another process is sending. */
  busy: number;
  /** Subscriptions left for the next pass because their platform asked for a long wait. */
  deferred: number;
  /** Subscriptions left for the next pass because another process held the database's write lock. */
  locked: number;
}

/** One pass of the runner: its dependencies, clock, lease owner and tally. */
export interface Pass extends Required<Omit<DigestDeps, 'signal' | 'readingLists'>>, Pick<DigestDeps, 'readingLists'> {
  at: Date;
  summary: RunDueSummary;
  /** Platforms that asked this pass to wait (a long, platform-wide rate limit), until when. */
  waitUntil: Map<ChatPlatform, number>;
  /** The runs counted as due (`<subscription>@<slot>`): a step taken again after a lock counts once. */
  dueRuns: Set<string>;
}

/** A lease for this pass from now, for `extraMs` longer than usual. */
export function leaseFor(pass: Pass, extraMs = 0): Lease {
  return { owner: pass.owner, now: pass.clock.now(), ttlMs: LEASE_TTL_MS + extraMs };
}

/** The channel library a subscription ranks by (its reading list and shares), or none for a topic or search digest. */
export async function profileOf(pass: Pass, sub: Subscription): Promise<string[]> {
  if (libraryFilters(sub.query) === undefined || !pass.readingLists) return [];
  return channelProfile(pass.readingLists, sub);
}
