/**
 * A large import's index, built by a worker thread while the import runs (as `paperscout
 * ingest` does past 32 MB), on SQLite and on PostgreSQL: the worker opens the store on its own
 * connection from the store's target, and the snapshot it leaves answers as a full rebuild. Run
 * through the compiled build, as the CLI runs it (the worker thread runs JavaScript).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { SegmentBuilder } from '../../src/search/index/build.js';
import { openSnapshot } from '../../src/search/index/format.js';
import { IndexView } from '../../src/search/index/view.js';
import { openIndex } from '../../src/search/indexFile.js';
import { openStores } from '../../src/store/open.js';
import type { PaperStore } from '../../src/store/papers.js';
import { engineOver, silentLog } from '../helpers/corpus.js';
import { createTestDatabase, dropTestDatabase, postgresMissing } from '../helpers/postgres.js';
import { ROOT } from '../adapters/ops/helpers/spawned.js';

const run = promisify(execFile);
const WORDS = ['graph', 'neural', 'diffusion', 'bandit', 'kernel', 'quokka', 'policy', 'language', 'robust', 'causal'];
const PAPERS = 3000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function papersFile(dir: string): string {
  const lines = Array.from({ length: PAPERS }, (_, i) => {
    const title = [WORDS[i % 10], WORDS[(i * 7) % 10], WORDS[(i * 3 + 1) % 10], `study ${i}`].join(' ');
    return JSON.stringify({ id: `p${i}`, title, authors: [`Author ${i % 97}`], abstract: `${title} ${WORDS[(i * 5) % 10]}`, venue: 'arXiv', year: 2020 + (i % 6) });
  });
  const file = join(dir, 'papers.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** A data directory (and, on PostgreSQL, a database of its own) for one test, removed after it. */
async function library(name: string): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'paperscout-ingest-index-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const env: Record<string, string> = { DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' };
  if (name === 'postgres') {
    env.DATABASE_URL = await createTestDatabase();
    cleanups.push(() => dropTestDatabase(env.DATABASE_URL!));
  }
  return { dir, env };
}

/** The import of {@link papersFile} in a child process, with the import-time indexer. */
function importInChild(dir: string, env: Record<string, string>) {
  return run(process.execPath, [join(ROOT, 'test/search/helpers/ingestWithIndexer.mjs'), join(ROOT, 'dist'), papersFile(dir)], { cwd: ROOT, env: { ...process.env, ...env } });
}

/** The store's papers opened in a test (closed after it). */
async function openPapers(env: Record<string, string>) {
  const config = loadConfig(env);
  const stores = await openStores(config, { log: silentLog });
  cleanups.push(() => stores.close());
  return { config, store: stores.papers };
}

/** `view` answers each query as a full rebuild of the store does: hits, scores and totals. */
async function expectAnswersAsRebuilt(view: IndexView, store: PaperStore, queries: readonly string[]): Promise<void> {
  const builder = new SegmentBuilder({ generation: await store.generation(), taxonomyHash: 'h', topicIds: ['t1', 't2'] });
  for await (const row of store.rowsForIndex()) builder.add(row);
  const ours = engineOver(view, store, ['t1', 't2']);
  const full = engineOver(new IndexView(builder.finish()), store, ['t1', 't2']);
  for (const q of queries) {
    const [a, b] = [await ours.search(q, { limit: 50 }), await full.search(q, { limit: 50 })];
    expect(a.hits.map((h) => [h.id, h.score]), q).toEqual(b.hits.map((h) => [h.id, h.score]));
    expect(a.total, q).toBe(b.total);
  }
}

describe.each([
  { name: 'sqlite', skip: undefined },
  { name: 'postgres', skip: postgresMissing },
])('the import-time indexer on $name', ({ name, skip }) => {
  it.skipIf(skip !== undefined)('builds the snapshot in a worker thread reading the store, answering as a full rebuild', { timeout: 120_000 }, async () => {
    const { dir, env } = await library(name);
    const child = await importInChild(dir, env);
    // The worker's chunk made the snapshot (its failure would say so, and build after the import instead).
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ added: PAPERS, outcome: 'built' });

    const { config, store } = await openPapers(env);
    const { segment } = openSnapshot(config.indexPath);
    expect(segment.docCount).toBe(PAPERS);
    expect(segment.generation).toBe(await store.generation());
    await expectAnswersAsRebuilt(new IndexView(segment), store, ['quokka', 'graph neural diffusion', 'study 2999', 'Author 5', 'kernel -policy', 'topic:t1 robust', 'sort:new causal', 'bandi']);
  });

  it.skipIf(skip !== undefined)('leaves an index that, caught up, answers as a full rebuild when another process writes during the import', { timeout: 120_000 }, async () => {
    const { dir, env } = await library(name);
    const { config, store } = await openPapers(env);
    const record = (sourceKey: string, title: string) => ({ sourceKey, title, authors: ['Ann Lee'], abstract: '', venue: 'arXiv', year: 2026, status: '', keywords: [], labels: [], links: {}, externalIds: {} });
    // Written before the import starts, so that the writer below has papers to change from the first moment.
    await store.write((tx) => tx.upsertBatch([record('other:w0', 'wombat 0')], { source: 'other', classify: () => ['t2'], now: new Date() }));

    const child = importInChild(dir, env);
    let running = true;
    void child.finally(() => (running = false)).catch(() => undefined);
    // Another writer (a sync, a lookup, a second CLI) while the import and its indexer run:
    // new papers, new versions of its own and of the import's papers, removals of both.
    const touched = new Set<string>();
    let during = 0;
    for (let n = 1; running; n++) {
      await store.write(async (tx) => {
        touched.add(`papers:p${(n * 37) % PAPERS}`);
        await tx.upsertBatch([record(`other:w${n}`, `wombat ${n} kernel`), record(`other:w${n >> 1}`, `wombat ${n >> 1} numbat`), record(`papers:p${(n * 37) % PAPERS}`, `numbat quokka ${n}`)], { source: 'other', classify: () => ['t2'], now: new Date() });
        if (n % 5 === 0) await tx.remove(`papers:p${(n * 11) % PAPERS}`);
        if (n % 7 === 0) await tx.remove(`other:w${n - 3}`);
      });
      // (While the child process runs: it starts, imports, indexes and merges.)
      if (running) during++;
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const { stdout } = await child;
    expect(JSON.parse(stdout).outcome).toBe('built');
    expect(during).toBeGreaterThan(5);
    // Some of the other writer's papers were written between the import's first batch and its
    // last: between the first and last of the papers only the import wrote, by document number.
    const rows: Array<{ doc: number; id: string }> = [];
    for await (const row of store.rowsForIndex()) rows.push({ doc: row.doc, id: row.id });
    const imported = rows.filter((r) => r.id.startsWith('papers:p') && !touched.has(r.id)).map((r) => r.doc);
    const [first, last] = [Math.min(...imported), Math.max(...imported)];
    expect(rows.filter((r) => r.id.startsWith('other:') && r.doc > first && r.doc < last).length).toBeGreaterThan(0);

    // As the bot or the next CLI opens it: the snapshot, then what the store holds beyond it.
    const view = await openIndex({ store, topicIds: ['t1', 't2'], taxonomyHash: 'h' }, config.indexPath, silentLog);
    expect(view.liveCount).toBe(await store.count());
    await expectAnswersAsRebuilt(view, store, ['wombat', 'numbat', 'numbat quokka', 'wombat kernel', 'quokka', 'graph neural diffusion', 'study 1500', 'topic:t2', 'topic:t2 kernel', 'sort:new wombat', 'wombat -numbat']);
  });
});
