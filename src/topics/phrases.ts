/**
 * Phrase matching for the classifier: phrases compile once into a trie over word ids, and a
 * text is scanned left to right taking the longest phrase at each position. The words of the
 * phrases are held in a {@link TermTable}: a text's words are looked up where they lie in it
 * (ASCII text, most abstracts) and a word in no phrase costs one probe of that table, without
 * a string or a Map lookup for it.
 */
import { TermTable, forEachWord } from '../termTable.js';
import { tokenize } from '../text.js';

/** What a phrase is evidence for: a target (topic or area number) and a weight. */
export interface Hit {
  readonly target: number;
  readonly weight: number;
}

interface Node {
  /** The next word's node, by word id. */
  next: Map<number, Node> | undefined;
  hits: Hit[] | undefined;
  /** A phrase that is matched and discarded. */
  ignore: boolean;
}

/** A compiled set of phrases. Build with {@link compilePhrases}. */
export interface PhraseTrie {
  /** The words of the phrases. */
  readonly words: TermTable;
  /** The node of each word that starts a phrase, by word id. */
  readonly root: Array<Node | undefined>;
  /** Number of distinct token sequences compiled (variants included). */
  readonly size: number;
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
 * scanPhrases(trie, 'Deep graph neural networks', (s, e, hits) => console.log(s, e, hits)); // 1 4 [{ target: 0, weight: 2 }]
 */
export function compilePhrases(entries: Iterable<PhraseEntry>, ignore: Iterable<string> = []): PhraseTrie {
  const words = new TermTable();
  const root: Array<Node | undefined> = [];
  let size = 0;
  const nodeFor = (tokens: readonly string[]): Node => {
    let node: Node | undefined;
    for (const tok of tokens) {
      const id = words.idOf(tok);
      const map = node ? (node.next ??= new Map()) : undefined;
      let next = map ? map.get(id) : root[id];
      if (!next) {
        next = { next: undefined, hits: undefined, ignore: false };
        if (map) map.set(id, next);
        else root[id] = next;
      }
      node = next;
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
  return { words, root, size };
}

/**
 * The ids of a text's words ({@link tokenize}'s words, in order) in the trie's word table, -1
 * for a word in no phrase; in `out`, which is returned, grown if needed, with the count.
 */
function wordIds(trie: PhraseTrie, text: string, out: Int32Array): { ids: Int32Array; count: number } {
  let ids = out;
  let count = 0;
  const push = (id: number) => {
    if (count === ids.length) {
      const bigger = new Int32Array(ids.length * 2);
      bigger.set(ids);
      ids = bigger;
    }
    ids[count++] = id;
  };
  forEachWord(text, (words, start, end, hash) => push(trie.words.find(words, start, end, hash)));
  return { ids, count };
}

/** Receives each phrase match: token positions `[start, end)` and what it is evidence for. */
export type MatchSink = (start: number, end: number, hits: readonly Hit[]) => void;

/** Reused between scans (they never nest: a sink only adds up): the ids of the text being scanned. */
let scratch: Int32Array = new Int32Array(1024);

/**
 * Scans a text's words left to right; at each position takes the longest phrase that starts
 * there, reports it unless it is an ignored phrase, and continues after it. Positions count
 * {@link tokenize}'s words.
 * @example scanPhrases(trie, title, (start, end, hits) => { ... })
 */
export function scanPhrases(trie: PhraseTrie, text: string, sink: MatchSink): void {
  const { ids, count: n } = wordIds(trie, text, scratch);
  scratch = ids;
  const root = trie.root;
  let i = 0;
  while (i < n) {
    const id = ids[i]!;
    let node = id < 0 ? undefined : root[id];
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
      const next: Node | undefined = node.next.get(ids[j]!);
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
