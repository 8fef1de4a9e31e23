/**
 * `npm run bench`: the figures the issues ask for, measured on the real corpus, with raw
 * MiniSearch measured in the same run for comparison. Prints a table; asserts nothing.
 *
 *   BENCH_CORPUS  the paperlists tree (default ../shared/corpus/paperlists)
 *   BENCH_EVAL    relevance queries by kind (default ../shared/eval/relevance-dev.jsonl)
 *   BENCH_BROAD   broad queries with their seminal papers (default ../shared/eval/broad-dev.jsonl):
 *                 their MRR and hit@5, and search timed with standing against words alone
 *                 (bench/standingAB.ts)
 * Also: /paper and the burst of 100 interactions through the Discord and Slack adapters on
 * loopback, Slack for 100 workspaces installed through the OAuth flow at 10 requests a second
 * (bench/slackWorkspaces.ts), the search site (bench/web.ts), `digest run-due` for 1,000
 * subscriptions (by topic and by library), recommendations for profiles of 50 papers (bench/recommend.ts), related work
 * for 3,000-character abstracts, in process and through the site (bench/related.ts), the sources
 * (CPU per 1,000 arXiv OAI-PMH records stored; an OpenReview venue of 10,000 notes), and the same
 * on PostgreSQL next to SQLite (bench/postgres.ts: a private server of its own, skipped without
 * Debian's postgresql package), and reading lists at issue 30's scale: /library mine and channel
 * through the registry on the corpus, the store's reads on both stores, exports of 1,000 papers
 * (bench/libraryCommands.ts, bench/readingLists.ts, bench/export.ts); members' 👍/👎 and follows
 * at issue 41's scale, a press timed on both stores (bench/ratings.ts); an opened paper with its
 * citation lists, on a copy of the library given counts and references (bench/openedPaper.ts).
 * Citations (issue 39): the
 * citation store at the library's size on both stores (bench/citations.ts), and with a works file
 * (--works, or BENCH_WORKS) its ingest into copies of the library and a sync of the library against
 * a loopback OpenAlex, requests per paper with and without a DOI (bench/openalex.ts).
 *
 *   --skip-minisearch   leave out the (slow) baseline
 *   --skip-postgres     leave out the PostgreSQL section
 *   --pg-ingest-runs N  import the corpus N times into each store for the PostgreSQL comparison
 *   --data-dir DIR      reuse an ingested DATA_DIR instead of ingesting into a temporary one
 *                       (only read by the citation benches: they write into copies)
 *   --works FILE        an OpenAlex works file for the library (snapshot format, .gz or not);
 *                       without it one is drawn (bench/works.ts, seed 1, BENCH_BROAD's targets seminal)
 *   --scale N           instead: the scale table for 95k (real), 300k and N recombined papers
 *                       (bench/scale/run.ts; --seed S, --keep, --libraries DIR to build them once
 *                       into DIR and reuse them)
 *   --load              instead: the load run (bench/load.ts), 1,000 commands a minute for
 *                       --minutes (10) with digests, an import and a held write lock
 *                       (--rate, --lock-minute: 0 for no lock)
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { benchCitationStores } from './citations.js';
import { benchDigest, benchLibraryDigest } from './digest.js';
import { benchRecommend } from './recommend.js';
import { benchRelated } from './related.js';
import { benchDiscord } from './discord.js';
import { benchExport } from './export.js';
import { benchLibraryCommands } from './libraryCommands.js';
import { benchOpenedPaper } from './openedPaper.js';
import { benchOpenAlexSync, benchWorksIngest, readWorks } from './openalex.js';
import { readSeminalTitles, writeLibraryWorks } from './works.js';
import { normalizeTitle } from '../src/text.js';
import { decodeLatex } from '../src/papers/latex.js';
import { benchPostgres, timedIngest } from './postgres.js';
import { ISSUE_SCALE, benchReadingListStores } from './readingLists.js';
import { RATING_SCALE, benchRatingStores } from './ratings.js';
import { benchSlack } from './slack.js';
import { benchSlackWorkspaces } from './slackWorkspaces.js';
import { benchSources } from './sources.js';
import { runLoad } from './load.js';
import { benchStart } from './start.js';
import { benchWeb } from './web.js';
import { KEYWORD_QUERIES, timeAutocomplete } from './queries.js';
import { broadLine, readBroadCases, scoreBroad } from './broadEval.js';
import { benchStandingAB } from './standingAB.js';
import { fmtMb, fmtMs, median, percentile } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    'skip-minisearch': { type: 'boolean', default: false },
    'skip-postgres': { type: 'boolean', default: false },
    'pg-ingest-runs': { type: 'string', default: '1' },
    'data-dir': { type: 'string' },
    works: { type: 'string' },
    runs: { type: 'string', default: '3' },
    scale: { type: 'string' },
    seed: { type: 'string', default: '42' },
    keep: { type: 'boolean', default: false },
    libraries: { type: 'string' },
    load: { type: 'boolean', default: false },
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '1000' },
    'lock-minute': { type: 'string', default: '4' },
  },
});
const corpus = resolve(process.env.BENCH_CORPUS ?? join(root, '../shared/corpus/paperlists'));
const evalFile = resolve(process.env.BENCH_EVAL ?? join(root, '../shared/eval/relevance-dev.jsonl'));
const broadFile = resolve(process.env.BENCH_BROAD ?? join(root, '../shared/eval/broad-dev.jsonl'));
const runs = Math.max(1, Number(values.runs) || 3);

if (!existsSync(corpus)) {
  process.stdout.write(`No corpus at ${corpus}: set BENCH_CORPUS to a paperlists tree to benchmark.\n`);
  process.exit(0);
}

if (values.scale !== undefined) {
  const scale = Number(values.scale);
  if (!Number.isInteger(scale) || scale < 100_000) {
    process.stderr.write('--scale takes a whole number of papers, at least 100000 (e.g. --scale 1000000).\n');
    process.exit(2);
  }
  const { runScaleBench } = await import('./scale/run.js');
  await runScaleBench({ scale, seed: Number(values.seed) || 42, keep: values.keep === true, ...(values.libraries !== undefined && { libraries: resolve(values.libraries) }), corpus, evalFile });
  process.exit(0);
}

const out = (line = '') => process.stdout.write(`${line}\n`);
const cli = join(root, 'dist/adapters/cli/cli.js');

out(`Paper Scout benchmark · ${new Date().toISOString()} · node ${process.version}`);
out('Building (tsc) so that start-up is measured on compiled JavaScript…');
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });

if (values.load) {
  const minutes = Math.max(1, Number(values.minutes) || 10);
  await runLoad({ root, corpus, minutes, rate: Math.max(1, Number(values.rate) || 1000), lockMinute: Math.min(minutes, Math.max(0, Number(values['lock-minute']) || 0)), out });
  process.exit(0);
}

// ── Ingest ────────────────────────────────────────────────────────────────────────────────
const ownDir = values['data-dir'] === undefined;
const dataDir = values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'paperscout-bench-'));
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
let ingestLine = 'skipped (--data-dir)';
let sqliteImport: number | undefined;
if (ownDir) {
  const ingest = timedIngest(cli, corpus, env);
  sqliteImport = ingest.importSeconds;
  ingestLine = `${ingest.wall.toFixed(1)} s wall (${ingest.papers} papers: import ${ingest.importSeconds} s + index ${ingest.indexSeconds} s)`;
}

// ── Cold start: process start → first answered query ──────────────────────────────────────
function coldStart(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'search', '--stdin', '--json', '--limit', '5'], { env });
    child.stdout.once('data', () => {
      resolvePromise(performance.now() - started);
      child.stdin.end();
    });
    child.on('error', reject);
    child.stdin.write('attention is all you need\n');
  });
}
const cold: number[] = [];
for (let i = 0; i < 5; i++) cold.push(await coldStart());

// ── npm start: the terminal's first answer, with and without npm ─────────────────────────────
out('Measuring npm start (the terminal’s first answer)…');
const startLines = await benchStart(dataDir, 5);

// ── Memory after load ─────────────────────────────────────────────────────────────────────
const mem = spawnSync(process.execPath, ['--expose-gc', cli, 'stats', '--memory'], { env, encoding: 'utf8' });
const heapMatch = /heap ([\d.]+) MB, external ([\d.]+) MB, RSS ([\d.]+) MB/.exec(mem.stdout);

// ── Search and autocomplete latency ───────────────────────────────────────────────────────
const app = await openApp(loadConfig({ DATA_DIR: dataDir, LOOKUP_UPSTREAM: 'off' }), createLogger({ logLevel: 'warn', logFormat: 'json' }), { demoWhenEmpty: false });
const cases = [
  ...readFileSync(evalFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { kind: string; query: string }),
  ...KEYWORD_QUERIES.map((query) => ({ kind: 'keywords', query })),
];
const kinds = [...new Set(cases.map((c) => c.kind))];
for (const c of cases) await app.library.search(c.query, { limit: 10 }); // warm-up
const searchMs = new Map<string, number[]>(kinds.map((k) => [k, []]));
for (let r = 0; r < runs; r++) {
  for (const c of cases) {
    const t = performance.now();
    await app.library.search(c.query, { limit: 10 });
    searchMs.get(c.kind)!.push(performance.now() - t);
  }
}
const suggestMs = timeAutocomplete((p) => app.library.suggest(p, 25), runs * 3);
const papers = app.library.size;
// Broad queries on the library as it is (its own counts, if any), and what standing costs search.
const broadLines: string[] = [];
if (existsSync(broadFile)) {
  out('Measuring broad queries, and search with standing against words alone (A/B in turns)…');
  const broad = await scoreBroad(readBroadCases(broadFile), (q) => app.library.search(q, { limit: 20 }), { out: () => {} });
  broadLines.push(`Broad queries (${broadFile}), the library's counts: ${broadLine('', broad).trim()}`);
  broadLines.push(...(await benchStandingAB(app.store, { evalFile, broadFile, passes: runs })));
} else broadLines.push(`Broad queries: skipped (no ${broadFile}; BENCH_BROAD names the file)`);
out('Measuring the Discord and Slack adapters on loopback (Slack also with 100 workspaces, 20 s), and digest run-due…');
const discord = await benchDiscord(app);
const slackLines = [...(await benchSlack(app)), ...(await benchSlackWorkspaces(app))];
const digestLines = [...(await benchDigest(app)), ...(await benchLibraryDigest(app))];
out('Measuring the search site on loopback…');
const webLines = await benchWeb(app, cases.map((c) => c.query));
out('Measuring recommendations (profiles of 50 papers)…');
const recommendLines = await benchRecommend(app);
out('Measuring related work for 3,000-character abstracts…');
const relatedLines = await benchRelated(app);
// It writes reading lists into the library: only into the run's own DATA_DIR.
const libraryLines = ownDir ? await benchLibraryCommands(app) : ['/library commands: skipped (--data-dir is not the run’s own: the lists would be written into it)'];
// Without a works file, one is drawn for the library (bench/works.ts, seed 1), the broad file's
// targets its seminal papers: the counts the broad queries are then scored with (below).
const givenWorks = values.works ?? process.env.BENCH_WORKS;
const worksFile = givenWorks === undefined ? join(mkdtempSync(join(tmpdir(), 'paperscout-bench-works-')), 'works.jsonl.gz') : resolve(givenWorks);
const seminal = new Set((existsSync(broadFile) ? readSeminalTitles(broadFile) : []).map((t) => normalizeTitle(decodeLatex(t))));
const drawnWorks = givenWorks === undefined ? await writeLibraryWorks(app.store, { seed: 1, seminal, out: worksFile }) : undefined;
await app.close();
out('Measuring an opened paper with its citation lists (on a copy of the library given counts and references)…');
const openedLines = await benchOpenedPaper(dataDir);
const postgresLines = values['skip-postgres']
  ? ['PostgreSQL: skipped (--skip-postgres)']
  : await benchPostgres({
      cli,
      corpus,
      sqlite: { importSeconds: sqliteImport === undefined ? [] : [sqliteImport], paperMs: discord.paperMs },
      ingestRuns: Math.max(sqliteImport === undefined ? 2 : 1, Number(values['pg-ingest-runs']) || 1),
      out,
    });
out('Measuring the sources: an arXiv OAI-PMH harvest and an OpenReview venue on loopback…');
const sourceLines = await benchSources();
out('Measuring reading lists at issue 30’s scale (10,000 members × 100 papers, 1,000 channels × 500 links) and exports of 1,000 papers…');
const listLines = [...libraryLines, '', ...(await benchReadingListStores(ISSUE_SCALE, { postgres: !values['skip-postgres'] })), '', ...benchExport()];
out('Measuring 👍/👎 at issue 41’s scale (10,000 members × 50 ratings and 5 follows, some at the 10,000-rating limit)…');
listLines.push('', ...(await benchRatingStores(RATING_SCALE, { postgres: !values['skip-postgres'] })));
out(`Measuring citations: the store at ${papers.toLocaleString('en-US')} papers, then a works file's ingest and a sync against a loopback OpenAlex…`);
const citationLines = await benchCitationStores({ papers, samples: 2000, postgres: !values['skip-postgres'] });
if (drawnWorks) citationLines.push(`works file drawn for the library (bench/works.ts, seed 1): ${drawnWorks}`);
citationLines.push(...(await benchWorksIngest({ cli, dataDir, works: worksFile, runs })));
citationLines.push(...(await benchOpenAlexSync({ dataDir, works: await readWorks(worksFile) })));
if (existsSync(broadFile)) {
  // The broad queries again, on a copy given the works file's counts by paperscout ingest (eval.ts).
  const scored = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench/eval.ts'), '--broad', broadFile, '--works', worksFile], { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8', maxBuffer: 1 << 26 });
  const line = scored.stdout.split('\n').find((l) => l.startsWith('broad'));
  broadLines.push(`Broad queries with the works file's counts: ${line ? line.replace(/^broad\s+/, '') : `failed: ${scored.stderr.slice(0, 300)}`}  goal (held-out) MRR ≥ 0.85, hit@5 ≥ 0.92; without counts MRR ≥ 0.45`);
}
if (givenWorks === undefined) rmSync(dirname(worksFile), { recursive: true, force: true });

// ── Raw MiniSearch, same fields, same queries ─────────────────────────────────────────────
interface MiniBuild {
  docs: number;
  indexMs: number;
  snapshotBytes: number;
}
interface MiniQuery {
  loadMs: number;
  heap: number;
  times: Array<{ kind: string; ms: number }>;
}
let mini: { build: MiniBuild; query: MiniQuery } | undefined;
if (!values['skip-minisearch']) {
  out('Measuring raw MiniSearch (this takes a few minutes: fuzzy full-title queries are slow)…');
  const snapshot = join(dataDir, 'minisearch.json');
  const queriesFile = join(dataDir, 'minisearch-queries.json');
  writeFileSync(queriesFile, JSON.stringify(cases));
  const tsx = ['--import', 'tsx', join(root, 'bench/minisearch.ts')];
  const build = spawnSync(process.execPath, ['--max-old-space-size=8192', ...tsx, 'build', dataDir, snapshot], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const query = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', ...tsx, 'query', snapshot, queriesFile], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (build.status === 0 && query.status === 0) mini = { build: JSON.parse(build.stdout) as MiniBuild, query: JSON.parse(query.stdout) as MiniQuery };
  else out(`MiniSearch baseline failed: ${build.stderr || query.stderr}`);
}

// ── Report ────────────────────────────────────────────────────────────────────────────────
const pad = (s: string, n: number) => s.padEnd(n);
const row = (name: string, ours: string, theirs = "", goal = "") => out(`${pad(name, 28)}${pad(ours, 58)}${pad(theirs, 34)}${goal}`);
out();
out(`Corpus: ${corpus} → ${papers.toLocaleString('en-US')} papers; queries: ${evalFile} + ${KEYWORD_QUERIES.length} keyword queries; ${runs} timed passes`);
out();
row('', 'Paper Scout', 'raw MiniSearch', 'goal');
row('ingest, whole corpus', ingestLine, mini ? `${(mini.build.indexMs / 1000).toFixed(1)} s (indexing only)` : '', '≤ 45 s');
row('cold start → first answer', `${fmtMs(median(cold))} median (${cold.map((c) => Math.round(c)).join(', ')})`, mini ? `${fmtMs(mini.query.loadMs)} loadJSON alone` : '', '≤ 1.5 s');
row(
  'memory after load',
  heapMatch ? `heap ${heapMatch[1]} MB (+${heapMatch[2]} MB arrays), RSS ${heapMatch[3]} MB` : mem.stdout.trim(),
  mini ? `heap ${fmtMb(mini.query.heap)} (${fmtMb(mini.build.snapshotBytes)} JSON)` : '',
  'heap ≤ 300 MB',
);
out();
row('search p50 / p99 by kind', '', '', '≤ 15 ms p99');
for (const kind of kinds) {
  const ms = searchMs.get(kind)!;
  const theirs = mini?.query.times.filter((t) => t.kind === kind).map((t) => t.ms) ?? [];
  row(`  ${kind}`, `${fmtMs(percentile(ms, 0.5))} / ${fmtMs(percentile(ms, 0.99))}`, theirs.length ? `${fmtMs(percentile(theirs, 0.5))} / ${fmtMs(percentile(theirs, 0.99))}` : '');
}
const all = [...searchMs.values()].flat();
const allTheirs = mini?.query.times.map((t) => t.ms) ?? [];
row('  all queries', `${fmtMs(percentile(all, 0.5))} / ${fmtMs(percentile(all, 0.99))}`, allTheirs.length ? `${fmtMs(percentile(allTheirs, 0.5))} / ${fmtMs(percentile(allTheirs, 0.99))}` : '');
row('autocomplete p50 / p99', `${fmtMs(percentile(suggestMs, 0.5))} / ${fmtMs(percentile(suggestMs, 0.99))}`, '', '≤ 5 ms p99');

out();
for (const line of [...broadLines, '', ...startLines, '', ...discord.lines, '', ...slackLines, '', ...digestLines, '', ...webLines, '', ...openedLines, '', ...recommendLines, '', ...relatedLines, '', ...sourceLines, '', ...postgresLines, '', ...listLines, '', ...citationLines]) out(line);

if (ownDir) rmSync(dataDir, { recursive: true, force: true });
