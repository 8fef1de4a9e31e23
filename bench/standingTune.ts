/**
 * `npx tsx bench/standingTune.ts [--works <works.jsonl[.gz]>] [--broad <file>] [--grid k=a,b,c ...]`:
 * the broad queries' MRR and hit@5 for each setting of the blend's weights (BLEND in
 * src/search/broad.ts) over one index of DATA_DIR's library (built in memory, with the counts
 * of a works file or none: BENCH-ONLY, see worksCounts.ts), and the split-half check: the
 * setting best on the even queries scored on the odd ones, and the other way round, so that
 * what is tuned is the kind of query, not the dev set's lines.
 */
import { parseArgs } from 'node:util';
import { openApp, loadTopics } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { buildSegment } from '../src/search/index/build.js';
import { IndexView } from '../src/search/index/view.js';
import { SearchEngine } from '../src/search/engine.js';
import { BLEND } from '../src/search/broad.js';
import { decodeLatex } from '../src/papers/latex.js';
import { normalizeTitle } from '../src/text.js';
import type { IndexRow } from '../src/store/papers.js';
import { countOf, readWorkCounts } from './worksCounts.js';
import { readBroadCases, scoreBroad, type BroadCase } from './broadEval.js';

const { values } = parseArgs({
  options: {
    works: { type: 'string' },
    broad: { type: 'string', default: '../shared/eval/broad-dev.jsonl' },
    grid: { type: 'string', multiple: true, default: [] },
    verbose: { type: 'boolean', default: false },
  },
});
const app = await openApp(loadConfig(), createLogger({ logLevel: 'warn', logFormat: 'auto' }), { demoWhenEmpty: false });
const counts = values.works === undefined ? undefined : await readWorkCounts(values.works);
const rows: IndexRow[] = [];
for await (const row of app.store.rowsForIndex()) rows.push({ ...row, citedBy: counts ? countOf(row, counts) : null });
const { taxonomy, taxonomyHash } = loadTopics();
const view = new IndexView(buildSegment(rows, { generation: await app.store.generation(), taxonomyHash, topicIds: taxonomy.topics.map((t) => t.id) }));
rows.length = 0;
const deps = { resolveTopic: () => ({ error: { key: 'search.noTopic' } }) as never, lookupAbstracts: async () => new Map<number, string>() };
const cases = readBroadCases(values.broad);
const halves = [cases.filter((_, i) => i % 2 === 0), cases.filter((_, i) => i % 2 === 1)];

// Every combination of the grid's values (k=a,b,c each), the defaults where none is given.
type Setting = Record<string, number>;
let settings: Setting[] = [{}];
for (const spec of values.grid) {
  const [key, list] = spec.split('=');
  if (!key || !list || !(key in BLEND)) throw new Error(`--grid ${spec}: expected one of ${Object.keys(BLEND).join(', ')}=a,b,c`);
  settings = settings.flatMap((s) => list.split(',').map((v) => ({ ...s, [key]: Number(v) })));
}
const defaults = { ...BLEND };
const silent = () => {};
// The seminal papers of each query: one in another query's top five is a famous paper that holds the words in passing.
const seminal = new Map<string, string>(cases.flatMap((c) => c.targets.map((t) => [normalizeTitle(decodeLatex(t)), c.query] as [string, string])));
let foreign = 0;
async function score(setting: Setting, set: readonly BroadCase[]) {
  Object.assign(BLEND, defaults, setting);
  const engine = new SearchEngine(view, deps);
  return scoreBroad(
    set,
    async (q) => {
      const result = await engine.search(q, { limit: 20 });
      for (const hit of result.hits.slice(0, 5)) {
        const of = seminal.get(normalizeTitle(hit.title));
        if (of !== undefined && of !== q) foreign++;
      }
      return result;
    },
    { out: values.verbose ? undefined : silent, verbose: values.verbose },
  );
}
const results: Array<{ setting: Setting; halves: Array<{ mrr: number; hit5: number }>; all: { mrr: number; hit5: number } }> = [];
for (const setting of settings) {
  foreign = 0;
  const h = [await score(setting, halves[0]!), await score(setting, halves[1]!)];
  const all = { mrr: (h[0]!.mrr * h[0]!.n + h[1]!.mrr * h[1]!.n) / cases.length, hit5: (h[0]!.hit5 * h[0]!.n + h[1]!.hit5 * h[1]!.n) / cases.length };
  results.push({ setting, halves: h, all });
  process.stdout.write(`${JSON.stringify(setting).padEnd(48)} MRR ${all.mrr.toFixed(3)} hit@5 ${all.hit5.toFixed(3)}  others' seminal in top 5: ${foreign / 2}   even ${h[0]!.mrr.toFixed(3)} odd ${h[1]!.mrr.toFixed(3)}\n`);
}
for (const [tuned, scored] of [[0, 1], [1, 0]] as const) {
  const best = results.reduce((a, b) => (b.halves[tuned]!.mrr > a.halves[tuned]!.mrr ? b : a));
  const name = ['even', 'odd'];
  process.stdout.write(`tuned on ${name[tuned]}: ${JSON.stringify(best.setting)} MRR ${best.halves[tuned]!.mrr.toFixed(3)} there, ${best.halves[scored]!.mrr.toFixed(3)} hit@5 ${best.halves[scored]!.hit5.toFixed(3)} on ${name[scored]}\n`);
}
Object.assign(BLEND, defaults);
await app.close();
