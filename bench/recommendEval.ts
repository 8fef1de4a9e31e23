/**
 * `npm run eval -- --recommend <file.jsonl> [--held-out] [--tune '<json>']…`: how well
 * recommendations find what a profile should surface, by kind. Each line of the file is
 *   { kind, year, like: [seed titles], targets: [titles of that year's papers] }
 * Seed titles map to ids by exact-title search; each profile is asked
 * `recommend --like <ids> --where "year:<year>" --limit 20`. Prints recall@20 (over
 * min(20, targets)) and MRR of the first target per kind, with the time a profile takes.
 *
 * `--held-out` also builds profiles of the same two kinds from the library itself, for other
 * years than the file's (nothing of them is written down): `lab`, an author's papers of the
 * three years before as seeds and theirs of the year as targets; `keyword`, papers of the two
 * years before sharing an author keyword, by authors who share none of them, as seeds and the
 * year's papers with that keyword as targets.
 * `--tune` overrides the recommender's constants (recommend/tuning.ts), one run per value.
 * `--anchor` ranks each profile by arxiv-sanity-lite's method too (anchor/arxivSanity.ts: tf-idf
 * and a linear SVM per profile, over the same papers) and prints the two side by side.
 * `--feedback` measures relevance feedback the standard way (residual ranking), as
 * `recommend --stdin --json` takes it: round 1 is the seeds, `year:<year>`, 40 hits; the member
 * 👍 the targets among the first 20 and 👎 the rest; round 2 likes the seeds and the 👍, unlikes
 * the 👎, excludes round 1's first 20, 20 hits. Its targets are counted against round 1's hits
 * 21–40 (the member paging on without feedback), by kind, with any paper of round 1 shown again.
 */
import { readFileSync } from 'node:fs';
import type { App } from '../src/app.js';
import { decodeLatex } from '../src/papers/latex.js';
import { DEFAULT_TUNING, type RecommendTuning } from '../src/recommend/tuning.js';
import { normalizeTitle } from '../src/text.js';
import { ArxivSanityAnchor } from './anchor/arxivSanity.js';
import { heldOutProfiles } from './heldOut.js';
import { percentile } from './stats.js';

/** A profile to evaluate, seeds already as ids. */
export interface EvalProfile {
  kind: string;
  year: number;
  seeds: string[];
  /** Normalized titles. */
  targets: Set<string>;
}

interface FileProfile {
  kind: string;
  year: number;
  like: string[];
  targets: string[];
}

const TOP = 20;

export async function runRecommendEval(app: App, file: string, options: { heldOut: boolean; tunes: string[]; anchor: boolean; feedback?: boolean }): Promise<void> {
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as FileProfile);
  const dev: EvalProfile[] = [];
  let unmapped = 0;
  for (const row of rows) {
    const seeds: string[] = [];
    for (const title of row.like) {
      const id = await idByTitle(app, title);
      if (id) seeds.push(id);
      else unmapped++;
    }
    dev.push({ kind: row.kind, year: row.year, seeds, targets: new Set(row.targets.map((t) => normalizeTitle(decodeLatex(t)))) });
  }
  const sets: Array<[string, EvalProfile[]]> = [[file, dev]];
  if (options.heldOut) {
    const devYears = new Set(rows.map((r) => r.year));
    sets.push(['held-out (built from the library)', await heldOutProfiles(app.store, devYears)]);
  }
  const tunings: Array<[string, RecommendTuning]> = options.tunes.length === 0 ? [['default', DEFAULT_TUNING]] : options.tunes.map((t) => [t, { ...DEFAULT_TUNING, ...(JSON.parse(t) as Partial<RecommendTuning>) }]);
  process.stdout.write(`Recommendations over ${app.library.size.toLocaleString('en-US')} papers${unmapped > 0 ? ` (${unmapped} seed titles not found)` : ''}\n`);
  const anchor = options.anchor ? await anchorScores(app, sets) : undefined;
  for (const [name, tuning] of tunings) {
    if (tunings.length > 1) process.stdout.write(`tuning ${name}\n`);
    for (const [label, profiles] of sets) {
      if (options.feedback) {
        process.stdout.write(`${label}, relevance feedback (round 2 against hits 21–40 of round 1)\n${(await feedbackTable(app, profiles, tuning)).join('\n')}\n`);
        continue;
      }
      const ours = await score(profiles, async (p) => {
        const result = await app.library.recommend(p.seeds, { where: `year:${p.year}`, limit: TOP, tuning });
        return result.ok ? result.hits.map((h) => h.title) : [];
      });
      process.stdout.write(`${label}\n${table(ours, anchor?.get(label)).join('\n')}\n`);
    }
  }
}

/**
 * arxiv-sanity-lite's figures for each set of profiles, by kind: its tf-idf fitted on the whole
 * library, then one SVM per profile (anchor/arxivSanity.ts). Says on stderr how long it took.
 */
