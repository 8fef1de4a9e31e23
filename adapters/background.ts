/**
 * The bot's background work in `npm start`: every two seconds (and at once when PostgreSQL says
 * another process wrote papers), the search index catches up with the store: a sync, a lookup, an
 * import by another process or instance becomes a small delta segment, built in slices; every
 * minute, the digests that are due (unless DIGEST_SCHEDULER=off); once a day, the arXiv sync, the
 * OpenReview venues that are due (OPENREVIEW_VENUES), citation counts from OpenAlex
 * (OPENALEX_SYNC) and a purge of expired button state; the
 * syncs run once across the processes and instances sharing the store (job leases). When the
 * deltas have grown (and the store has settled), or the snapshot is missing or damaged, a child
 * process merges or rebuilds the snapshot (one process at a time) and the bot swaps it in.
 * Digests wait while there is no index at all.
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
import type { RunDueSummary } from '../src/digest/pass.js';
import { runDueDigests } from '../src/digest/runner.js';
import type { DigestSender } from '../src/digest/sender.js';
import type { ChatPlatform } from '../src/store/digests.js';
import { fetchHttpGet } from '../src/sources/arxiv/client.js';
import { scheduleArxivSync, type ScheduleDeps } from '../src/sources/arxiv/schedule.js';
import { fetchHttp } from '../src/sources/http.js';
import { scheduleOpenReviewSync } from '../src/sources/openreview/schedule.js';
import { scheduleOpenAlexSync } from '../src/sources/openalex/schedule.js';
import { OPENALEX_JOB } from '../src/sources/openalex/sync.js';
import { isStoreUnavailable } from '../src/store/errors.js';

/** stderr kept from a failed index rebuild, for the log. */
const STDERR_TAIL = 2000;
/** How often the index is checked against the store's generation (one cheap read) and caught up. */
export const INDEX_CHECK_MS = 2000;
/** After a write another process announced (PostgreSQL), how long to wait for more before catching up. */
export const SETTLE_MS = 100;

export interface BackgroundJobs {
  /**
   * Brings the search index up to date now: catches up with the store, and merges the deltas
   * into a new snapshot in a child process when they have grown (without an index: loads a
   * snapshot, or has a child process build one), joining a merge or rebuild under way. Resolves
   * when done; failures are logged. `whenSettled`, as the regular check does: a store that
   * changed since the last such check (an import under way in another process) is not merged yet.
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

  /** A merge or rebuild of the snapshot in a child process (one at a time). */
  let rebuilding: Promise<void> | undefined;
  /** The store generation the last regular check saw: another process's import moves it every second. */
  let seenGeneration: number | undefined;

