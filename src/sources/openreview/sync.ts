/**
 * `paperscout sync openreview --venue ICLR.cc/2025/Conference`: all of a venue's submissions from
 * OpenReview API v2, paged by `limit`/`offset` up to `count`, each page stored in one
 * transaction. Decisions become statuses (Oral, Spotlight, Poster; Rejected, Withdrawn; Under
 * review before decisions): rejected and withdrawn submissions are kept with their status,
 * never as accepted, and a re-sync updates decisions. Each venue's last sync and when its
 * decisions first appeared are kept, for the schedule of `npm start`.
 */
import type { Logger } from 'pino';
import type { PaperRecord } from '../../papers/model.js';
import type { OpenReviewConfig } from '../../config.js';
import type { HarvestStore } from '../../store/harvests.js';
import type { PaperStore, UpsertOptions } from '../../store/papers.js';
import type { Clock } from '../../clock.js';
import { FetchError, type HttpRequest, type PoliteOptions } from '../http.js';
import { OpenReviewClient } from './client.js';
import { OpenReviewPageError, type NotesPage } from './notes.js';
import { decisionOf, noteToRecord, type Decision } from './record.js';
import { MergeTally, type MergeCounts, type MergeSummary } from '../summary.js';

export interface OpenReviewSyncDeps {
  store: PaperStore;
  harvests: HarvestStore;
  classify: UpsertOptions['classify'];
  config: OpenReviewConfig;
  http: HttpRequest;
  clock: Clock;
  log: Logger;
  politeness?: PoliteOptions;
}

export interface OpenReviewSyncOptions {
  venues: string[];
  /** Stops before the next request; pages already stored stay stored. */
  signal?: AbortSignal;
  /** Notes per request (default 1000, OpenReview's most). */
  pageSize?: number;
  onProgress?: (progress: { venue: string; notes: number; count?: number }) => void;
}

export interface VenueSummary extends MergeCounts {
  venue: string;
  /** Submissions OpenReview counts for the venue. */
  count?: number;
  pages: number;
  /** Notes read, unreadable ones included. */
  notes: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Papers whose decision changed since the last sync (e.g. Under review → Poster). */
  decisionsChanged: number;
  byStatus: Partial<Record<Decision, number>>;
  skipped: Array<{ page: number; index: number; id?: string; reason: string }>;
  error?: string;
}

export interface OpenReviewSyncSummary extends MergeSummary {
  venues: VenueSummary[];
  added: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: Array<{ venue: string; reason: string }>;
  changed: boolean;
  aborted: boolean;
}

/** What is kept per venue between syncs. */
export interface VenueState {
  venue: string;
  lastSync: string;
  /** When a sync first saw decisions (any status but Under review). */
  decisionsSeenAt?: string;
  count?: number;
  byStatus: Partial<Record<Decision, number>>;
}

export const OPENREVIEW_SOURCE = 'openreview';
export const venueKey = (venue: string) => `${OPENREVIEW_SOURCE}:${venue}`;

/**
 * Syncs each venue's submissions into the store.
 * @example
 * const summary = await syncOpenReview({ store, harvests, classify, config: config.openreview, http: fetchHttp(), clock: systemClock, log },
 *   { venues: ['ICLR.cc/2025/Conference'] });
 */
export async function syncOpenReview(deps: OpenReviewSyncDeps, options: OpenReviewSyncOptions): Promise<OpenReviewSyncSummary> {
  const { config, http, clock, log } = deps;
  const client = new OpenReviewClient(
    { http, clock, log, apiUrl: config.apiUrl, ...(config.username && { username: config.username }), ...(config.password && { password: config.password }) },
    deps.politeness,
  );
  const merges = new MergeTally();
  const summary: OpenReviewSyncSummary = {
    venues: [], added: 0, updated: 0, unchanged: 0, skipped: 0, merged: 0, apart: 0, apartGroups: [], failed: [], changed: false, aborted: false,
  };
  for (const venue of [...new Set(options.venues)]) {
    if (options.signal?.aborted) {
      summary.aborted = true;
      break;
    }
    const result = await syncVenue(deps, client, venue, options, merges);
    summary.venues.push(result);
    summary.added += result.added;
    summary.updated += result.updated;
    summary.unchanged += result.unchanged;
    summary.skipped += result.skipped.length;
    if (result.error) summary.failed.push({ venue, reason: result.error });
  }
  if (options.signal?.aborted) summary.aborted = true;
  Object.assign(summary, merges.summary());
  summary.changed = summary.added + summary.updated > 0;
  return summary;
}

async function syncVenue(deps: OpenReviewSyncDeps, client: OpenReviewClient, venue: string, options: OpenReviewSyncOptions, merges: MergeTally): Promise<VenueSummary> {
  const { log } = deps;
  const result: VenueSummary = { venue, pages: 0, notes: 0, added: 0, updated: 0, unchanged: 0, merged: 0, apart: 0, decisionsChanged: 0, byStatus: {}, skipped: [] };
  const seen = new Set<string>();
  try {
    // All submissions through the venue's submission invitation; a venue that files them
    // otherwise is read by where its submissions stand: accepted, rejected, withdrawn.
    const read = await readQuery(deps, client, { invitation: `${venue}/-/Submission` }, venue, options, result, { seen, merges });
    if (read === 0 && !options.signal?.aborted) {
      for (const where of ['', '/Rejected_Submission', '/Withdrawn_Submission', '/Desk_Rejected_Submission']) {
        if (options.signal?.aborted) break;
        await readQuery(deps, client, { 'content.venueid': `${venue}${where}` }, venue, options, result, { seen, merges });
      }
    }
  } catch (error) {
    if (options.signal?.aborted && !(error instanceof FetchError || error instanceof OpenReviewPageError)) return result;
    result.error = describe(error, venue);
    log.warn({ err: error, venue }, 'OpenReview sync of a venue stopped');
  }
  if (!result.error && !options.signal?.aborted) await saveState(deps, venue, result);
  log.info(
    { venue, notes: result.notes, added: result.added, updated: result.updated, skipped: result.skipped.length, merged: result.merged, apart: result.apart },
    'OpenReview venue synced',
  );
  return result;
}

