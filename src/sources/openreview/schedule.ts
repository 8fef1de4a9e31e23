/**
 * OPENREVIEW_VENUES kept fresh by a running bot: a croner job checks once a day which venues
 * are due and syncs them, one sync at a time. A venue is due weekly, and daily in the month
 * after its decisions first appeared (when statuses still move: camera-ready, late
 * withdrawals). A failure is logged, never thrown out of the timer. With `once`, the day's check
 * is claimed in the store's job leases first, so that of several processes or instances sharing
 * the store one syncs (see `../jobs.ts`); the venues' last syncs are in the shared harvest state.
 */
import { Cron } from 'croner';
import type { HarvestStore } from '../../store/harvests.js';
import { systemClock, type Clock } from '../clock.js';
import { fetchHttp, type HttpRequest } from '../http.js';
import { runOncePerSlot, type OncePerSlot } from '../jobs.js';
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

export interface OpenReviewSchedule {
  start(): void;
  stop(): Promise<void>;
  /** Syncs the due venues now (or joins the sync running); never rejects. */
  runNow(): Promise<OpenReviewSyncSummary | undefined>;
  nextRun(): Date | null;
}

/**
 * @example
 * const schedule = scheduleOpenReviewSync({ store, harvests, classify, config: config.openreview, log, onChange: refresh });
 * schedule.start(); // … await schedule.stop();
 */
export function scheduleOpenReviewSync(deps: OpenReviewScheduleDeps, clock: Clock = systemClock): OpenReviewSchedule {
  const http = deps.http ?? fetchHttp();
  const { log } = deps;
  let job: Cron | undefined;
  let running: Promise<OpenReviewSyncSummary | undefined> | undefined;
  let controller: AbortController | undefined;
  /** Claimed slots to hand back if the schedule is stopped while they run. */
  const stopping = new Set<() => void>();

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
    log[summary.failed.length > 0 ? 'warn' : 'info']({ added: summary.added, updated: summary.updated, failed: summary.failed.length }, `OpenReview sync done\n${formatOpenReviewSummary(summary)}`);
    if (summary.changed) {
      try {
        await deps.onChange(summary);
      } catch (err) {
        log.error({ err }, 'refreshing after the OpenReview sync failed');
      }
    }
    return summary;
  };

  const runNow = (): Promise<OpenReviewSyncSummary | undefined> => {
    if (running) return running;
    controller = new AbortController();
    running = sync(controller.signal).finally(() => {
      running = undefined;
      controller = undefined;
    });
    return running;
  };

  return {
    start() {
      if (job || deps.config.venues.length === 0) return;
      job = new Cron(CHECK_PATTERN, { timezone: 'UTC', protect: true, catch: (err: unknown) => log.error({ err }, 'OpenReview sync job failed') }, async () => {
        if (!deps.once) {
          await runNow();
          return;
        }
        // The day (UTC) is the slot: whichever process claims it first checks and syncs the due venues.
        const day = clock.now().toISOString().slice(0, 10);
        const signal = new AbortController();
        const stopped = () => signal.abort();
        stopping.add(stopped);
        try {
          await runOncePerSlot(deps.once, day, { clock, log }, () => runNow(), signal.signal);
        } finally {
          stopping.delete(stopped);
        }
      });
      log.info({ venues: deps.config.venues, next: job.nextRun()?.toISOString() }, 'OpenReview venues kept fresh: weekly, daily in the month after decisions');
    },
    async stop() {
      job?.stop();
      job = undefined;
      for (const stopped of stopping) stopped();
      controller?.abort();
      await running;
    },
    runNow,
    nextRun: () => job?.nextRun() ?? null,
  };
}
