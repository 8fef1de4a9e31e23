/**
 * The daily arXiv sync of a running bot: a croner job at `ARXIV_SYNC_TIME` (UTC) that syncs the
 * configured categories and tells the caller when papers changed, so it can refresh its search
 * index without a restart. One sync at a time; a failure is logged, never thrown out of the timer.
 * With `once`, the day's sync is claimed in the store first, so that of several processes or
 * instances sharing it one syncs (see `../jobs.ts`).
 */
import { Cron } from 'croner';
import { systemClock, type Clock } from '../clock.js';
import { runOncePerSlot, type OncePerSlot } from '../jobs.js';
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

export interface ArxivSchedule {
  /** Arms the daily job (again after {@link stop}); does nothing when it is armed. */
  start(): void;
  /** Disarms the job, aborts a sync in flight and waits for it to wind down. */
  stop(): Promise<void>;
  /** Syncs now, or joins the sync already running. Resolves to its summary; never rejects. */
  runNow(): Promise<SyncSummary | undefined>;
  /** When the job fires next, or null when it is not armed. */
  nextRun(): Date | null;
}

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
  let job: Cron | undefined;
  let running: Promise<SyncSummary | undefined> | undefined;
  let controller: AbortController | undefined;
  /** Claimed slots to hand back if the schedule is stopped while they run. */
  const stopping = new Set<() => void>();

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
    log[level]({ added: summary.added, updated: summary.updated, failed: summary.failed.length }, `arXiv sync done\n${formatSyncSummary(summary)}`);
    if (summary.changed) {
      try {
        await deps.onChange(summary);
      } catch (err) {
        log.error({ err }, 'refreshing after the arXiv sync failed');
      }
    }
    return summary;
  };

  const runNow = (): Promise<SyncSummary | undefined> => {
    if (running) {
      log.info('an arXiv sync is already running; not starting another');
      return running;
    }
    controller = new AbortController();
    running = sync(controller.signal).finally(() => {
      running = undefined;
      controller = undefined;
    });
    return running;
  };

  return {
    start() {
      if (job) return;
      job = new Cron(pattern, { timezone: 'UTC', protect: true, catch: (err: unknown) => log.error({ err }, 'arXiv sync job failed') }, async () => {
        if (!deps.once) {
          await runNow();
          return;
        }
        // The day (UTC) is the slot: whichever process claims it first syncs it.
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
      log.info({ next: job.nextRun()?.toISOString(), pattern }, 'daily arXiv sync scheduled (UTC)');
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
