import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSegment } from '../src/search/index/build.js';
import { textAt } from '../src/search/index/columns.js';
import { TermTable, forEachAsciiWord, forEachWord, hashOf } from '../src/termTable.js';
import { Field } from '../src/search/index/types.js';
import { compoundTerm, compoundsOf } from '../src/search/compounds.js';
import { STOPWORDS, isAscii, tokenize } from '../src/text.js';
import { indexRow } from './search/helpers/indexRow.js';

describe('TermTable', () => {
  it('gives each word one id, looked up whole or where it lies in a text, past many growths', () => {
    const table = new TermTable();
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}x`);
    const ids = words.map((w) => table.idOf(w));
    expect(ids).toEqual(words.map((_, i) => i));
    const text = ` ${words.join(' ')} `;
    let at = 1;
    for (const [i, w] of words.entries()) {
      expect(table.idAt(text, at, at + w.length, hashOf(text, at, at + w.length))).toBe(i);
      at += w.length + 1;
    }
    expect(table.size).toBe(words.length);
    expect(table.words[12_345]).toBe(words[12_345]);
  });

  it('tells apart words of the same hash', () => {
    // Ids are checked by the words' characters, not only their hashes: with every word given
    // the same hash, each still finds its own id.
    const table = new TermTable();
    const words = ['graph', 'grape', 'graphs', 'g', ''];
    for (const w of words) table.idAt(w, 0, w.length, 7);
    expect(words.map((w) => table.idAt(w, 0, w.length, 7))).toEqual([0, 1, 2, 3, 4]);
    expect(table.size).toBe(5);
  });
});

const pieces = ['Graph', 'neural', 'NETWORKS', 'the', 'of', '3D', 'x86-64', 'a'.repeat(45), 'Łukasz', 'Søren', 'β-VAE', '日本語', 'naïve', 'K', '\u212a', '—', ',', '  ', '\n', '$', 'don\u2019t', "it's", 'l2-norm'];
const textArb = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme-ascii', maxLength: 50 })), { maxLength: 40 }).map((p) => p.join(' '));

/** A document's words in one field, by term, read back from a built segment. */
function fieldWords(segment: ReturnType<typeof buildSegment>, field: Field, doc: number): Map<string, number> {
  const { offsets, docs, tfs } = segment.fields[field]!;
  const found = new Map<string, number>();
  for (let t = 0; t + 1 < offsets.length; t++) {
    for (let i = offsets[t]!; i < offsets[t + 1]!; i++) if (docs[i] === doc) found.set(textAt(segment.terms, t), tfs[i]!);
  }
  return found;
}

describe('the segment builder', () => {
  it('indexes an abstract and keywords as tokenize splits them, stopwords left out, with their compounds', () => {
    const stop = new Set(STOPWORDS);
    fc.assert(
      fc.property(fc.array(fc.tuple(textArb, textArb), { minLength: 1, maxLength: 4 }), (texts) => {
        const rows = texts.map(([abstract, keyword], i) => indexRow(i + 1, `Paper ${i}`, { abstract, keywords: [keyword, 'graph'] }));
        const segment = buildSegment(rows, { generation: 1, taxonomyHash: 'h', topicIds: [] });
        rows.forEach((row, doc) => {
          for (const [field, text] of [[Field.Abstract, row.abstract], [Field.Keywords, row.keywords.join(' ')]] as const) {
            const expected = new Map<string, number>();
            const words = tokenize(text).filter((w) => !stop.has(w));
            // And each hyphenated compound's joined form, as a query reads it (counted in no length).
            const compounds = compoundsOf(text).map((c) => compoundTerm(c.joined));
            for (const w of [...words, ...compounds]) expected.set(w, Math.min(255, (expected.get(w) ?? 0) + 1));
            expect(fieldWords(segment, field, doc), text).toEqual(expected);
            expect(segment.fields[field]!.lengths[doc], text).toBe(words.length);
          }
        });
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});

/** The words a scan reports, in order, each checked to come with its hash. */
function scannedWords(scan: typeof forEachWord, text: string): string[] {
  const words: string[] = [];
  scan(text, (within, start, end, hash) => {
    expect(hash).toBe(hashOf(within, start, end));
    words.push(within.slice(start, end));
  });
  return words;
}

describe('forEachAsciiWord', () => {
  it('finds the words tokenize finds in ASCII text, in order, cut where tokenize cuts them, with their hashes', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        fc.pre(isAscii(text));
        expect(scannedWords(forEachAsciiWord, text)).toEqual(tokenize(text));
      }),
      { numRuns: 500, seed: 3 },
    );
  });
});

describe('forEachWord', () => {
  // Text that is not all ASCII is read in stretches between spaces; these pieces fold, lowercase
  // or normalize differently by context or by length.
  // ™, ℝ, 𝐀 and ㎒ decompose to uppercase ASCII, which folding lowercases (before text
  // normalization 3, tokenize kept it only when something else in the text folded to more than
  // ASCII, '→' or '日本語').
  const unusual = ['İstanbul', 'ΟΔΟΣ', "ΟΔΟΣ'Σ", 'Σ.', 'ﬁnite', '½', '\u0301', 'e\u0301', '\u00a0', '\t', '\r\n', 'α', 'αβ', 'x\u2019s', '\ud801\udc00', '™', 'Intel™', 'f:ℝⁿ', 'ℝ', '\ud835\udc00', '5㎒', '→'];
  const mixedArb = fc
    .array(fc.oneof(fc.constantFrom(...pieces, ...unusual), fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme-ascii', maxLength: 50 })), { maxLength: 40 })
    .chain((parts) => fc.array(fc.constantFrom(' ', '', '\n', '\u00a0'), { minLength: parts.length, maxLength: parts.length }).map((gaps) => parts.map((p, i) => p + gaps[i]).join('')));

  it('finds the words tokenize finds in any text, in order, with their hashes', () => {
    fc.assert(
      fc.property(mixedArb, (text) => {
        expect(scannedWords(forEachWord, text)).toEqual(tokenize(text));
      }),
      { numRuns: 2000, seed: 11 },
    );
  });

  it.each([
    'We don\u2019t use “scare quotes” — or ΟΔΟΣ’s rule — in 3D ﬁnite-element K-means (½ of runs).',
    'Maps f:ℝⁿ → ℝ fast',
    'Intel™ Xeon — fast',
    'Intel™ Xeon, fast',
    '5㎒ “band”',
  ])('reads %j word for word as tokenize does', (text) => {
    const words: string[] = [];
    forEachWord(text, (within, start, end) => void words.push(within.slice(start, end)));
    expect(words).toEqual(tokenize(text));
  });
});
