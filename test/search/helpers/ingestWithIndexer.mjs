// Child process of test/search/ingestIndex.test.ts: an import with the search index built by
// the worker thread while it runs, as `paperscout ingest` does for large files, through the
// compiled build (the worker thread runs JavaScript). Prints the indexer's outcome as JSON.
// Usage: node ingestWithIndexer.mjs <dist dir> <file> (DATA_DIR and DATABASE_URL from the environment)
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [dist, file] = process.argv.slice(2);
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const { loadConfig } = await load('src/config.js');
const { createLogger } = await load('src/logger.js');
const { openStores } = await load('src/store/open.js');
const { ingestPaths } = await load('src/ingest/ingest.js');
const { IngestIndexer } = await load('src/search/ingestIndex.js');

const config = loadConfig();
const log = createLogger({ logLevel: 'warn', logFormat: 'json' });
const stores = await openStores(config, { log, bulk: true });
try {
  const source = { store: stores.papers, topicIds: ['t1', 't2'], taxonomyHash: 'h' };
  const indexer = await IngestIndexer.start(source, stores.target, config.indexPath, log);
  const summary = await ingestPaths([file], { store: stores.papers, classify: () => ['t1'], batchSize: 500, onProgress: () => indexer.notify() });
  const outcome = await indexer.finish();
  process.stdout.write(`${JSON.stringify({ added: summary.added, outcome })}\n`);
} finally {
  await stores.close();
}
