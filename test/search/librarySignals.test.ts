/**
 * The library's own signals (librarySignals.ts) come from the columns the index computed when it
 * was built (the names a paper goes by, its authors' keys): the first broad query reads no title
 * and no author, and a snapshot, a merge and a view over segments give what a full build gives.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildSegment } from '../../src/search/index/build.js';
import { openSnapshot } from '../../src/search/index/format.js';
import { mergeSegments } from '../../src/search/index/merge.js';
import { IndexView } from '../../src/search/index/view.js';
import { writeSegmentFile } from '../../src/search/index/writer.js';
import { LibrarySignalIndex, authorKey, authorKeysOf, keepSignals } from '../../src/search/librarySignals.js';
import { readDerived } from '../../src/search/index/derived.js';
import type { IndexRow } from '../../src/store/papers.js';
import { indexRow } from './helpers/indexRow.js';

const options = { generation: 1, taxonomyHash: 'h', topicIds: [] };
const dir = mkdtempSync(join(tmpdir(), 'library-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A paper named by later abstracts ("Zoom", and "TRPO" by its leading phrase), and an author of many papers. */
function library(): IndexRow[] {
  const rows: IndexRow[] = [];
  const add = (title: string, over: Partial<IndexRow> = {}) => rows.push(indexRow(rows.length + 1, title, over));
  add('Zoom: Graph Neural Networks That Zoom', { year: 2018, authors: ['Grace Hopper', 'Anonymous'] });
  add('Trust Region Policy Optimization', { year: 2015, authors: ['Solo Writer'] });
  for (let i = 0; i < 12; i++) add(`Pelican Migration Study ${i}`, { year: 2019 + (i % 5), abstract: i % 2 === 0 ? 'We extend Zoom to birds.' : 'Birds learn with TRPO.' });
  for (let i = 0; i < 6; i++) add(`Compilers, Part ${i}`, { year: 2000 + i, authors: ['Grace Hopper'] });
  return rows;
}

/** Each live paper's signals, by its id. */
function signalsById(view: IndexView): Map<string, [number, number]> {
  const { named, prolific } = new LibrarySignalIndex(view).signals();
  const out = new Map<string, [number, number]>();
  view.forEachLive((g) => out.set(view.id(g), [named[g]!, prolific[g]!]));
  return out;
}

describe('LibrarySignalIndex', () => {
  it('reads no title and no author: the index computed what it needs when it was built', () => {
    const view = new IndexView(buildSegment(library(), options));
    const title = vi.spyOn(view, 'title');
    const authors = vi.spyOn(view, 'authors');
    const signals = signalsById(view);
    expect(title).not.toHaveBeenCalled();
    expect(authors).not.toHaveBeenCalled();
    // Named by six later abstracts each, its own counted out: ln(1 + 5).
    expect(signals.get('p1')![0]).toBeCloseTo(Math.log(6), 5);
    expect(signals.get('p2')![0]).toBeCloseTo(Math.log(6), 5);
    // Grace Hopper has 7 papers; the anonymous co-author counts for nothing.
    expect(signals.get('p1')![1]).toBeGreaterThan(signals.get('p2')![1]);
  });

  it('gives the same signals over a snapshot, a merge and segments as over a full build', () => {
    const rows = library();
    const built = signalsById(new IndexView(buildSegment(rows, options)));
    const file = join(dir, 'full.bin');
    writeSegmentFile(file, buildSegment(rows, options));
    expect(signalsById(new IndexView(openSnapshot(file).segment))).toEqual(built);
    // The base lacks the later papers; a delta brings them, and Grace Hopper's first paper again.
    const base = buildSegment(rows.slice(0, 8), options);
    const delta = buildSegment([rows[0]!, ...rows.slice(8)], { ...options, generation: 2 });
    const view = new IndexView(base);
    view.apply(delta);
    expect(signalsById(view)).toEqual(built);
    const merged = join(dir, 'merged.bin');
    mergeSegments([{ segment: base, dead: Uint8Array.from({ length: base.docCount }, (_, d) => (d === 0 ? 1 : 0)) }, { segment: delta }], merged, { ...options, generation: 2 });
    expect(signalsById(new IndexView(openSnapshot(merged).segment))).toEqual(built);
  });

  it('reads the signals a writer of the base kept beside its snapshot, and computes them when the view drifted', () => {
    const rows = library();
    const file = join(dir, 'kept.bin');
    writeSegmentFile(file, buildSegment(rows, options));
    keepSignals(openSnapshot(file).segment);
    expect(existsSync(`${file}.signals`)).toBe(true);
    const view = new IndexView(openSnapshot(file).segment);
    const built = signalsById(new IndexView(buildSegment(rows, options)));
    // Kept: the first broad query reads them, and reads no segment's names.
    const names = vi.spyOn(LibrarySignalIndex.prototype as unknown as { namesOf: () => unknown }, 'namesOf');
    expect(signalsById(view)).toEqual(built);
    expect(names).not.toHaveBeenCalled();
    names.mockRestore();
    // Another snapshot's file is not read; a view with a delta computes them, as a full build would.
    expect(readDerived({ ...view.base, snapshot: { path: file, key: 'another' } }, 'signals')).toBeUndefined();
    const grown = new IndexView(openSnapshot(file).segment);
    grown.apply(buildSegment(rows.slice(0, 5).map((r, i) => ({ ...r, doc: 100 + i, id: `n${i}` })), { ...options, generation: 2 }));
    const computed = vi.spyOn(LibrarySignalIndex.prototype as unknown as { namesOf: () => unknown }, 'namesOf');
    new LibrarySignalIndex(grown).signals();
    expect(computed).toHaveBeenCalled();
    computed.mockRestore();
  });
});

describe('authorKeysOf', () => {
  it('keys each named author, and no empty or anonymous one', () => {
    expect(authorKeysOf('ada lovelace; ;anonymous;grace hopper')).toEqual([authorKey('ada lovelace'), authorKey('grace hopper')]);
    expect(authorKey('ada lovelace')).not.toBe(authorKey('grace hopper'));
    expect(Number.isSafeInteger(authorKey('josé núñez'))).toBe(true);
  });
});
