/**
 * The live arXiv source: for each followed category, read the day's RSS announcement feed and,
 * after announcement days were missed (the bot was down), catch up through the API; then write
 * the papers in one store transaction per category. Versions collapse (papers are keyed by the
 * version-less id), a cross-listed paper is one paper however many categories list it, and a
 * category that fails is reported without stopping the others.
 */
import type { Logger } from 'pino';
import type { ArxivConfig } from '../../config.js';
import type { Paper, PaperRecord } from '../../papers/model.js';
import type { PaperStore, PaperWriter, UpsertOptions, UpsertResult } from '../../store/papers.js';
import type { Clock } from '../../clock.js';
import { ArxivClient, ArxivFetchError, type ArxivClientOptions, type HttpGet } from './client.js';
import { fetchApiPage } from './api.js';
import { parseRssFeed, type ArxivEntry, type FeedProblem } from './feed.js';
import { entryToRecord, isReplacement } from './record.js';
import { MergeTally, type MergeCounts, type MergeSummary } from '../summary.js';

export interface SyncDeps {
  store: PaperStore;
  classify: UpsertOptions['classify'];
  config: ArxivConfig;
  http: HttpGet;
  clock: Clock;
  log: Logger;
  /** Politeness settings; the defaults are what arXiv asks for. */
  politeness?: ArxivClientOptions;
}

export interface SyncOptions {
  /** Categories to sync instead of the configured ones. */
  categories?: string[];
  /** Stops before the next request; categories already written stay written. */
  signal?: AbortSignal;
  /** Entries per API page when catching up (default 200). */
  catchUpPageSize?: number;
  /** API pages per category at most when catching up (default 10). */
  catchUpMaxPages?: number;
  /** Times an empty API page is asked again before the catch-up fails (default 3). */
  emptyPageRetries?: number;
}

/** An entry that was skipped as malformed or refused by the store. */
export interface SkippedEntry {
  /** Which response it was in, and its 0-based position there (API: over all pages). */
  source: 'rss' | 'api';
  index: number;
  reason: string;
}

/** What catching up through the API fetched. */
export interface CatchUp {
  /** Submissions from this day (`YYYY-MM-DD`) on were asked for. */
  since: string;
  pages: number;
  entries: number;
  /** The page bound was reached before `since`: older missed papers were not fetched. */
  truncated: boolean;
  /** Why it failed; the feed was still written and the catch-up is retried next time. */
  error?: string;
}

export interface CategorySummary extends MergeCounts {
  category: string;
  /** The day the RSS feed announces, `YYYY-MM-DD`. */
  feedDate?: string;
  /** Entries read, from the feed and any catch-up pages, malformed ones included. */
  fetched: number;
  added: number;
  updated: number;
  unchanged: number;
  skipped: SkippedEntry[];
  /**
   * Entries for papers already written in this sync: a cross-listing synced under another
   * category, or a paper both in the feed and in the catch-up pages.
   */
  duplicates: number;
  /** New versions of papers the library does not hold: not new submissions, so left out. */
  replacementsIgnored: number;
  /** The feed announced nothing (a weekend or a holiday). */
  empty: boolean;
  /** Set when missed announcement days were fetched through the API. */
  catchUp?: CatchUp;
  /** Why the category failed; nothing of it was written. */
  error?: string;
}

export interface SyncSummary extends MergeSummary {
  categories: CategorySummary[];
  added: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: Array<{ category: string; reason: string }>;
  /** Papers were added or changed: the search index needs refreshing. */
  changed: boolean;
  /** The signal stopped the sync before every category was done. */
  aborted: boolean;
}

/** Store meta keys: when a category last synced wholly (ISO time) and the feed day it had. */
export const lastSyncKey = (category: string) => `arxiv:last-sync:${category}`;
export const lastFeedKey = (category: string) => `arxiv:last-feed:${category}`;

/** Catch-up reaches this many days before the last feed synced, for papers announced late. */
const CATCH_UP_MARGIN_DAYS = 3;

/**
 * Syncs the configured (or given) arXiv categories into the store.
 * @example
 * const summary = await syncArxiv({ store, classify, config: config.arxiv, http: fetchHttpGet(), clock: systemClock, log });
 * if (summary.changed) await settleIndex(…);
 */
