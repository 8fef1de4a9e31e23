/**
 * Query expansion: which index terms stand for each query word. A word always contributes itself;
 * its plural or singular when the index has it; prefix completions only for the word still
 * being typed; typo corrections only when the word as typed is not in the index (1 typo from 5
 * letters, 2 from 9, trying 1 before 2). Fuzzy work therefore goes only where exact matching fails.
 * A caller may give a word other words it stands for (a Chinese word's other senses, read by
 * src/i18n): they join the word's group.
 */
import { STOPWORDS } from '../text.js';
import type { ParsedQuery } from './query.js';
import { typoBudget, type Vocabulary } from './vocab.js';
import { Field } from './index/types.js';
import { compoundTerm } from './compounds.js';
import { idf } from './bm25.js';

/** An index term standing for a query word, with how much it counts. */
export interface Variant {
  term: number;
  /** 1 for the word as typed; less for plurals, completions and typo corrections. */
  weight: number;
}

/** A query word and the index terms that stand for it: what the scorer matches and scores as one. */
export interface TermGroup {
  /** The query word (folded) this group stands for. */
  word: string;
  variants: Variant[];
  /** Restrict matching to these fields (author: filters); all fields when absent. */
  fields?: readonly Field[];
  /** Adds to the score of documents other groups matched, without counting toward coverage. */
  optional?: boolean;
  /** The group is a compound's term ("-domainlevel", see compounds.ts), optional: see `QueryPlan.compoundsHeld`. */
  compound?: boolean;
}

/** Another word a query word stands for (a Chinese word's other sense), with how much it counts next to the word. */
export interface Alternative {
  word: string;
  weight: number;
}
/** Query words → the other words each stands for (both folded, as the index holds them). */
export type Alternatives = ReadonlyMap<string, readonly Alternative[]>;

/** Most completions a prefix expands to (the most frequent ones). */
export const MAX_COMPLETIONS = 40;
/** Shortest prefix that is completed; shorter ones match whole words only. */
export const MIN_PREFIX_LENGTH = 2;

const AUTHOR_FIELDS = [Field.Authors, Field.FirstAuthor] as const;
const WEIGHT_PLURAL = 0.9;
const WEIGHT_COMPLETION = 0.75;
const WEIGHT_TYPO = [1, 0.7, 0.5] as const;
/** Words in fewer documents than this may be typos themselves, and get corrections too. */
const RARE_WORD_DF = 10;
/** How much commoner a correction must be than a rare typed word to be offered. */
const TYPO_EVIDENCE_RATIO = 20;

/**
 * The scoring groups for a query's free words: stopwords are dropped unless the query has
 * nothing else, and repeated words count once.
 * @example planWords(parseQuery('lerning to rank'), vocab) // groups for 'lerning' (→ learning, ...) and 'rank'
 */
export function planWords(query: ParsedQuery, vocab: Vocabulary, docCount: number, maxCompletions = MAX_COMPLETIONS, alternatives?: Alternatives): TermGroup[] {
  const words = query.words;
  const content = words.filter((w) => !STOPWORDS.has(w));
  const chosen = content.length > 0 ? content : words;
  const lastWord = words[words.length - 1];
  const seen = new Set<string>();
  const groups: TermGroup[] = [];
  if (content.length > 0) {
    // Stopwords are also surnames ("He", "An", "So"): matched against authors, they add to the
    // score without being required.
    for (const word of new Set(words.filter((w) => STOPWORDS.has(w)))) {
      const term = vocab.id(word);
      if (term !== undefined) groups.push({ word, variants: [{ term, weight: 1 }], fields: AUTHOR_FIELDS, optional: true });
    }
  }
  chosen.forEach((word, i) => {
    const isLast = i === chosen.length - 1 && word === lastWord && query.lastIsPrefix;
    const key = isLast ? `${word}*` : word;
    if (seen.has(key)) return;
    seen.add(key);
    const variants = variantsOf(word, isLast, vocab, docCount, maxCompletions, alternatives?.get(word));
    groups.push({ word, variants });
  });
  // A compound as typed is a term of its own too, with its own rarity (its joined form, which
  // the index files), on top of its words: scored in every field, and among papers that match
  // alike, one that has "role-playing" as typed goes before one that has "role" and "playing"
  // apart (see rerank.ts). Like a stopword's, its group only adds to papers the words found.
  for (const joined of new Set(query.compounds.map((c) => c.joined))) {
    const term = vocab.id(compoundTerm(joined));
    if (term !== undefined) groups.push({ word: joined, variants: [{ term, weight: 1 }], optional: true, compound: true });
  }
  return groups;
}

/**
 * Groups for an `author:` filter: each name word matched in the authors field only, initials
 * as prefixes ("Y." matches "Yoshua").
 */
export function planAuthor(tokens: readonly string[], vocab: Vocabulary, docCount: number): TermGroup[] {
  return tokens.map((word) => ({
    word,
    variants: word.length === 1 ? completions(word, vocab, 1, 200) : exactOrTypo(word, vocab, docCount),
    fields: AUTHOR_FIELDS,
  }));
}

