/**
 * Author-name queries: whether the words of a query are an author's name, exactly or contained.
 */
import { typoBudget, type Vocabulary } from './vocab.js';

/**
 * For each query word, the author-name words it can stand for: itself, or its typo corrections
 * when no name has it as typed. Completions do not count ("Li" is not "Lin").
 * @example authorNameForms(['yoshua', 'bengoi'], vocab) // [Set{'yoshua'}, Set{'bengio'}]
 */
export function authorNameForms(words: readonly string[], vocab: Vocabulary): Array<ReadonlySet<string>> {
  return words.map((word) => {
    const budget = typoBudget(word);
    if (vocab.id(word) !== undefined || budget === 0) return new Set([word]);
    for (let distance = 1; distance <= budget; distance++) {
      const found = vocab.fuzzy(word, distance);
      if (found.length > 0) return new Set(found.map((m) => vocab.term(m.term)));
    }
    return new Set([word]);
  });
}

/**
 * 2 if one of the authors (normalized names joined by `;`) is exactly the query words in order,
 * 1 if one contains them all, else 0.
 * @example authorNameMatch('yoshua bengio;aaron courville', [new Set(['yoshua']), new Set(['bengio'])]) // 2
 */
export function authorNameMatch(authors: string, forms: ReadonlyArray<ReadonlySet<string>>): number {
  let best = 0;
  for (const name of authors.split(';')) {
    const parts = name.split(' ');
    if (!forms.every((set) => parts.some((p) => set.has(p)))) continue;
    if (parts.length === forms.length && parts.every((p, i) => forms[i]!.has(p))) return 2;
    best = 1;
  }
  return best;
}
