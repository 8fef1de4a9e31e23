/**
 * The bot's background work in `npm start`: every minute, the digests that are due; once a day,
 * the arXiv sync, after which the search index is rebuilt in a child process (7 s of CPU for
 * 100k papers would stall every user) and the running bot loads it.
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

export interface BackgroundJobs {
  stop(): Promise<void>;
}

/**
 * Starts the digest scheduler for the platforms that have a sender, and (unless the library is
 * the demo corpus) the daily arXiv sync.
 */
export function startBackgroundJobs(app: App, senders: Partial<Record<ChatPlatform, DigestSender>>): BackgroundJobs {
  const { log } = app;
  const digests = new Cron('* * * * *', { protect: true, name: 'digests' }, async () => {
    try {
      const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders, log }, new Date());
      if (summary.due > 0) log.info({ ...summary }, 'digests run');
    } catch (err) {
      log.error({ err }, 'digest run failed');
    }
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
      onChange: async () => {
        if (await reindexInChild(log)) app.library.refresh();
      },
    });
    sync.start();
  }
  return {
    async stop() {
      digests.stop();
      await sync?.stop();
    },
  };
}

/** Runs `paperscout reindex` in a child process; resolves whether it succeeded. */
export function reindexInChild(log: App['log']): Promise<boolean> {
  const self = fileURLToPath(import.meta.url);
  const typescript = extname(self) === '.ts';
  const cli = fileURLToPath(new URL(`./cli/cli${extname(self)}`, import.meta.url));
  // Running from source (tsx), the child needs tsx too; compiled, it is plain node.
  const execArgv = typescript ? ['--import', import.meta.resolve('tsx')] : process.execArgv;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...execArgv, cli, 'reindex'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (err) => {
      log.error({ err }, 'could not start the index rebuild');
      resolve(false);
    });
    child.on('exit', (code) => {
      if (code !== 0) log.error({ code, stderr: stderr.slice(-2000) }, 'index rebuild failed; the bot keeps the index it has');
      resolve(code === 0);
    });
  });
}
