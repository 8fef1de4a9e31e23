/**
 * The section table is the snapshot's layout for the writer, the reader and a merge: the reader
 * must put each section back into the segment where the writer took it from, and the lengths a
 * merge lays out from counts must be the lengths a build's arrays have.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSegment } from '../../../src/search/index/build.js';
import { openSnapshot, readHeader } from '../../../src/search/index/format.js';
import { canMap } from '../../../src/search/index/mmap.js';
import { SECTIONS, type SectionCounts } from '../../../src/search/index/sections.js';
import type { SegmentData } from '../../../src/search/index/types.js';
import { writeSegmentFile } from '../../../src/search/index/writer.js';
import { indexRow } from '../helpers/indexRow.js';

const dir = mkdtempSync(join(tmpdir(), 'paperscout-sections-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOPICS = Array.from({ length: 40 }, (_, i) => `t${i}`);
const segment = (): SegmentData =>
  buildSegment(
    Array.from({ length: 30 }, (_, i) =>
      indexRow(i * 3 + 1, `Paper ${i} on graph ${['networks', 'diffusion', 'łódź'][i % 3]}`, {
        abstract: `robust attention model number ${i}`,
        authors: ['Ann Lee', `Bo Chen ${i % 4}`],
        keywords: i % 2 ? ['zebra'] : [],
        venue: ['ICML', 'NeurIPS', 'arXiv'][i % 3]!,
        year: 2018 + (i % 7),
        topics: [TOPICS[i % 40]!, TOPICS[(i * 7) % 40]!],
      }),
    ),
    { generation: 3, taxonomyHash: 'h', topicIds: TOPICS },
  );

describe('the section table', () => {
  it('is the file order, each section on an 8-byte boundary', () => {
    const path = join(dir, 'order.bin');
    writeSegmentFile(path, segment());
    const { header, bodyStart } = readHeader(path);
    expect(header.sections.map((s) => [s.name, s.kind])).toEqual(SECTIONS.map((s) => [s.name, s.kind]));
    expect(new Set(SECTIONS.map((s) => s.name)).size).toBe(SECTIONS.length);
    for (const s of header.sections) expect((bodyStart + s.offset) % 8, s.name).toBe(0);
  });

  it('gives the reader each section where the writer took it from', () => {
    const path = join(dir, 'roundtrip.bin');
    const built = segment();
    writeSegmentFile(path, built);
    const { header, bodyStart } = readHeader(path);
    const { segment: opened } = openSnapshot(path);
    for (const section of SECTIONS) {
      const info = header.sections.find((s) => s.name === section.name)!;
      const view = section.of(opened);
      // The very bytes of that section in the file, not a section of the same length.
      expect(view.byteOffset, section.name).toBe(bodyStart + info.offset);
      expect(view.byteLength, section.name).toBe(info.bytes);
      expect(Array.from(view), section.name).toEqual(Array.from(section.of(built)));
    }
  });

  it('has the columns it marks positional read by position when the file is mapped, and no others', () => {
    const path = join(dir, 'positional.bin');
    writeSegmentFile(path, segment());
    const { segment: opened } = openSnapshot(path);
    const columns = ['terms', 'ids', 'titles', 'authors', 'names', 'authorIds', 'titleKeys', 'forward'] as const;
    const positional = SECTIONS.filter((s) => s.positional).map((s) => s.name);
    expect(positional).toEqual(['titleKeys.bytes', 'forward.bytes']);
    for (const name of columns) expect(opened[name].file !== undefined, name).toBe(canMap() && positional.includes(`${name}.bytes`));
  });

  it('computes from the counts the lengths a build gives its arrays', () => {
    const built = segment();
    const counts: SectionCounts = {
      docs: built.docCount,
      terms: built.docFreq.length,
      topicWords: built.topicWords,
      authorKeys: built.authorKeys.length,
      trieNodes: built.trie.chars.length,
      postings: built.fields.map((f) => f.docs.length),
      textBytes: {
        terms: built.terms.bytes.length,
        ids: built.ids.bytes.length,
        titles: built.titles.bytes.length,
        authors: built.authors.bytes.length,
        names: built.names.bytes.length,
        authorIds: built.authorIds.bytes.length,
        titleKeys: built.titleKeys.bytes.length,
        forward: built.forward.bytes.length,
      },
    };
    for (const section of SECTIONS) expect(section.of(built).length, section.name).toBe(section.length(counts));
  });

  it('refuses a header that gives a section another element type, as damaged', () => {
    const path = join(dir, 'kind.bin');
    writeSegmentFile(path, segment());
    const file = readFileSync(path);
    const length = file.readUInt32LE(8);
    const header = file.toString('utf8', 16, 16 + length);
    const changed = header.replace('{"name":"years","kind":"u16"', '{"name":"years","kind":"u32"');
    expect(changed).not.toBe(header);
    Buffer.from(changed, 'utf8').copy(file, 16);
    file.writeUInt32LE(crc32(file.subarray(16, 16 + length)), 12);
    writeFileSync(path, file);
    expect(() => openSnapshot(path)).toThrow(expect.objectContaining({ problem: 'damaged', message: 'section years is not of u16 elements' }));
  });
});
