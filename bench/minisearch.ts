/**
 * The raw MiniSearch baseline the benchmark measures next to Paper Scout, in child processes of
 * its own so that its heap is measured alone:
 *   build <dataDir> <snapshot.json>   index the library's papers, save the snapshot; prints JSON
 *   query <snapshot.json> <queries.json>  load the snapshot, run the queries; prints JSON
 * Same fields as Paper Scout (title, authors, keywords, abstract), `prefix: true, fuzzy: 0.2`.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { openDatabase } from '../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../src/store/sqlite/papers.js';

const FIELDS = ['title', 'authors', 'keywords', 'abstract'];
const [mode, a, b] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;

if (mode === 'build') {
  const store = new SqlitePaperStore(openDatabase(join(a!, 'paperscout.db')));
  const rows = [];
  for await (const row of store.rowsForIndex()) rows.push(row);
  const docs = rows.map((r) => ({ id: r.doc, title: r.title, authors: r.authors.join(', '), keywords: r.keywords.join(', '), abstract: r.abstract }));
  const started = performance.now();
  const ms = new MiniSearch({ fields: FIELDS });
  ms.addAll(docs);
  const indexMs = performance.now() - started;
  writeFileSync(b!, JSON.stringify(ms));
  process.stdout.write(JSON.stringify({ docs: docs.length, indexMs, snapshotBytes: statSync(b!).size }));
} else if (mode === 'query') {
  const started = performance.now();
  const ms = MiniSearch.loadJSON(readFileSync(a!, 'utf8'), { fields: FIELDS });
  const loadMs = performance.now() - started;
  gc?.();
  const heap = process.memoryUsage().heapUsed;
  const queries = JSON.parse(readFileSync(b!, 'utf8')) as Array<{ kind: string; query: string }>;
  const times: Array<{ kind: string; ms: number }> = [];
  for (const q of queries) {
    const t = performance.now();
    ms.search(q.query, { prefix: true, fuzzy: 0.2 });
    times.push({ kind: q.kind, ms: performance.now() - t });
  }
  process.stdout.write(JSON.stringify({ loadMs, heap, times }));
} else {
  process.stderr.write('usage: minisearch.ts build <dataDir> <snapshot.json> | query <snapshot.json> <queries.json>\n');
  process.exit(2);
}