/** What the queries of one venue share: the forums stored (a venue read by several queries lists some twice) and the merges counted. */
interface VenueRun {
  seen: Set<string>;
  merges: MergeTally;
}

/** Reads every page of one query; returns how many notes it matched. */
async function readQuery(
  deps: OpenReviewSyncDeps,
  client: OpenReviewClient,
  query: Record<string, string>,
  venue: string,
  options: OpenReviewSyncOptions,
  result: VenueSummary,
  run: VenueRun,
): Promise<number> {
  const limit = Math.max(1, Math.min(options.pageSize ?? 1000, 1000));
  let read = 0;
  for (let offset = 0; ; offset += limit) {
    const page = await client.notes({ ...query, limit: String(limit), offset: String(offset) }, options.signal);
    result.pages++;
    read += page.size;
    if (page.count !== undefined) result.count = (result.count ?? 0) + (offset === 0 ? page.count : 0);
    await storePage(deps, page, venue, result, run);
    options.onProgress?.({ venue, notes: result.notes, ...(result.count !== undefined && { count: result.count }) });
    const total = page.count ?? Infinity;
    if (page.size < limit || offset + limit >= total || options.signal?.aborted) return read;
  }
}

/**
 * Stores a page's notes in one transaction. Outcomes are counted into `result` once the write
 * has committed (the store may run a write again from the start after a lost connection).
 */
async function storePage(deps: OpenReviewSyncDeps, page: NotesPage, venue: string, result: VenueSummary, { seen, merges }: VenueRun): Promise<void> {
  const { store, classify, clock } = deps;
  const pageNo = result.pages;
  const options: UpsertOptions = { source: OPENREVIEW_SOURCE, classify, now: clock.now() };
  result.notes += page.size;
  for (const problem of page.problems) result.skipped.push({ page: pageNo, ...problem });
  const places = positions(page);
  // Each submission once (a venue read by several queries lists some twice), mapped before the write.
  const pending: Array<{ index: number; id: string; forum: string; record: PaperRecord }> = [];
  page.notes.forEach((note, i) => {
    const index = places[i]!;
    if (seen.has(note.forum)) return;
    seen.add(note.forum);
    const mapped = noteToRecord(note, venue);
    if (!mapped.ok) {
      result.skipped.push({ page: pageNo, index, id: note.id, reason: mapped.reason });
      return;
    }
    const decision = decisionOf(note);
    result.byStatus[decision] = (result.byStatus[decision] ?? 0) + 1;
    pending.push({ index, id: note.id, forum: note.forum, record: mapped.record });
  });
  const tally = await store.write(async (tx) => {
    const ref = (forum: string) => ({ kind: 'openreview' as const, id: forum });
    const before = await Promise.all(pending.map(async (p) => (await tx.findByRef(ref(p.forum)))?.status));
    const outcomes = await tx.upsertBatch(pending.map((p) => p.record), options);
    const after = await Promise.all(pending.map(async (p, i) => (before[i] === undefined ? undefined : (await tx.findByRef(ref(p.forum)))?.status)));
    // A submission the library did not hold under its forum id yet went into a paper held otherwise (its arXiv preprint, say).
    return { outcomes, changedDecisions: pending.filter((_, i) => before[i] !== undefined && before[i] !== after[i]).length, known: before.map((status) => status !== undefined) };
  });
  result.decisionsChanged += tally.changedDecisions;
  tally.outcomes.forEach((outcome, i) => {
    const p = pending[i]!;
    if ('refused' in outcome) {
      result.skipped.push({ page: pageNo, index: p.index, id: p.id, reason: `store refused the record: ${outcome.refused}` });
      return;
    }
    result[outcome.outcome]++;
    merges.count(outcome, { known: tally.known[i]!, name: `OpenReview ${p.forum}` }, result);
  });
}

/** Where each readable note stood in its page, given the unreadable ones reported. */
function positions(page: NotesPage): number[] {
  const skipped = new Set(page.problems.map((p) => p.index));
  const out: number[] = [];
  for (let i = 0; out.length < page.notes.length; i++) if (!skipped.has(i)) out.push(i);
  return out;
}

async function saveState(deps: OpenReviewSyncDeps, venue: string, result: VenueSummary): Promise<void> {
  const now = deps.clock.now();
  const before = (await deps.harvests.get<VenueState>(venueKey(venue)))?.state;
  const decided = Object.entries(result.byStatus).some(([status, n]) => status !== 'Under review' && (n ?? 0) > 0);
  const decisionsSeenAt = before?.decisionsSeenAt ?? (decided ? now.toISOString() : undefined);
  const state: VenueState = {
    venue,
    lastSync: now.toISOString(),
    ...(decisionsSeenAt && { decisionsSeenAt }),
    ...(result.count !== undefined && { count: result.count }),
    byStatus: result.byStatus,
  };
  await deps.harvests.put(venueKey(venue), OPENREVIEW_SOURCE, state, now);
}

function describe(error: unknown, venue: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof FetchError && error.status === 400) return `${message} (is "${venue}" an OpenReview venue id? e.g. ICLR.cc/2025/Conference)`;
  return message;
}
