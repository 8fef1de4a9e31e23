/**
 * The citation store at a library's scale: `papers` synthetic papers, each matched to a work
 * with a count and ~40 references (a third of them to papers of the library, cited the more the
 * older they are; the rest to works it does not hold). Prints the time to write them all (in
 * batches of 1,000, as a works file would), a refresh of every count, what the references cost
 * on disk, and the reads a paper's page makes (references and citing papers in the library, five
 * each with their totals; five papers' counts), p50 and p99, and a full read of the index rows.
 *
 * `npm run bench` prints it for the 95k library's size (bench/run.ts).
 *
 *   npx tsx bench/citations.ts [--store sqlite|postgres|both] [--papers N] [--samples N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { PaperRecord } from '../src/papers/model.js';
import type { CitationEntry, CitationStore } from '../src/store/citations.js';
import type { PaperStore } from '../src/store/papers.js';
import { openPostgres } from '../src/store/postgres/index.js';
import { SqliteCitationStore } from '../src/store/sqlite/citations.js';
import { openDatabase, tuneForBulkWrites } from '../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../src/store/sqlite/papers.js';
import { silentLog } from '../test/helpers/corpus.js';
import { postgresBinaries, startPostgresCluster } from '../test/helpers/postgresCluster.js';
import { fmtMb, fmtMs, percentile } from './stats.js';
import { rng } from './scale/generate.js';

const REFERENCES = 40;
const IN_LIBRARY = 13;
const BATCH = Number(process.env.CITE_BATCH ?? 1000);

/** Paper n's work: ten digits, spread as OpenAlex's are. */
const workOf = (n: number) => 1_000_000_000 + ((n * 2_654_435_761) % 3_400_000_000);

function record(n: number): PaperRecord {
  return {
    title: `Synthetic paper ${n} on sparse attention`, authors: [`Author ${n}`], abstract: '', venue: 'ICML', year: 2000 + (n % 25), status: 'Poster',
    keywords: [], labels: [], links: {}, externalIds: { arxiv: `${2400 + Math.floor(n / 100_000)}.${String(n % 100_000).padStart(5, '0')}` },
  };
}

/**
 * Synthetic citations for `docs`, the library's papers `first`, `first + 1`, …: each a work, a
 * count and {@link REFERENCES} references, {@link IN_LIBRARY} of them to earlier papers.
 */
export function syntheticCitations(docs: readonly number[], next: () => number, fetched: Date, first = 0): CitationEntry[] {
  return docs.map((doc, k) => {
    const i = first + k;
    const refs: string[] = [];
    // Papers of the library, older ones (lower numbers) the more likely: the square skews towards 0.
    for (let k = 0; k < IN_LIBRARY && i > 0; k++) refs.push(`W${workOf(Math.floor(next() ** 2 * i))}`);
    while (refs.length < REFERENCES) refs.push(`W${1_000_000_000 + Math.floor(next() * 3_400_000_000)}`);
    return { doc, openalex: `W${workOf(i)}`, count: Math.floor(Math.exp(next() * 7)), fetched, references: refs };
  });
}

async function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const result = await fn();
  return [result, performance.now() - t0];
}

async function timed(samples: number, fn: (i: number) => Promise<unknown>): Promise<string> {
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) ms.push((await time(() => fn(i)))[1]);
  return `p50 ${fmtMs(percentile(ms, 0.5))}, p99 ${fmtMs(percentile(ms, 0.99))}`;
}

