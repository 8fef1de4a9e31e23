import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import pino from 'pino';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SegmentBuilder } from '../../src/search/index/build.js';
import { entryBytes, forEachForward, textAt } from '../../src/search/index/columns.js';
import { canMap } from '../../src/search/index/mmap.js';
import { IndexView } from '../../src/search/index/view.js';
import { FORMAT_VERSION, MAGIC, SnapshotError, openSnapshot, readSnapshotInfo, verifySnapshot } from '../../src/search/index/format.js';
import { SetupError } from '../../src/errors.js';
import type { SegmentData } from '../../src/search/index/types.js';
import { writeSegmentFile } from '../../src/search/index/writer.js';
import { openIndex, settleIndex, withIndexLock } from '../../src/search/indexFile.js';
import type { PaperStore } from '../../src/store/papers.js';
import { TEXT_VERSION } from '../../src/text.js';
import { silentLog, storeOf } from '../helpers/corpus.js';
import { zombie } from '../helpers/zombie.js';

let dir: string;
let store: PaperStore;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paperscout-index-'));
  store = await storeOf();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const source = () => ({ store, topicIds: ['a', 'b'], taxonomyHash: 'h1' });
const record = (title: string) => ({ title, authors: ['Ann Lee'], abstract: '', venue: '', year: 2026, status: '', keywords: [], labels: [], links: {}, externalIds: {} });
async function addPaper(title: string): Promise<void> {
  await store.write((tx) => tx.upsertBatch([record(title)], { source: 't', classify: () => [], now: new Date() }));
}
/** The whole store as one segment, as a full rebuild makes it. */
async function build(): Promise<SegmentData> {
  const builder = new SegmentBuilder({ generation: await store.generation(), taxonomyHash: 'h1', topicIds: ['a', 'b'] });
  for await (const row of store.rowsForIndex()) builder.add(row);
  return builder.finish();
}

