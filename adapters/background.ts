/**
 * The bot's background work in `npm start`: every minute, the digests that are due (unless
 * DIGEST_SCHEDULER=off) and a check that the search index still reflects the store; once a day,
 * the arXiv sync and a purge of expired button state. When the store has changed (a sync, or an
 * import by another process), the index is rebuilt in a child process (7 s of CPU for 100k
 * papers would stall every user) and the running bot loads it. The child runs the same build as
 * this process: compiled JavaScript under `npm start`, TypeScript through tsx under `npm run dev`
 * (a compiled child of a TypeScript parent could be older than the code that spawned it).
 */
import { spawn } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cron } from 'croner';
import type { App } from '../src/app.js';
import { runDueDigests, type RunDueSummary } from '../src/digest/runner.js';
import type { DigestSender } from '../src/digest/sender.js';
import type { ChatPlatform } from '../src/digest/store.js';
import { scheduleArxivSync, type ScheduleDeps } from '../src/sources/arxiv/schedule.js';

/** stderr kept from a failed index rebuild, for the log. */
const STDERR_TAIL = 2000;

export interface BackgroundJobs {
  /** Stops the timers, waits for work under way, and ends a rebuild in progress. */
  stop(): Promise<void>;
}

/** What the jobs report as they go (health and metrics). */
export interface BackgroundHooks {
  /** A digest pass ended, with its summary or its error. */
  onDigestRun?: (at: Date, result: { summary: RunDueSummary } | { error: unknown }) => void;
  /** An arXiv sync ended. */
  onSync?: ScheduleDeps['onDone'];
}

/**
 * Starts the timers. `senders` is read at every digest pass, so a platform that connects later
 * (or reconnects) gets its digests from then on.
 */
export function startBackgroundJobs(app: App, senders: Partial<Record<ChatPlatform, DigestSender>>, hooks: BackgroundHooks = {}): BackgroundJobs {
  const { log } = app;
  const stopping = new AbortController();
  let reindexing: Promise<void> | undefined;

  /** Loads a fresh index when the store has moved on, rebuilding it out of process (one at a time). */
  const ensureIndexFresh = (): Promise<void> => {
    if (!app.library.stale || stopping.signal.aborted) return Promise.resolve();
    reindexing ??= (async () => {
      try {
        if (!app.library.refresh({ rebuild: false }) && (await reindexInChild(app, stopping.signal))) {
          app.library.refresh({ rebuild: false });
        }
      } finally {
        reindexing = undefined;
      }
    })();
    return reindexing;
  };

  let pass: Promise<void> | undefined;
  const everyMinute = new Cron('* * * * *', { protect: true }, async () => {
    pass = (async () => {
      await ensureIndexFresh().catch((err: unknown) => log.error({ err }, 'index refresh failed'));
      if (!app.config.digestScheduler || stopping.signal.aborted) return;
      const at = new Date();
      try {
        const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders, log }, at);
        if (summary.due > 0) log.info({ ...summary }, 'digests run');
        hooks.onDigestRun?.(at, { summary });
      } catch (err) {
        log.error({ err }, 'digest run failed');
        hooks.onDigestRun?.(at, { error: err });
      }
    })();
    await pass;
  });
  const daily = new Cron('17 3 * * *', { timezone: 'UTC' }, () => {
    const purged = app.states.purge(new Date());
    if (purged > 0) log.info({ purged }, 'expired button state purged');
  });

  let sync: ReturnType<typeof scheduleArxivSync> | undefined;
  if (app.demo) {
    log.info('arXiv sync is off while the library is the demo corpus: import papers or run `paperscout sync arxiv` once');
  } else {
    sync = scheduleArxivSync({
      store: app.store,
      classify: app.classify,
      config: app.config.arxiv,
      log,
      onChange: () => ensureIndexFresh(),
      ...(hooks.onSync && { onDone: hooks.onSync }),
    });
    sync.start();
  }
  if (!app.config.digestScheduler) log.info('DIGEST_SCHEDULER=off: digests are left to `paperscout digest run-due`');

  return {
    async stop() {
      stopping.abort();
      everyMinute.stop();
      daily.stop();
      await sync?.stop();
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
