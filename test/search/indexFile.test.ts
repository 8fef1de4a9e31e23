import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSegment } from '../../src/search/index/build.js';
import { textAt } from '../../src/search/index/columns.js';
import { openSnapshot, readSnapshotInfo, verifySnapshot } from '../../src/search/index/format.js';
import { writeSegmentFile } from '../../src/search/index/writer.js';
import { openIndex, settleIndex } from '../../src/search/indexFile.js';
import type { PaperStore } from '../../src/store/paperStore.js';
import { silentLog, storeOf } from '../helpers/corpus.js';

let dir: string;
let store: PaperStore;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paperscout-index-'));
  store = await storeOf();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const source = () => ({ store, topicIds: ['a', 'b'], taxonomyHash: 'h1' });
const record = (title: string) => ({ title, authors: ['Ann Lee'], abstract: '', venue: '', year: 2026, status: '', keywords: [], labels: [], links: {}, externalIds: {} });
function addPaper(title: string): void {
  store.transaction(() => {
    const gen = store.beginGeneration();
    store.upsert(record(title), gen, { source: 't', classify: () => [], now: new Date() });
  });
}

describe('index snapshot', () => {
  it('maps back exactly what was written', () => {
    const data = buildSegment(store.rowsForIndex(), { generation: store.generation(), taxonomyHash: 'h1', topicIds: ['a', 'b'] });
    const path = join(dir, 'index.bin');
    writeSegmentFile(path, data);
    const { segment: back } = openSnapshot(path);
    expect([...back.terms.bytes]).toEqual([...data.terms.bytes]);
    expect(textAt(back.titles, 0)).toBe(textAt(data.titles, 0));
    expect([...back.fields[3]!.docs]).toEqual([...data.fields[3]!.docs]);
    expect([...back.trie.end]).toEqual([...data.trie.end]);
    expect([...back.forward.bytes]).toEqual([...data.forward.bytes]);
    expect(back.fields.map((f) => f.lengthSum)).toEqual(data.fields.map((f) => f.lengthSum));
    expect(readSnapshotInfo(path)).toEqual({ generation: data.generation, taxonomyHash: 'h1', docCount: data.docCount });
  });

  it('follows the store with a delta, and is rebuilt for a new taxonomy or a damaged file', () => {
    const path = join(dir, 'index.bin');
    const first = openIndex(source(), path, silentLog);
    expect(readSnapshotInfo(path)?.generation).toBe(first.generation);

    addPaper('A New Paper');
    const second = openIndex(source(), path, silentLog);
    expect(second.liveCount).toBe(first.liveCount + 1);
    // The new paper is a delta: the snapshot on disk is unchanged.
    expect(second.deltaDocs).toBe(1);
    expect(readSnapshotInfo(path)?.generation).toBe(first.generation);

    const third = openIndex({ ...source(), taxonomyHash: 'h2' }, path, silentLog);
    expect(third.taxonomyHash).toBe('h2');
    expect(third.deltaDocs).toBe(0);

    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, whole.length - 100));
    expect(readSnapshotInfo(path)).toBeDefined();
    expect(() => openSnapshot(path)).toThrow(/truncated/);
    expect(openIndex({ ...source(), taxonomyHash: 'h2' }, path, silentLog).liveCount).toBe(second.liveCount);
  });

  it('detects a damaged section by its checksum', async () => {
    const path = join(dir, 'index.bin');
    openIndex(source(), path, silentLog);
    const bytes = readFileSync(path);
    bytes[bytes.length - 20]! ^= 0xff;
    writeFileSync(path, bytes);
    expect(() => openSnapshot(path)).toThrow(/damaged/);
    expect(openIndex(source(), path, silentLog).liveCount).toBe(store.count());
    expect(await verifySnapshot(path)).toBeUndefined();
  });

  it('rejects files that are not snapshots, and rebuilds a snapshot of the first format', () => {
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'hello');
    expect(() => openSnapshot(junk)).toThrow(/not a Paper Scout index snapshot/);
    const old = join(dir, 'index.bin');
    writeFileSync(old, Buffer.concat([Buffer.from('PSIDX\u0001\n\0', 'latin1'), Buffer.alloc(64)]));
    expect(() => openSnapshot(old)).toThrow(/format 1/);
    expect(openIndex(source(), old, silentLog).liveCount).toBe(store.count());
    expect(() => openSnapshot(old)).not.toThrow();
  });

  it('says clearly when index.bin is a directory', () => {
    const path = join(dir, 'index.bin');
    mkdirSync(path);
    expect(() => openSnapshot(path)).toThrow(/EISDIR|directory/);
  });

  it('merges into the snapshot once the changes since it pass the threshold', () => {
    const path = join(dir, 'index.bin');
    expect(settleIndex(source(), path, silentLog)).toBe('built');
    addPaper('One More Paper');
    expect(settleIndex(source(), path, silentLog)).toBe('delta');
    store.transaction(() => {
      const gen = store.beginGeneration();
      for (let i = 0; i < 5_001; i++) store.upsert(record(`Bulk Paper ${i}`), gen, { source: 't', classify: () => [], now: new Date() });
    });
    expect(settleIndex(source(), path, silentLog)).toBe('merged');
    expect(readSnapshotInfo(path)).toEqual({ generation: store.generation(), taxonomyHash: 'h1', docCount: store.count() });
  });
});