describe('index snapshot', () => {
  it('maps back exactly what was written', async () => {
    const data = await build();
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

  it('reads forward entries and title keys from the file, not the mapping, and gives the same answers', async () => {
    for (const t of ['Sparse attention', 'Graph networks for physics', 'A survey of attention', 'A survey of graphs', 'A survey of graphs, revisited']) await addPaper(t);
    const data = await build();
    const path = join(dir, 'index.bin');
    writeSegmentFile(path, data);
    const { segment: back } = openSnapshot(path);
    expect(back.forward.file !== undefined).toBe(canMap());
    expect(back.titleKeys.file !== undefined).toBe(canMap());
    const [mapped, built] = [new IndexView(back), new IndexView(data)];
    for (const prefix of ['a', 'a survey', 'a survey of graphs', 'graph', 'sparse attention', 'zzz', 'a survey of attention and more']) {
      for (const max of [1, 2, 25, 300]) {
        const key = Buffer.from(prefix);
        expect(mapped.titlePrefix(key, max), `${prefix} ${max}`).toEqual(built.titlePrefix(key, max));
      }
    }
    expect(mapped.titlePrefix(Buffer.from('a survey'), 300).map((d) => mapped.title(d))).toEqual(['A survey of attention', 'A survey of graphs', 'A survey of graphs, revisited']);
    for (let d = 0; d < data.docCount; d++) {
      expect([...entryBytes(back.forward, d)]).toEqual([...entryBytes(data.forward, d)]);
      const terms: number[] = [];
      forEachForward(back.forward, d, (t) => terms.push(t));
      expect(terms.length).toBeGreaterThan(0);
      expect(terms).toEqual([...terms].sort((a, b) => a - b));
    }
  });

  it('follows the store with a delta, and is rebuilt for a new taxonomy or a damaged file', async () => {
    const path = join(dir, 'index.bin');
    const first = await openIndex(source(), path, silentLog);
    expect(readSnapshotInfo(path)?.generation).toBe(first.generation);

    await addPaper('A New Paper');
    const second = await openIndex(source(), path, silentLog);
    expect(second.liveCount).toBe(first.liveCount + 1);
    // The new paper is a delta: the snapshot on disk is unchanged.
    expect(second.deltaDocs).toBe(1);
    expect(readSnapshotInfo(path)?.generation).toBe(first.generation);

    const third = await openIndex({ ...source(), taxonomyHash: 'h2' }, path, silentLog);
    expect(third.taxonomyHash).toBe('h2');
    expect(third.deltaDocs).toBe(0);

    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, whole.length - 100));
    expect(readSnapshotInfo(path)).toBeDefined();
    expect(() => openSnapshot(path)).toThrow(/truncated/);
    expect((await openIndex({ ...source(), taxonomyHash: 'h2' }, path, silentLog)).liveCount).toBe(second.liveCount);
  });

  it('rejects files that are not snapshots, and rebuilds a snapshot of an earlier format', async () => {
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'hello');
    expect(() => openSnapshot(junk)).toThrow(/not a Paper Scout index snapshot/);
    const old = join(dir, 'index.bin');
    writeFileSync(old, Buffer.concat([Buffer.from('PSIDX\u0002\n\0', 'latin1'), Buffer.alloc(64)]));
    expect(() => openSnapshot(old)).toThrow(expect.objectContaining({ problem: 'outdated', message: `index snapshot format 2, expected ${FORMAT_VERSION}` }));
    expect((await openIndex(source(), old, silentLog)).liveCount).toBe(await store.count());
    expect(() => openSnapshot(old)).not.toThrow();
  });

  it('rebuilds a format-4 snapshot (venues in 16 bits, terms of text normalization 2), as the current format', async () => {
    // Written by the format-4 code: three papers of ICML, NeurIPS and arXiv.
    const path = join(dir, 'index.bin');
    copyFileSync(fileURLToPath(new URL('../fixtures/index-format4.bin', import.meta.url)), path);
    expect(() => openSnapshot(path)).toThrow(expect.objectContaining({ problem: 'outdated', message: `index snapshot format 4, expected ${FORMAT_VERSION}` }));
    // Opened as the bot and the CLI open it: rebuilt from the library.
    await addPaper('Graph neural networks');
    expect((await openIndex(source(), path, silentLog)).liveCount).toBe(await store.count());
    expect(readFileSync(path).toString('latin1', 0, 8)).toBe(MAGIC);
  });

  it('rebuilds a format-6 snapshot (no tracks or citation counts), as the current format', async () => {
    // Written by the format-6 code: three papers of CVPR, NeurIPS and arXiv.
    const path = join(dir, 'index.bin');
    copyFileSync(fileURLToPath(new URL('../fixtures/index-format6.bin', import.meta.url)), path);
    expect(() => openSnapshot(path)).toThrow(expect.objectContaining({ problem: 'outdated', message: `index snapshot format 6, expected ${FORMAT_VERSION}` }));
    const view = await openIndex(source(), path, silentLog);
    expect(view.liveCount).toBe(await store.count());
    const { segment } = openSnapshot(path);
    expect(segment.track.length).toBe(segment.docCount);
    expect(segment.citedBy.length).toBe(segment.docCount);
  });

  it('rebuilds a snapshot written with another text normalization (its terms were folded otherwise)', async () => {
    const path = join(dir, 'index.bin');
    await openIndex(source(), path, silentLog);
    // The same file as an older version would have written it: text version 1, a good header checksum.
    const file = readFileSync(path);
    const length = file.readUInt32LE(8);
    const header = file.toString('utf8', 16, 16 + length);
    expect(header).toContain(`"textVersion":${TEXT_VERSION}`);
    Buffer.from(header.replace(`"textVersion":${TEXT_VERSION}`, '"textVersion":1'), 'utf8').copy(file, 16);
    file.writeUInt32LE(crc32(file.subarray(16, 16 + length)), 12);
    writeFileSync(path, file);
    expect(() => openSnapshot(path)).toThrow(expect.objectContaining({ problem: 'outdated', message: `index snapshot format ${FORMAT_VERSION} (text 1), expected ${FORMAT_VERSION} (text ${TEXT_VERSION})` }));
    expect((await openIndex(source(), path, silentLog)).liveCount).toBe(await store.count());
    expect(() => openSnapshot(path)).not.toThrow();
  });

  it('merges into the snapshot once the changes since it pass the threshold', async () => {
    const path = join(dir, 'index.bin');
    expect(await settleIndex(source(), path, silentLog)).toBe('built');
    await addPaper('One More Paper');
    expect(await settleIndex(source(), path, silentLog)).toBe('delta');
    const bulk = Array.from({ length: 5_001 }, (_, i) => record(`Bulk Paper ${i}`));
    await store.write((tx) => tx.upsertBatch(bulk, { source: 't', classify: () => [], now: new Date() }));
    expect(await settleIndex(source(), path, silentLog)).toBe('merged');
    expect(readSnapshotInfo(path)).toEqual({ generation: await store.generation(), taxonomyHash: 'h1', docCount: await store.count() });
  });
});

describe('the index lock', () => {
  it('is taken over from a writer killed with SIGKILL and not yet reaped, and its temp file goes', async () => {
    const path = join(dir, 'index.bin');
    const killed = await zombie();
    try {
      writeFileSync(`${path}.lock`, `${killed.pid}\n`);
      writeFileSync(`${path}.${killed.pid}.tmp`, 'half a snapshot');
      expect(await withIndexLock(path, () => 'ran')).toBe('ran');
      writeSegmentFile(path, await build());
      expect(existsSync(`${path}.${killed.pid}.tmp`)).toBe(false);
      // A live holder keeps it.
      writeFileSync(`${path}.lock`, `${process.ppid}\n`);
      expect(await withIndexLock(path, () => 'ran')).toBe('busy');
    } finally {
      killed.dispose();
    }
  });
});

