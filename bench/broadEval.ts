/**
 * `npm run eval -- --broad <file.jsonl> [--verbose]`: topic queries as researchers type them to
 * explore a field, one JSON object a line, `{ query, targets: [titles] }` (the field's seminal
 * papers). Prints the MRR of the first target in the top {@link TOP} and hit@5, with search
 * latency; `--verbose` prints each query's rank and what opened it. Works on a library with
 * citation counts or without (see `--works` in eval.ts).
 */
import { readFileSync } from 'node:fs';
import type { SearchResult } from '../src/search/engine.js';
import { decodeLatex } from '../src/papers/latex.js';
import { normalizeTitle } from '../src/text.js';
import { percentile } from './stats.js';

/** Hits looked at: a first target further down counts as not found. */
const TOP = 20;
const HIT_AT = 5;

export interface BroadCase {
  query: string;
  targets: string[];
}

export interface BroadScore {
  n: number;
  mrr: number;
  hit5: number;
  p50: number;
  p99: number;
  /** Per query, the rank of its first target (1-based; 0: not in the top {@link TOP}). */
  ranks: number[];
}

/** The broad cases of a file (lines without `targets` are left out). */
export function readBroadCases(file: string): BroadCase[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Partial<BroadCase>)
    .filter((c): c is BroadCase => typeof c.query === 'string' && Array.isArray(c.targets));
}

/**
 * Scores `search` on the cases: one untimed pass first (a running bot's compiled code), then
 * the timed one. With `verbose`, writes each query's rank and top three.
 */
export async function scoreBroad(cases: readonly BroadCase[], search: (query: string) => Promise<SearchResult>, options: { verbose?: boolean; out?: (line: string) => void } = {}): Promise<BroadScore> {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  for (const c of cases) await search(c.query);
  const ms: number[] = [];
  const ranks: number[] = [];
  let rr = 0;
  let hit5 = 0;
  for (const c of cases) {
    const started = performance.now();
    const result = await search(c.query);
    ms.push(performance.now() - started);
    const targets = new Set(c.targets.map((t) => normalizeTitle(decodeLatex(t))));
    const at = result.hits.slice(0, TOP).findIndex((h) => targets.has(normalizeTitle(h.title)));
    ranks.push(at + 1);
    if (at >= 0) rr += 1 / (at + 1);
    if (at >= 0 && at < HIT_AT) hit5++;
    if (options.verbose) {
      const top = result.hits.slice(0, 3).map((h) => h.title.slice(0, 60)).join(' | ');
      out(`${String(at < 0 ? '-' : at + 1).padStart(3)}  ${c.query.padEnd(36)} of ${String(result.total).padStart(6)}  ${top}`);
    }
  }
  const n = cases.length;
  return { n, mrr: n ? rr / n : 0, hit5: n ? hit5 / n : 0, p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), ranks };
}

/** One line of figures. */
export function broadLine(label: string, s: BroadScore): string {
  return `${label.padEnd(13)} n=${String(s.n).padEnd(4)} MRR@${TOP} ${s.mrr.toFixed(3)}  hit@${HIT_AT} ${s.hit5.toFixed(3)}   p50 ${s.p50.toFixed(2)} ms  p99 ${s.p99.toFixed(2)} ms`;
}