async function anchorScores(app: App, sets: Array<[string, EvalProfile[]]>): Promise<Map<string, Map<string, KindStats>>> {
  const started = performance.now();
  const anchor = await ArxivSanityAnchor.build(app.store.rowsForIndex());
  const { rows, vocabulary } = anchor.features;
  process.stdout.write(`arxiv-sanity-lite: tf-idf of ${rows.toLocaleString('en-US')} papers, ${vocabulary.length.toLocaleString('en-US')} features, in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const scores = new Map<string, Map<string, KindStats>>();
  for (const [label, profiles] of sets) {
    const began = performance.now();
    let unconverged = 0;
    const rank = async (p: EvalProfile) => {
      const answer = anchor.recommend(p.seeds, p.year, TOP);
      if (!answer.converged) unconverged++;
      return answer.titles;
    };
    // No warm-up: an SVM's training takes seconds, not a JIT's milliseconds.
    scores.set(label, await score(profiles, rank, { warmUp: false }));
    const stopped = unconverged > 0 ? `, ${unconverged} SVMs stopped at max_iter` : '';
    process.stderr.write(`arxiv-sanity-lite: ${profiles.length} profiles of ${label} in ${((performance.now() - began) / 1000).toFixed(0)} s${stopped}\n`);
  }
  return scores;
}

interface KindStats {
  n: number;
  recall: number;
  rr: number;
  ms: number[];
}

/** Recall@20 and reciprocal rank summed by kind, with each profile's time, for a ranker giving titles best first. */
async function score(profiles: EvalProfile[], rank: (p: EvalProfile) => Promise<string[]>, options: { warmUp: boolean } = { warmUp: true }): Promise<Map<string, KindStats>> {
  const stats = new Map<string, KindStats>();
  // One warm-up pass: the timings are of a running bot, not of a cold JIT.
  if (options.warmUp) for (const p of profiles.slice(0, 20)) await rank(p);
  for (const p of profiles) {
    const s = stats.get(p.kind) ?? { n: 0, recall: 0, rr: 0, ms: [] };
    stats.set(p.kind, s);
    const started = performance.now();
    const titles = await rank(p);
    s.ms.push(performance.now() - started);
    s.n++;
    const found = titles.map((title) => p.targets.has(normalizeTitle(title)));
    s.recall += found.filter(Boolean).length / Math.min(TOP, p.targets.size);
    const first = found.indexOf(true);
    if (first >= 0) s.rr += 1 / (first + 1);
  }
  return stats;
}

/** One line per kind: Paper Scout's figures, and the anchor's beside them when there are. */
function table(ours: Map<string, KindStats>, anchor: Map<string, KindStats> | undefined): string[] {
  const cell = (s: KindStats) => `recall@20 ${(s.recall / s.n).toFixed(3)}  MRR ${(s.rr / s.n).toFixed(3)}  p50 ${percentile(s.ms, 0.5).toFixed(1)} ms  p99 ${percentile(s.ms, 0.99).toFixed(1)} ms`;
  const lines = anchor ? [`  ${''.padEnd(15)}${'Paper Scout'.padEnd(66)}arxiv-sanity-lite (tf-idf + LinearSVC)`] : [];
  for (const [kind, s] of ours) {
    const theirs = anchor?.get(kind);
    lines.push(`  ${kind.padEnd(8)} n=${String(s.n).padEnd(4)} ${theirs ? cell(s).padEnd(66) + cell(theirs) : cell(s)}`);
  }
  return lines;
}

/** Relevance feedback by kind (see the module's comment): one line per kind. */
async function feedbackTable(app: App, profiles: EvalProfile[], tuning: RecommendTuning): Promise<string[]> {
  const byKind = new Map<string, { n: number; round2: number; paging: number; shownAgain: number; ms: number[] }>();
  for (const p of profiles) {
    const s = byKind.get(p.kind) ?? { n: 0, round2: 0, paging: 0, shownAgain: 0, ms: [] };
    byKind.set(p.kind, s);
    const where = `year:${p.year}`;
    const first = await app.library.recommend(p.seeds, { where, limit: 2 * TOP, tuning });
    if (!first.ok) continue;
    const isTarget = (title: string) => p.targets.has(normalizeTitle(title));
    const shown = first.hits.slice(0, TOP);
    const liked = shown.filter((h) => isTarget(h.title)).map((h) => h.id);
    const disliked = shown.filter((h) => !isTarget(h.title)).map((h) => h.id);
    const started = performance.now();
    const second = await app.library.recommend([...p.seeds, ...liked], { unlike: disliked, exclude: shown.map((h) => h.id), where, limit: TOP, tuning });
    s.ms.push(performance.now() - started);
    if (!second.ok) continue;
    s.n++;
    s.paging += first.hits.slice(TOP).filter((h) => isTarget(h.title)).length;
    s.round2 += second.hits.filter((h) => isTarget(h.title)).length;
    const before = new Set(first.hits.slice(0, TOP).map((h) => h.id));
    s.shownAgain += second.hits.filter((h) => before.has(h.id)).length;
  }
  return [...byKind].map(
    ([kind, s]) =>
      `  ${kind.padEnd(8)} n=${String(s.n).padEnd(4)} targets in round 2 ${String(s.round2).padStart(4)}  in hits 21–40 ${String(s.paging).padStart(4)}  ratio ${(s.round2 / Math.max(1, s.paging)).toFixed(2)}×  shown again ${s.shownAgain}  p50 ${percentile(s.ms, 0.5).toFixed(1)} ms`,
  );
}

/** The id of the paper with exactly this title (as the corpus writes it), by a search for it. */
async function idByTitle(app: App, title: string): Promise<string | undefined> {
  const want = normalizeTitle(decodeLatex(title));
  const result = await app.library.search(title, { limit: 5 });
  return result.hits.find((h) => normalizeTitle(h.title) === want)?.id;
}
