/**
 * The bot's background work in `npm start`: every few seconds, a check that the search index
 * still reflects the store (at once when PostgreSQL says another process wrote papers); every
 * minute, the digests that are due (unless DIGEST_SCHEDULER=off); once a day, the arXiv sync, the
 * OpenReview venues that are due (OPENREVIEW_VENUES) and a purge of expired button state; the
 * syncs run once across the processes and instances sharing the store (job leases). When the
 * store has changed (a sync, a lookup of a paper the library lacked, an import by another process
 * or instance) and settled, or the snapshot was missing or damaged at start, the index is
 * rebuilt in a child process (7 s of CPU for 100k papers would stall every user) and the running
 * bot loads it; the first rebuild starts at once. Digests wait while there is no index at all.
 * The child runs the same build as this process: compiled JavaScript under `npm start`,
 * TypeScript through tsx under `npm run dev` (a compiled child of a TypeScript parent could be
 * older than the code that spawned it). The demo corpus lives in memory (papers looked up join
 * it): its few papers are indexed in process.
 */
import { spawn } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cron } from 'croner';
import type { App } from '../src/app.js';
import { runDueDigests, type RunDueSummary } from '../src/digest/runner.js';
import type { DigestSender } from '../src/digest/sender.js';
import type { ChatPlatform } from '../src/digest/store.js';
import { fetchHttpGet } from '../src/sources/arxiv/client.js';
import { scheduleArxivSync, type ScheduleDeps } from '../src/sources/arxiv/schedule.js';
import { fetchHttp } from '../src/sources/http.js';
import { scheduleOpenReviewSync } from '../src/sources/openreview/schedule.js';
import { isStoreUnavailable } from '../src/store/errors.js';

/** stderr kept from a failed index rebuild, for the log. */
const STDERR_TAIL = 2000;
/** How often the index is checked against the store's generation (one cheap read). */
export const INDEX_CHECK_MS = 5000;
/** After a change another process announced, how long the store must stay quiet before the index is rebuilt. */
export const SETTLE_MS = 2000;

export interface BackgroundJobs {
  /**
   * Brings the search index up to date now: loads a fresh snapshot, or has a child process
   * rebuild it first (joining a rebuild under way). Resolves when done; failures are logged.
   * `whenSettled`, as the regular check does: while the bot has an index, a store that changed
   * since the last such check (an import under way in another process) is left alone for now.
   */
  refreshIndex(options?: { whenSettled?: boolean }): Promise<void>;
  /** Stops the timers, waits for work under way, and ends a rebuild in progress. */
  stop(): Promise<void>;
}

/** What the jobs report as they go (health and metrics). */
export interface BackgroundHooks {
  /** A digest pass ended, with its summary or its error. */
  onDigestRun?: (at: Date, result: { summary: RunDueSummary } | { error: unknown }) => void;
  /** An arXiv sync ended. */
  onSync?: ScheduleDeps['onDone'];
  /** Whether every configured platform is connected: the digest pass at start waits for it (a while). */
  platformsReady?: () => boolean;
}

/** How long the digest pass at start waits for the platforms to connect before it goes ahead. */
const START_PASS_WAIT_MS = 30_000;

/**
 * Starts the timers. `senders` is read at every digest pass, so a platform that connects later
 * (or reconnects) gets its digests from then on.
 */
