/**
 * How a query lines up with a title, word by word, forgiving typos: the exactness signals that
 * put "the paper you typed the title of" first.
 */
import { typoBudget } from './vocab.js';

export interface TitleMatch {
  kind: 'exact' | 'name' | 'prefix';
  /** Typos it took to line up (0 for a literal match). */
  typos: number;
  /** Words in the title (or in its short name, for `name`). */
  titleWords: number;
}

/**
 * Compares query words with a title's words.
 * - `exact`: the same words (each within its typo budget, and in a query of
 *   {@link SHORT_TYPO_WORDS} words or more, one short word with a typo too);
 * - `name`: the words before the title's colon, as in "BERT" for "BERT: Pre-training of…";
 * - `prefix`: the title starts with the query (its last word may be cut short if `lastIsPrefix`).
 * @example matchTitle(['attention', 'is', 'al'], 'Attention Is All You Need', tokenize, true) // { kind: 'prefix', typos: 0 }
 */
export function matchTitle(
  query: readonly string[],
  title: string,
  tokenize: (s: string) => string[],
  lastIsPrefix: boolean,
): TitleMatch | undefined {
  if (query.length === 0) return undefined;
  const words = tokenize(title);
  if (words.length < query.length) return undefined;
  const colon = title.indexOf(':');
  if (colon > 0 && words.length > query.length) {
    const name = tokenize(title.slice(0, colon));
    if (name.length === query.length) {
      const typos = alignWords(query, name, false);
      if (typos !== undefined) return { kind: 'name', typos, titleWords: name.length };
    }
  }
  if (words.length === query.length) {
    const typos = alignWords(query, words, false);
    if (typos !== undefined) return { kind: 'exact', typos, titleWords: words.length };
    if (!lastIsPrefix) return undefined;
  }
  const typos = alignWords(query, words.slice(0, query.length), lastIsPrefix);
  return typos === undefined ? undefined : { kind: 'prefix', typos, titleWords: words.length };
}

/**
 * Query words from which one short word (of two to four letters, whose own typo budget is 0)
 * may have a typo too: a title typed from memory, "atention is al you need", lines up word by
 * word whatever its short words look like, and its other words are as many checks. Not a word
 * with a digit: "L1" and "L2", "2D" and "3D" are not typos of each other.
 */
export const SHORT_TYPO_WORDS = 4;
const DIGIT = /\d/;

/** Typos needed to read `query` as `words` position by position, or undefined if over budget. */
function alignWords(query: readonly string[], words: readonly string[], lastIsPrefix: boolean): number | undefined {
  let typos = 0;
  let shortTypo = query.length < SHORT_TYPO_WORDS;
  for (let i = 0; i < query.length; i++) {
    const q = query[i]!;
    const w = words[i]!;
    if (q === w) continue;
    if (lastIsPrefix && i === query.length - 1 && w.startsWith(q)) continue;
    let budget = typoBudget(q);
    if (budget === 0 && !shortTypo && q.length >= 2 && w.length >= 2 && !DIGIT.test(q) && !DIGIT.test(w)) {
      budget = 1;
      shortTypo = true;
    }
    if (budget === 0) return undefined;
    const target = lastIsPrefix && i === query.length - 1 && w.length > q.length ? w.slice(0, q.length) : w;
    const d = boundedDistance(q, target, budget);
    if (d > budget) return undefined;
    typos += d;
  }
  return typos;
}

/**
 * Optimal string alignment distance (adjacent swaps count one), or `max + 1` once it exceeds `max`.
 * @example boundedDistance('segemntation', 'segmentation', 2) // 1
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = a.length;
  const m = b.length;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[m]!, max + 1);
}
