/**
 * Citation counts kept current by a running bot: a croner job at OPENALEX_SYNC (UTC) asks
 * OpenAlex about the papers added since the last run, counts older than 30 days and papers not
 * found 30 days ago (a `--refresh` sync), and tells the caller when counts changed, so that the
 * search index follows. The day is claimed in the store's job leases first, so that of the
 * processes and instances sharing the store one syncs (see `../jobs.ts`); a sync a kill cut
 * short resumes the next day where it stopped. A failure is logged, never thrown out of the timer.
 */
import { systemClock, type Clock } from '../../clock.js';
import { fetchHttp, type HttpRequest } from '../http.js';
import { dailyJob, type DailyJob, type OncePerSlot } from '../jobs.js';
import { cronPattern } from '../arxiv/schedule.js';
import { formatOpenAlexSummary } from './summary.js';
import { syncOpenAlex, type OpenAlexSyncDeps, type OpenAlexSyncSummary } from './sync.js';
import type { OpenAlexConfig } from '../../config.js';

export interface OpenAlexScheduleDeps extends Omit<OpenAlexSyncDeps, 'http' | 'clock' | 'jobs' | 'config'> {
  config: OpenAlexConfig;
  /** The network (default: fetch with the User-Agent naming OPENALEX_MAILTO). */
  http?: HttpRequest;
  /** Called after a sync that changed counts; may return a promise. */
  onChange: (summary: OpenAlexSyncSummary) => void | Promise<void>;
  /** Claim each day's sync in the store's job leases: one process of those sharing it syncs. */
  once?: OncePerSlot;
}

/** The daily job: `start` (nothing when OPENALEX_SYNC is off), `stop`, `runNow`, `nextRun`. */
export type OpenAlexSchedule = DailyJob<OpenAlexSyncSummary>;

/**
 * Creates the daily job, not yet armed.
 * @example
 * const schedule = scheduleOpenAlexSync({ papers, citations, config: config.openalex, log, onChange: () => refresh(), once: { jobs, job: OPENALEX_JOB } });
 * schedule.start(); // … await schedule.stop();
 */
export function scheduleOpenAlexSync(deps: OpenAlexScheduleDeps, clock: Clock = systemClock): OpenAlexSchedule {
  const { log, config } = deps;
  const http = deps.http ?? fetchHttp({ userAgent: config.userAgent, accept: 'application/json' });
  const sync = async (signal: AbortSignal): Promise<OpenAlexSyncSummary | undefined> => {
    let summary: OpenAlexSyncSummary;
    try {
      summary = await syncOpenAlex({ ...deps, config, http, clock }, { refresh: true, signal });
    } catch (err) {
      log.error({ err }, 'OpenAlex sync failed');
      return undefined;
    }
    const level = summary.error ? 'warn' : 'info';
    log[level]({ asked: summary.asked, matched: summary.matched, changed: summary.countsChanged, requests: summary.requests }, `OpenAlex sync done\n${formatOpenAlexSummary(summary)}`);
    if (summary.changed) {
      try {
        await deps.onChange(summary);
      } catch (err) {
        log.error({ err }, 'refreshing after the OpenAlex sync failed');
      }
    }
    return summary;
  };
  const job = dailyJob({
    name: 'OpenAlex sync',
    pattern: cronPattern(config.syncTime ?? '04:10'),
    once: deps.once,
    clock,
    log,
    run: sync,
    armed: (next) => log.info({ next: next?.toISOString() }, 'daily OpenAlex citation counts scheduled (UTC)'),
  });
  return {
    ...job,
    start() {
      if (config.syncTime) job.start();
      else log.info('OPENALEX_SYNC=off: citation counts are left to `paperscout sync openalex`');
    },
  };
}
