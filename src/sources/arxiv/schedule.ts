/**
 * The daily arXiv sync of a running bot: a croner job at `ARXIV_SYNC_TIME` (UTC) that syncs the
 * configured categories and tells the caller when papers changed, so it can refresh its search
 * index without a restart. One sync at a time; a failure is logged, never thrown out of the timer.
 * With `once`, the day's sync is claimed in the store first, so that of several processes or
 * instances sharing it one syncs (see `../jobs.ts`).
 */
import { systemClock, type Clock } from '../../clock.js';
import { dailyJob, type DailyJob, type OncePerSlot } from '../jobs.js';
import { fetchHttpGet, type HttpGet } from './client.js';
import { formatSyncSummary } from './summary.js';
import { syncArxiv, type SyncDeps, type SyncSummary } from './sync.js';

export interface ScheduleDeps extends Omit<SyncDeps, 'http' | 'clock'> {
  /** The network (default: fetch with Paper Scout's User-Agent). */
  http?: HttpGet;
  /** Called after a sync that added or changed papers; may return a promise. */
  onChange: (summary: SyncSummary) => void | Promise<void>;
  /** Told of every sync's end, changed or not, failed or not (health and metrics). */
  onDone?: (result: { summary: SyncSummary } | { error: unknown }) => void;
  /** Claim each day's sync in the store's job leases: one process of those sharing it syncs. */
  once?: OncePerSlot;
}

/** The daily job: `start`, `stop`, `runNow` (joins a sync under way), `nextRun`. */
export type ArxivSchedule = DailyJob<SyncSummary>;

/**
 * The cron pattern of a daily time `HH:MM`.
 * @example cronPattern('02:30') // '30 2 * * *'
 */
export function cronPattern(syncTime: string): string {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(syncTime.trim());
  if (!match) throw new Error(`ARXIV_SYNC_TIME must be a time of day HH:MM (UTC), got ${JSON.stringify(syncTime)}`);
  return `${Number(match[2])} ${Number(match[1])} * * *`;
}

/**
 * Creates the daily job, not yet armed.
 * @example
 * const schedule = scheduleArxivSync({ store, classify, config: config.arxiv, log, onChange: () => library.refresh() });
 * schedule.start(); // … at shutdown: await schedule.stop();
 */
export function scheduleArxivSync(deps: ScheduleDeps, clock: Clock = systemClock): ArxivSchedule {
  const pattern = cronPattern(deps.config.syncTime);
  const http = deps.http ?? fetchHttpGet();
  const { log } = deps;
  const sync = async (signal: AbortSignal): Promise<SyncSummary | undefined> => {
    let summary: SyncSummary;
    try {
      summary = await syncArxiv({ ...deps, http, clock }, { signal });
    } catch (err) {
      log.error({ err }, 'arXiv sync failed');
      deps.onDone?.({ error: err });
      return undefined;
    }
    deps.onDone?.({ summary });
    const level = summary.failed.length > 0 ? 'warn' : 'info';
    const counts = { added: summary.added, updated: summary.updated, merged: summary.merged, apart: summary.apart, failed: summary.failed.length };
    log[level](counts, `arXiv sync done\n${formatSyncSummary(summary)}`);
    if (summary.changed) {
      try {
        await deps.onChange(summary);
      } catch (err) {
        log.error({ err }, 'refreshing after the arXiv sync failed');
      }
    }
    return summary;
  };

  return dailyJob({
    name: 'arXiv sync',
    pattern,
    once: deps.once,
    clock,
    log,
    run: sync,
    armed: (next) => log.info({ next: next?.toISOString(), pattern }, 'daily arXiv sync scheduled (UTC)'),
  });
}