  /** Folds the store's changes since the index's generation in: a delta built in slices. */
  const catchUpIndex = async (): Promise<void> => {
    if (stopping.signal.aborted || !app.library.ready) return;
    if (await app.library.checkStore()) await app.library.catchUp();
  };
  /**
   * Brings the index up to date: catches up, and when the deltas have grown past the merge
   * threshold has a child process merge them into a new snapshot, then swaps it in; without an
   * index, loads a snapshot or has a child process build one. On the regular check
   * (`whenSettled`) a store still changing since the last check is not merged yet: an import in
   * another process merges its own snapshot when it ends, and a merge beside it would only
   * compete for the CPU.
   */
  const ensureIndexFresh = async (options: { whenSettled?: boolean } = {}): Promise<void> => {
    if (stopping.signal.aborted) return;
    if (!app.library.ready) {
      rebuilding ??= loadOrRebuild().finally(() => (rebuilding = undefined));
      return rebuilding;
    }
    await catchUpIndex();
    if (rebuilding) return rebuilding;
    if (!(await app.library.needsMerge())) return;
    const generation = app.library.knownStoreGeneration;
    const changing = options.whenSettled === true && generation !== seenGeneration;
    seenGeneration = generation;
    if (changing) return;
    rebuilding ??= mergeInChild().finally(() => (rebuilding = undefined));
    return rebuilding;
  };
  const loadOrRebuild = async (): Promise<void> => {
    const started = performance.now();
    if (await app.library.refresh()) {
      log.info({ papers: app.library.size, ms: Math.round(performance.now() - started) }, 'search index loaded');
      return;
    }
    if (await reindexInChild(app, stopping.signal)) await app.library.refresh();
    if (app.library.ready) log.info({ papers: app.library.size }, 'search index rebuilt and loaded: searching again');
  };
  const mergeInChild = async (): Promise<void> => {
    // The catch-up after it swaps the new snapshot in (and folds in what changed meanwhile).
    if (await reindexInChild(app, stopping.signal, ['--merge'])) await app.library.catchUp();
  };
  /** Whether the last check found the store unreachable: said once per outage, not every check. */
  let storeDown = false;
  const followStore = (work: () => Promise<void>) =>
    work().then(
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
  const refreshIndex = (options: { whenSettled?: boolean } = {}) => followStore(() => ensureIndexFresh(options));

  const checks = setInterval(() => void refreshIndex({ whenSettled: true }), INDEX_CHECK_MS);
  checks.unref();
  // Another process's write, as PostgreSQL announces it: the index catches up at once (after a
  // moment, so that an import's batches in quick succession are one catch-up, not many).
  let settling: NodeJS.Timeout | undefined;
  const watcher = app.demo
    ? undefined
    : app.stores.watchPapers?.(() => {
        settling ??= setTimeout(() => {
          settling = undefined;
          void followStore(catchUpIndex);
        }, SETTLE_MS);
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
      const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, readingLists: app.stores.readingLists, senders, log, signal: stopping.signal }, at);
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
      // A merge under way is not waited for: the digests need the index caught up, not merged.
      await followStore(catchUpIndex);
      await digestPass();
    })();
    await pass;
  });
  const daily = new Cron('17 3 * * *', { timezone: 'UTC', catch: (err: unknown) => log.warn({ err }, 'purging expired button state failed') }, async () => {
    const purged = await app.states.purge(new Date());
    if (purged) log.info({ purged }, 'expired button state purged');
  });
  // Opening checked the snapshot's header, small sections and shape; the rest is checked now, in
  // the background. A damaged one is rebuilt by a child process and swapped in.
  void (async () => {
    const problem = await app.library.verify().catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
    if (!problem || stopping.signal.aborted) return;
    log.error(`The search index ${app.config.indexPath} is damaged (${problem}): rebuilding it in a child process`);
    if (await reindexInChild(app, stopping.signal)) await app.library.reload();
  })();

  let sync: ReturnType<typeof scheduleArxivSync> | undefined;
  let openreview: ReturnType<typeof scheduleOpenReviewSync> | undefined;
  let openalex: ReturnType<typeof scheduleOpenAlexSync> | undefined;
  if (app.demo) {
    log.info('arXiv, OpenReview and OpenAlex syncs are off while the library is the demo corpus: import papers or run `paperscout sync arxiv` once');
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
    openalex = scheduleOpenAlexSync({
      papers: app.store,
      citations: app.stores.citations,
      config: app.config.openalex,
      log,
      onChange: () => ensureIndexFresh(),
      // The same lease as `paperscout sync openalex`: one process syncs at a time, once a day.
      once: { jobs: app.jobs, job: OPENALEX_JOB },
    });
    openalex.start();
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
      await openalex?.stop();
      await Promise.allSettled([pass, rebuilding]);
    },
  };
}

/**
 * Runs `paperscout reindex` (with `args`, e.g. `--merge`) for the app's DATA_DIR in a child
 * process; resolves whether it succeeded. Aborting the signal ends the child.
 */
export function reindexInChild(app: Pick<App, 'config' | 'log'>, signal?: AbortSignal, args: string[] = []): Promise<boolean> {
  const self = fileURLToPath(import.meta.url);
  const typescript = extname(self) === '.ts';
  const cli = fileURLToPath(new URL(`./cli/cli${extname(self)}`, import.meta.url));
  // Running from source, the child needs tsx too; compiled, it is plain node.
  const execArgv = typescript ? ['--import', import.meta.resolve('tsx')] : process.execArgv;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...execArgv, cli, 'reindex', ...args], {
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
      if (code === 75) app.log.info('another process is writing the search index; the bot loads it when it is done');
      else if (code !== 0 && !signal?.aborted) app.log.error({ code, stderr }, 'index rebuild failed; the bot keeps the index it has');
      resolve(code === 0);
    });
  });
}
