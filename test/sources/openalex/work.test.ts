/**
 * OpenAlex's abstracts come as an inverted index (word → positions): read back into the text,
 * whatever words and positions a work holds, and nothing from what is not an index.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abstractFromInvertedIndex } from '../../../src/sources/openalex/work.js';

describe('abstractFromInvertedIndex', () => {
  it('puts every word back at its positions', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[A-Za-z0-9.,()-]{1,12}$/), { maxLength: 200 }), (words) => {
        const index: Record<string, number[]> = {};
        words.forEach((w, i) => (Object.hasOwn(index, w) ? index[w]!.push(i) : (index[w] = [i])));
        expect(abstractFromInvertedIndex(index)).toBe(words.join(' '));
      }),
    );
  });

  it('ignores what is not an index', () => {
    expect(abstractFromInvertedIndex(null)).toBe('');
    expect(abstractFromInvertedIndex({ a: 'x', b: [-1, 1.5, 1e9], c: [0] })).toBe('c');
  });
});
