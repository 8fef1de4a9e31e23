/**
 * The rules both citation stores share: references coded as bytes read back as written, for any
 * list of works, and damaged bytes never throw; OpenAlex ids in each form they come in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeWorks, encodeWorks, referenceNumbers } from '../../src/store/citationRows.js';
import { arxivDoi, arxivIdOfDoi, normalizeOpenAlexId, openAlexNumber } from '../../src/papers/ids.js';

describe('encodeWorks', () => {
  it('reads back any ascending list of works as written, in ~4 bytes a reference for ids of ten digits', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { maxLength: 200 }), (works) => {
        const sorted = [...works].sort((a, b) => a - b);
        expect(decodeWorks(encodeWorks(sorted))).toEqual(sorted);
      }),
    );
    const references = Array.from({ length: 40 }, (_, i) => 2_000_000_000 + i * 55_000_000);
    expect(encodeWorks(references).length / references.length).toBeLessThan(4.2);
  });

  it('gives what came before damaged bytes, and nothing for none', () => {
    expect(decodeWorks(null)).toEqual([]);
    expect(decodeWorks(Buffer.from([5, 0xa7]))).toEqual([5]);
    expect(decodeWorks(Buffer.alloc(12, 0xff))).toEqual([]);
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => void decodeWorks(bytes)));
  });
});

describe('OpenAlex ids and arXiv DOIs', () => {
  it.each([
    ['W2741809807', 2741809807],
    ['https://openalex.org/W2741809807', 2741809807],
    ['https://api.openalex.org/works/W42', 42],
    ['  w7 ', 7],
    ['W0', undefined],
    ['W012', undefined],
    ['A2741809807', undefined],
    ['W12x', undefined],
    ['https://evil.example/W1', undefined],
    ['W9999999999999999', undefined],
    ['', undefined],
  ])('%j is work %j', (raw, n) => {
    expect(openAlexNumber(raw)).toBe(n);
    expect(normalizeOpenAlexId(raw)).toBe(n === undefined ? undefined : `W${n}`);
  });

  it('maps arXiv ids to the DOIs OpenAlex knows them by, and back', () => {
    expect(arxivDoi('arXiv:1706.03762v5')).toBe('10.48550/arxiv.1706.03762');
    expect(arxivDoi('hep-th/9901001')).toBe('10.48550/arxiv.hep-th/9901001');
    expect(arxivIdOfDoi('https://doi.org/10.48550/arXiv.1706.03762')).toBe('1706.03762');
    expect(arxivIdOfDoi('10.48550/ARXIV.hep-th/9901001')).toBe('hep-th/9901001');
    expect(arxivIdOfDoi('10.1145/3197517.3201400')).toBeUndefined();
    expect(arxivIdOfDoi('10.48550/arxiv.not-an-id')).toBeUndefined();
    expect(arxivDoi('nonsense')).toBeUndefined();
  });

  it('keeps a work’s references once each, at most the limit, without the work itself', () => {
    expect(referenceNumbers(['W3', 'https://openalex.org/W1', 'W3', 'nonsense', 'W9'], 9)).toEqual({ refs: [1, 3], dropped: 3 });
  });
});
