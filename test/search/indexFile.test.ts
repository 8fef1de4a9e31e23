import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SetupError } from '../../src/errors.js';
import { buildIndex } from '../../src/search/index/build.js';
import { SnapshotError, readSnapshot, readSnapshotInfo, writeSnapshot } from '../../src/search/index/snapshot.js';
import type { IndexData } from '../../src/search/index/types.js';
import { loadOrBuildIndex } from '../../src/search/indexFile.js';
import type { PaperStore } from '../../src/store/papers.js';
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
  it('reads back exactly what was written', async () => {
    const data = await buildIndex(store.rowsForIndex(), { generation: await store.generation(), taxonomyHash: 'h1', topicIds: ['a', 'b'] });
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

  it('is rebuilt when the store has changed, the taxonomy changed, or the file is damaged', async () => {
    const path = join(dir, 'index.bin');
    const first = await loadOrBuildIndex(source(), path, silentLog);
    expect(readSnapshotInfo(path)?.generation).toBe(first.generation);

    await store.write((tx) =>
      tx.upsertBatch([{ title: 'A New Paper', authors: ['Ann Lee'], abstract: '', venue: '', year: 2026, status: '', keywords: [], labels: [], links: {}, externalIds: {} }], { source: 't', classify: () => [], now: new Date() }),
    );
    const second = await loadOrBuildIndex(source(), path, silentLog);
    expect(second.docCount).toBe(first.docCount + 1);

    const third = await loadOrBuildIndex({ ...source(), taxonomyHash: 'h2' }, path, silentLog);
    expect(third.taxonomyHash).toBe('h2');

    writeFileSync(path, readFileSync(path).subarray(0, 1000));
    expect(readSnapshotInfo(path)).toBeUndefined();
    expect((await loadOrBuildIndex({ ...source(), taxonomyHash: 'h2' }, path, silentLog)).docCount).toBe(second.docCount);
  });

  it('rejects files that are not snapshots', async () => {
    const path = join(dir, 'junk.bin');
    writeFileSync(path, 'hello');
    expect(() => readSnapshot(path)).toThrow(/not a Paper Scout index snapshot/);
  });
});

describe('a damaged snapshot', () => {
  const build = async (): Promise<IndexData> => await buildIndex(store.rowsForIndex(), { generation: await store.generation(), taxonomyHash: 'h1', topicIds: ['a', 'b'] });
  const damagedReason = (path: string): string => {
    try {
      readSnapshot(path);
    } catch (err) {
      expect(err).toBeInstanceOf(SnapshotError);
      expect((err as SnapshotError).problem).toBe('damaged');
      return (err as Error).message;
    }
    throw new Error('the damaged snapshot was loaded');
  };
  /** The section names and spans of a snapshot, from its (intact) header. */
  const sectionsOf = (file: Buffer): Array<{ name: string; offset: number; bytes: number }> => {
    const length = file.readUInt32LE(8);
    const header = JSON.parse(file.toString('utf8', 16, 16 + length)) as { sections: Array<{ name: string; offset: number; bytes: number }> };
    const bodyStart = (16 + length + 7) & ~7;
    return header.sections.map((s) => ({ ...s, offset: bodyStart + s.offset }));
  };

  it('random bytes over the middle of the file, its size unchanged, are refused by checksum', async () => {
    const path = join(dir, 'index.bin');
    writeSnapshot(path, await build());
    const file = readFileSync(path);
    const size = file.length;
    randomBytes(Math.floor(size / 2)).copy(file, Math.floor(size / 4));
    writeFileSync(path, file);
    expect(statSync(path).size).toBe(size);
    expect(damagedReason(path)).toMatch(/^section \S+ fails its checksum$/);
  });

  it('one changed byte in any section, or in the header, is found', async () => {
    const path = join(dir, 'index.bin');
    writeSnapshot(path, await build());
    const intact = readFileSync(path);
    for (const section of sectionsOf(intact).filter((s) => s.bytes > 0)) {
      const file = Buffer.from(intact);
      file[section.offset + Math.floor(section.bytes / 2)]! ^= 0x40;
      writeFileSync(path, file);
      expect(damagedReason(path)).toBe(`section ${section.name} fails its checksum`);
    }
    const file = Buffer.from(intact);
    file[20]! ^= 0x01; // inside the JSON header
    writeFileSync(path, file);
    expect(damagedReason(path)).toBe('the header fails its checksum');
    expect(readSnapshotInfo(path)).toBeUndefined();
  });

  it('arrays whose shape would send a query out of bounds or into a loop are refused even with good checksums', async () => {
    const path = join(dir, 'index.bin');
    const cases: Array<[string, (d: IndexData) => void, RegExp]> = [
      ['offsets running backwards', (d) => d.fields[3]!.offsets.set([d.fields[3]!.offsets[2]! + 5], 1), /^abstract postings: offsets go backwards at term 2$/],
      ['a posting range past the end', (d) => d.fields[0]!.offsets.set([0xffffffff], d.terms.length), /^title postings: offsets do not span the postings$/],
      ['a posting for no document', (d) => d.fields[1]!.docs.set([d.docCount + 7], 0), /^authors postings: a posting names a document that does not exist$/],
      ['a trie node ending before itself', (d) => d.trie.end.set([1], 1), /^term trie node 1 ends outside its subtree$/],
      ['a title order past the documents', (d) => d.titleOrder.set([d.docCount], 0), /^titleOrder names a document that does not exist$/],
    ];
    for (const [, damage, reason] of cases) {
      const data = await build();
      damage(data);
      writeSnapshot(path, data);
      expect(damagedReason(path)).toMatch(reason);
    }
  });

  it('is rebuilt by the CLI with one warning line saying why', async () => {
    const path = join(dir, 'index.bin');
    const lines: Array<{ level: number; msg: string }> = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
    const first = await loadOrBuildIndex(source(), path, log);
    const file = readFileSync(path);
    randomBytes(Math.floor(file.length / 2)).copy(file, Math.floor(file.length / 4));
    writeFileSync(path, file);
    const rebuilt = await loadOrBuildIndex(source(), path, log);
    expect(rebuilt.docCount).toBe(first.docCount);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40 });
    expect(lines[0]!.msg).toMatch(new RegExp(`^The search index ${path} is damaged \\(section \\S+ fails its checksum\\): rebuilding it from the library$`));
    expect(readSnapshot(path).docCount).toBe(first.docCount);
  });

  it('a snapshot of the previous format is rebuilt, not called damaged', async () => {
    const path = join(dir, 'index.bin');
    writeSnapshot(path, await build());
    const file = readFileSync(path);
    file[5] = 1;
    writeFileSync(path, file);
    expect(() => readSnapshot(path)).toThrow(expect.objectContaining({ problem: 'outdated', message: 'index snapshot format 1, expected 3' }));
  });

  it('a directory in its place is one line naming the path and the fix', async () => {
    const path = join(dir, 'index.bin');
    mkdirSync(path);
    const expected = `${path} is a directory, not the search index file: remove it (rm -r ${path}) and start again; Paper Scout rebuilds the index from the library.`;
    await expect(loadOrBuildIndex(source(), path, silentLog)).rejects.toThrow(new SetupError(expected));
    const data = await build();
    expect(() => writeSnapshot(path, data)).toThrow(SetupError);
  });
});
