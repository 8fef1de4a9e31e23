/**
 * The bot's background work in `npm start`: every minute, the digests that are due (unless
 * DIGEST_SCHEDULER=off) and a check that the search index still reflects the store; once a day,
 * the arXiv sync, the OpenReview venues that are due (OPENREVIEW_VENUES) and a purge of expired
 * button state. When the store has changed (a sync, a lookup, or an import by another process),
 * the index is rebuilt in a child process (7 s of CPU for 100k papers would stall every user)
 * and the running bot loads it.
 */
import { spawn } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cron } from 'croner';
import type { App } from '../src/app.js';
import { runDueDigests } from '../src/digest/runner.js';
import type { DigestSender } from '../src/digest/sender.js';
import type { ChatPlatform } from '../src/digest/store.js';
import { scheduleArxivSync } from '../src/sources/arxiv/schedule.js';
import { fetchHttpGet } from '../src/sources/arxiv/client.js';
import { fetchHttp } from '../src/sources/http.js';
import { scheduleOpenReviewSync } from '../src/sources/openreview/schedule.js';
import { SqliteHarvestStore } from '../src/store/harvestStore.js';

/** stderr kept from a failed index rebuild, for the log. */
const STDERR_TAIL = 2000;

export interface BackgroundJobs {
  /** Stops the timers, waits for work under way, and ends a rebuild in progress. */
  stop(): Promise<void>;
}

export function startBackgroundJobs(app: App, senders: Partial<Record<ChatPlatform, DigestSender>>): BackgroundJobs {
  const { log } = app;
  const stopping = new AbortController();
  const ensureIndexFresh = indexRefresher(app, stopping.signal);

  let pass: Promise<void> | undefined;
  const everyMinute = new Cron('* * * * *', { protect: true }, async () => {
    pass = (async () => {
      await ensureIndexFresh().catch((err: unknown) => log.error({ err }, 'index refresh failed'));
      if (!app.config.digestScheduler || stopping.signal.aborted) return;
      try {
        const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders, log }, new Date());
        if (summary.due > 0) log.info({ ...summary }, 'digests run');
      } catch (err) {
        log.error({ err }, 'digest run failed');
      }
    })();
    await pass;
  });
  const daily = new Cron('17 3 * * *', { timezone: 'UTC' }, () => {
    const purged = app.states.purge(new Date());
    if (purged > 0) log.info({ purged }, 'expired button state purged');
  });

  let sync: ReturnType<typeof scheduleArxivSync> | undefined;
  let openreview: ReturnType<typeof scheduleOpenReviewSync> | undefined;
  if (app.demo) {
    log.info('arXiv and OpenReview syncs are off while the library is the demo corpus: import papers or run `paperscout sync arxiv` once');
  } else {
    sync = scheduleArxivSync({ store: app.store, classify: app.classify, config: app.config.arxiv, log, http: fetchHttpGet({ userAgent: app.config.userAgent }), onChange: () => ensureIndexFresh() });
    sync.start();
    openreview = scheduleOpenReviewSync({
      store: app.store,
      harvests: new SqliteHarvestStore(app.db),
      classify: app.classify,
      config: app.config.openreview,
      log,
      http: fetchHttp({ userAgent: app.config.userAgent }),
      onChange: () => ensureIndexFresh(),
    });
    openreview.start();
  }
  if (!app.config.digestScheduler) log.info('DIGEST_SCHEDULER=off: digests are left to `paperscout digest run-due`');

  return {
    async stop() {
      stopping.abort();
      everyMinute.stop();
      daily.stop();
      await sync?.stop();
      await openreview?.stop();
      await Promise.allSettled([pass, ensureIndexFresh()]);
    },
  };
}

/**
 * A function that loads a fresh index when the store has moved on (a sync, a lookup, another
 * process's import): a snapshot someone saved, else one rebuilt by a child process (one at a
 * time). The demo store lives in memory (papers looked up join it): its few papers are indexed
 * in process. After `signal` aborts, it returns the rebuild still in flight, for shutdown to wait on.
 */
export function indexRefresher(app: Pick<App, 'library' | 'demo' | 'config' | 'log'>, signal: AbortSignal): () => Promise<void> {
  let reindexing: Promise<void> | undefined;
  return () => {
    // Once stopping, it only hands back the rebuild in flight (if any) to be waited for.
    if (signal.aborted) return reindexing ?? Promise.resolve();
    if (!app.library.stale) return Promise.resolve();
    if (app.demo) {
      app.library.refresh();
      return Promise.resolve();
    }
    reindexing ??= (async () => {
      try {
        if (!app.library.refresh({ rebuild: false }) && (await reindexInChild(app, signal))) {
          app.library.refresh({ rebuild: false });
        }
      } finally {
        reindexing = undefined;
      }
    })();
    return reindexing;
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
