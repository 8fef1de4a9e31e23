/**
 * `npm run eval -- <file.jsonl> [--verbose] [--compounds N] [--seed S]`: relevance of the library
 * in DATA_DIR (ingest the corpus first) on a file of queries, one JSON object a line:
 *   { kind, query, title }  the paper with `title` should be found (exact/name: first; else top 10)
 *   { kind: 'author', query, author }  the share of the top 10 that list `author`
 * and on N (default 80) `rare_compounds` queries generated from the library with seed S
 * (default 1; see compounds.ts). Prints hit@1, hit@10 and MRR per kind (the share for author),
 * with search latency.
 *
 * `npm run eval -- --broad <file.jsonl> [--works <works.jsonl.gz> | --without-counts]`: broad
 * queries, MRR of the first seminal paper in the top 20 and hit@5 (broadEval.ts); with --works on
 * a copy of the library that `paperscout ingest` gave the works file's counts.
 *
 * `npm run eval -- --recommend <file.jsonl> [--held-out] [--anchor] [--feedback]`: recommendations
 * instead, beside arxiv-sanity-lite's with `--anchor`, and with `--feedback` a round of 👍/👎 on
 * the first 20 against paging on without it (see recommendEval.ts).
 *
 * `npm run eval -- --meaning <file.jsonl> [--verbose]`: descriptions of papers instead (English
 * and Chinese), MRR@20 and hit@10 per kind and per half of the file (see meaningEval.ts).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { decodeLatex } from '../src/papers/latex.js';
import { normalizeTitle } from '../src/text.js';
import { percentile } from './stats.js';
import { rareCompoundCases } from './compounds.js';
import { runRecommendEval } from './recommendEval.js';
import { broadLine, readBroadCases, scoreBroad } from './broadEval.js';
import { libraryWithCounts } from './worksCounts.js';
import { formatMeaning, MEANING_MRR_DEPTH, readMeaningCases, scoreMeaning } from './meaningEval.js';

interface EvalCase {
  kind: string;
  query: string;
  title?: string;
  author?: string;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    verbose: { type: 'boolean', short: 'v', default: false },
    compounds: { type: 'string', default: '80' },
    seed: { type: 'string', default: '1' },
    recommend: { type: 'string' },
    broad: { type: 'string' },
    works: { type: 'string' },
    'without-counts': { type: 'boolean', default: false },
    meaning: { type: 'string' },
    'held-out': { type: 'boolean', default: false },
    anchor: { type: 'boolean', default: false },
    feedback: { type: 'boolean', default: false },
    tune: { type: 'string', multiple: true, default: [] },
  },
});
const given = loadConfig();
// With --works, a copy of the library gets the file's counts the way an operator's does
// (`paperscout ingest <works file>`), and is scored instead.
const copy = values.works === undefined ? undefined : withWorks(given.dataDir, values.works);
if (copy) process.env.DATA_DIR = copy;
// (Paths derived from DATA_DIR are settled when the configuration is read.)
const config = copy ? loadConfig() : given;
const app = await openApp(config, createLogger({ logLevel: 'warn', logFormat: 'auto' }), { demoWhenEmpty: false });
if (app.library.size === 0) {
  process.stderr.write(`The library in ${given.dataDir} is empty: ingest the corpus first (npm run cli -- ingest ../shared/corpus/paperlists).\n`);
  process.exit(1);
}
process.on('exit', () => copy && rmSync(copy, { recursive: true, force: true }));
// BENCH-ONLY (worksCounts.ts): --without-counts scores an index built with no count at all.
const library = values['without-counts'] ? await libraryWithCounts(app, undefined) : app.library;
if (values.recommend !== undefined) {
  await runRecommendEval(app, values.recommend, { heldOut: values['held-out'], tunes: values.tune, anchor: values.anchor, feedback: values.feedback });
  await app.close();
  process.exit(0);
}
if (values.broad !== undefined) {
  const cases = readBroadCases(values.broad);
  const score = await scoreBroad(cases, (q) => library.search(q, { limit: 20 }), { verbose: values.verbose });
  process.stdout.write(`Broad queries over ${library.size.toLocaleString('en-US')} papers on ${values.broad}\n${broadLine('broad', score)}\n`);
  await app.close();
  process.exit(0);
}
if (values.meaning !== undefined) {
  const cases = readMeaningCases(values.meaning);
  const search = async (q: string) => (await app.library.search(q, { limit: MEANING_MRR_DEPTH })).hits.map((h) => h.title);
  // One warm-up pass so that the timings are of a running bot, not of a cold JIT.
  for (const c of cases) await search(c.query);
  const scores = await scoreMeaning(cases, search);
  process.stdout.write(`Meaning on ${app.library.size.toLocaleString('en-US')} papers, ${values.meaning}\n${formatMeaning(scores, cases, values.verbose)}`);
  await app.close();
  process.exit(0);
}
const file = positionals[0] ?? '../shared/eval/relevance-dev.jsonl';
const cases = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as EvalCase);
cases.push(...(await rareCompoundCases(app.store.rowsForIndex(), { count: Number(values.compounds), seed: Number(values.seed) })));

interface KindStats {
  n: number;
  hit1: number;
  hit10: number;
  rr: number;
  share: number;
  ms: number[];
}
const stats = new Map<string, KindStats>();
// One warm-up pass so that the timings are of a running bot, not of a cold JIT.
for (const c of cases) await library.search(c.query, { limit: 10 });
for (const c of cases) {
  const s = stats.get(c.kind) ?? { n: 0, hit1: 0, hit10: 0, rr: 0, share: 0, ms: [] };
  stats.set(c.kind, s);
  const started = performance.now();
  const result = await library.search(c.query, { limit: 10 });
  s.ms.push(performance.now() - started);
  s.n++;
  if (c.kind === 'author') {
    const want = normalizeTitle(decodeLatex(c.author ?? ''));
    const papers = await app.library.papersByDocs(result.hits.map((h) => h.storeDoc));
    const by = result.hits.filter((h) => papers.get(h.storeDoc)?.authors.some((a) => normalizeTitle(a) === want)).length;
    s.share += result.hits.length > 0 ? by / result.hits.length : 0;
    if (values.verbose && by < result.hits.length) process.stdout.write(`author ${by}/${result.hits.length}: ${c.query}\n`);
    continue;
  }
  // The library stores titles with their LaTeX decoded; the file has them as the corpus does.
  const want = normalizeTitle(decodeLatex(c.title ?? ''));
  const rank = result.hits.findIndex((h) => normalizeTitle(h.title) === want);
  if (rank === 0) s.hit1++;
  if (rank >= 0) {
    s.hit10++;
    s.rr += 1 / (rank + 1);
  }
  if (values.verbose && rank !== 0) process.stdout.write(`${c.kind} rank ${rank < 0 ? '-' : rank + 1}: ${c.query}  →  ${c.title}\n`);
}

const rows = [...stats].map(([kind, s]) => {
  const quality = kind === 'author' ? `share ${(s.share / s.n).toFixed(3)}` : `hit@1 ${(s.hit1 / s.n).toFixed(2)}  hit@10 ${(s.hit10 / s.n).toFixed(2)}  MRR ${(s.rr / s.n).toFixed(3)}`;
  return `${kind.padEnd(13)} n=${String(s.n).padEnd(4)} ${quality.padEnd(40)} p50 ${percentile(s.ms, 0.5).toFixed(2)} ms  p99 ${percentile(s.ms, 0.99).toFixed(2)} ms`;
});
process.stdout.write(`Relevance of ${library.size.toLocaleString('en-US')} papers on ${file}\n${rows.join('\n')}\n`);
await app.close();

/** A copy of the library in `dataDir` given the counts of a works file through `paperscout ingest`. */
function withWorks(dataDir: string, works: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'paperscout-eval-'));
  cpSync(dataDir, copy, { recursive: true });
  const cli = fileURLToPath(new URL('../adapters/cli/cli.ts', import.meta.url));
  process.stderr.write(`Giving a copy of the library the counts of ${works} (paperscout ingest)…\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', cli, 'ingest', works], { env: { ...process.env, DATA_DIR: copy, LANG: 'en' }, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) {
    rmSync(copy, { recursive: true, force: true });
    process.stderr.write(`paperscout ingest ${works} failed (exit ${run.status}):\n${run.stderr}`);
    process.exit(1);
  }
  process.stderr.write(run.stdout.split('\n').filter((line) => /works|matched/i.test(line)).join('\n') + '\n');
  return copy;
}