export async function syncArxiv(deps: SyncDeps, options: SyncOptions = {}): Promise<SyncSummary> {
  const client = new ArxivClient({ http: deps.http, clock: deps.clock, log: deps.log }, deps.politeness);
  const seen = new Set<string>();
  const merges = new MergeTally();
  const summary: SyncSummary = { categories: [], added: 0, updated: 0, unchanged: 0, skipped: 0, merged: 0, apart: 0, apartGroups: [], failed: [], changed: false, aborted: false };
  for (const category of unique(options.categories ?? deps.config.categories)) {
    if (options.signal?.aborted) {
      summary.aborted = true;
      break;
    }
    const result = await syncCategory({ ...deps, client, seen, merges, options }, category).catch((error: unknown) => {
      if (options.signal?.aborted) return undefined;
      deps.log.warn({ err: error, category }, 'arXiv sync of a category failed');
      return { ...emptySummary(category), error: describeFailure(error, category) };
    });
    if (!result) {
      summary.aborted = true;
      break;
    }
    summary.categories.push(result);
    summary.added += result.added;
    summary.updated += result.updated;
    summary.unchanged += result.unchanged;
    summary.skipped += result.skipped.length;
    if (result.error) summary.failed.push({ category, reason: result.error });
  }
  Object.assign(summary, merges.summary());
  summary.changed = summary.added + summary.updated > 0;
  return summary;
}

/** A record the store took. */
type UpsertDone = Extract<UpsertResult, { outcome: unknown }>;

/** An entry to write, with where it came from for messages about it. */
interface PendingEntry {
  entry: ArxivEntry;
  source: 'rss' | 'api';
  index: number;
}

interface Context extends SyncDeps {
  client: ArxivClient;
  /** Ids written by earlier categories of this sync. */
  seen: Set<string>;
  /** Records merged into papers held under another identifier, and kept apart, over the sync. */
  merges: MergeTally;
  options: SyncOptions;
}

async function syncCategory(ctx: Context, category: string): Promise<CategorySummary> {
  const { store, clock, log, config, client, options } = ctx;
  const result = emptySummary(category);
  const feed = parseRssFeed(await client.get(`${config.rssUrl}${encodeURIComponent(category)}`, options.signal));
  const feedDate = feed.date ?? clock.now().toISOString().slice(0, 10);
  result.feedDate = feedDate;
  result.empty = feed.entries.length === 0 && feed.problems.length === 0;
  result.fetched = feed.entries.length + feed.problems.length;
  result.skipped.push(...feed.problems.map((p) => ({ source: 'rss' as const, ...p })));
  const rssIndex = positions(feed.entries.length, feed.problems);
  const entries: PendingEntry[] = feed.entries.map((entry, i) => ({ entry, source: 'rss', index: rssIndex[i]! }));

  const lastFeed = (await store.getMeta(lastFeedKey(category))) ?? (await store.getMeta(lastSyncKey(category)))?.slice(0, 10);
  if (lastFeed !== undefined && missedAnnouncementDays(lastFeed, feedDate) > 0) {
    const catchUp: CatchUp = { since: addDays(lastFeed, -CATCH_UP_MARGIN_DAYS), pages: 0, entries: 0, truncated: false };
    result.catchUp = catchUp;
    try {
      const fetched = await fetchSince(ctx, category, catchUp);
      entries.push(...fetched.entries);
      result.skipped.push(...fetched.problems);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      catchUp.error = describeFailure(error, category);
      log.warn({ err: error, category }, 'arXiv catch-up failed; the feed itself is synced and the catch-up is retried next time');
    }
    result.fetched += catchUp.entries;
  }

  const tally = await store.write(async (tx) => {
    const written = await writeEntries(ctx, tx, entries);
    if (!result.catchUp?.error) {
      await tx.setMeta(lastSyncKey(category), clock.now().toISOString());
      if (lastFeed === undefined || feedDate > lastFeed) await tx.setMeta(lastFeedKey(category), feedDate);
    }
    return written;
  });
  for (const key of ['added', 'updated', 'unchanged', 'duplicates', 'replacementsIgnored'] as const) result[key] += tally[key];
  result.skipped.push(...tally.skipped);
  for (const id of tally.ids) ctx.seen.add(id);
  for (const written of tally.written) ctx.merges.count(written.result, written.record, result);
  log.info(
    { category, feedDate, added: result.added, updated: result.updated, unchanged: result.unchanged, skipped: result.skipped.length, merged: result.merged, apart: result.apart },
    'arXiv category synced',
  );
  return result;
}

/** What writing a category's entries did (counted apart from the summary: the store may run the write twice). */
interface Tally extends Pick<CategorySummary, 'added' | 'updated' | 'unchanged' | 'duplicates' | 'replacementsIgnored' | 'skipped'> {
  /** The ids written. */
  ids: Set<string>;
  /** What became of each record written, and whether the library held it under its arXiv id before. */
  written: Array<{ result: UpsertDone; record: { known: boolean; name: string } }>;
}

