/**
 * `npm start` with platform credentials, run like a service: each platform adapter under the
 * {@link Supervisor} (retried, restarted, never taking the other down), the background jobs,
 * one HTTP listener on PORT that the service owns (health, readiness, metrics, the site, and
 * Slack's /slack/events mounted on it in HTTP mode), so that no adapter's crash or restart
 * closes it, and a graceful shutdown that takes no new requests, lets those under way finish (up
 * to {@link DRAIN_TIMEOUT_MS}), closes the store (checkpointing SQLite) and reports the exit code.
 */
import type { App } from '../../src/app.js';
import type { DiscordConfig, SlackConfig } from '../../src/config.js';
import type { DigestSender } from '../../src/digest/sender.js';
import type { ChatPlatform } from '../../src/store/digests.js';
import { lastSyncKey } from '../../src/sources/arxiv/sync.js';
import { systemClock, type Clock } from '../../src/clock.js';
import { startBackgroundJobs, type BackgroundJobs } from '../background.js';
import { startHttpListener } from '../listener.js';
import { createSite, siteAddress } from '../web/site.js';
import { healthReport, readiness, type DigestRunHealth, type HealthSnapshot, type SyncHealth } from './health.js';
import { opsRoutes } from './http.js';
import { InFlight } from './inflight.js';
import type { Metrics } from './metrics.js';
import { Supervisor } from './supervisor.js';

/** How long a shutdown waits for requests under way. */
export const DRAIN_TIMEOUT_MS = 10_000;

export interface ServiceOptions {
  /** The platforms and port (default: the app's configuration). */
  discord?: DiscordConfig;
  slack?: SlackConfig;
  port?: number;
  clock?: Clock;
  retryDelaysMs?: readonly number[];
  connectTimeoutMs?: number;
  /** Every configured platform refused its credentials: the process should end with this code. */
  onFatal?: (code: number) => void;
}

export interface Service {
  /** Where /healthz, /readyz and /metrics answer. */
  port: number;
  supervisor: Supervisor;
  snapshot(): HealthSnapshot;
  /** Stops gracefully; resolves the exit code: 0, or 1 when requests were still running after the drain timeout. */
  shutdown(reason: string): Promise<number>;
}

/**
 * @example
 * const metrics = createMetrics();
 * const app = await openApp(config, log, { observer: metrics.observer });
 * const service = await startService(app, metrics);
 */
