/**
 * What `GET /healthz` and `GET /readyz` say, as pure functions of a snapshot of the running
 * bot: each adapter's state, the library, the last digest run and the last arXiv sync.
 *
 * - healthz answers 200 while the process serves at all (liveness), with `status` `ok`, or
 *   `degraded` when an adapter is not connected, or `stopping` during a shutdown.
 * - readyz answers 200 once the search index is loaded and every configured adapter is
 *   connected, 503 (with the reasons) before that, while one reconnects, and during a shutdown.
 */
import type { RunDueSummary } from '../../src/digest/pass.js';
import type { AdapterStatus } from './supervisor.js';

/** The library as health reports it. */
export interface LibraryHealth {
  /** Whether a search index is loaded (searches work). */
  loaded: boolean;
  papers: number;
  indexGeneration: number;
  /** The store's generation: ahead of the index while a rebuild is pending. */
  storeGeneration: number;
  /** The bundled demo corpus, not a real library. */
  demo: boolean;
}

/** The last digest pass of `npm start`'s scheduler. */
export type DigestRunHealth = { at: string } & ({ summary: RunDueSummary } | { error: string });

/** The last arXiv sync: `at` from the store (any process's sync), the counts from this process's. */
export interface SyncHealth {
  at?: string;
  lastRun?: { at: string; added: number; updated: number; failedCategories: number } | { at: string; error: string };
}

export interface HealthSnapshot {
  now: Date;
  startedAt: Date;
  stopping: boolean;
  adapters: Record<string, AdapterStatus>;
  library: LibraryHealth;
  digests: { scheduler: boolean; lastRun?: DigestRunHealth };
  sync: SyncHealth & { scheduled: boolean };
  /** Many Slack workspaces: how many have the app installed (as last read from the store). */
  installations?: number;
}

export interface HealthReport {
  status: 'ok' | 'degraded' | 'stopping';
  uptimeSeconds: number;
  adapters: Record<string, AdapterStatus>;
  library: LibraryHealth;
  digests: { scheduler: 'on' | 'off'; lastRun: DigestRunHealth | null };
  sync: { scheduled: boolean; lastSync: string | null; lastRun: SyncHealth['lastRun'] | null };
  installations?: number;
}

/**
 * @example healthReport(snapshot).status // 'ok'
 */
export function healthReport(s: HealthSnapshot): HealthReport {
  const allConnected = Object.values(s.adapters).every((a) => a.state === 'connected');
  return {
    status: s.stopping ? 'stopping' : allConnected && s.library.loaded ? 'ok' : 'degraded',
    uptimeSeconds: Math.round((s.now.getTime() - s.startedAt.getTime()) / 1000),
    adapters: s.adapters,
    library: s.library,
    digests: { scheduler: s.digests.scheduler ? 'on' : 'off', lastRun: s.digests.lastRun ?? null },
    sync: { scheduled: s.sync.scheduled, lastSync: s.sync.at ?? null, lastRun: s.sync.lastRun ?? null },
    ...(s.installations !== undefined && { installations: s.installations }),
  };
}

/**
 * Ready when the index is loaded and every adapter is connected; otherwise the reasons.
 * @example readiness(snapshot) // { ready: false, reasons: ['slack is waiting: could not reach Slack at …'] }
 */
export function readiness(s: HealthSnapshot): { ready: boolean; reasons: string[] } {
  const reasons: string[] = [];
  if (s.stopping) reasons.push('shutting down');
  if (!s.library.loaded) reasons.push('the search index is not loaded yet');
  for (const [name, adapter] of Object.entries(s.adapters)) {
    if (adapter.state !== 'connected') reasons.push(`${name} is ${adapter.state}${adapter.lastError ? `: ${adapter.lastError}` : ''}`);
  }
  return { ready: reasons.length === 0, reasons };
}
