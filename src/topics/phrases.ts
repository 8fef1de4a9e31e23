/**
 * Phrase matching for the classifier: phrases compile once into a word trie, and a token
 * sequence is scanned left to right taking the longest phrase at each position, so matching a
 * whole abstract costs one Map lookup per word plus a short walk where a phrase starts.
 */
import { tokenize } from '../text.js';

/** What a phrase is evidence for: a target (topic or area number) and a weight. */
export interface Hit {
  readonly target: number;
  readonly weight: number;
}

interface Node {
  next: Map<string, Node> | undefined;
  hits: Hit[] | undefined;
  /** A phrase that is matched and discarded. */
  ignore: boolean;
}

/** A compiled set of phrases. Build with {@link compilePhrases}. */
export interface PhraseTrie {
  readonly root: Map<string, Node>;
  /**
   * Which (first letters, last letter, length) shapes a phrase's first word can have. Checking it
   * costs no string hashing, and it turns away most words (function words above all) before the
   * Map lookup, which has to hash every fresh token.
   */
  readonly gate: Uint8Array;
  /** Number of distinct token sequences compiled (variants included). */
  readonly size: number;
}

const GATE_BITS = 20;
const GATE_MASK = (1 << GATE_BITS) - 1;

/** A hash of a word's shape: first two letters, last letter, length. Collisions only let a word through. */
function gateSlot(word: string): number {
  const n = word.length;
  const h = (word.charCodeAt(0) * 961 + word.charCodeAt(n > 1 ? 1 : 0) * 31 + word.charCodeAt(n - 1)) * 41 + n;
  return h & GATE_MASK;
}

/** A phrase to compile: its text as written in the taxonomy, and what it is evidence for. */
export interface PhraseEntry {
  readonly phrase: string;
  readonly target: number;
  readonly weight: number;
}

/**
 * The token sequences a phrase matches: as written, with the last word in the plural, and,
 * when the phrase has a hyphen, with the hyphenated words written together.
 * @example phraseVariants('multi-agent system') // [['multi','agent','system'], ['multi','agent','systems'], ['multiagent','system'], ['multiagent','systems']]
 */
export function phraseVariants(phrase: string): string[][] {
  const bases = [tokenize(phrase)];
  if (phrase.includes('-')) {
    const joined = tokenize(phrase.replace(/(\p{L})-(?=\p{L})/gu, '$1'));
    if (joined.join(' ') !== bases[0]!.join(' ')) bases.push(joined);
  }
  const out: string[][] = [];
  for (const base of bases) {
    if (base.length === 0) continue;
    out.push(base);
    const last = base[base.length - 1]!;
    const plural = pluralOf(last);
    if (plural !== undefined) out.push([...base.slice(0, -1), plural]);
  }
  return out;
}

/**
 * The regular English plural of a word, or undefined when it has none worth matching
 * (contains digits, too short, or already reads as a plural: `dynamics`, `bayes`).
 * @example pluralOf('policy') // 'policies'
 * @example pluralOf('process') // 'processes'
 */
export function pluralOf(word: string): string | undefined {
  if (word.length < 2 || /\d/.test(word)) return undefined;
  if (/(?:ss|x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (word.length > 3 && word.endsWith('is')) return `${word.slice(0, -2)}es`;
  if (word.endsWith('s')) return undefined;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/**
 * Compiles phrases (and phrases to ignore) into a trie. The same phrase given twice for one
 * target keeps the larger weight.
 * @example
 * const trie = compilePhrases([{ phrase: 'graph neural network', target: 0, weight: 2 }]);
 * scanPhrases(trie, ['deep', 'graph', 'neural', 'networks'], (s, e, hits) => console.log(s, e, hits));
 */
export function compilePhrases(entries: Iterable<PhraseEntry>, ignore: Iterable<string> = []): PhraseTrie {
  const root = new Map<string, Node>();
  let size = 0;
  const nodeFor = (tokens: readonly string[]): Node => {
    let map = root;
    let node: Node | undefined;
    for (const tok of tokens) {
      node = map.get(tok);
      if (!node) {
        node = { next: undefined, hits: undefined, ignore: false };
        map.set(tok, node);
      }
      node.next ??= new Map();
      map = node.next;
    }
    if (node!.hits === undefined && !node!.ignore) size++;
    return node!;
  };
  for (const { phrase, target, weight } of entries) {
    for (const tokens of phraseVariants(phrase)) {
      const node = nodeFor(tokens);
      node.hits ??= [];
      const existing = node.hits.findIndex((h) => h.target === target);
      if (existing < 0) node.hits.push({ target, weight });
      else if (node.hits[existing]!.weight < weight) node.hits[existing] = { target, weight };
    }
  }
  for (const phrase of ignore) {
    for (const tokens of phraseVariants(phrase)) nodeFor(tokens).ignore = true;
  }
  pruneEmpty(root);
  const gate = new Uint8Array(1 << GATE_BITS);
  for (const word of root.keys()) gate[gateSlot(word)] = 1;
  return { root, gate, size };
}

function pruneEmpty(map: Map<string, Node>): void {
  for (const node of map.values()) {
    if (node.next && node.next.size === 0) node.next = undefined;
    else if (node.next) pruneEmpty(node.next);
  }
}

/** Receives each phrase match: token positions `[start, end)` and what it is evidence for. */
export type MatchSink = (start: number, end: number, hits: readonly Hit[]) => void;

/**
 * Scans tokens left to right; at each position takes the longest phrase that starts there,
 * reports it unless it is an ignored phrase, and continues after it.
 * @example scanPhrases(trie, tokenize(title), (start, end, hits) => { ... })
 */
export function scanPhrases(trie: PhraseTrie, tokens: readonly string[], sink: MatchSink): void {
  const { root, gate } = trie;
  const n = tokens.length;
  let i = 0;
  while (i < n) {
    const word = tokens[i]!;
    let node = gate[gateSlot(word)] === 1 ? root.get(word) : undefined;
    if (node === undefined) {
      i++;
      continue;
    }
    let bestEnd = -1;
    let best: Node | undefined;
    let j = i;
    for (;;) {
      if (node.hits !== undefined || node.ignore) {
        bestEnd = j + 1;
        best = node;
      }
      j++;
      if (j >= n || node.next === undefined) break;
      const next: Node | undefined = node.next.get(tokens[j]!);
      if (next === undefined) break;
      node = next;
    }
    if (best === undefined) {
      i++;
      continue;
    }
    if (best.hits !== undefined) sink(i, bestEnd, best.hits);
    i = bestEnd;
  }
}
