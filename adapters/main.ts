/**
 * `npm start`: opens the library and starts every adapter whose credentials are configured.
 * With none configured, the terminal adapter answers commands typed on stdin, so a fresh clone
 * does its job on the bundled demo corpus with no setup at all.
 */
import { openApp } from '../src/app.js';
import { bootstrap } from './cli/env.js';
import { runTerminal } from './terminal/terminal.js';

async function main(): Promise<void> {
  const { config, log } = bootstrap();
  const app = await openApp(config, log);
  let closing = false;
  const shutdown = (code: number) => {
    if (closing) return;
    closing = true;
    app.close();
    process.exit(code);
  };
  process.on('SIGINT', () => shutdown(130));
  process.on('SIGTERM', () => shutdown(143));

  log.info({ adapter: 'terminal' }, 'no Discord or Slack credentials configured: starting the terminal adapter');
  await runTerminal(app, { input: process.stdin, output: process.stdout, interactive: process.stdin.isTTY === true });
  shutdown(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`Paper Scout could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
