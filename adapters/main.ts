/**
 * `npm start`: opens the library and runs the bot. With Discord or Slack credentials it runs as
 * a service (adapters/ops/service.ts): every configured platform under a supervisor, each on its
 * own, with health, readiness and metrics on PORT and a graceful stop on SIGTERM or SIGINT.
 * With none configured, the terminal adapter answers commands typed on stdin, so a fresh clone
 * does its job on the bundled demo corpus. Either way the search site (adapters/web) is served on
 * PORT at `/` unless WEB=off; in the terminal's mode a port already taken only leaves it out. Platform SDKs and prom-client are loaded only when
 * used, so the terminal starts fast.
 *
 * Exit codes: 0 after a clean stop (signal, or the end of the terminal's input); 1 when no
 * platform could start (every one refused its credentials) or requests outlived the drain
 * timeout; 2 for a configuration problem; 128 + signal number after a second stop request (a
 * signal more than a second after the first: see ops/signals.ts).
 */
import { openApp, type App } from '../src/app.js';
import { bootstrap } from '../src/bootstrap.js';
import { SetupError } from '../src/errors.js';
import { StoreUnavailableError } from '../src/store/errors.js';
import type { Config } from '../src/config.js';
import { scrubSecrets, type Logger } from '../src/logger.js';
import { onShutdownSignals } from './ops/signals.js';
import { runTerminal } from './terminal/terminal.js';

/** After the drain timeout, how long closing clients and checkpointing may take. */
const SHUTDOWN_GRACE_MS = 5_000;

/** The configured secrets, for what is written outside the logger (a failed start). */
let secrets: readonly string[] = [];

async function main(): Promise<void> {
  const { config, log } = bootstrap();
  secrets = config.secrets;
  if (config.discord || config.slack) return runService(config, log);

  // Before anything can be seen running: a signal that finds no handler ends node by the default action.
  let app: App | undefined;
  onShutdownSignals({
    graceful: () => (app ? void app.close({ checkpoint: true }).finally(() => process.exit(0)) : process.exit(0)),
    immediate: (_, code) => process.exit(code),
  });
  app = await openApp(config, log, { storePatience: 'forever' });
  log.info({ adapter: 'terminal' }, 'no Discord or Slack credentials configured: starting the terminal adapter');
  const site = config.web.enabled ? await startTerminalSite(app, config, log) : undefined;
  await runTerminal(app, { input: process.stdin, output: process.stdout, interactive: process.stdin.isTTY === true, ...(site && { siteUrl: site.url }) });
  await site?.close();
  await app.close({ checkpoint: true });
  process.exit(0);
}

/**
 * The search site beside the terminal, on PORT; its address, or undefined (logged) when the port
 * cannot be had: the terminal works without it.
 */
async function startTerminalSite(app: App, config: Config, log: Logger): Promise<{ url: string; close(): Promise<void> } | undefined> {
  const [{ startHttpListener }, { createSite, siteAddress }] = await Promise.all([import('./listener.js'), import('./web/site.js')]);
  try {
    const server = await startHttpListener(config.port, { log, fallback: createSite(app, { ...(config.web.publicUrl !== undefined && { publicUrl: config.web.publicUrl }) }) });
    const url = siteAddress(config.web.publicUrl, server.port);
    log.info({ port: server.port, url }, 'the search site is served');
    return { url, close: () => server.close() };
  } catch (err) {
    log.warn({ err: err instanceof Error ? err.message : String(err) }, 'the search site is not served (set PORT to a free port, or WEB=off)');
    return undefined;
  }
}

async function runService(config: Config, log: Logger): Promise<void> {
  const [{ createMetrics }, { startService, DRAIN_TIMEOUT_MS }, { containAdapterFailures }] = await Promise.all([
    import('./ops/metrics.js'),
    import('./ops/service.js'),
    import('./ops/containment.js'),
  ]);
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  let stopping: { reason: string; code?: number } | undefined;
  /** While the store is being opened (a database that is not up yet is waited for), a stop ends the process at once. */
  let opening = true;
  const stop = (reason: string, code?: number) => {
    stopping ??= { reason, ...(code !== undefined && { code }) };
    if (opening) {
      log.info({ reason }, 'stopped before the store was open');
      process.exit(code ?? 0);
    }
    // Before the service is up there is nothing under way to wait for.
    if (!service) return;
    // A shutdown that hangs must not leave a half-stopped bot (nor end as if it were clean).
    setTimeout(() => {
      log.error('the shutdown did not finish in time; exiting');
      process.exit(1);
    }, DRAIN_TIMEOUT_MS + SHUTDOWN_GRACE_MS);
    void service.shutdown(stopping.reason).then((clean) => process.exit(stopping?.code ?? clean));
  };
  onShutdownSignals({
    graceful: (signal) => stop(signal),
    repeated: (signal) => log.info({ signal }, 'the same stop request again (npm passes signals on): still stopping gracefully; a signal a second from now exits at once'),
    immediate: (signal, code) => {
      log.warn({ signal }, 'second signal: exiting at once');
      process.exit(code);
    },
  });
  containAdapterFailures({ log, onAdapterCrash: (name, err) => service?.supervisor.crashed(name, err) });

  const metrics = createMetrics();
  // Serving many users, the bot never waits long for a lock nor rebuilds the index itself.
  // A database that is not up yet is waited for (one line per attempt, with backoff), however long.
  const app = await openApp(config, log, { observer: metrics.observer, serving: true, storePatience: 'forever' });
  opening = false;
  if (stopping) {
    await app.close({ checkpoint: true });
    process.exit(0);
  }
  service = await startService(app, metrics, { onFatal: (code) => stop('no platform could start', code) });
  // A signal (or a fatal start) that came while the service was starting.
  const pending = stopping as { reason: string } | undefined;
  if (pending) stop(pending.reason);
}

main().catch((err: unknown) => {
  // A SetupError's message is the whole story (the path and the fix): no stack trace.
  const detail = err instanceof SetupError || err instanceof StoreUnavailableError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`Paper Scout could not start: ${scrubSecrets(detail, secrets)}\n`);
  process.exit(1);
});