export async function startService(app: App, metrics: Metrics, options: ServiceOptions = {}): Promise<Service> {
  const { log } = app;
  const clock = options.clock ?? systemClock;
  const discord = 'discord' in options ? options.discord : app.config.discord;
  const slack = 'slack' in options ? options.slack : app.config.slack;
  const port = options.port ?? slack?.port ?? app.config.port;
  const inFlight = new InFlight();
  const startedAt = clock.now();
  let stopping = false;
  let lastDigestRun: DigestRunHealth | undefined;
  let lastSyncRun: SyncHealth['lastRun'];

  const supervisor = new Supervisor({
    log,
    clock,
    ...(options.retryDelaysMs && { retryDelaysMs: options.retryDelaysMs }),
    ...(options.connectTimeoutMs !== undefined && { connectTimeoutMs: options.connectTimeoutMs }),
    onAllRefused: (errors) => {
      log.fatal({ errors }, 'No platform could start: every configured platform refused its credentials or settings (see above); retrying cannot help');
      options.onFatal?.(1);
    },
  });

  // When any process last synced: read from the store now and then, so a health probe never waits for it.
  let lastSyncAt: Pick<SyncHealth, 'at'> = {};
  let lastSyncRead = 0;
  const readLastSync = () => {
    lastSyncRead = clock.now().getTime();
    lastSync(app).then(
      (at) => (lastSyncAt = at),
      (err: unknown) => log.warn({ err }, 'could not read when arXiv was last synced'),
    );
  };
  readLastSync();
  // Many Slack workspaces: how many are installed, read from the store in the background like the last sync.
  let installations: number | undefined;
  const readInstallations = () => {
    if (!slack?.oauth) return;
    app.stores.installationRows.countActive().then(
      (n) => (installations = n),
      (err: unknown) => log.warn({ err }, 'could not count the Slack installations'),
    );
  };
  readInstallations();
  const snapshot = (): HealthSnapshot => {
    if (clock.now().getTime() - lastSyncRead > 60_000) {
      readLastSync();
      readInstallations();
    }
    return {
      now: clock.now(),
      startedAt,
      stopping,
      adapters: supervisor.status(),
      library: { loaded: app.library.ready, papers: app.library.size, indexGeneration: app.library.generation, storeGeneration: app.library.knownStoreGeneration, demo: app.demo },
      digests: { scheduler: app.config.digestScheduler, ...(lastDigestRun && { lastRun: lastDigestRun }) },
      sync: { scheduled: !app.demo, ...lastSyncAt, ...(lastSyncRun && { lastRun: lastSyncRun }) },
      ...(installations !== undefined && { installations }),
    };
  };
  metrics.watch({
    library: () => ({ papers: app.library.size, generation: app.library.generation }),
    adapters: () => supervisor.status(),
  });
  const routes = opsRoutes({ health: () => healthReport(snapshot()), ready: () => readiness(snapshot()), metrics: () => metrics.render() });
  // The search site answers every other path, on the same port (WEB=off: none).
  const site = app.config.web.enabled ? createSite(app, { ...(app.config.web.publicUrl !== undefined && { publicUrl: app.config.web.publicUrl }) }) : undefined;

  let slackEndpoint: import('../slack/index.js').SlackEndpoint | undefined;
  // Every platform is registered before anything listens: /readyz must not say ready before they connect.
  if (discord) {
    const { startDiscord } = await import('../discord/index.js');
    supervisor.add({ name: 'discord', start: (signal) => startDiscord(app, discord, { track: inFlight.track, signal }) });
  }
  if (slack) {
    const { createSlack } = await import('../slack/index.js');
    const endpoint = createSlack(app, slack, {
      track: inFlight.track,
      clock,
      onInstallation: (event) => {
        metrics.slackInstallation(event);
        if (event !== 'authorize_failure') readInstallations();
      },
    });
    slackEndpoint = endpoint;
    supervisor.add({ name: 'slack', start: (signal) => endpoint.connect(signal) });
  }
  // The service's, not an adapter's: it stays open whatever the adapters do, until the shutdown.
  const listener = await startHttpListener(port, { log, routes, ...(site && { fallback: site }), now: () => clock.now().getTime() });
  slackEndpoint?.mount(listener);
  const listening = listener.port;
  log.info({ port: listening, paths: routes.map((r) => r.path) }, 'health, readiness and metrics are served');
  if (site) log.info({ port: listening, url: siteAddress(app.config.web.publicUrl, listening) }, 'the search site is served');
  supervisor.start();

  // Digests go through whichever adapters are connected when they are due.
  const counted = new WeakMap<DigestSender, DigestSender>();
  const senders: Partial<Record<ChatPlatform, DigestSender>> = {};
  for (const platform of ['discord', 'slack'] as const) {
    Object.defineProperty(senders, platform, {
      enumerable: true,
      get: () => {
        const sender = supervisor.adapter(platform)?.sender;
        if (!sender) return undefined;
        if (!counted.has(sender)) counted.set(sender, metrics.countPosts(sender));
        return counted.get(sender);
      },
    });
  }
  const jobs: BackgroundJobs = startBackgroundJobs(app, senders, {
    platformsReady: () => supervisor.allConnected,
    onDigestRun: (at, result) => {
      lastDigestRun = 'summary' in result ? { at: at.toISOString(), summary: result.summary } : { at: at.toISOString(), error: String(result.error) };
    },
    onSync: (result) => {
      const at = clock.now().toISOString();
      readLastSync();
      if ('summary' in result) {
        metrics.synced(result.summary);
        lastSyncRun = { at, added: result.summary.added, updated: result.summary.updated, failedCategories: result.summary.failed.length };
      } else {
        lastSyncRun = { at, error: String(result.error) };
      }
    },
  });
  log.info({ adapters: Object.keys(supervisor.status()), papers: app.library.size, demo: app.demo }, 'Paper Scout is running');

  let shutdown: Promise<number> | undefined;
  return {
    port: listening,
    supervisor,
    snapshot,
    shutdown(reason) {
      shutdown ??= (async () => {
        stopping = true;
        log.info({ reason, inFlight: inFlight.count }, 'shutting down: taking no new requests, finishing those under way');
        const deadline = new AbortController();
        const timer = new AbortController();
        void clock
          .sleep(DRAIN_TIMEOUT_MS, timer.signal)
          .then(() => deadline.abort())
          .catch(() => undefined);
        await supervisor.stopAccepting();
        listener.stopAccepting();
        const timedOut = new Promise<false>((resolve) => deadline.signal.addEventListener('abort', () => resolve(false), { once: true }));
        const drained = await Promise.race([Promise.all([jobs.stop(), inFlight.idle(deadline.signal)]).then(([, idle]) => idle), timedOut]);
        timer.abort();
        if (!drained) log.warn({ inFlight: inFlight.count }, `requests still under way after ${DRAIN_TIMEOUT_MS / 1000} s; stopping anyway`);
        await supervisor.stop();
        await slackEndpoint?.close();
        await listener.close();
        await app.close({ checkpoint: true });
        log.info({ clean: drained }, 'stopped');
        return drained ? 0 : 1;
      })();
      return shutdown;
    },
  };
}

/** When any process last synced arXiv wholly (the newest of the followed categories). */
async function lastSync(app: App): Promise<Pick<SyncHealth, 'at'>> {
  let newest: string | undefined;
  for (const category of app.config.arxiv.categories) {
    const at = await app.store.getMeta(lastSyncKey(category));
    if (at && (!newest || at > newest)) newest = at;
  }
  return newest ? { at: newest } : {};
}
