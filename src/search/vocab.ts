/**
 * The sorted vocabulary of the index: exact lookup, prefix ranges and typo-tolerant lookup.
 * Fuzzy lookup walks the sorted term list as if it were a trie, sharing edit-distance rows
 * between terms with a common prefix and skipping whole prefix ranges that cannot match.
 */
import { MAX_TOKEN_LENGTH } from '../text.js';
import { COMPOUND_MARK } from './compounds.js';

const COMPOUND_MARK_CODE = COMPOUND_MARK.charCodeAt(0);

export interface FuzzyMatch {
  term: number;
  distance: number;
}

/** Typo budget by word length, as Meilisearch: 1 typo from 5 letters, 2 from 9. */
export function typoBudget(word: string): number {
  return word.length >= 9 ? 2 : word.length >= 5 ? 1 : 0;
}

/**
 * The vocabulary as a trie in flat arrays, nodes in depth-first preorder: a node's subtree is
 * the nodes [n, end[n]), so a pruned subtree is skipped in one step. Built once per index.
 */
export interface TermTrie {
  chars: Uint16Array;
  depth: Uint8Array;
  end: Uint32Array;
  /** Term id ending at the node, or NO_TERM. */
  term: Uint32Array;
}
export const NO_TERM = 0xffffffff;

/**
 * Builds the trie of a sorted term list.
 * @example buildTermTrie(['learn', 'learning', 'lemma']).chars.length // 11 (root + l,e,a,r,n,i,n,g,m,m,a)
 */
export function buildTermTrie(terms: Iterable<string>): TermTrie {
  const builder = new TrieBuilder();
  for (const term of terms) builder.push(term);
  return builder.finish();
}

/** Builds a trie from terms pushed in sorted order, one at a time (streaming merges use it). */
export class TrieBuilder {
  private capacity = 1024;
  private chars = new Uint16Array(this.capacity);
  private depth = new Uint8Array(this.capacity);
  private end = new Uint32Array(this.capacity);
  private term = new Uint32Array(this.capacity).fill(NO_TERM);
  private count = 1; // node 0 is the root
  private readonly path: number[] = [0]; // open node at each depth
  private prev = '';
  private id = 0;

  /** Adds the next term (greater than the previous one); it gets the next id. */
  push(word: string): void {
    const shared = commonPrefix(this.prev, word, Math.min(this.prev.length, word.length));
    while (this.path.length - 1 > shared) this.end[this.path.pop()!] = this.count;
    for (let k = shared; k < word.length; k++) {
      if (this.count === this.capacity) this.grow();
      this.chars[this.count] = word.charCodeAt(k);
      this.depth[this.count] = k + 1;
      this.path.push(this.count++);
    }
    this.term[this.path[this.path.length - 1]!] = this.id++;
    this.prev = word;
  }

  finish(): TermTrie {
    while (this.path.length > 0) this.end[this.path.pop()!] = this.count;
    const n = this.count;
    return { chars: this.chars.slice(0, n), depth: this.depth.slice(0, n), end: this.end.slice(0, n), term: this.term.slice(0, n) };
  }

  private grow(): void {
    this.capacity *= 2;
    const c = new Uint16Array(this.capacity), d = new Uint8Array(this.capacity), e = new Uint32Array(this.capacity);
    const t = new Uint32Array(this.capacity).fill(NO_TERM);
    c.set(this.chars), d.set(this.depth), e.set(this.end), t.set(this.term);
    (this.chars = c), (this.depth = d), (this.end = e), (this.term = t);
  }
}

/** The node of `word` in a trie, or -1. */
export function trieFind(trie: TermTrie, word: string): number {
  const { chars, end } = trie;
  let node = 0;
  for (let k = 0; k < word.length; k++) {
    const c = word.charCodeAt(k);
    const stop = end[node]!;
    let child = node + 1;
    while (child < stop && chars[child] !== c) child = end[child]!;
    if (child >= stop) return -1;
    node = child;
  }
  return node;
}

/** Ids [from, to) of the trie's terms that start with `prefix` (ids follow preorder). */
export function triePrefixRange(trie: TermTrie, prefix: string, termCount: number): [number, number] {
  const node = trieFind(trie, prefix);
  if (node < 0) return [0, 0];
  const firstTerm = (n: number) => {
    while (trie.term[n] === NO_TERM) n++;
    return trie.term[n]!;
  };
  const after = trie.end[node]!;
  return [firstTerm(node), after >= trie.chars.length ? termCount : firstTerm(after)];
}

/** What a vocabulary is made of: a base trie, and terms added since (with their own trie). */
export interface VocabularyParts {
  base: { trie: TermTrie; termCount: number };
  /** Terms only deltas hold: strings sorted, their global ids, and a trie over them. */
  extras: { terms: readonly string[]; ids: Uint32Array; trie: TermTrie; byWord: ReadonlyMap<string, number> };
  /** Documents per global term id (0: the term is not in any live document). */
  df: Uint32Array;
  /** A global term id's string. */
  termString(id: number): string;
}

/**
 * The vocabulary of the whole index: exact lookup, prefix ranges and typo-tolerant lookup, over
 * the base segment's trie and the few terms only newer segments hold. A term in no live
 * document does not exist.
 */
