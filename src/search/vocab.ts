/**
 * The sorted vocabulary of the index: exact lookup, prefix ranges and typo-tolerant lookup.
 * Fuzzy lookup walks the sorted term list as if it were a trie, sharing edit-distance rows
 * between terms with a common prefix and skipping whole prefix ranges that cannot match.
 */
import { MAX_TOKEN_LENGTH } from '../text.js';

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
export function buildTermTrie(terms: readonly string[]): TermTrie {
  let capacity = 1024;
  let chars = new Uint16Array(capacity);
  let depth = new Uint8Array(capacity);
  let end = new Uint32Array(capacity);
  let term = new Uint32Array(capacity).fill(NO_TERM);
  let count = 1; // node 0 is the root
  const path: number[] = [0]; // open node at each depth
  let prev = '';
  const grow = () => {
    capacity *= 2;
    const c = new Uint16Array(capacity), d = new Uint8Array(capacity), e = new Uint32Array(capacity);
    const t = new Uint32Array(capacity).fill(NO_TERM);
    c.set(chars), d.set(depth), e.set(end), t.set(term);
    (chars = c), (depth = d), (end = e), (term = t);
  };
  for (let id = 0; id < terms.length; id++) {
    const word = terms[id]!;
    const shared = commonPrefix(prev, word, Math.min(prev.length, word.length));
    while (path.length - 1 > shared) end[path.pop()!] = count;
    for (let k = shared; k < word.length; k++) {
      if (count === capacity) grow();
      chars[count] = word.charCodeAt(k);
      depth[count] = k + 1;
      path.push(count++);
    }
    term[path[path.length - 1]!] = id;
    prev = word;
  }
  while (path.length > 0) end[path.pop()!] = count;
  return { chars: chars.slice(0, count), depth: depth.slice(0, count), end: end.slice(0, count), term: term.slice(0, count) };
}

export class Vocabulary {
  private readonly ids: Map<string, number>;
  private readonly rows: Int32Array;
  private readonly pathChars = new Uint16Array(MAX_TOKEN_LENGTH + 2);

  constructor(
    readonly terms: readonly string[],
    private readonly trie: TermTrie,
  ) {
    this.ids = new Map();
    for (let i = 0; i < terms.length; i++) this.ids.set(terms[i]!, i);
    this.rows = new Int32Array((MAX_TOKEN_LENGTH + 2) * (MAX_TOKEN_LENGTH + 1));
  }

  get size(): number {
    return this.terms.length;
  }

  /** The term's id, or undefined if no document contains it. */
  id(term: string): number | undefined {
    return this.ids.get(term);
  }

  /** Ids [from, to) of the terms that start with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    return [this.lowerBound(prefix), this.lowerBound(prefix + '\uffff')];
  }

  /**
   * Terms within `maxDistance` edits of `word` (insert, delete, substitute, or swap two
   * adjacent letters: optimal string alignment distance), excluding `word` itself.
   * @example vocab.fuzzy('segemntation', 2) // [{ term: id('segmentation'), distance: 1 }, ...]
   */
  fuzzy(word: string, maxDistance: number): FuzzyMatch[] {
    const out: FuzzyMatch[] = [];
    const m = word.length;
    if (maxDistance <= 0 || m === 0 || m > MAX_TOKEN_LENGTH) return out;
    const { chars, depth, end, term } = this.trie;
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
        if (distance <= maxDistance && distance > 0) out.push({ term: id, distance });
      }
      n++;
    }
    return out;
  }

  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function commonPrefix(a: string, b: string, limit: number): number {
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
