/**
 * Prometheus metrics for `GET /metrics`, all named `paperscout_…`: commands by platform, command
 * and outcome; command and search latency; digest posts and failures; arXiv sync records; the
 * library's size and index generation; each adapter's state and restarts; and Node's process
 * metrics. The core reports through the {@link Observer} this module implements; prom-client is
 * imported here only, and only when `npm start` runs a platform adapter.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { DeliveryError, type DigestSender } from '../../src/digest/sender.js';
import type { Observer } from '../../src/observer.js';
import type { SyncSummary } from '../../src/sources/arxiv/sync.js';
import type { AdapterStatus } from './supervisor.js';

export const PREFIX = 'paperscout_';

/** What the gauges read at scrape time. */
export interface MetricSources {
  library(): { papers: number; generation: number } | undefined;
  adapters(): Record<string, AdapterStatus>;
}

export interface Metrics {
  registry: Registry;
  /** Hand this to the core (openApp's `observer`). */
  observer: Observer;
  /** Counts what `sender` posts and what fails. */
  countPosts(sender: DigestSender): DigestSender;
  /** Counts the records of an arXiv sync. */
  synced(summary: SyncSummary): void;
  /** Many Slack workspaces: counts an install, an uninstall, or a request refused for want of an installation. */
  slackInstallation(event: 'install' | 'uninstall' | 'authorize_failure'): void;
  /** Where the gauges read from (set once the app is open). */
  watch(sources: MetricSources): void;
  /** The exposition text and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

/**
 * @example const metrics = createMetrics(); const app = await openApp(config, log, { observer: metrics.observer });
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  let sources: MetricSources | undefined;
  const registers = [registry];

  const commands = new Counter({
    name: `${PREFIX}commands_total`,
    help: 'Commands, button actions, autocompletes and link unfurls answered, by platform, command, kind and outcome (ok, user_error, busy, error)',
    labelNames: ['platform', 'command', 'kind', 'outcome'] as const,
    registers,
  });
  const commandSeconds = new Histogram({
    name: `${PREFIX}command_duration_seconds`,
    help: 'Time the core took to answer a command, button action, autocomplete or link unfurl',
    labelNames: ['platform', 'kind'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const searchSeconds = new Histogram({
    name: `${PREFIX}search_duration_seconds`,
    help: 'Search latency in the engine',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 1],
    registers,
  });
  const digestPosts = new Counter({ name: `${PREFIX}digest_posts_total`, help: 'Digest messages the platform accepted', labelNames: ['platform'] as const, registers });
  const digestFailures = new Counter({
    name: `${PREFIX}digest_post_failures_total`,
    help: 'Digest messages that failed, by reason (forbidden, transient, rejected, unknown: no answer)',
    labelNames: ['platform', 'reason'] as const,
    registers,
  });
  const syncRecords = new Counter({
    name: `${PREFIX}sync_records_total`,
    help: 'arXiv sync records by outcome (added, updated, unchanged, skipped)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const slackInstallations = new Counter({
    name: `${PREFIX}slack_installation_events_total`,
    help: 'Many Slack workspaces: installs, uninstalls (app_uninstalled, tokens_revoked) and requests refused because their workspace has no installation (authorize_failure)',
    labelNames: ['event'] as const,
    registers,
  });
  const syncFailures = new Counter({ name: `${PREFIX}sync_category_failures_total`, help: 'arXiv categories whose sync failed', registers });
  new Gauge({
    name: `${PREFIX}index_generation`,
    help: 'Store generation the loaded search index reflects',
    registers,
    collect() {
      const library = sources?.library();
      if (library) this.set(library.generation);
    },
  });
  new Gauge({
    name: `${PREFIX}library_papers`,
    help: 'Papers in the loaded search index',
    registers,
    collect() {
      const library = sources?.library();
      if (library) this.set(library.papers);
    },
  });
  new Gauge({
    name: `${PREFIX}adapter_up`,
    help: 'Whether a platform adapter is connected (1) or not (0)',
    labelNames: ['adapter'] as const,
    registers,
    collect() {
      for (const [adapter, status] of Object.entries(sources?.adapters() ?? {})) this.set({ adapter }, status.state === 'connected' ? 1 : 0);
    },
  });
  new Counter({
    name: `${PREFIX}adapter_restarts_total`,
    help: 'Times a platform adapter was started again after its client died',
    labelNames: ['adapter'] as const,
    registers,
    collect() {
      this.reset();
      for (const [adapter, status] of Object.entries(sources?.adapters() ?? {})) this.inc({ adapter }, status.restarts);
    },
  });
  collectDefaultMetrics({ register: registry, prefix: PREFIX });

  return {
    registry,
    observer: {
      command(event) {
        commands.inc({ platform: event.platform, command: event.command, kind: event.kind, outcome: event.outcome });
        commandSeconds.observe({ platform: event.platform, kind: event.kind }, event.seconds);
      },
      search(event) {
        searchSeconds.observe(event.seconds);
      },
    },
    countPosts(sender) {
      const platform = sender.platform;
      // A proxy, so that whatever else a sender offers passes through untouched.
      return new Proxy(sender, {
        get(target, key, receiver) {
          if (key !== 'post') return Reflect.get(target, key, receiver) as unknown;
          return async (...args: Parameters<DigestSender['post']>) => {
            try {
              await target.post(...args);
              digestPosts.inc({ platform });
            } catch (err) {
              digestFailures.inc({ platform, reason: err instanceof DeliveryError ? err.failure : 'unknown' });
              throw err;
            }
          };
        },
      });
    },
    synced(summary) {
      syncRecords.inc({ outcome: 'added' }, summary.added);
      syncRecords.inc({ outcome: 'updated' }, summary.updated);
      syncRecords.inc({ outcome: 'unchanged' }, summary.unchanged);
      syncRecords.inc({ outcome: 'skipped' }, summary.skipped);
      syncFailures.inc(summary.failed.length);
    },
    slackInstallation(event) {
      slackInstallations.inc({ event });
    },
    watch(given) {
      sources = given;
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
