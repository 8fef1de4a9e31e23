/**
 * A merge of segments writes the file a full build over the same live papers writes, byte for
 * byte (venues numbered alike too), whatever order the inputs' documents come in. An import's
 * chunks mostly follow one another; a later chunk holding new versions of older papers
 * interleaves with the ones before, and so does a delta merged into a base.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSegment } from '../../../src/search/index/build.js';
import { openSnapshot } from '../../../src/search/index/format.js';
import { MergeInputs, mergeSegments, type MergeInput } from '../../../src/search/index/merge.js';
import { IndexView } from '../../../src/search/index/view.js';
import type { SegmentData } from '../../../src/search/index/types.js';
import { writeSegmentFile } from '../../../src/search/index/writer.js';
import { indexRow } from '../helpers/indexRow.js';
import type { IndexRow } from '../../../src/store/papers.js';

const dir = mkdtempSync(join(tmpdir(), 'paperscout-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORDS = ['graph', 'neural', 'networks', 'learning', 'diffusion', 'model', 'robust', 'attention', 'zebra', 'łódź'];
const NAMES = ['Ann Lee', 'Bo Chen', 'José Núñez'];
const TOPICS = Array.from({ length: 40 }, (_, i) => `t${i}`);
const options = { generation: 1, taxonomyHash: 'h', topicIds: TOPICS };

const paperArb = fc.record({
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')),
  abstract: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }).map((w) => w.join(' ')),
  venue: fc.constantFrom('ICML', 'NeurIPS', 'arXiv', ''),
  year: fc.integer({ min: 2018, max: 2024 }),
  day: fc.integer({ min: 1, max: 28 }),
  authors: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
  keywords: fc.array(fc.constantFrom(...WORDS), { maxLength: 2 }),
  status: fc.constantFrom('', 'Oral', 'Reject', 'Findings', 'Workshop'),
  citedBy: fc.option(fc.nat(200_000), { nil: null }),
  topics: fc.uniqueArray(fc.constantFrom(...TOPICS), { maxLength: 3 }),
});
type Paper = typeof paperArb extends fc.Arbitrary<infer T> ? T : never;
const rowOf = (doc: number, p: Paper) =>
  indexRow(doc, p.title, { ...p, firstSeen: new Date(Date.UTC(2026, 0, p.day)).toISOString() });

let serial = 0;

/**
 * Merges `batches` (each a segment; a paper is live in the last that holds it) and checks the
 * file against a full build of the papers' latest versions, written the way a build writes it.
 */
function expectMergeAsBuilt(batches: IndexRow[][]): void {
  const latest = new Map<number, IndexRow>();
  for (const batch of batches) for (const row of batch) latest.set(row.doc, row);
  const segments = batches.map((rows) => buildSegment(rows, options));
  const inputs: MergeInput[] = segments.map((segment, i) => ({
    segment,
    dead: Uint8Array.from(segment.storeDocs, (doc) => (segments.slice(i + 1).some((later) => later.storeDocs.includes(doc)) ? 1 : 0)),
  }));
  const merged = join(dir, `merged-${serial}.bin`);
  const built = join(dir, `built-${serial++}.bin`);
  mergeSegments(inputs, merged, options);
  writeSegmentFile(built, buildSegment([...latest.values()].sort((a, b) => a.doc - b.doc), options));
  // Sections first, for a readable failure; then the whole file, header included.
  expect(sections(openSnapshot(merged).segment)).toEqual(sections(openSnapshot(built).segment));
  expect(readFileSync(merged).equals(readFileSync(built))).toBe(true);
}

/** Every section of a segment, as plain arrays. */
function sections(s: SegmentData) {
  const text = (c: { bytes: Uint8Array; offsets: Uint32Array }) => [Array.from(c.bytes), Array.from(c.offsets)];
  return {
    storeDocs: Array.from(s.storeDocs),
    terms: text(s.terms),
    trie: [s.trie.chars, s.trie.depth, s.trie.end, s.trie.term].map((a) => Array.from(a)),
    docFreq: Array.from(s.docFreq),
    fields: s.fields.map((f) => [Array.from(f.offsets), Array.from(f.docs), Array.from(f.tfs), Array.from(f.lengths), f.lengthSum]),
    forward: text(s.forward),
    ids: text(s.ids),
    titles: text(s.titles),
    authors: text(s.authors),
    names: text(s.names),
    authorKeys: Array.from(s.authorKeys),
    authorIds: text(s.authorIds),
    titleKeys: text(s.titleKeys),
    titleOrder: Array.from(s.titleOrder),
    newestOrder: Array.from(s.newestOrder),
    years: Array.from(s.years),
    standing: Array.from(s.standing),
    track: Array.from(s.track),
    citedBy: Array.from(s.citedBy),
    venues: s.venues,
    venueOf: Array.from(s.venueOf),
    firstSeen: Array.from(s.firstSeen),
    maxFirstSeen: s.maxFirstSeen,
    topicBits: Array.from(s.topicBits),
  };
}

