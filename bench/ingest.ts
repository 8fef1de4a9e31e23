/**
 * Ingest benchmark: imports a corpus into fresh stores and prints the time and records/s of
 * each run and the median. Not a timed test: it prints figures.
 *
 *   npx tsx bench/ingest.ts <file-or-dir>... [--runs 3]
 *   e.g. npx tsx bench/ingest.ts ../shared/corpus/paperlists
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../src/store/sqlite/papers.js';
import { ingestPaths, type IngestSummary } from '../src/ingest/ingest.js';
import { formatSummary } from '../src/ingest/summary.js';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt === -1 ? 3 : Number(args.splice(runsAt, 2)[1]);
if (args.length === 0 || !Number.isInteger(runs) || runs < 1) {
  console.error('usage: npx tsx bench/ingest.ts <file-or-dir>... [--runs 3]');
  process.exit(2);
}

const times: number[] = [];
let summary: IngestSummary | undefined;
for (let run = 1; run <= runs; run++) {
  const dir = mkdtempSync(join(tmpdir(), 'paperscout-bench-'));
  try {
    const db = openDatabase(join(dir, 'db.sqlite'));
    const store = new SqlitePaperStore(db);
    const started = performance.now();
    summary = await ingestPaths(args, { store, classify: () => [] });
    const seconds = (performance.now() - started) / 1000;
    const records = summary.added + summary.updated + summary.unchanged + summary.merged + summary.rejected;
    times.push(seconds);
    console.log(`run ${run}: ${seconds.toFixed(2)} s, ${Math.round(records / seconds).toLocaleString('en-US')} records/s, ${(await store.count()).toLocaleString('en-US')} papers`);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
console.log(`median of ${runs}: ${median.toFixed(2)} s`);
if (summary) console.log(formatSummary(summary));
