/**
 * Scheduled source jobs run once across every process and instance sharing the store: each
 * instance's timer fires, but a slot (the day of a daily sync) is claimed in the store's job
 * leases first, and only the claimer runs it, renewing its lease while it works. The others skip
 * the slot. A holder that dies stops renewing and the slot is taken over after the lease's time
 * (at once by a process of the same machine, which can see that the holder's pid is gone); one
 * stopped by a shutdown gives the slot up at once.
 */
import { Cron } from 'croner';
import type { Logger } from 'pino';
import { deadOwnerHere, processOwner } from '../processes.js';
import type { JobLeases } from '../store/jobs.js';
import type { Clock } from '../clock.js';

/** How long a job's lease lasts without renewal; it is renewed every third of that. */
export const JOB_LEASE_TTL_MS = 5 * 60_000;

export interface OncePerSlot {
  jobs: JobLeases;
  /** The job's name in the store: `arxiv-sync`, `openreview-sync`. */
  job: string;
}

/**
 * Runs `work` for `slot` of the job unless another process has it or did it; resolves whether it
 * ran. `work`'s own failures are its caller's to report: the slot counts as done either way
 * (a daily sync that failed is tried again the next day, as it always was), unless `signal`
 * aborted it, which hands the slot back.
 * @example await runOncePerSlot({ jobs, job: 'arxiv-sync' }, '2026-03-02', { clock, log }, (signal) => sync(signal), signal);
 */
export async function runOncePerSlot(
  once: OncePerSlot,
  slot: string,
  deps: { clock: Clock; log: Logger; owner?: string },
  work: () => Promise<unknown>,
  signal?: AbortSignal,
): Promise<boolean> {
  const { jobs, job } = once;
  const owner = deps.owner ?? processOwner();
  const lease = () => ({ owner, now: deps.clock.now(), ttlMs: JOB_LEASE_TTL_MS });
  let claimed = await jobs.claim(job, slot, lease());
  if (!claimed) {
    const holder = await jobs.holder(job, deps.clock.now());
    if (holder && deadOwnerHere(holder.owner)) {
      claimed = await jobs.claim(job, slot, lease(), holder.owner);
      if (claimed) deps.log.warn({ job, slot, holder: holder.owner }, 'took over a job whose holder on this machine is gone (killed?)');
    }
  }
  if (!claimed) {
    deps.log.info({ job, slot }, 'scheduled job skipped: another process has run it or is running it');
    return false;
  }
  const renewal = setInterval(() => {
    jobs.renew(job, lease()).then(
      (held) => held || deps.log.warn({ job, slot }, 'lost the lease of a scheduled job (the store was unreachable for minutes?); another process may take it over'),
      (err: unknown) => deps.log.warn({ err, job }, 'could not renew the lease of a scheduled job'),
    );
  }, JOB_LEASE_TTL_MS / 3);
  renewal.unref();
  try {
    await work();
  } finally {
    clearInterval(renewal);
    await jobs.release(job, owner, !signal?.aborted).catch((err: unknown) => deps.log.warn({ err, job }, 'could not release the lease of a scheduled job; it expires by itself'));
  }
  return true;
}

/** A daily job of a running bot around one kind of sync (see {@link dailyJob}). */
export interface DailyJob<T> {
  /** Arms the job (again after {@link stop}); does nothing when it is armed. */
  start(): void;
  /** Disarms the job, aborts a run in flight and waits for it to wind down. */
  stop(): Promise<void>;
  /** Runs now, or joins the run already under way. Resolves to its result; never rejects. */
  runNow(): Promise<T | undefined>;
  /** When the job fires next, or null when it is not armed. */
  nextRun(): Date | null;
}

/**
 * A croner job at `pattern` (UTC) around `run`: one run at a time, a failure logged, never
 * thrown out of the timer. With `once`, the day (UTC) is the slot: whichever process claims it
 * first in the store's job leases runs it.
 * @example dailyJob({ name: 'arXiv sync', pattern: '30 2 * * *', clock, log, run: (signal) => sync(signal), armed: (next) => log.info({ next }, 'scheduled') })
 */
export function dailyJob<T>(options: {
  name: string;
  pattern: string;
  once?: OncePerSlot;
  clock: Clock;
  log: Logger;
  run: (signal: AbortSignal) => Promise<T | undefined>;
  /** Told when the job is armed, with its next run. */
  armed: (next: Date | null) => void;
}): DailyJob<T> {
  const { name, clock, log, once } = options;
  let job: Cron | undefined;
  let running: Promise<T | undefined> | undefined;
  let controller: AbortController | undefined;
  /** Claimed slots to hand back if the job is stopped while they run. */
  const stopping = new Set<() => void>();

  const runNow = (): Promise<T | undefined> => {
    if (running) {
      log.info(`${name} already running; not starting another`);
      return running;
    }
    controller = new AbortController();
    running = options.run(controller.signal).finally(() => {
      running = undefined;
      controller = undefined;
    });
    return running;
  };

  return {
    start() {
      if (job) return;
      job = new Cron(options.pattern, { timezone: 'UTC', protect: true, catch: (err: unknown) => log.error({ err }, `${name} job failed`) }, async () => {
        if (!once) {
          await runNow();
          return;
        }
        const day = clock.now().toISOString().slice(0, 10);
        const signal = new AbortController();
        const stopped = () => signal.abort();
        stopping.add(stopped);
        try {
          await runOncePerSlot(once, day, { clock, log }, () => runNow(), signal.signal);
        } finally {
          stopping.delete(stopped);
        }
      });
      options.armed(job.nextRun());
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
