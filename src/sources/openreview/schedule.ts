/**
 * OPENREVIEW_VENUES kept fresh by a running bot: a croner job checks once a day which venues
 * are due and syncs them, one sync at a time. A venue is due weekly, and daily in the month
 * after its decisions first appeared (when statuses still move: camera-ready, late
 * withdrawals). A failure is logged, never thrown out of the timer. With `once`, the day's check
 * is claimed in the store's job leases first, so that of several processes or instances sharing
 * the store one syncs (see `../jobs.ts`); the venues' last syncs are in the shared harvest state.
 */
import type { HarvestStore } from '../../store/harvests.js';
import { systemClock, type Clock } from '../../clock.js';
import { fetchHttp, type HttpRequest } from '../http.js';
import { dailyJob, type DailyJob, type OncePerSlot } from '../jobs.js';
import { formatOpenReviewSummary } from './summary.js';
import { syncOpenReview, venueKey, type OpenReviewSyncDeps, type OpenReviewSyncSummary, type VenueState } from './sync.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Syncs are a week apart, with a margin for the job's own timing. */
export const WEEKLY_MS = 7 * DAY_MS - 2 * HOUR_MS;
/** In the month after decisions, a day apart, with the same margin. */
export const DAILY_MS = DAY_MS - 2 * HOUR_MS;
export const DECISION_MONTH_MS = 31 * DAY_MS;
/** When the daily check runs (UTC): after the arXiv sync, away from the digests' usual hours. */
export const CHECK_PATTERN = '40 3 * * *';

/**
 * Whether a venue is due for a sync: never synced, synced more than a week ago, or in the month
 * after its decisions appeared and synced more than a day ago.
 * @example isDue(undefined, new Date()) // true
 * @example isDue({ venue: 'v', lastSync: '2025-01-30T03:40:00Z', decisionsSeenAt: '2025-01-24T03:40:00Z', byStatus: {} }, new Date('2025-01-31T03:40:00Z')) // true
 */
export function isDue(state: VenueState | undefined, now: Date): boolean {
  if (!state) return true;
  const since = now.getTime() - Date.parse(state.lastSync);
  if (!(since >= 0)) return true;
  const decided = state.decisionsSeenAt !== undefined && now.getTime() - Date.parse(state.decisionsSeenAt) < DECISION_MONTH_MS;
  return since >= (decided ? DAILY_MS : WEEKLY_MS);
}

/**
 * The configured venues that are due now.
 * @example await dueVenues(['ICLR.cc/2025/Conference'], harvests, new Date()) // ['ICLR.cc/2025/Conference']
 */
export async function dueVenues(venues: readonly string[], harvests: HarvestStore, now: Date): Promise<string[]> {
  const states = await Promise.all(venues.map(async (venue) => (await harvests.get<VenueState>(venueKey(venue)))?.state));
  return venues.filter((_, i) => isDue(states[i], now));
}

export interface OpenReviewScheduleDeps extends Omit<OpenReviewSyncDeps, 'http' | 'clock'> {
  http?: HttpRequest;
  /** Called after a sync that added or changed papers. */
  onChange: (summary: OpenReviewSyncSummary) => void | Promise<void>;
  /** Claim each day's check in the store's job leases: one process of those sharing it syncs. */
  once?: OncePerSlot;
}

/** The daily check: `runNow` syncs the due venues now (or joins the sync under way). */
export type OpenReviewSchedule = DailyJob<OpenReviewSyncSummary>;

/**
 * @example
 * const schedule = scheduleOpenReviewSync({ store, harvests, classify, config: config.openreview, log, onChange: refresh });
 * schedule.start(); // … await schedule.stop();
 */
export function scheduleOpenReviewSync(deps: OpenReviewScheduleDeps, clock: Clock = systemClock): OpenReviewSchedule {
  const http = deps.http ?? fetchHttp();
  const { log } = deps;
  const sync = async (signal: AbortSignal): Promise<OpenReviewSyncSummary | undefined> => {
    const venues = await dueVenues(deps.config.venues, deps.harvests, clock.now());
    if (venues.length === 0) return undefined;
    let summary: OpenReviewSyncSummary;
    try {
      summary = await syncOpenReview({ ...deps, http, clock }, { venues, signal });
    } catch (err) {
      log.error({ err }, 'OpenReview sync failed');
      return undefined;
    }
    const counts = { added: summary.added, updated: summary.updated, merged: summary.merged, apart: summary.apart, failed: summary.failed.length };
    log[summary.failed.length > 0 ? 'warn' : 'info'](counts, `OpenReview sync done\n${formatOpenReviewSummary(summary)}`);
    if (summary.changed) {
      try {
        await deps.onChange(summary);
      } catch (err) {
        log.error({ err }, 'refreshing after the OpenReview sync failed');
      }
    }
    return summary;
  };

  const job = dailyJob({
    name: 'OpenReview sync',
    pattern: CHECK_PATTERN,
    once: deps.once,
    clock,
    log,
    run: sync,
    armed: (next) => log.info({ venues: deps.config.venues, next: next?.toISOString() }, 'OpenReview venues kept fresh: weekly, daily in the month after decisions'),
  });
  return {
    ...job,
    start() {
      if (deps.config.venues.length > 0) job.start();
    },
  };
}
