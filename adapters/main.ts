/**
 * `npm start`: opens the library and starts every adapter whose credentials are configured
 * (Discord with DISCORD_TOKEN, Slack with SLACK_BOT_TOKEN), each on its own: one platform that
 * cannot connect does not keep the other down. With none configured, the terminal adapter
 * answers commands typed on stdin, so a fresh clone does its job on the bundled demo corpus.
 * Platform SDKs are loaded only when used, so the terminal starts fast.
 */
import type { RunningAdapter } from '../src/adapter.js';
import { openApp, type App } from '../src/app.js';
import { bootstrap } from '../src/bootstrap.js';
import { SetupError } from '../src/errors.js';
import { startBackgroundJobs, type BackgroundJobs } from './background.js';
import { runTerminal } from './terminal/terminal.js';


async function startPlatforms(app: App): Promise<RunningAdapter[]> {
  const { config, log } = app;
  const starts: Array<Promise<RunningAdapter>> = [];
  if (config.discord) {
    const discord = config.discord;
    starts.push(import('./discord/index.js').then((m) => m.startDiscord(app, discord)));
  }
  if (config.slack) {
    const slack = config.slack;
    starts.push(import('./slack/index.js').then((m) => m.startSlack(app, slack)));
  }
  const results = await Promise.allSettled(starts);
  const running: RunningAdapter[] = [];
  for (const result of results) {
    if (result.status === 'fulfilled') running.push(result.value);
    else log.error({ err: result.reason }, 'a platform adapter could not start');
  }
  if (starts.length > 0 && running.length === 0) throw new Error('No configured platform could start; see the errors above.');
  return running;
}

async function main(): Promise<void> {
  const { config, log } = bootstrap();
  // With a platform to serve, the bot never waits long for a lock nor rebuilds the index itself.
  const app = await openApp(config, log, { serving: Boolean(config.discord || config.slack) });
  let running: RunningAdapter[] = [];
  let jobs: BackgroundJobs | undefined;
  let closing = false;
  const shutdown = async (code: number) => {
    if (closing) return;
    closing = true;
    log.info({ adapters: running.map((a) => a.name) }, 'shutting down');
    await jobs?.stop();
    await Promise.allSettled(running.map((a) => a.stop()));
    app.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(130));
  process.on('SIGTERM', () => void shutdown(143));

  running = await startPlatforms(app);
  if (running.length > 0) {
    const senders = Object.fromEntries(running.flatMap((a) => (a.sender ? [[a.sender.platform, a.sender]] : [])));
    jobs = startBackgroundJobs(app, senders);
    log.info({ adapters: running.map((a) => a.name), papers: app.library.size, demo: app.demo }, 'Paper Scout is running');
    return;
  }
  log.info({ adapter: 'terminal' }, 'no Discord or Slack credentials configured: starting the terminal adapter');
  await runTerminal(app, { input: process.stdin, output: process.stdout, interactive: process.stdin.isTTY === true });
  await shutdown(0);
}

main().catch((err: unknown) => {
  // A SetupError's message is the whole story (the path and the fix): no stack trace.
  const detail = err instanceof SetupError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`Paper Scout could not start: ${detail}\n`);
  process.exit(1);
});
