import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/search/index/build.js';
import { readSnapshot, readSnapshotInfo, writeSnapshot } from '../../src/search/index/snapshot.js';
import { loadOrBuildIndex } from '../../src/search/indexFile.js';
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

describe('index snapshot', () => {
  it('reads back exactly what was written', () => {
    const data = buildIndex(store.rowsForIndex(), { generation: store.generation(), taxonomyHash: 'h1', topicIds: ['a', 'b'] });
    const path = join(dir, 'index.bin');
    writeSnapshot(path, data);
    const back = readSnapshot(path);
    expect(back.terms).toEqual(data.terms);
    expect(back.titles).toEqual(data.titles);
    expect(back.ids).toEqual(data.ids);
    expect([...back.fields[3]!.docs]).toEqual([...data.fields[3]!.docs]);
    expect([...back.trie.end]).toEqual([...data.trie.end]);
    expect(back.fields.map((f) => f.avgLength)).toEqual(data.fields.map((f) => f.avgLength));
    expect(readSnapshotInfo(path)).toEqual({ generation: data.generation, taxonomyHash: 'h1', docCount: data.docCount });
  });

  it('is rebuilt when the store has changed, the taxonomy changed, or the file is damaged', () => {
    const path = join(dir, 'index.bin');
    const first = loadOrBuildIndex(source(), path, silentLog);
    expect(readSnapshotInfo(path)?.generation).toBe(first.generation);

    store.transaction(() => {
      const gen = store.beginGeneration();
      store.upsert({ title: 'A New Paper', authors: ['Ann Lee'], abstract: '', venue: '', year: 2026, status: '', keywords: [], labels: [], links: {}, externalIds: {} }, gen, { source: 't', classify: () => [], now: new Date() });
    });
    const second = loadOrBuildIndex(source(), path, silentLog);
    expect(second.docCount).toBe(first.docCount + 1);

    const third = loadOrBuildIndex({ ...source(), taxonomyHash: 'h2' }, path, silentLog);
    expect(third.taxonomyHash).toBe('h2');

    writeFileSync(path, readFileSync(path).subarray(0, 1000));
    expect(readSnapshotInfo(path)).toBeUndefined();
    expect(loadOrBuildIndex({ ...source(), taxonomyHash: 'h2' }, path, silentLog).docCount).toBe(second.docCount);
  });

  it('rejects files that are not snapshots', () => {
    const path = join(dir, 'junk.bin');
    writeFileSync(path, 'hello');
    expect(() => readSnapshot(path)).toThrow(/not a Paper Scout index snapshot/);
  });
});