export class Vocabulary {
  private readonly rows: Int32Array;
  private readonly pathChars = new Uint16Array(MAX_TOKEN_LENGTH + 2);

  constructor(private readonly parts: VocabularyParts) {
    this.rows = new Int32Array((MAX_TOKEN_LENGTH + 2) * (MAX_TOKEN_LENGTH + 1));
  }

  /** The term's id, or undefined if no document contains it. */
  id(term: string): number | undefined {
    const { base, extras, df } = this.parts;
    const node = trieFind(base.trie, term);
    const id = node < 0 ? NO_TERM : base.trie.term[node]!;
    if (id !== NO_TERM) return df[id]! > 0 ? id : undefined;
    const extra = extras.byWord.get(term);
    return extra !== undefined && df[extra]! > 0 ? extra : undefined;
  }

  /** A term's string. */
  term(id: number): string {
    return this.parts.termString(id);
  }

  /** Whether term `a` sorts after term `b` (base ids are in sorted order; others compare as strings). */
  after(a: number, b: number): boolean {
    const n = this.parts.base.termCount;
    return a < n && b < n ? a > b : this.term(a) > this.term(b);
  }

  /** Documents that hold a term. */
  df(id: number): number {
    return this.parts.df[id]!;
  }

  /** Ids of the terms that start with `prefix`, in no particular order. */
  withPrefix(prefix: string): number[] {
    const { base, extras, df } = this.parts;
    const [from, to] = triePrefixRange(base.trie, prefix, base.termCount);
    const out: number[] = [];
    for (let t = from; t < to; t++) if (df[t]! > 0) out.push(t);
    if (extras.terms.length > 0) {
      const [a, b] = triePrefixRange(extras.trie, prefix, extras.terms.length);
      for (let i = a; i < b; i++) if (df[extras.ids[i]!]! > 0) out.push(extras.ids[i]!);
    }
    return out;
  }

  /**
   * Terms within `maxDistance` edits of `word` (insert, delete, substitute, or swap two
   * adjacent letters: optimal string alignment distance), excluding `word` itself and the
   * compounds' terms (compounds.ts: they start with a mark no word has, and are not walked).
   * @example vocab.fuzzy('segemntation', 2) // [{ term: id('segmentation'), distance: 1 }, ...]
   */
  fuzzy(word: string, maxDistance: number): FuzzyMatch[] {
    const out: FuzzyMatch[] = [];
    const { base, extras, df } = this.parts;
    this.walk(base.trie, word, maxDistance, (id, distance) => {
      if (df[id]! > 0) out.push({ term: id, distance });
    });
    if (extras.terms.length > 0) {
      this.walk(extras.trie, word, maxDistance, (i, distance) => {
        const id = extras.ids[i]!;
        if (df[id]! > 0) out.push({ term: id, distance });
      });
    }
    return out;
  }

  private walk(trie: TermTrie, word: string, maxDistance: number, found: (id: number, distance: number) => void): void {
    const m = word.length;
    if (maxDistance <= 0 || m === 0 || m > MAX_TOKEN_LENGTH) return;
    const { chars, depth, end, term } = trie;
    const width = m + 1;
    const rows = this.rows;
    const path = this.pathChars;
    // Only cells within maxDistance of the diagonal can stay within budget: compute that band,
    // with a sentinel just outside it on each side.
    const far = maxDistance + 1;
    for (let j = 0; j <= m; j++) rows[j] = j <= maxDistance ? j : far;
    const nodes = chars.length;
    let n = 1;
    while (n < nodes) {
      const d = depth[n]!;
      const c = chars[n]!;
      if (d === 1 && c === COMPOUND_MARK_CODE) {
        n = end[n]!;
        continue;
      }
      path[d] = c;
      const base = d * width;
      const up = base - width;
      const lo = d - maxDistance > 1 ? d - maxDistance : 1;
      const hi = d + maxDistance < m ? d + maxDistance : m;
      rows[base + lo - 1] = lo === 1 ? d : far;
      let rowMin = lo === 1 && d <= maxDistance ? d : far;
      for (let j = lo; j <= hi; j++) {
        const wc = word.charCodeAt(j - 1);
        let v = rows[up + j - 1]! + (wc === c ? 0 : 1);
        const del = rows[up + j]! + 1;
        if (del < v) v = del;
        const ins = rows[base + j - 1]! + 1;
        if (ins < v) v = ins;
        if (d > 1 && j > 1 && c === word.charCodeAt(j - 2) && path[d - 1] === wc) {
          const swap = rows[up - width + j - 2]! + 1;
          if (swap < v) v = swap;
        }
        rows[base + j] = v;
        if (v < rowMin) rowMin = v;
      }
      if (hi < m) rows[base + hi + 1] = far;
      if (rowMin > maxDistance) {
        n = end[n]!;
        continue;
      }
      const id = term[n]!;
      if (id !== NO_TERM && hi === m) {
        const distance = rows[base + m]!;
        if (distance <= maxDistance && distance > 0) found(id, distance);
      }
      n++;
    }
  }
}

function commonPrefix(a: string, b: string, limit: number): number {
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
