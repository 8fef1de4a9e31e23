/**
 * Child process for the kill test: ingests one path into a store and prints a line after every
 * committed batch, so the parent knows when to kill it.
 *
 *   node --import tsx test/ingest/helpers/ingestChild.ts <db> <path> <batchSize>
 */
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../../src/store/sqlite/papers.js';
import { ingestPaths } from '../../../src/ingest/ingest.js';

const [dbPath, input, batchSize] = process.argv.slice(2);
if (!dbPath || !input || !batchSize) throw new Error('usage: ingestChild.ts <db> <path> <batchSize>');
const store = new SqlitePaperStore(openDatabase(dbPath));
await ingestPaths([input], {
  store,
  classify: () => [],
  batchSize: Number(batchSize),
  onProgress: (p) => process.stdout.write(`committed ${p.records}\n`),
});
process.stdout.write('done\n');
