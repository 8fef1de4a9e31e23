/**
 * A merge of segments writes what a full build over the same live papers holds: the same
 * vocabulary, postings, forward index and title order, whatever order the inputs' documents come
 * in. An import's chunks mostly follow one another; a later chunk holding new versions of older
 * papers interleaves with the ones before, and so does a delta merged into a base.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSegment } from '../../src/search/index/build.js';
import { openSnapshot } from '../../src/search/index/format.js';
import { mergeSegments, type MergeInput } from '../../src/search/index/merge.js';
import type { SegmentData } from '../../src/search/index/types.js';
import { indexRow } from './helpers/indexRow.js';
import type { IndexRow } from '../../src/store/papers.js';

const dir = mkdtempSync(join(tmpdir(), 'paperscout-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORDS = ['graph', 'neural', 'networks', 'learning', 'diffusion', 'model', 'robust', 'attention', 'zebra', 'łódź'];
const options = { generation: 1, taxonomyHash: 'h', topicIds: ['t1'] };

const paperArb = fc.record({
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')),
  abstract: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }).map((w) => w.join(' ')),
});

/** Every section a search reads terms, postings and titles from, as plain arrays. */
function sections(s: SegmentData) {
  const text = (c: { bytes: Uint8Array; offsets: Uint32Array }) => [Array.from(c.bytes), Array.from(c.offsets)];
  return {
    storeDocs: Array.from(s.storeDocs),
    terms: text(s.terms),
    docFreq: Array.from(s.docFreq),
    fields: s.fields.map((f) => [Array.from(f.offsets), Array.from(f.docs), Array.from(f.tfs), Array.from(f.lengths)]),
    forward: text(s.forward),
    titles: text(s.titles),
    titleKeys: text(s.titleKeys),
    titleOrder: Array.from(s.titleOrder),
  };
}

describe('mergeSegments', () => {
  it('writes what a full build holds, with later inputs holding new versions of older papers', () => {
    let serial = 0;
    fc.assert(
      fc.property(
        fc.array(paperArb, { minLength: 1, maxLength: 30 }),
        // Inputs after the first: each paper's store document, and its new text.
        fc.array(fc.array(fc.tuple(fc.nat(40), paperArb), { maxLength: 15 }), { minLength: 1, maxLength: 5 }),
        (first, later) => {
          const latest = new Map<number, IndexRow>();
          const batches: IndexRow[][] = [first.map((p, i) => indexRow(i + 1, p.title, { abstract: p.abstract }))];
          for (const batch of later) {
            const byDoc = new Map<number, IndexRow>();
            for (const [n, p] of batch) byDoc.set(n + 1, indexRow(n + 1, p.title, { abstract: p.abstract }));
            batches.push([...byDoc.values()].sort((a, b) => a.doc - b.doc));
          }
          for (const batch of batches) for (const row of batch) latest.set(row.doc, row);
          const segments = batches.map((rows) => buildSegment(rows, options));
          // A paper is live in the last input that holds it.
          const inputs: MergeInput[] = segments.map((segment, i) => ({
            segment,
            dead: Uint8Array.from(segment.storeDocs, (doc) => (segments.slice(i + 1).some((later) => later.storeDocs.includes(doc)) ? 1 : 0)),
          }));
          const path = join(dir, `merged-${serial++}.bin`);
          mergeSegments(inputs, path, options);
          const merged = openSnapshot(path).segment;
          const full = buildSegment([...latest.values()].sort((a, b) => a.doc - b.doc), options);
          expect(sections(merged)).toEqual(sections(full));
        },
      ),
      { numRuns: 150, seed: 21 },
    );
  });
});
