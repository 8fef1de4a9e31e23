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
import { parseArgs } from 'node:util';
import { openApp, loadTopics } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { buildSegment } from '../src/search/index/build.js';
import { IndexView } from '../src/search/index/view.js';
import { openSnapshot } from '../src/search/index/format.js';
import { writeSegmentFile } from '../src/search/index/writer.js';
import { SearchEngine } from '../src/search/engine.js';
import type { IndexRow } from '../src/store/papers.js';
import { KEYWORD_QUERIES } from './queries.js';
import { percentile } from './stats.js';
import { countOf, readWorkCounts } from './worksCounts.js';
import { readBroadCases } from './broadEval.js';

const { values } = parseArgs({
  options: {
    works: { type: 'string' },
    eval: { type: 'string', default: '../shared/eval/relevance-dev.jsonl' },
    broad: { type: 'string', default: '../shared/eval/broad-dev.jsonl' },
    passes: { type: 'string', default: '5' },
  },
});
const app = await openApp(loadConfig(), createLogger({ logLevel: 'warn', logFormat: 'auto' }), { demoWhenEmpty: false });
const dir = mkdtempSync(join(tmpdir(), 'standing-ab-'));
try {
  const counts = values.works === undefined ? undefined : await readWorkCounts(values.works);
  const rows: IndexRow[] = [];
  for await (const row of app.store.rowsForIndex()) rows.push({ ...row, citedBy: counts ? countOf(row, counts) : null });
  const { taxonomy, taxonomyHash } = loadTopics();
  // Written to a file and mapped, as a library's base segment is.
  const file = join(dir, 'index.bin');
  writeSegmentFile(file, buildSegment(rows, { generation: await app.store.generation(), taxonomyHash, topicIds: taxonomy.topics.map((t) => t.id) }));
  rows.length = 0;
  const view = new IndexView(openSnapshot(file).segment);
  const deps = { resolveTopic: () => ({ error: { key: 'search.noTopic' } }) as never, lookupAbstracts: async () => new Map<number, string>() };
  const engines = [new SearchEngine(view, deps, { standing: false }), new SearchEngine(view, deps)];
  const cases = [
    ...readFileSync(values.eval, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { kind: string; query: string }),
    ...KEYWORD_QUERIES.map((query) => ({ kind: 'keywords', query })),
    ...readBroadCases(values.broad).map((c) => ({ kind: 'broad', query: c.query })),
  ];
  for (const c of cases) for (const engine of engines) await engine.search(c.query, { limit: 10 });
  const ms = [new Map<string, number[]>(), new Map<string, number[]>()];
  const passes = Math.max(1, Number(values.passes) || 5);
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
  process.stdout.write(`Search p50 / p99 over ${view.liveCount.toLocaleString('en-US')} papers${counts ? ` with counts from ${values.works}` : ', no counts'}, ${passes} passes\n`);
  process.stdout.write(`${'kind'.padEnd(16)}${'A: words'.padEnd(22)}B: standing\n`);
  for (const kind of ms[0]!.keys()) process.stdout.write(`${kind.padEnd(16)}${cell(ms[0]!.get(kind)!).padEnd(22)}${cell(ms[1]!.get(kind)!)}\n`);
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