describe('mergeSegments', () => {
  it('writes what a full build writes, with later inputs holding new versions of older papers', () => {
    fc.assert(
      fc.property(
        fc.array(paperArb, { minLength: 1, maxLength: 30 }),
        // Inputs after the first: each paper's store document, and its new text.
        fc.array(fc.array(fc.tuple(fc.nat(40), paperArb), { maxLength: 15 }), { minLength: 1, maxLength: 5 }),
        (first, later) => {
          const batches: IndexRow[][] = [first.map((p, i) => rowOf(i + 1, p))];
          for (const batch of later) {
            const byDoc = new Map<number, IndexRow>();
            for (const [n, p] of batch) byDoc.set(n + 1, rowOf(n + 1, p));
            batches.push([...byDoc.values()].sort((a, b) => a.doc - b.doc));
          }
          expectMergeAsBuilt(batches);
        },
      ),
      { numRuns: 150, seed: 21 },
    );
  });

  it('masks what a later segment holds again or deletes, as the index view does', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 30 }),
        // Later segments: store documents written, and store documents deleted with them.
        fc.array(fc.tuple(fc.uniqueArray(fc.integer({ min: 1, max: 80 }), { maxLength: 20 }), fc.uniqueArray(fc.integer({ min: 1, max: 80 }), { maxLength: 5 })), { maxLength: 6 }),
        (base, later) => {
          const segment = (docs: number[], generation: number) => buildSegment([...docs].sort((a, b) => a - b).map((d) => indexRow(d, `paper ${d}`)), { ...options, generation });
          const view = new IndexView(segment(base, 1));
          const masks = new MergeInputs(segment(base, 1));
          later.forEach(([docs, deleted], i) => {
            const s = segment(docs.filter((d) => !deleted.includes(d)), i + 2);
            view.apply(s, deleted);
            masks.apply(s, deleted);
          });
          expect(masks.generation).toBe(view.generation);
          expect(masks.inputs.map((inp) => Array.from(inp.dead))).toEqual(view.parts.map((p) => Array.from(view.dead.subarray(p.docBase, p.docBase + p.data.docCount))));
        },
      ),
      { numRuns: 200, seed: 5 },
    );
  });

  it('merges long runs: a word in thousands of papers over interleaved inputs, and term ids past one byte', () => {
    // 3,000 papers, every one with "common"; each input after the first renews every 3rd, 5th
    // or 7th paper, so its postings interleave with the ones before. 400 distinct words make
    // forward-index deltas of two bytes.
    const words = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`);
    const row = (doc: number, round: number) =>
      indexRow(doc, `common ${words[(doc * 7 + round) % 400]} ${words[(doc * 13 + round) % 400]}`, {
        abstract: Array.from({ length: 12 }, (_, k) => words[(doc * (k + 3) + round) % 400]).join(' '),
        topics: [TOPICS[doc % 40]!],
        venue: `V${(doc + round) % 9}`,
      });
    const batches = [Array.from({ length: 3000 }, (_, i) => row(i + 1, 0))];
    for (const [round, step] of [[1, 3], [2, 5], [3, 7]] as const) batches.push(Array.from({ length: Math.floor(3000 / step) }, (_, i) => row((i + 1) * step, round)));
    expectMergeAsBuilt(batches);
  });

  it('numbers more venues than 16 bits hold (a library grown by lookups names journals by the thousand)', () => {
    // 66,000 papers, each of its own venue: the last ones' numbers are past 65,535.
    const row = (doc: number) => indexRow(doc, `paper ${doc}`, { venue: `Journal ${doc}` });
    const rows = Array.from({ length: 66_000 }, (_, i) => row(i + 1));
    const expected = [1, 65_536, 65_537, 66_000].map((doc) => `Journal ${doc}`);
    const venuesOf = (segment: SegmentData) => [1, 65_536, 65_537, 66_000].map((doc) => new IndexView(segment).venue(doc - 1));
    const built = join(dir, 'venues-built.bin');
    writeSegmentFile(built, buildSegment(rows, options));
    expect(venuesOf(openSnapshot(built).segment)).toEqual(expected);
    const merged = join(dir, 'venues-merged.bin');
    const inputs = [rows.slice(0, 40_000), rows.slice(40_000)].map((part) => ({ segment: buildSegment(part, options), dead: new Uint8Array(part.length) }));
    mergeSegments(inputs, merged, options);
    expect(venuesOf(openSnapshot(merged).segment)).toEqual(expected);
  });
});
