/**
 * Reading a posting list (`src/search/index/postings.ts`): the binary searches the scorer and
 * the query planner stand on, checked against a plain scan on random ascending lists.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positionOf, postingsBefore } from '../../../src/search/index/postings.js';

/** An ascending list of distinct documents, and a range of it. */
const lists = fc
  .uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 300 })
  .map((docs) => Uint32Array.from(docs.sort((a, b) => a - b)))
  .chain((docs) => fc.tuple(fc.constant(docs), fc.integer({ min: 0, max: docs.length }), fc.integer({ min: 0, max: docs.length })))
  .map(([docs, a, b]) => ({ docs, from: Math.min(a, b), to: Math.max(a, b) }));

describe('postingsBefore', () => {
  it('finds where the documents below a limit end', () => {
    const docs = Uint32Array.of(2, 5, 9, 12);
    expect(postingsBefore(docs, 0, 4, 0)).toBe(0);
    expect(postingsBefore(docs, 0, 4, 9)).toBe(2);
    expect(postingsBefore(docs, 1, 4, 10)).toBe(3);
    expect(postingsBefore(docs, 0, 4, 100)).toBe(4);
    expect(postingsBefore(docs, 3, 3, 100)).toBe(3);
  });

  it('agrees with a scan from the cursor', () => {
    fc.assert(
      fc.property(lists, fc.integer({ min: 0, max: 5100 }), ({ docs, from, to }, limit) => {
        let scan = from;
        while (scan < to && docs[scan]! < limit) scan++;
        expect(postingsBefore(docs, from, to, limit)).toBe(scan);
      }),
    );
  });
});

describe('positionOf', () => {
  it('agrees with a scan of the range', () => {
    fc.assert(
      fc.property(lists, fc.integer({ min: 0, max: 5100 }), ({ docs, from, to }, doc) => {
        const at = docs.subarray(from, to).indexOf(doc);
        expect(positionOf(docs, from, to, doc)).toBe(at < 0 ? -1 : from + at);
      }),
    );
  });
});
