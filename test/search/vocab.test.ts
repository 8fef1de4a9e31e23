import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedDistance } from '../../src/search/titleMatch.js';
import { Vocabulary, buildTermTrie, typoBudget } from '../../src/search/vocab.js';

function vocabOf(words: string[]): Vocabulary & { terms: string[] } {
  const terms = [...new Set(words)].sort((a, b) => (a < b ? -1 : 1));
  const vocab = new Vocabulary({
    base: { trie: buildTermTrie(terms), termCount: terms.length },
    extras: { terms: [], ids: new Uint32Array(0), trie: buildTermTrie([]), byWord: new Map() },
    df: new Uint32Array(terms.length).fill(1),
    termString: (id) => terms[id]!,
  });
  return Object.assign(vocab, { terms });
}

/** Optimal string alignment distance, computed plainly. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

describe('Vocabulary', () => {
  const vocab = vocabOf(['learn', 'learned', 'learning', 'leaning', 'segmentation', 'segmentations', 'model', 'models', 'modal', 'mode']);

  it('finds a term by exact spelling', () => {
    expect(vocab.terms[vocab.id('learning')!]).toBe('learning');
    expect(vocab.id('learnin')).toBeUndefined();
  });

  it('gives the range of terms with a prefix', () => {
    expect(vocab.withPrefix('lea').map((t) => vocab.term(t)).sort()).toEqual(['leaning', 'learn', 'learned', 'learning']);
    expect(vocab.withPrefix('zzz')).toEqual([]);
    expect(vocab.withPrefix('learn').map((t) => vocab.term(t)).sort()).toEqual(['learn', 'learned', 'learning']);
  });

  it('counts a swap of adjacent letters as one typo', () => {
    const found = vocab.fuzzy('segemntation', 1).map((m) => [vocab.terms[m.term], m.distance]);
    expect(found).toEqual([['segmentation', 1]]);
  });

  it('finds insertions, deletions and substitutions within the budget, not beyond', () => {
    const names = (word: string, k: number) => vocab.fuzzy(word, k).map((m) => vocab.terms[m.term]).sort();
    expect(names('modle', 1)).toEqual(['mode', 'model']);
    expect(names('lerning', 1)).toEqual(['leaning', 'learning']);
    expect(names('lrning', 1)).toEqual([]);
    expect(names('lrning', 2)).toEqual(['leaning', 'learning']);
  });

  it('agrees with a plain edit-distance computation on random vocabularies', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength: 1, maxLength: 7 });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 60 }), word, fc.integer({ min: 1, max: 2 }), (words, query, k) => {
        const v = vocabOf(words);
        const got = v.fuzzy(query, k).map((m) => `${v.terms[m.term]}:${m.distance}`).sort();
        const want = v.terms
          .map((t) => [t, osa(query, t)] as const)
          .filter(([, d]) => d > 0 && d <= k)
          .map(([t, d]) => `${t}:${d}`)
          .sort();
        expect(got).toEqual(want);
      }),
      { numRuns: 400 },
    );
  });

  it('boundedDistance matches the plain computation up to its bound', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        expect(boundedDistance(a, b, 2)).toBe(Math.min(osa(a, b), 3));
      }),
      { numRuns: 400 },
    );
  });
});

describe('typoBudget', () => {
  it.each([
    ['gan', 0],
    ['gans', 0],
    ['model', 1],
    ['learning', 1],
    ['attention', 2],
    ['segmentation', 2],
  ])('%s → %i', (word, budget) => {
    expect(typoBudget(word)).toBe(budget);
  });
});