describe('a damaged snapshot', () => {
  /** Why the file is refused: at open (header, small sections, shape), or by the background check. */
  const damagedReason = async (path: string): Promise<string> => {
    try {
      openSnapshot(path);
    } catch (err) {
      expect(err).toBeInstanceOf(SnapshotError);
      expect((err as SnapshotError).problem).toBe('damaged');
      return (err as Error).message;
    }
    const found = await verifySnapshot(path);
    if (found) return found;
    throw new Error('the damaged snapshot passed every check');
  };
  const sectionsOf = (file: Buffer): Array<{ name: string; offset: number; bytes: number }> => {
    const length = file.readUInt32LE(8);
    const header = JSON.parse(file.toString('utf8', 16, 16 + length)) as { sections: Array<{ name: string; offset: number; bytes: number }> };
    const bodyStart = (16 + length + 7) & ~7;
    return header.sections.map((s) => ({ ...s, offset: bodyStart + s.offset }));
  };

  it('random bytes over the middle of the file, its size unchanged, are refused by checksum', async () => {
    const path = join(dir, 'index.bin');
    writeSegmentFile(path, await build());
    const file = readFileSync(path);
    const size = file.length;
    randomBytes(Math.floor(size / 2)).copy(file, Math.floor(size / 4));
    writeFileSync(path, file);
    expect(statSync(path).size).toBe(size);
    expect(await damagedReason(path)).toMatch(/fails its checksum|names a document|do not fit together/);
  });

  it('one changed byte in any section, or in the header, is found', async () => {
    const path = join(dir, 'index.bin');
    writeSegmentFile(path, await build());
    const intact = readFileSync(path);
    for (const section of sectionsOf(intact).filter((s) => s.bytes > 0)) {
      const file = Buffer.from(intact);
      file[section.offset + Math.floor(section.bytes / 2)]! ^= 0x40;
      writeFileSync(path, file);
      expect(await damagedReason(path), section.name).toMatch(new RegExp(`section ${section.name.replace('.', '\\.')} fails its checksum|names a document|do not fit together`));
    }
    const file = Buffer.from(intact);
    file[20]! ^= 0x01; // inside the JSON header
    writeFileSync(path, file);
    expect(await damagedReason(path)).toBe('the header fails its checksum');
    expect(readSnapshotInfo(path)).toBeUndefined();
  });

  it('arrays whose shape would send a query out of bounds or into a loop are refused even with good checksums', async () => {
    const path = join(dir, 'index.bin');
    const cases: Array<[(d: SegmentData) => void, RegExp]> = [
      [(d) => d.fields[3]!.offsets.set([d.fields[3]!.offsets[2]! + 5], 1), /posting offsets do not fit together/],
      [(d) => d.fields[0]!.offsets.set([0xffffffff], d.docFreq.length), /posting offsets do not fit together/],
      [(d) => d.fields[1]!.docs.set([d.docCount + 7], 0), /^f1\.docs names a document that does not exist$/],
      [(d) => d.titleOrder.set([d.docCount], 0), /^titleOrder names a document that does not exist$/],
    ];
    for (const [damage, reason] of cases) {
      const data = await build();
      damage(data);
      writeSegmentFile(path, data);
      expect(await damagedReason(path)).toMatch(reason);
    }
  });

  it('is rebuilt by the CLI with one warning line saying why', async () => {
    const path = join(dir, 'index.bin');
    const lines: Array<{ level: number; msg: string }> = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
    const first = await openIndex(source(), path, log);
    const file = readFileSync(path);
    file[20]! ^= 0x01;
    writeFileSync(path, file);
    const rebuilt = await openIndex(source(), path, log);
    expect(rebuilt.liveCount).toBe(first.liveCount);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40 });
    expect(lines[0]!.msg).toBe(`The search index ${path} is damaged (the header fails its checksum): rebuilding it from the library`);
    expect(openSnapshot(path).segment.docCount).toBe(first.liveCount);
  });

  it('a directory in its place is one line naming the path and the fix', async () => {
    const path = join(dir, 'index.bin');
    mkdirSync(path);
    const expected = `${path} is a directory, not the search index file: remove it (rm -r ${path}) and start again; Paper Scout rebuilds the index from the library.`;
    await expect(openIndex(source(), path, silentLog)).rejects.toThrow(new SetupError(expected));
    const data = await build();
    expect(() => writeSegmentFile(path, data)).toThrow(SetupError);
  });
});
