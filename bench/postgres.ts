/**
 * The PostgreSQL section of `npm run bench` (issue 10): on a private PostgreSQL 15 server started
 * here with its default durability (initdb and pg_ctl from Debian's package, as the tests do),
 * the whole corpus imported through `paperscout ingest` next to the SQLite import of the same run,
 * the Discord /paper round trip next to SQLite's, and `digest run-due` for 1,000 subscriptions.
 *
 *   --pg-ingest-runs N   import the corpus N times into each store (fresh each time) and report
 *                        the medians (default 1: SQLite's figure is the main import of the run)
 *
 * On its own (after `npm run build`): npx tsx bench/postgres.ts [--pg-ingest-runs N]
 */
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { postgresBinaries, startPostgresCluster } from '../test/helpers/postgresCluster.js';
import { benchDigest } from './digest.js';
import { benchDiscord } from './discord.js';
import { fmtMs, median, percentile } from './stats.js';

export interface PostgresBenchOptions {
  cli: string;
  corpus: string;
  /** The SQLite figures of this run: the import (seconds, store writes only) and the /paper round trips. */
  sqlite: { importSeconds: number[]; paperMs: number[] };
  ingestRuns: number;
  out: (line?: string) => void;
}

/** One `paperscout ingest` of the corpus; resolves its import and index seconds as it reports them. */
export function timedIngest(cli: string, corpus: string, env: Record<string, string | undefined>): { wall: number; importSeconds: number; indexSeconds: number; papers: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, 'ingest', corpus], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (result.status !== 0) throw new Error(`ingest failed: ${result.stderr}`);
  const wall = (performance.now() - started) / 1000;
  const detail = /Library: ([\d,]+) papers .*\(import ([\d.]+) s, search index ([\d.]+) s\)/.exec(result.stdout);
  return { wall, papers: detail?.[1] ?? '?', importSeconds: Number(detail?.[2]), indexSeconds: Number(detail?.[3]) };
}

/**
 * Runs the section; returns its report lines (or one line saying why it was skipped).
 * @example for (const line of await benchPostgres({ cli, corpus, sqlite, ingestRuns: 1, out })) out(line);
 */
export async function benchPostgres(o: PostgresBenchOptions): Promise<string[]> {
  const found = postgresBinaries();
  if ('missing' in found) return [`PostgreSQL: skipped (${found.missing})`];
  const row = (name: string, ours: string, goal = '') => `${name.padEnd(28)}${ours.padEnd(58)}${''.padEnd(34)}${goal}`;
  o.out('Measuring PostgreSQL (a private server with its default durability): the import, /paper, digest run-due…');
  const cluster = await startPostgresCluster({ durable: true });
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'paperscout-bench-pg-'));
    dirs.push(d);
    return d;
  };
  try {
    // The import, into a fresh database each time (and, for medians, SQLite alternately).
    const sqliteImports = [...o.sqlite.importSeconds];
    const pgImports: number[] = [];
    let url = '';
    let dataDir = '';
    let papers = '?';
    let pgWall = 0;
    for (let run = 0; run < o.ingestRuns; run++) {
      if (run > 0) sqliteImports.push(timedIngest(o.cli, o.corpus, { DATA_DIR: dir() }).importSeconds);
      url = await cluster.createDatabase(`bench_${run}`);
      dataDir = dir();
      const pg = timedIngest(o.cli, o.corpus, { DATA_DIR: dataDir, DATABASE_URL: url });
      pgImports.push(pg.importSeconds);
      papers = pg.papers;
      pgWall = pg.wall;
    }
    const sqliteImport = median(sqliteImports);
    const pgImport = median(pgImports);
    // What autovacuum does within a minute of a large import, done now so that the server is not
    // busy with it (and the planner has statistics) while the serving path is timed.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('VACUUM (ANALYZE) papers, paper_aliases');
    await admin.query('CHECKPOINT');
    await admin.end();

    // The serving path and the digests, on the last database imported.
    const log = createLogger({ logLevel: 'warn', logFormat: 'json' });
    const app = await openApp(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url }), log, { demoWhenEmpty: false });
    let discord: Awaited<ReturnType<typeof benchDiscord>>;
    let digest: string[];
    try {
      discord = await benchDiscord(app);
      digest = await benchDigest(app);
    } finally {
      await app.close();
    }
    const p99 = { sqlite: percentile(o.sqlite.paperMs, 0.99), pg: percentile(discord.paperMs, 0.99) };
    const p = (ms: number[]) => `${fmtMs(percentile(ms, 0.5))} / ${fmtMs(percentile(ms, 0.99))}`;
    const runs = o.ingestRuns > 1 ? `, median of ${o.ingestRuns}` : '';
    return [
      `PostgreSQL 15 (private server, fsync on; VACUUM ANALYZE and a CHECKPOINT after the import) vs SQLite, same corpus, same run`,
      row('  import, whole corpus', `${pgImport.toFixed(1)} s vs SQLite ${sqliteImport.toFixed(1)} s = ${(pgImport / sqliteImport).toFixed(2)}× (${papers} papers${runs})`, '≤ 2× SQLite'),
      row('  ingest command, wall', `${pgWall.toFixed(1)} s (import, then the index built from PostgreSQL)`),
      row('  Discord /paper p50 / p99', `${p(discord.paperMs)} vs SQLite ${p(o.sqlite.paperMs)}: p99 ${(p99.pg / p99.sqlite).toFixed(2)}×`, 'p99 ≤ 1.5× SQLite'),
      // The rest of the Discord figures, and the digests, as the SQLite section shows them.
      ...discord.lines.slice(2).map((l) => `  PG ${l.slice(0, 28).trim()}`.padEnd(28) + l.slice(28)),
      ...digest.map((l) => `  PG ${l}`),
    ];
  } finally {
    await cluster.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // On its own: `npx tsx bench/postgres.ts [--pg-ingest-runs N]` (after `npm run build`), the
  // SQLite figures measured here first, the same way.
  const { values } = parseArgs({ options: { 'pg-ingest-runs': { type: 'string', default: '1' } } });
  const root = fileURLToPath(new URL('..', import.meta.url));
  const cli = join(root, 'dist/adapters/cli/cli.js');
  const corpus = resolve(process.env.BENCH_CORPUS ?? join(root, '../shared/corpus/paperlists'));
  const out = (line = '') => process.stdout.write(`${line}\n`);
  const dataDir = mkdtempSync(join(tmpdir(), 'paperscout-bench-'));
  try {
    const sqlite = timedIngest(cli, corpus, { DATA_DIR: dataDir });
    const app = await openApp(loadConfig({ DATA_DIR: dataDir }), createLogger({ logLevel: 'warn', logFormat: 'json' }), { demoWhenEmpty: false });
    let paperMs: number[];
    try {
      paperMs = (await benchDiscord(app)).paperMs;
    } finally {
      await app.close();
    }
    for (const line of await benchPostgres({ cli, corpus, sqlite: { importSeconds: [sqlite.importSeconds], paperMs }, ingestRuns: Math.max(1, Number(values['pg-ingest-runs']) || 1), out })) out(line);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