/** Upserts a category's entries in the store's transaction `tx`, counting outcomes. */
async function writeEntries(ctx: Context, tx: PaperWriter, entries: readonly PendingEntry[]): Promise<Tally> {
  const result: Tally = { added: 0, updated: 0, unchanged: 0, duplicates: 0, replacementsIgnored: 0, skipped: [], ids: new Set(), written: [] };
  const written = result.ids;
  const options: UpsertOptions = { source: 'arxiv', classify: ctx.classify, now: ctx.clock.now() };
  for (const { entry, source, index } of entries) {
    if (ctx.seen.has(entry.id) || written.has(entry.id)) {
      result.duplicates++;
      continue;
    }
    const existing = await tx.findByRef({ kind: 'arxiv', id: entry.id });
    if (isReplacement(entry) && !existing) {
      result.replacementsIgnored++;
      continue;
    }
    if (source === 'api' && existing) {
      // Catching up fills gaps; what the library holds already is left as it is.
      written.add(entry.id);
      result.unchanged++;
      continue;
    }
    const mapped = entryToRecord(entry);
    if (!mapped.ok) {
      result.skipped.push({ source, index, reason: `${mapped.reason} (arXiv ${entry.id})` });
      continue;
    }
    const [outcome] = await tx.upsertBatch([existing ? keepFirstAppearance(mapped.record, existing) : mapped.record], options);
    if (outcome && 'outcome' in outcome) {
      result[outcome.outcome]++;
      result.written.push({ result: outcome, record: { known: existing !== undefined, name: `arXiv ${entry.id}` } });
      written.add(entry.id);
    } else {
      result.skipped.push({ source, index, reason: `store refused the record: ${outcome?.refused} (arXiv ${entry.id})` });
    }
  }
  return result;
}

/** API pages of the category's submissions, newest first, back to `since` (bounded). */
async function fetchSince(ctx: Context, category: string, stats: CatchUp) {
  const pageSize = Math.max(1, ctx.options.catchUpPageSize ?? 200);
  const maxPages = Math.max(1, ctx.options.catchUpMaxPages ?? 10);
  const out = { entries: [] as PendingEntry[], problems: [] as SkippedEntry[] };
  for (let start = 0; ; start += pageSize) {
    if (stats.pages >= maxPages) {
      stats.truncated = true;
      break;
    }
    const params = new URLSearchParams({ search_query: `cat:${category}`, sortBy: 'submittedDate', sortOrder: 'descending', start: String(start), max_results: String(pageSize) });
    const page = await fetchApiPage(ctx.client, `${ctx.config.apiUrl}?${params}`, start, { signal: ctx.options.signal, ...(ctx.options.emptyPageRetries !== undefined && { retries: ctx.options.emptyPageRetries }) });
    stats.pages++;
    stats.entries += page.entries.length + page.problems.length;
    let older = false;
    const index = positions(page.entries.length, page.problems);
    for (const [i, entry] of page.entries.entries()) {
      if (entry.published && entry.published.slice(0, 10) < stats.since) older = true;
      else out.entries.push({ entry, source: 'api', index: start + index[i]! });
    }
    out.problems.push(...page.problems.map((p) => ({ source: 'api' as const, index: start + p.index, reason: p.reason })));
    const total = page.totalResults ?? Infinity;
    if (older || page.entries.length + page.problems.length === 0 || start + pageSize >= total) break;
  }
  return out;
}

/**
 * How many announcement days (Monday to Friday) lie strictly between two feed days: more than
 * none means announcements were missed and the API has to fill them in.
 * @example missedAnnouncementDays('2025-04-11', '2025-04-14') // 0 (Friday, then Monday)
 * @example missedAnnouncementDays('2025-04-09', '2025-04-14') // 1 (Friday the 11th)
 */
export function missedAnnouncementDays(lastFeed: string, feedDate: string): number {
  let missed = 0;
  for (let day = addDays(lastFeed, 1), guard = 0; day < feedDate && guard < 3660; day = addDays(day, 1), guard++) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday >= 1 && weekday <= 5) missed++;
  }
  return missed;
}

/** Where each parsed entry stood among a response's items, given the ones skipped as problems. */
function positions(entries: number, problems: readonly FeedProblem[]): number[] {
  const skipped = new Set(problems.map((p) => p.index));
  const out: number[] = [];
  for (let i = 0; out.length < entries; i++) if (!skipped.has(i)) out.push(i);
  return out;
}

function addDays(date: string, days: number): string {
  const time = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(time) ? date : new Date(time + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A record for a paper the library already holds: when it already knows when the paper first
 * appeared, a feed's announcement day (of a replacement, or of a late cross-listing) does not
 * move that.
 */
function keepFirstAppearance(record: PaperRecord, existing: Paper): PaperRecord {
  if (!existing.published && existing.year === null) return record;
  const copy: PaperRecord = { ...record, year: null };
  delete copy.published;
  return copy;
}

function describeFailure(error: unknown, category: string): string {
  if (error instanceof ArxivFetchError && error.status === 404) return `${error.message} (is "${category}" an arXiv category? e.g. cs.LG)`;
  return error instanceof Error ? error.message : String(error);
}

function emptySummary(category: string): CategorySummary {
  return { category, fetched: 0, added: 0, updated: 0, unchanged: 0, merged: 0, apart: 0, skipped: [], duplicates: 0, replacementsIgnored: 0, empty: false };
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items.map((c) => c.trim()).filter(Boolean))];
}
