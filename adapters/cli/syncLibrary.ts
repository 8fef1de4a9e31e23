/**
 * What every `paperscout sync` does around its source's work: opens the stores, stops at Ctrl-C
 * (before the next request; what was stored stays stored), brings the library up to date first
 * (a new taxonomy or text normalization), and at the end brings the search index up to date when
 * papers changed, saying how big the library now is.
 */
import type { Logger } from 'pino';
import { ensureLibraryCurrent, loadTopics } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import type { Messages } from '../../src/i18n/index.js';
import { settleIndex } from '../../src/search/indexFile.js';
import { openStores, type Stores } from '../../src/store/open.js';
import type { Classifier } from '../../src/topics/classify.js';
import { abortOnSignal } from './signals.js';

/** What a sync's work is given. */
export interface SyncContext {
  stores: Stores;
  classify: Classifier;
  /** Aborts at Ctrl-C. */
  signal: AbortSignal;
}

/** What a sync did: whether papers changed, and the command's exit code. */
export interface SyncOutcome {
  changed: boolean;
  exit: number;
}

/**
 * Runs `work` on the library; resolves the exit code it gives.
 * @example return syncLibrary(config, log, m, async ({ stores, classify, signal }) => ({ changed: true, exit: 0 }));
 */
export async function syncLibrary(config: Config, log: Logger, m: Messages, work: (context: SyncContext) => Promise<SyncOutcome>): Promise<number> {
  const { taxonomy, taxonomyHash, classify } = loadTopics();
  const stores = await openStores(config, { log });
  const store = stores.papers;
  const stop = abortOnSignal(m.t('cli.stopping.request'));
  try {
    const reclassified = await ensureLibraryCurrent(store, { taxonomyHash, classify }, log);
    const { changed, exit } = await work({ stores, classify, signal: stop.signal });
    if (changed || reclassified > 0) {
      await settleIndex({ store, topicIds: taxonomy.topics.map((t) => t.id), taxonomyHash }, config.indexPath, log);
      process.stdout.write(`${m.t('cli.library', { papers: await store.count(), dir: config.dataDir })}\n`);
    }
    return exit;
  } finally {
    stop.dispose();
    await stores.close();
  }
}

/**
 * A sync's exit code: 130 when stopped, 1 when every one of its `parts` (categories, sets,
 * venues) failed, else 0.
 * @example syncExit({ aborted: false, failed: [{ venue: 'X', reason: 'HTTP 404' }] }, 1) // 1
 */
export function syncExit(summary: { aborted: boolean; failed: readonly unknown[] }, parts: number): number {
  if (summary.aborted) return 130;
  return parts > 0 && summary.failed.length === parts ? 1 : 0;
}
