/**
 * A snapshot renamed over index.bin while another process opens it (a merge finishing as the
 * bot loads the index): the descriptor for positional reads must be of the file that was
 * mapped, so the open starts again and serves the new snapshot whole.
 */
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSegment } from '../../../src/search/index/build.js';
import { entryBytes } from '../../../src/search/index/columns.js';
import { writeSegmentFile } from '../../../src/search/index/writer.js';
import { skipping } from '../../helpers/skip.js';
import { indexRow } from '../helpers/indexRow.js';

/** Renames this file over the mapped path right after the next map, once. */
const swap: { from?: string; to?: string } = {};
vi.mock('../../../src/search/index/mmap.js', async (importActual) => {
  const actual = await importActual<typeof import('../../../src/search/index/mmap.js')>();
  return {
    ...actual,
    mapFile: (path: string) => {
      const buffer = actual.mapFile(path);
      if (swap.from && swap.to === path) {
        renameSync(swap.from, path);
        swap.from = undefined;
      }
      return buffer;
    },
  };
});
const { canMap } = await import('../../../src/search/index/mmap.js');
/** Read into memory (no addon), a snapshot cannot be replaced under its reader: nothing to test. */
const unmapped = skipping(
  'The replaced-snapshot test',
  canMap() ? undefined : 'the mmap addon is not built (native/mmap/build/Release/mmap.node; npm ci builds it with node-gyp, which needs python3, make and a C compiler)',
  { required: true },
);
const { openSnapshot } = await import('../../../src/search/index/format.js');

const row = (doc: number, title: string, abstract: string) => indexRow(doc, title, { abstract });
const options = { generation: 1, taxonomyHash: 'h', topicIds: [] };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paperscout-replaced-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a snapshot replaced while it is opened', () => {
  it.skipIf(unmapped)('is opened again: the new one is served, its entries read from the new file', () => {
    const path = join(dir, 'index.bin');
    const older = buildSegment([row(1, 'Sparse attention', 'tokens attend to few tokens')], options);
    const newer = buildSegment(
      [row(1, 'Graph networks', 'message passing over graphs and more words'), row(2, 'Zebra finches', 'song learning in birds')],
      { ...options, generation: 2 },
    );
    writeSegmentFile(path, older);
    writeSegmentFile(join(dir, 'next.bin'), newer);
    swap.from = join(dir, 'next.bin');
    swap.to = path;
    const { segment, header } = openSnapshot(path);
    expect(swap.from).toBeUndefined();
    expect(header.generation).toBe(2);
    expect(segment.docCount).toBe(2);
    for (let d = 0; d < 2; d++) expect([...entryBytes(segment.forward, d)]).toEqual([...entryBytes(newer.forward, d)]);
  });
});
