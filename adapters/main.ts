/**
 * `npm start`: opens the library and starts every adapter whose credentials are configured
 * (Discord with DISCORD_TOKEN, Slack with SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET). With none
 * configured, the terminal adapter answers commands typed on stdin, so a fresh clone does its
 * job on the bundled demo corpus with no setup at all.
 */
import { openApp } from '../src/app.js';
import type { DigestSender } from '../src/digest/sender.js';
import { startBackgroundJobs, type BackgroundJobs } from './background.js';
import { bootstrap } from './cli/env.js';
import { startDiscord } from './discord/index.js';
import { startSlack } from './slack/index.js';
import { runTerminal } from './terminal/terminal.js';

/** A platform connection that runs until stopped. */
export interface RunningAdapter {
  name: string;
  /** Posts digests to the platform's channels. */
  sender?: DigestSender;
  stop(): Promise<void>;
}

async function main(): Promise<void> {
  const { config, log } = bootstrap();
  const app = await openApp(config, log);
  const running: RunningAdapter[] = [];
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

  if (config.discord) running.push(await startDiscord(app, config.discord));
  if (config.slack) running.push(await startSlack(app, config.slack));
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
  process.stderr.write(`Paper Scout could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
