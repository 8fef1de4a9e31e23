/**
 * When a query is a description, and what the meaning stage searches for it (docs/design.md,
 * "Meaning"). A query that names a paper (its title, a name, an author) is answered by the
 * engine's exactness tiers; a query of {@link DESCRIPTION_WORDS} words or more that does not is
 * read as a description: a weighted bag of its words (each with its plural and, for Chinese, its
 * other senses) and their associates, scored by the {@link MeaningScorer}.
 */
import { STOPWORDS, tokenize } from '../../text.js';
import { idf } from '../bm25.js';
import type { Compound } from '../compounds.js';
import type { TermGroup } from '../expand.js';
import type { IndexView } from '../index/view.js';
import type { AssociationTable } from './associations.js';

/** Content words from which a query that names no paper is a description. */
export const DESCRIPTION_WORDS = 5;
/** How much a word's associates weigh together, against the word. */
export const ASSOCIATE_WEIGHT = 0.4;
/** Forms a word is read as at most (itself, its plural, a Chinese word's senses; the best completions or corrections). */
const FORMS = 2;

/** Words of a pasted text searched for, the most telling: an abstract's 30 say what it is about. */
export const TEXT_WORDS = 30;

/** A word of a description, the index's forms of it, and how much it tells. */
export interface WeightedWord {
  word: string;
  forms: string[];
  weight: number;
}

/** How far down the two lists a paper's place still counts, in reciprocal-rank fusion: 1 / (FUSION_K + place). */
export const FUSION_K = 5;
/** Words of a description kept for its snippets, the weightiest. */
const SNIPPET_WORDS = 40;

/**
 * The bag of global term ids → weights a description is scored by: each word's forms at their
 * weight, then the associates of those of the base's vocabulary (`baseTerms` ids), each at the
 * word's weight × its share × {@link ASSOCIATE_WEIGHT}. A term the words hold is not added again.
 * @example descriptionBag(groups, table, view.base.docFreq.length).size >= groups.length
 */
export function descriptionBag(groups: readonly TermGroup[], table: AssociationTable, baseTerms: number, associateWeight = ASSOCIATE_WEIGHT): Map<number, number> {
  const bag = new Map<number, number>();
  for (const group of groups) {
    if (group.optional || group.fields) continue;
    const forms = [...group.variants].sort((a, b) => b.weight - a.weight || a.term - b.term).slice(0, FORMS);
    for (const v of forms) bag.set(v.term, Math.max(bag.get(v.term) ?? 0, v.weight));
  }
  const associates = new Map<number, number>();
  for (const [term, weight] of bag) {
    if (term >= baseTerms) continue;
    for (let i = table.start[term]!; i < table.start[term + 1]!; i++) {
      const f = table.associates[i]!;
      if (!bag.has(f)) associates.set(f, (associates.get(f) ?? 0) + weight * associateWeight * table.weights[i]!);
    }
  }
  for (const [term, weight] of associates) bag.set(term, weight);
  return bag;
}

/**
 * Whether a query is a description: no paper it names by title or author, and enough words
 * outside hyphenated compounds ("knee-ankle", "optical-flow-based": a run of them is pasted from
 * one paper's text, not a description of it).
 */
export function isDescription(groups: readonly TermGroup[], compounds: readonly Compound[], named: boolean): boolean {
  if (named) return false;
  const inCompounds = new Set(compounds.flatMap((c) => c.words));
  return groups.filter((g) => !g.optional && !g.fields && !inCompounds.has(g.word)).length >= DESCRIPTION_WORDS;
}

/**
 * The words' answer and the meaning stage's as one list, by reciprocal-rank fusion: a paper
 * scores 1 / ({@link FUSION_K} + its place) in each list it is in (from 0), ties by the store's
 * document number (`keyOf`). A paper both lists hold keeps the words' candidate.
 * @example fuseByRank(byWords, byMeaning, (d) => view.storeDoc(d))[0]
 */
export function fuseByRank<C extends { doc: number; score: number }>(byWords: readonly C[], byMeaning: readonly C[], keyOf: (doc: number) => number): C[] {
  const fused = new Map<number, { c: C; value: number }>();
  const add = (list: readonly C[]) =>
    list.forEach((c, place) => {
      const held = fused.get(c.doc);
      if (held) held.value += 1 / (FUSION_K + place);
      else fused.set(c.doc, { c, value: 1 / (FUSION_K + place) });
    });
  add(byWords);
  add(byMeaning);
  return [...fused.values()].sort((a, b) => b.value - a.value || keyOf(a.c.doc) - keyOf(b.c.doc)).map(({ c, value }) => ({ ...c, score: value }));
}

/** A description's bag as words weighed by what they tell (weight × rarity), weightiest first: what its snippets look for. */
export function meaningWords(bag: ReadonlyMap<number, number>, view: IndexView): WeightedWord[] {
  return [...bag]
    .map(([term, weight]) => {
      const word = view.termString(term);
      return { word, forms: [word], weight: weight * idf(view.df[term] ?? 0, view.liveCount) };
    })
    .sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : 1))
    .slice(0, SNIPPET_WORDS);
}

/**
 * The query a pasted text (an abstract, a paragraph) is searched as: its {@link TEXT_WORDS} most
 * telling words (rarity in the library × 1 + ln of their count in the text), stop words out, in
 * the order of the text; empty when it has no word the library knows.
 * @example textQuery('We propose a siamese network for signature verification ...', view)
 */
export function textQuery(text: string, view: IndexView): string {
  const counts = new Map<string, number>();
  for (const word of tokenize(text)) if (word.length > 1 && !STOPWORDS.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const telling = [...counts]
    .map(([word, count]) => {
      const term = view.vocab.id(word);
      const df = term === undefined ? 0 : (view.df[term] ?? 0);
      return { word, value: df === 0 ? 0 : idf(df, view.liveCount) * (1 + Math.log(count)) };
    })
    .filter((w) => w.value > 0)
    .sort((a, b) => b.value - a.value || (a.word < b.word ? -1 : 1))
    .slice(0, TEXT_WORDS);
  const kept = new Set(telling.map((w) => w.word));
  // A trailing space: the last word is whole, not a prefix being typed.
  return `${[...counts.keys()].filter((w) => kept.has(w)).join(' ')} `;
}