export function startBackgroundJobs(app: App, senders: Partial<Record<ChatPlatform, DigestSender>>, hooks: BackgroundHooks = {}): BackgroundJobs {
  const { log } = app;
  const stopping = new AbortController();
  let reindexing: Promise<void> | undefined;

  /** The store generation the last regular check saw: another process's import moves it every second. */
  let seenGeneration: number | undefined;

  /**
   * Loads a fresh index when the store has moved on, rebuilding it out of process (one at a time).
   * On the regular check (`whenSettled`) a store still changing since the last check is left
   * alone while the bot has an index: an import in another process writes its own snapshot when
   * it ends, and rebuilding beside it would only compete for the CPU.
   */
  const ensureIndexFresh = async (options: { whenSettled?: boolean } = {}): Promise<void> => {
    if (stopping.signal.aborted || reindexing) return reindexing;
    if (!(await app.library.checkStore())) return;
    if (app.demo) {
      // In memory, some sixty papers: rebuilt in a blink, and a child would index DATA_DIR instead.
      await app.library.refresh();
      return;
    }
    // Cleared in a later tick (`finally`), never before it is set, even when the work was synchronous.
    reindexing ??= bringIndexUpToDate(options.whenSettled === true).finally(() => (reindexing = undefined));
    return reindexing;
  };
  const bringIndexUpToDate = async (whenSettled: boolean): Promise<void> => {
    const wasReady = app.library.ready;
    const load = async (): Promise<boolean> => {
      const started = performance.now();
      const loaded = await app.library.refresh({ rebuild: false });
      if (loaded) log.info({ papers: app.library.size, ms: Math.round(performance.now() - started) }, 'search index loaded');
      return loaded;
    };
    if (await load()) return;
    const generation = app.library.knownStoreGeneration;
    const changing = whenSettled && wasReady && generation !== seenGeneration;
    seenGeneration = generation;
    if (changing) return;
    if (await reindexInChild(app, stopping.signal)) await load();
    if (!wasReady && app.library.ready) log.info({ papers: app.library.size }, 'search index rebuilt and loaded: searching again');
  };
  /** Whether the last check found the store unreachable: said once per outage, not every 5 s. */
  let storeDown = false;
  const refreshIndex = (options: { whenSettled?: boolean } = {}) =>
    ensureIndexFresh(options).then(
      () => {
        if (storeDown) log.info('the store answers again: the search index follows it again');
        storeDown = false;
      },
      (err: unknown) => {
        if (!isStoreUnavailable(err)) return log.error({ err }, 'index refresh failed');
        if (!storeDown) log.warn({ reason: (err as Error).message }, 'the store is unreachable: searches use the index as it is until it is back');
        storeDown = true;
      },
    );

  const checks = setInterval(() => void refreshIndex({ whenSettled: true }), INDEX_CHECK_MS);
  checks.unref();
  // Another process's write, as PostgreSQL announces it: once the store has been quiet for a
  // moment (an import writes batch after batch), the index is brought up to date.
  let settling: NodeJS.Timeout | undefined;
  const watcher = app.demo
    ? undefined
    : app.stores.watchPapers?.(() => {
        if (settling) clearTimeout(settling);
        settling = setTimeout(() => void refreshIndex(), SETTLE_MS);
        settling.unref();
      });

  const digestPass = async (): Promise<void> => {
    if (!app.config.digestScheduler || stopping.signal.aborted) return;
    if (!app.library.ready) {
      log.warn('digests wait: the search index is still being rebuilt');
      return;
    }
    const at = new Date();
    try {
      const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders, log }, at);
      if (summary.due > 0) log.info({ ...summary }, 'digests run');
      hooks.onDigestRun?.(at, { summary });
    } catch (err) {
      if (isStoreUnavailable(err)) log.warn({ reason: (err as Error).message }, 'digest pass stopped: the store is unreachable; the next pass resumes where it stopped');
      else log.error({ err }, 'digest run failed');
      hooks.onDigestRun?.(at, { error: err });
    }
  };
  // At start: the index first (a snapshot that was missing, damaged or behind the store is
  // rebuilt now, not in a minute), then the digests already due, so that after a restart or a
  // deploy they go out at once. Every instance may do so: each run is sent by one (its lease).
  const platformsUp = async (): Promise<void> => {
    for (let waited = 0; hooks.platformsReady && !hooks.platformsReady() && waited < START_PASS_WAIT_MS && !stopping.signal.aborted; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250).unref());
    }
  };
  let pass: Promise<void> | undefined = Promise.all([refreshIndex(), platformsUp()]).then(digestPass);
  const everyMinute = new Cron('* * * * *', { protect: true }, async () => {
    const previous = pass;
    pass = (async () => {
      await previous;
      await refreshIndex({ whenSettled: true });
      await digestPass();
    })();
    await pass;
  });
  const daily = new Cron('17 3 * * *', { timezone: 'UTC', catch: (err: unknown) => log.warn({ err }, 'purging expired button state failed') }, async () => {
    const purged = await app.states.purge(new Date());
    if (purged) log.info({ purged }, 'expired button state purged');
  });

  let sync: ReturnType<typeof scheduleArxivSync> | undefined;
  let openreview: ReturnType<typeof scheduleOpenReviewSync> | undefined;
  if (app.demo) {
    log.info('arXiv and OpenReview syncs are off while the library is the demo corpus: import papers or run `paperscout sync arxiv` once');
  } else {
    sync = scheduleArxivSync({
      store: app.store,
      classify: app.classify,
      config: app.config.arxiv,
      log,
      http: fetchHttpGet({ userAgent: app.config.userAgent }),
      onChange: () => ensureIndexFresh(),
      // Of the processes (and instances) sharing the store, one syncs each day.
      once: { jobs: app.jobs, job: 'arxiv-sync' },
      ...(hooks.onSync && { onDone: hooks.onSync }),
    });
    sync.start();
    openreview = scheduleOpenReviewSync({
      store: app.store,
      harvests: app.stores.harvests,
      classify: app.classify,
      config: app.config.openreview,
      log,
      http: fetchHttp({ userAgent: app.config.userAgent }),
      onChange: () => ensureIndexFresh(),
      once: { jobs: app.jobs, job: 'openreview-sync' },
    });
    openreview.start();
  }
  if (!app.config.digestScheduler) log.info('DIGEST_SCHEDULER=off: digests are left to `paperscout digest run-due`');

  return {
    refreshIndex,
    async stop() {
      stopping.abort();
      clearInterval(checks);
      if (settling) clearTimeout(settling);
      await watcher?.close();
      everyMinute.stop();
      daily.stop();
      await sync?.stop();
      await openreview?.stop();
      await Promise.allSettled([pass, reindexing]);
    },
  };
}

/**
 * Runs `paperscout reindex` for the app's DATA_DIR in a child process; resolves whether it
 * succeeded. Aborting the signal ends the child.
 */
export function reindexInChild(app: Pick<App, 'config' | 'log'>, signal?: AbortSignal): Promise<boolean> {
  const self = fileURLToPath(import.meta.url);
  const typescript = extname(self) === '.ts';
  const cli = fileURLToPath(new URL(`./cli/cli${extname(self)}`, import.meta.url));
  // Running from source, the child needs tsx too; compiled, it is plain node.
  const execArgv = typescript ? ['--import', import.meta.resolve('tsx')] : process.execArgv;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...execArgv, cli, 'reindex'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, DATA_DIR: app.config.dataDir },
      ...(signal && { signal }),
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)));
    child.on('error', (err) => {
      if (!signal?.aborted) app.log.error({ err }, 'could not run the index rebuild');
      resolve(false);
    });
    child.on('exit', (code) => {
      if (code !== 0 && !signal?.aborted) app.log.error({ code, stderr }, 'index rebuild failed; the bot keeps the index it has');
      resolve(code === 0);
    });
  });
}
