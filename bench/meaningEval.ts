/**
 * `npm run eval -- --meaning <file.jsonl> [--verbose]`: how well descriptions of a paper find it.
 * Each line of the file is `{ kind, query, title }`, `kind` being `meaning` (English) or
 * `meaning_zh` (Chinese): a researcher's description of the paper `title`, avoiding its
 * distinctive words. Score per kind: MRR of the paper in the top 20 (0 past 20) and hit@10,
 * over the whole file and over its two halves (lines of even and odd position within the kind),
 * so that what is tuned on one half is reported on the other. Prints search latency too.
 */
import { readFileSync } from 'node:fs';
import { decodeLatex } from '../src/papers/latex.js';
import { normalizeTitle } from '../src/text.js';
import { percentile } from './stats.js';

/** How deep a hit counts toward MRR. */
export const MEANING_MRR_DEPTH = 20;
/** The cut of hit@k. */
export const MEANING_HIT_DEPTH = 10;

export interface MeaningCase {
  kind: string;
  query: string;
  title: string;
}

/** The figures of one kind over some of its cases. */
export interface MeaningFigures {
  n: number;
  mrr: number;
  hit10: number;
}

export interface MeaningScore {
  kind: string;
  all: MeaningFigures;
  /** Cases of even position within the kind (0, 2, 4…) and of odd position. */
  halves: [MeaningFigures, MeaningFigures];
  /** Each case's 1-based rank in the top {@link MEANING_MRR_DEPTH}, or 0 when missing, in file order within the kind. */
  ranks: number[];
  ms: number[];
}

/** Reads a meaning file: one `{ kind, query, title }` object a line, blank lines skipped. */
export function readMeaningCases(file: string): MeaningCase[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, i) => {
      const c = JSON.parse(l) as Partial<MeaningCase>;
      if (typeof c.kind !== 'string' || typeof c.query !== 'string' || typeof c.title !== 'string') throw new Error(`${file}:${i + 1}: expected { kind, query, title } strings`);
      return { kind: c.kind, query: c.query, title: c.title };
    });
}

/** The 1-based rank of `title` among `titles` (compared normalized, LaTeX decoded), 0 when missing or past the MRR depth. */
export function rankOf(title: string, titles: readonly string[]): number {
  const want = normalizeTitle(decodeLatex(title));
  const at = titles.slice(0, MEANING_MRR_DEPTH).findIndex((t) => normalizeTitle(t) === want);
  return at + 1;
}

/** MRR@20 and hit@10 of some ranks (1-based, 0 missing). */
export function figures(ranks: readonly number[]): MeaningFigures {
  const n = ranks.length;
  if (n === 0) return { n, mrr: 0, hit10: 0 };
  const mrr = ranks.reduce((s, r) => s + (r > 0 ? 1 / r : 0), 0) / n;
  const hit10 = ranks.filter((r) => r > 0 && r <= MEANING_HIT_DEPTH).length / n;
  return { n, mrr, hit10 };
}

/**
 * Scores `search` (a query → titles best first) on the cases, per kind in order of first appearance.
 * @example (await scoreMeaning(cases, async (q) => titles(q)))[0].all.mrr
 */
export async function scoreMeaning(cases: readonly MeaningCase[], search: (query: string) => Promise<readonly string[]>): Promise<MeaningScore[]> {
  const byKind = new Map<string, MeaningScore>();
  for (const c of cases) {
    let score = byKind.get(c.kind);
    if (!score) {
      score = { kind: c.kind, all: figures([]), halves: [figures([]), figures([])], ranks: [], ms: [] };
      byKind.set(c.kind, score);
    }
    const started = performance.now();
    const titles = await search(c.query);
    score.ms.push(performance.now() - started);
    score.ranks.push(rankOf(c.title, titles));
  }
  for (const score of byKind.values()) {
    score.all = figures(score.ranks);
    score.halves = [figures(score.ranks.filter((_, i) => i % 2 === 0)), figures(score.ranks.filter((_, i) => i % 2 === 1))];
  }
  return [...byKind.values()];
}

const fmt = (f: MeaningFigures): string => `MRR ${f.mrr.toFixed(3)}  hit@10 ${(f.hit10 * 100).toFixed(0).padStart(3)}%`;

/** The report `npm run eval -- --meaning` prints: a line per kind, and with `verbose` a line per case not ranked first. */
export function formatMeaning(scores: readonly MeaningScore[], cases: readonly MeaningCase[], verbose: boolean): string {
  const lines: string[] = [];
  for (const s of scores) {
    lines.push(
      `${s.kind.padEnd(11)} n=${String(s.all.n).padEnd(3)} ${fmt(s.all)}   halves ${fmt(s.halves[0])} | ${fmt(s.halves[1])}   p50 ${percentile(s.ms, 0.5).toFixed(2)} ms  p99 ${percentile(s.ms, 0.99).toFixed(2)} ms`,
    );
  }
  if (verbose) {
    for (const s of scores) {
      const ofKind = cases.filter((c) => c.kind === s.kind);
      s.ranks.forEach((r, i) => {
        if (r !== 1) lines.push(`${s.kind} rank ${r === 0 ? '-' : r}: ${ofKind[i]!.query}  →  ${ofKind[i]!.title}`);
      });
    }
  }
  return `${lines.join('\n')}\n`;
}
