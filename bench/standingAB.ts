/**
 * `npx tsx bench/standingAB.ts [--works <works.jsonl[.gz]>] [--broad <file>] [--passes N]`:
 * what standing costs search, as an A/B in one process over one index (DATA_DIR's library,
 * built into a temporary file and mapped, with the counts of a works file when given:
 * BENCH-ONLY, see worksCounts.ts): engine A ranks by words alone (`standing: false`), engine B lets standing
 * weigh in on broad queries, and each query is asked of both, alternating which goes first, so
 * that a noisy machine slows both alike. Queries: the relevance file's, the keyword queries of
 * `npm run bench`, and the broad file's. Prints p50 and p99 per kind and over all queries.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openApp, loadTopics } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { buildSegment } from '../src/search/index/build.js';
import { IndexView } from '../src/search/index/view.js';
import { openSnapshot } from '../src/search/index/format.js';
import { writeSegmentFile } from '../src/search/index/writer.js';
import { SearchEngine } from '../src/search/engine.js';
import type { IndexRow, PaperStore } from '../src/store/papers.js';
import { KEYWORD_QUERIES } from './queries.js';
import { percentile } from './stats.js';
import { countOf, readWorkCounts, type WorkCounts } from './worksCounts.js';
import { readBroadCases } from './broadEval.js';

/** What {@link benchStandingAB} times. */
export interface StandingABOptions {
  /** Relevance queries by kind (`{ kind, query }` a line). */
  evalFile: string;
  /** Broad queries (`{ query, targets }` a line). */
  broadFile: string;
  /** Counts for the index (BENCH-ONLY), or none. */
  counts?: WorkCounts;
  passes?: number;
}

/**
 * Times search with and without standing over one index of `store`'s papers (see the module's
 * comment); returns the table's lines. `npm run bench` prints them.
 */
export async function benchStandingAB(store: PaperStore, options: StandingABOptions): Promise<string[]> {
  const { counts } = options;
  const dir = mkdtempSync(join(tmpdir(), 'standing-ab-'));
  try {
    const rows: IndexRow[] = [];
    for await (const row of store.rowsForIndex()) rows.push(counts ? { ...row, citedBy: countOf(row, counts) } : row);
    const { taxonomy, taxonomyHash } = loadTopics();
    // Written to a file and mapped, as a library's base segment is.
    const file = join(dir, 'index.bin');
    writeSegmentFile(file, buildSegment(rows, { generation: await store.generation(), taxonomyHash, topicIds: taxonomy.topics.map((t) => t.id) }));
    rows.length = 0;
    const deps = { resolveTopic: () => ({ error: { key: 'search.noTopic' } }) as never, lookupAbstracts: async () => new Map<number, string>() };
    const broadQueries = readBroadCases(options.broadFile).map((c) => c.query);
    const first = await firstBroadQuery(file, broadQueries, deps, Math.max(1, options.passes ?? 5));
    const view = new IndexView(openSnapshot(file).segment);
    const engines = [new SearchEngine(view, deps, { standing: false }), new SearchEngine(view, deps)];
    const cases = [
      ...readFileSync(options.evalFile, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as { kind: string; query: string }),
      ...KEYWORD_QUERIES.map((query) => ({ kind: 'keywords', query })),
      ...readBroadCases(options.broadFile).map((c) => ({ kind: 'broad', query: c.query })),
    ];
    for (const c of cases) for (const engine of engines) await engine.search(c.query, { limit: 10 });
    const ms = [new Map<string, number[]>(), new Map<string, number[]>()];
    const passes = Math.max(1, options.passes ?? 5);
    for (let pass = 0; pass < passes; pass++) {
      for (const [i, c] of cases.entries()) {
        for (const e of (i + pass) % 2 === 0 ? [0, 1] : [1, 0]) {
          const started = performance.now();
          await engines[e]!.search(c.query, { limit: 10 });
          const took = performance.now() - started;
          for (const kind of [c.kind, 'all']) {
            const list = ms[e]!.get(kind) ?? [];
            list.push(took);
            ms[e]!.set(kind, list);
          }
        }
      }
    }
    const cell = (list: number[]) => `${percentile(list, 0.5).toFixed(2)} / ${percentile(list, 0.99).toFixed(2)} ms`;
    const ratio = (kind: string, q: number) => percentile(ms[1]!.get(kind)!, q) / percentile(ms[0]!.get(kind)!, q);
    const lines = [
      first,
      `Search p50 / p99 over ${view.liveCount.toLocaleString('en-US')} papers${counts ? ' with counts' : ', no counts'}, A/B in turns, ${passes} passes`,
      `${'kind'.padEnd(16)}${'A: words'.padEnd(22)}${'B: standing'.padEnd(22)}B/A p50, p99`,
    ];
    for (const kind of ms[0]!.keys()) lines.push(`${kind.padEnd(16)}${cell(ms[0]!.get(kind)!).padEnd(22)}${cell(ms[1]!.get(kind)!).padEnd(22)}${ratio(kind, 0.5).toFixed(2)}, ${ratio(kind, 0.99).toFixed(2)}`);
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A process's first broad query, which the library's own signals (librarySignals.ts) are
 * computed for: the snapshot at `file` opened afresh `passes` times, the first broad query timed
 * after each open and the next one after it; medians.
 */
async function firstBroadQuery(file: string, queries: readonly string[], deps: ConstructorParameters<typeof SearchEngine>[1], passes: number): Promise<string> {
  const [q1, q2] = queries;
  if (q1 === undefined || q2 === undefined) return 'First broad query after open: skipped (fewer than two broad queries)';
  const firsts: number[] = [];
  const seconds: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    const engine = new SearchEngine(new IndexView(openSnapshot(file).segment), deps);
    let started = performance.now();
    await engine.search(q1, { limit: 10 });
    firsts.push(performance.now() - started);
    started = performance.now();
    await engine.search(q2, { limit: 10 });
    seconds.push(performance.now() - started);
  }
  return `First broad query after open ("${q1}"): ${percentile(firsts, 0.5).toFixed(1)} ms, the next ("${q2}") ${percentile(seconds, 0.5).toFixed(1)} ms (medians of ${passes} opens)`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      works: { type: 'string' },
      eval: { type: 'string', default: '../shared/eval/relevance-dev.jsonl' },
      broad: { type: 'string', default: '../shared/eval/broad-dev.jsonl' },
      passes: { type: 'string', default: '5' },
    },
  });
  const app = await openApp(loadConfig(), createLogger({ logLevel: 'warn', logFormat: 'auto' }), { demoWhenEmpty: false });
  try {
    const counts = values.works === undefined ? undefined : await readWorkCounts(values.works);
    const lines = await benchStandingAB(app.store, { evalFile: values.eval, broadFile: values.broad, counts, passes: Number(values.passes) || 5 });
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
  }
}