interface Target {
  name: string;
  papers: PaperStore;
  citations: CitationStore;
  /** Bytes the citations take at rest. */
  size(): Promise<number>;
  /** Brings the planner's statistics up to date, as the store's own upkeep would after a bulk load. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function benchCitations(target: Target, papers: number, samples: number): Promise<string[]> {
  const { papers: store, citations } = target;
  const docs: number[] = [];
  for (let from = 0; from < papers; from += 5000) {
    const batch = Array.from({ length: Math.min(5000, papers - from) }, (_, i) => record(from + i));
    const results = await store.write((tx) => tx.upsertBatch(batch, { source: 'bench', classify: () => [], now: new Date() }));
    for (const r of results) if ('doc' in r) docs.push(r.doc);
  }
  const next = rng(42);
  const all = syntheticCitations(docs, next, new Date('2026-03-01T00:00:00Z'));
  const [, put] = await time(async () => {
    for (let i = 0; i < all.length; i += BATCH) await citations.put(all.slice(i, i + BATCH));
  });
  const refresh = all.map((e) => ({ doc: e.doc, openalex: e.openalex, count: e.count + 1, fetched: new Date('2026-04-01T00:00:00Z') }));
  const [, refreshed] = await time(async () => {
    for (let i = 0; i < refresh.length; i += BATCH) await citations.put(refresh.slice(i, i + BATCH));
  });
  await target.settle();
  const stats = await citations.stats();
  const bytes = await target.size();
  const pick = rng(7);
  const doc = () => docs[Math.floor(pick() ** 3 * docs.length)]!;
  const page = { offset: 0, limit: 5 };
  const [, index] = await time(async () => {
    for await (const row of store.rowsForIndex()) void row;
  });
  return [
    `${target.name}: ${papers.toLocaleString('en')} papers, ${stats.references.toLocaleString('en')} references`,
    `  write all (batches of ${BATCH}): ${(put / 1000).toFixed(1)} s, ${Math.round(papers / (put / 1000)).toLocaleString('en')} papers/s; refresh every count: ${(refreshed / 1000).toFixed(1)} s`,
    `  at rest: ${fmtMb(bytes)}, ${(bytes / stats.references).toFixed(1)} bytes a reference`,
    `  references in the library (5 and the total): ${await timed(samples, () => citations.references(doc(), page))}`,
    `  cited by, in the library (5 and the total): ${await timed(samples, () => citations.citedBy(doc(), page))}`,
    `  five papers' counts: ${await timed(samples, () => citations.counts([doc(), doc(), doc(), doc(), doc()]))}`,
    `  five papers with their counts: ${await timed(samples, () => store.papersByDocs([doc(), doc(), doc(), doc(), doc()]))}`,
    `  every index row (with citedBy): ${(index / 1000).toFixed(2)} s`,
  ];
}

async function sqliteTarget(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'paperscout-citations-'));
  const db = openDatabase(join(dir, 'paperscout.db'));
  tuneForBulkWrites(db);
  return {
    name: 'SQLite',
    papers: new SqlitePaperStore(db),
    citations: new SqliteCitationStore(db),
    size: async () => {
      const rows = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name IN ('paper_citations', 'paper_citations_openalex') OR name LIKE 'citation_refs%' GROUP BY name").all() as Array<{ bytes: number }>;
      return rows.reduce((sum, r) => sum + r.bytes, 0);
    },
    settle: async () => undefined,
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The citation store at `papers` papers on SQLite (unless `sqlite` is false) and, unless `postgres` is false or the server's
 * binaries are missing, on a private PostgreSQL server.
 * @example console.log((await benchCitationStores({ papers: 95_126, samples: 2000, postgres: true })).join('\n'))
 */
export async function benchCitationStores(options: { papers: number; samples: number; sqlite?: boolean; postgres: boolean }): Promise<string[]> {
  const { papers, samples } = options;
  const lines: string[] = [];
  if (options.sqlite !== false) {
    const target = await sqliteTarget();
    try {
      lines.push(...(await benchCitations(target, papers, samples)));
    } finally {
      await target.close();
    }
  }
  if (!options.postgres) return lines;
  const found = postgresBinaries();
  if ('missing' in found) return [...lines, `PostgreSQL skipped: ${found.missing}`];
  const cluster = await startPostgresCluster({ durable: true });
  try {
    const pg = await openPostgres(await cluster.createDatabase('bench_citations'), { log: silentLog, patience: 10_000 });
    const size = async () => Number((await pg.db.query<{ n: string }>("SELECT pg_total_relation_size('paper_citations') + pg_total_relation_size('citation_refs') AS n")).rows[0]!.n);
    // Autovacuum analyzes the tables soon after a bulk load; until it has, plans are the planner's guesses.
    const settle = async () => void (await pg.db.query('VACUUM ANALYZE'));
    lines.push(...(await benchCitations({ name: 'PostgreSQL', papers: pg.papers, citations: pg.citations, size, settle, close: () => pg.close() }, papers, samples)));
    await pg.close();
  } finally {
    await cluster.stop();
  }
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { store: { type: 'string', default: 'both' }, papers: { type: 'string', default: '95126' }, samples: { type: 'string', default: '2000' } } });
  const options = { papers: Number(values.papers), samples: Number(values.samples), sqlite: values.store !== 'postgres', postgres: values.store !== 'sqlite' };
  console.log((await benchCitationStores(options)).join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
