/**
 * Topic classifier benchmark over the paperlists corpus (../shared/corpus/paperlists).
 * Prints coverage, per-area and per-topic counts, and classification time.
 *
 *   npx tsx bench/topics.ts                      # figures
 *   npx tsx bench/topics.ts --sample 10 deep-learning/large-language-models theory/learning-theory
 *                                                # plus 10 random titles per listed topic (for a human to judge)
 *   npx tsx bench/topics.ts --unassigned 20      # plus 20 random titles that got no topic
 *
 * The corpus is third-party: this script only reads it; never paste its output into the repo.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTopicScorer, type ClassifiablePaper, type TopicScore } from '../src/topics/classify.js';
import { loadTaxonomy } from '../src/topics/taxonomy.js';

const CORPUS = fileURLToPath(new URL('../../shared/corpus/paperlists', import.meta.url));

interface Row extends ClassifiablePaper {
  venue: string;
}

function readCorpus(dir: string): Row[] {
  const rows: Row[] = [];
  for (const venue of readdirSync(dir).sort()) {
    const vdir = join(dir, venue);
    for (const file of readdirSync(vdir).sort()) {
      if (!file.endsWith('.json')) continue;
      const records = JSON.parse(readFileSync(join(vdir, file), 'utf8')) as Array<Record<string, unknown>>;
      for (const r of records) {
        const str = (v: unknown): string => (typeof v === 'string' ? v : '');
        rows.push({
          venue,
          title: str(r.title),
          abstract: str(r.abstract),
          keywords: str(r.keywords).split(';').map((k) => k.trim()).filter(Boolean),
          labels: str(r.primary_area) ? [str(r.primary_area)] : [],
        });
      }
    }
  }
  return rows;
}

/** Small deterministic PRNG so samples are repeatable. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sample<T>(items: T[], k: number, rand: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, k);
}

const pct = (a: number, b: number): string => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);

function main(): void {
  const args = process.argv.slice(2);
  const sampleAt = args.indexOf('--sample');
  const sampleN = sampleAt >= 0 ? Number(args[sampleAt + 1]) : 0;
  const sampleTopics = sampleAt >= 0 ? args.slice(sampleAt + 2).filter((a) => !a.startsWith('--')) : [];
  const unAt = args.indexOf('--unassigned');
  const unassignedN = unAt >= 0 ? Number(args[unAt + 1]) : 0;

  if (!existsSync(CORPUS)) {
    console.log(`bench/topics: corpus not found at ${CORPUS}; skipping (it is not part of the repo).`);
    return;
  }

  let t0 = performance.now();
  const rows = readCorpus(CORPUS);
  const loadMs = performance.now() - t0;

  t0 = performance.now();
  const taxonomy = loadTaxonomy();
  const score = createTopicScorer(taxonomy);
  const compileMs = performance.now() - t0;

  t0 = performance.now();
  const results: TopicScore[][] = rows.map((r) => score(r));
  const classifyMs = performance.now() - t0;
  t0 = performance.now();
  for (const r of rows) score(r);
  const secondMs = performance.now() - t0;

  const withAbstract = rows.map((_, i) => i).filter((i) => rows[i]!.abstract!.trim() !== '');
  const covered = (idx: number[]): number => idx.filter((i) => results[i]!.length > 0).length;
  const all = rows.map((_, i) => i);
  const fallbackOnly = results.filter((r) => r.length > 0 && r.every((s) => s.fallback)).length;

  console.log(`corpus: ${rows.length} papers (${withAbstract.length} with an abstract), read in ${loadMs.toFixed(0)} ms`);
  console.log(`taxonomy: ${taxonomy.topics.length} topics in ${taxonomy.areas.length} areas, compiled in ${compileMs.toFixed(1)} ms`);
  console.log(
    `classify: ${classifyMs.toFixed(0)} ms for all papers (${((1000 * classifyMs) / rows.length).toFixed(1)} µs/paper); second pass ${secondMs.toFixed(0)} ms`,
  );
  console.log(`coverage: ${pct(covered(all), rows.length)} of all papers, ${pct(covered(withAbstract), withAbstract.length)} of papers with an abstract`);
  console.log(`          ${pct(fallbackOnly, rows.length)} of papers got only a fallback ("Everything Else") topic`);
  const perPaper = [0, 0, 0, 0];
  for (const r of results) perPaper[Math.min(3, r.length)]!++;
  console.log(`topics per paper: ${perPaper.map((c, k) => `${k}${k === 3 ? '+' : ''}: ${pct(c, rows.length)}`).join(', ')}`);

  const byVenue = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const list = byVenue.get(r.venue) ?? [];
    list.push(i);
    byVenue.set(r.venue, list);
  });
  console.log('\ncoverage by venue (papers with an abstract):');
  for (const [venue, idx] of [...byVenue].sort()) {
    const abs = idx.filter((i) => rows[i]!.abstract!.trim() !== '');
    const idxs = abs.length > 0 ? abs : idx;
    console.log(`  ${venue.padEnd(14)} ${String(idxs.length).padStart(6)}  ${pct(covered(idxs), idxs.length).padStart(6)}${abs.length === 0 ? '  (no abstracts)' : ''}`);
  }

  const counts = new Map<string, { any: number; first: number; fallback: number }>();
  for (const r of results) {
    r.forEach((s, k) => {
      const c = counts.get(s.id) ?? { any: 0, first: 0, fallback: 0 };
      c.any++;
      if (k === 0) c.first++;
      if (s.fallback) c.fallback++;
      counts.set(s.id, c);
    });
  }
  console.log('\npapers per area (a paper counts once per area):');
  for (const area of taxonomy.areas) {
    const ids = new Set(area.topics.map((t) => t.id));
    const n = results.filter((r) => r.some((s) => ids.has(s.id))).length;
    console.log(`  ${area.name.padEnd(30)} ${String(n).padStart(6)}  ${pct(n, rows.length)}`);
  }
  console.log('\npapers per topic (any rank / first / of which by fallback):');
  for (const topic of taxonomy.topics) {
    const c = counts.get(topic.id) ?? { any: 0, first: 0, fallback: 0 };
    console.log(`  ${topic.label.padEnd(72)} ${String(c.any).padStart(6)} ${String(c.first).padStart(6)} ${String(c.fallback).padStart(6)}`);
  }

  const rand = mulberry32(20250101);
  for (const id of sampleTopics) {
    const idx = all.filter((i) => results[i]!.some((s) => s.id === id));
    console.log(`\n${id}: ${idx.length} papers; random ${Math.min(sampleN, idx.length)}:`);
    for (const i of sample(idx, sampleN, rand)) {
      const s = results[i]!.map((x) => `${x.id.split('/')[1]}:${x.score.toFixed(1)}${x.fallback ? '*' : ''}`).join(' ');
      console.log(`  [${rows[i]!.venue}] ${rows[i]!.title}  {${s}}`);
    }
  }
  if (unassignedN > 0) {
    const idx = withAbstract.filter((i) => results[i]!.length === 0);
    console.log(`\nno topic: ${idx.length} papers with an abstract; random ${Math.min(unassignedN, idx.length)}:`);
    for (const i of sample(idx, unassignedN, rand)) console.log(`  [${rows[i]!.venue}] ${rows[i]!.title}`);
  }
}

main();
