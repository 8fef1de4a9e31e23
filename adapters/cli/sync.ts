/**
 * `paperscout sync arxiv [--categories cs.LG,cs.CL]`: fetch the day's new submissions of the
 * followed arXiv categories into DATA_DIR, then bring the search index up to date. Ctrl-C stops
 * before the next request; the categories already synced stay synced.
 */
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { ensureTopicsCurrent, loadTopics } from '../../src/app.js';
import { abortOnSignal } from './signals.js';
import type { Config } from '../../src/config.js';
import { UserError } from '../../src/errors.js';
import { rebuildIndex } from '../../src/search/indexFile.js';
import { fetchHttpGet } from '../../src/sources/arxiv/client.js';
import { formatSyncSummary } from '../../src/sources/arxiv/summary.js';
import { syncArxiv } from '../../src/sources/arxiv/sync.js';
import { systemClock } from '../../src/sources/clock.js';
import { openStores } from '../../src/store/open.js';

const CATEGORY = /^[a-z-]+(\.[A-Za-z-]+)?$/;

export async function runSync(args: string[], config: Config, log: Logger): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { categories: { type: 'string' } } });
  const [source, ...extra] = positionals;
  if (source !== 'arxiv' || extra.length > 0) {
    throw source && source !== 'arxiv' ? new UserError('cli.syncSourceNot', { source }) : new UserError('cli.syncSource');
  }
  const categories = values.categories?.split(',').map((c) => c.trim()).filter(Boolean) ?? config.arxiv.categories;
  const bad = categories.filter((c) => !CATEGORY.test(c));
  if (categories.length === 0 || bad.length > 0) {
    throw bad.length > 0 ? new UserError('cli.badCategoriesNot', { bad: bad.map((c) => `"${c}"`).join(', ') }) : new UserError('cli.badCategories');
  }
  const { taxonomy, taxonomyHash, classify } = loadTopics();
  const stores = await openStores(config, { log });
  const store = stores.papers;
  const stop = abortOnSignal('Stopping before the next request');
  try {
    const reclassified = await ensureTopicsCurrent(store, { taxonomyHash, classify });
    if (categories.length > 1) process.stderr.write(`Syncing ${categories.length} arXiv categories, one request every 3 s as arXiv asks…\n`);
    const summary = await syncArxiv(
      { store, classify, config: config.arxiv, http: fetchHttpGet(), clock: systemClock, log },
      { categories, signal: stop.signal },
    );
    process.stdout.write(`${formatSyncSummary(summary)}\n`);
    if (summary.changed || reclassified > 0) {
      const data = await rebuildIndex({ store, topicIds: taxonomy.topics.map((t) => t.id), taxonomyHash }, config.indexPath, log);
      process.stdout.write(`Library: ${data.docCount.toLocaleString('en-US')} papers in ${config.dataDir}\n`);
    }
    if (summary.aborted) return 130;
    return summary.categories.length > 0 && summary.failed.length === summary.categories.length ? 1 : 0;
  } finally {
    stop.dispose();
    await stores.close();
  }
}
