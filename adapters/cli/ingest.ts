/**
 * `paperscout ingest <file-or-dir-or-URL>...`: import papers into DATA_DIR, then bring the search
 * index up to date. Ctrl-C stops after the batch being written; running the same command again
 * finishes the job.
 */
import type { Logger } from 'pino';
import type { Config } from '../../src/config.js';
import { UserError } from '../../src/errors.js';
import { ingestPaths } from '../../src/ingest/ingest.js';
import { createProgressBar } from '../../src/ingest/progress.js';
import { formatSummary } from '../../src/ingest/summary.js';
import { rebuildIndex } from '../../src/search/indexFile.js';
import { openStores } from '../../src/store/open.js';
import { ensureLibraryCurrent, loadTopics } from '../../src/app.js';
import { abortOnSignal } from './signals.js';

export async function runIngest(paths: string[], config: Config, log: Logger): Promise<number> {
  if (paths.length === 0) throw new UserError('cli.giveFiles');
  const { taxonomy, taxonomyHash, classify } = loadTopics();
  const stores = await openStores(config, { log });
  const store = stores.papers;
  const stop = abortOnSignal('Stopping after the current batch');
  try {
    await ensureLibraryCurrent(store, { taxonomyHash, classify }, log);
    const started = performance.now();
    const bar = createProgressBar(process.stderr);
    const summary = await ingestPaths(paths, {
      store,
      classify,
      onProgress: (p) => bar.update(p),
      signal: stop.signal,
      userAgent: config.userAgent,
    });
    bar.done();
    const ingestSeconds = (performance.now() - started) / 1000;
    process.stdout.write(`${formatSummary(summary)}\n`);
    const indexStarted = performance.now();
    const data = await rebuildIndex({ store, topicIds: taxonomy.topics.map((t) => t.id), taxonomyHash }, config.indexPath, log);
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    process.stdout.write(
      `Library: ${data.docCount.toLocaleString('en-US')} papers in ${config.dataDir} ` +
        `(import ${ingestSeconds.toFixed(1)} s, search index ${indexSeconds.toFixed(1)} s)\n`,
    );
    const wroteNothing = summary.added + summary.updated + summary.unchanged === 0;
    return summary.failedFiles.length > 0 && wroteNothing ? 1 : 0;
  } finally {
    stop.dispose();
    await stores.close();
  }
}

/** `paperscout reindex`: rebuilds the search index snapshot from the store. */
export async function runReindex(config: Config, log: Logger): Promise<number> {
  const { taxonomy, taxonomyHash, classify } = loadTopics();
  const stores = await openStores(config, { log });
  try {
    const store = stores.papers;
    await ensureLibraryCurrent(store, { taxonomyHash, classify }, log);
    const started = performance.now();
    const data = await rebuildIndex({ store, topicIds: taxonomy.topics.map((t) => t.id), taxonomyHash }, config.indexPath, log);
    process.stdout.write(`Search index: ${data.docCount.toLocaleString('en-US')} papers, ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    return 0;
  } finally {
    await stores.close();
  }
}
