/**
 * The bot's background work in `npm start`: every few seconds, the search index catches up with
 * the store (a sync, or an import by another process, becomes a small delta segment, built in
 * slices); every minute, the digests that are due (unless DIGEST_SCHEDULER=off); once a day,
 * the arXiv sync and a purge of expired button state. When the deltas have grown, a child
 * process merges them into a new snapshot (one process at a time) and the bot swaps it in.
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

/** stderr kept from a failed index rebuild, for the log. */
const STDERR_TAIL = 2000;
/** How often the bot checks the store's generation (one indexed read) and catches up. */
export const INDEX_POLL_MS = 2000;

export interface BackgroundJobs {
  /** Stops the timers, waits for work under way, and ends a rebuild in progress. */
  stop(): Promise<void>;
}

export function startBackgroundJobs(app: App, senders: Partial<Record<ChatPlatform, DigestSender>>): BackgroundJobs {
  const { log } = app;
  const stopping = new AbortController();
  let reindexing: Promise<void> | undefined;

  /** Catches the index up with the store; merges grown deltas out of process (one at a time). */
  const ensureIndexFresh = async (): Promise<void> => {
    if (stopping.signal.aborted) return;
    await app.library.catchUp();
    if (!app.library.needsMerge || reindexing) return;
    reindexing = (async () => {
      try {
        if (await reindexInChild(app, stopping.signal, ['--merge'])) await app.library.catchUp();
      } finally {
        reindexing = undefined;
      }
    })();
  };
  const poll = setInterval(() => {
    ensureIndexFresh().catch((err: unknown) => log.error({ err }, 'index refresh failed'));
  }, INDEX_POLL_MS);
  poll.unref();

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
  if (app.demo) {
    log.info('arXiv sync is off while the library is the demo corpus: import papers or run `paperscout sync arxiv` once');
  } else {
    sync = scheduleArxivSync({ store: app.store, classify: app.classify, config: app.config.arxiv, log, onChange: () => ensureIndexFresh() });
    sync.start();
  }
  if (!app.config.digestScheduler) log.info('DIGEST_SCHEDULER=off: digests are left to `paperscout digest run-due`');

  return {
    async stop() {
      stopping.abort();
      clearInterval(poll);
      everyMinute.stop();
      daily.stop();
      await sync?.stop();
      await Promise.allSettled([pass, reindexing]);
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
      if (code === 75) app.log.info('another process is writing the search index; the bot will load it when it is done');
      else if (code !== 0 && !signal?.aborted) app.log.error({ code, stderr }, 'index rebuild failed; the bot keeps the index it has');
      resolve(code === 0);
    });
  });
}