function variantsOf(word: string, isPrefix: boolean, vocab: Vocabulary, docCount: number, maxCompletions: number, alternatives: readonly Alternative[] = []): Variant[] {
  const out = new Map<number, number>();
  const add = (term: number | undefined, weight: number) => {
    if (term === undefined) return;
    if ((out.get(term) ?? 0) < weight) out.set(term, weight);
  };
  const exact = vocab.id(word);
  add(exact, 1);
  // Another form of the word, or a completion, never outweighs the word as typed: its idf is
  // capped at the typed word's (a rare plural of a common word, "learnings", is that word).
  const cap = exact === undefined ? Infinity : idf(vocab.df(exact), docCount);
  const capped = (term: number) => Math.min(1, cap / idf(vocab.df(term), docCount));
  // The word as a compound joins it ("multiagent", written "multi-agent"): the word itself, and
  // no rarer than it (at 1M, "learn-ing" in 21 papers beside "learning" in 551k weighed 18× the
  // word and, as the bound of its group, kept the walk from leaving any of the word's abstracts
  // out: "learning" took 1.7× as long).
  const joined = vocab.id(compoundTerm(word));
  if (joined !== undefined) add(joined, capped(joined));
  for (const form of inflections(word)) {
    const term = vocab.id(form);
    if (term !== undefined) add(term, WEIGHT_PLURAL * capped(term));
  }
  if (isPrefix && word.length >= MIN_PREFIX_LENGTH) {
    for (const v of completions(word, vocab, WEIGHT_COMPLETION, maxCompletions)) {
      add(v.term, v.weight * capped(v.term));
    }
  }
  // The word's other senses count as the word, by their weight: as typed only (their plurals
  // too lowered MRR on the Chinese dev descriptions), and not capped at the word's rarity
  // (capping changed nothing measured). None outweighs the word.
  for (const { word: other, weight } of alternatives) if (weight > 0) add(vocab.id(other), Math.min(1, weight));
  const exactDf = Math.max(exact === undefined ? 0 : vocab.df(exact), joined === undefined ? 0 : vocab.df(joined));
  if (exactDf < RARE_WORD_DF) {
    for (const v of typoCorrections(word, exactDf, vocab, docCount)) add(v.term, v.weight);
  }
  return [...out].map(([term, weight]) => ({ term, weight }));
}

function exactOrTypo(word: string, vocab: Vocabulary, docCount: number): Variant[] {
  const exact = vocab.id(word);
  if (exact !== undefined) return [{ term: exact, weight: 1 }];
  return typoCorrections(word, 0, vocab, docCount);
}

/**
 * Words the typed word may be a typo of. Tried only for words the index lacks or holds as a
 * rarity (a paper's own typo such as "transfomer" must not hide "transformer"). Likelier
 * corrections weigh more: a correction's weight follows how common it is next to the most
 * common one, and no correction scores more than that most common one would.
 */
function typoCorrections(word: string, exactDf: number, vocab: Vocabulary, docCount: number): Variant[] {
  // Four-letter words get one typo too when the index lacks them or holds them as a rarity.
  const budget = typoBudget(word) || (word.length === 4 ? 1 : 0);
  for (let distance = 1; distance <= budget; distance++) {
    const matches = vocab.fuzzy(word, distance);
    if (matches.length === 0) continue;
    let maxDf = 0;
    for (const m of matches) maxDf = Math.max(maxDf, vocab.df(m.term));
    // A rare word with no much commoner neighbour is probably meant as typed.
    if (exactDf > 0 && maxDf < exactDf * TYPO_EVIDENCE_RATIO) return [];
    const cap = idf(maxDf, docCount);
    return matches.map((m) => {
      const df = vocab.df(m.term);
      const prior = Math.sqrt(df / maxDf);
      return { term: m.term, weight: (WEIGHT_TYPO[m.distance] ?? 0.5) * prior * Math.min(1, cap / idf(df, docCount)) };
    });
  }
  return [];
}

/**
 * The `max` most frequent terms that start with `prefix` (ties in term order), kept with a small
 * heap: a short prefix may have thousands of completions, and only the best few are wanted.
 */
function completions(prefix: string, vocab: Vocabulary, weight: number, max: number): Variant[] {
  const all = vocab.withPrefix(prefix);
  let ids = all;
  if (all.length > max) {
    // Worse first: lower frequency, then later in term order.
    const worse = (a: number, b: number) => {
      const d = vocab.df(a) - vocab.df(b);
      if (d !== 0) return d < 0;
      return termAfter(vocab, a, b);
    };
    const heap: number[] = [];
    for (const t of all) {
      if (heap.length < max) {
        heap.push(t);
        siftUp(heap, heap.length - 1, worse);
      } else if (worse(heap[0]!, t)) {
        heap[0] = t;
        siftDown(heap, 0, worse);
      }
    }
    ids = heap.sort((a, b) => vocab.df(b) - vocab.df(a) || (termAfter(vocab, a, b) ? 1 : -1));
  }
  const exact = vocab.id(prefix);
  return ids.map((term) => ({ term, weight: term === exact ? 1 : weight }));
}

/** Whether term `a` sorts after term `b`. */
function termAfter(vocab: Vocabulary, a: number, b: number): boolean {
  return vocab.after(a, b);
}

function siftUp(heap: number[], i: number, worse: (a: number, b: number) => boolean): void {
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!worse(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function siftDown(heap: number[], i: number, worse: (a: number, b: number) => boolean): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let w = i;
    if (l < heap.length && worse(heap[l]!, heap[w]!)) w = l;
    if (r < heap.length && worse(heap[r]!, heap[w]!)) w = r;
    if (w === i) return;
    [heap[i], heap[w]] = [heap[w]!, heap[i]!];
    i = w;
  }
}

/** Plural and singular forms of an English word, as candidates to look up. */
export function inflections(word: string): string[] {
  if (word.length < 3 || /\d/.test(word)) return [];
  const out: string[] = [];
  if (word.endsWith('ies')) out.push(`${word.slice(0, -3)}y`);
  else if (word.endsWith('es')) out.push(word.slice(0, -2), word.slice(0, -1));
  else if (word.endsWith('s') && !word.endsWith('ss')) out.push(word.slice(0, -1));
  else if (word.endsWith('y') && !/[aeiou]y$/.test(word)) out.push(`${word.slice(0, -1)}ies`);
  else out.push(`${word}s`, `${word}es`);
  return out;
}
