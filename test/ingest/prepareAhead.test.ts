/**
 * Records prepared ahead: a large import sends each batch to a thread that works out its topics,
 * identifiers and new-paper rows as soon as it is read, and writes it once the batch before is
 * written. The library must come out as it does with every record prepared on the import
 * thread, in the same order, and a store failure in a queued write must still end the import.
 * The thread itself runs the compiled build (a worker thread runs JavaScript).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestPaths, type IngestDeps } from '../../src/ingest/ingest.js';
import { mapGeneric } from '../../src/ingest/formats/generic.js';
import type { PaperRecord } from '../../src/papers/model.js';
import { prepareRecord } from '../../src/store/paperRecords.js';
import { createClassifier, type ClassifiablePaper } from '../../src/topics/classify.js';
import { defaultTaxonomyPath, loadTaxonomy } from '../../src/topics/taxonomy.js';
import { FIXTURES, NOW, openTestStore, type TestStore } from './helpers/testStore.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAPERS = join(ROOT, 'test/fixtures/papers.jsonl');
const classify = createClassifier(loadTaxonomy(defaultTaxonomyPath()));

let stores: TestStore[] = [];
beforeEach(() => {
  stores = [];
});
afterEach(() => stores.forEach((s) => s.cleanup()));
const open = () => {
  const s = openTestStore();
  stores.push(s);
  return s;
};

/** Every stored row but the generation it was written under (batching may differ). */
const rowsOf = (t: TestStore) => t.db.prepare('SELECT id, title, topics, venue, year, status, first_seen, content_hash FROM papers ORDER BY doc').all();

/** Answers like a thread: later, in turns that interleave with the import's reading. */
const aheadWithDelay = (calls: { ahead: number }) => async (records: readonly PaperRecord[]) => {
  calls.ahead++;
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
  return records.map((record) => prepareRecord(record, classify(record)));
};

describe('ingest with records prepared ahead', () => {
  it('stores the same library in the same order, classifying on the import thread only what merged', async () => {
    const paths = [PAPERS, join(FIXTURES, 'paperlists'), PAPERS];
    const plain = open();
    const syncOnly = await ingestPaths(paths, { store: plain.store, classify, now: NOW, batchSize: 3 });

    const ahead = open();
    const calls = { ahead: 0, here: 0 };
    const progress: number[] = [];
    const summary = await ingestPaths(paths, {
      store: ahead.store,
      classify: (paper: ClassifiablePaper) => (calls.here++, classify(paper)),
      prepareAhead: aheadWithDelay(calls),
      now: NOW,
      batchSize: 3,
      onProgress: (p) => progress.push(p.records),
    });
    expect(summary).toEqual(syncOnly);
    expect(rowsOf(ahead)).toEqual(rowsOf(plain));
    expect(calls.ahead).toBeGreaterThan(5);
    // New papers are never classified on the import thread (their rows come prepared); only
    // records merged into stored papers can be (the second reading of papers.jsonl).
    const fixturePapers = readFileSync(PAPERS, 'utf8').split('\n').filter((l) => l.trim()).length;
    expect(calls.here).toBeLessThanOrEqual(fixturePapers);
    const fresh = open();
    const freshCalls = { ahead: 0, here: 0 };
    await ingestPaths(paths.slice(0, 2), {
      store: fresh.store,
      classify: (paper: ClassifiablePaper) => (freshCalls.here++, classify(paper)),
      prepareAhead: aheadWithDelay(freshCalls),
      now: NOW,
      batchSize: 3,
    });
    expect(freshCalls.here).toBe(0);
    // Progress is heard after each write, in order.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('falls back to the import thread’s classifier when the thread cannot answer', async () => {
    const plain = open();
    await ingestPaths([PAPERS], { store: plain.store, classify, now: NOW, batchSize: 4 });
    const ahead = open();
    await ingestPaths([PAPERS], { store: ahead.store, classify, prepareAhead: async () => undefined, now: NOW, batchSize: 4 });
    expect(rowsOf(ahead)).toEqual(rowsOf(plain));
  });

  it('ends the import with the store’s failure when a queued write fails, and writes nothing after it', async () => {
    const t = open();
    let writes = 0;
    const store = new Proxy(t.store, {
      get(target, key, receiver) {
        if (key !== 'write') return Reflect.get(target, key, receiver);
        return (fn: Parameters<typeof target.write>[0]) => {
          if (++writes === 3) return Promise.reject(new Error('disk full'));
          return target.write(fn);
        };
      },
    });
    const deps: IngestDeps = { store, classify, prepareAhead: aheadWithDelay({ ahead: 0 }), now: NOW, batchSize: 2 };
    await expect(ingestPaths([PAPERS], deps)).rejects.toThrow('disk full');
    expect(writes).toBe(3);
    expect(rowsOf(t)).toHaveLength(4);
  });
});

describe('PrepareThread (compiled build)', () => {
  const load = async () =>
    (await import(join(ROOT, 'dist/src/ingest/prepareThread.js'))) as typeof import('../../src/ingest/prepareThread.js');
  const records = readFileSync(PAPERS, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => mapGeneric(JSON.parse(l), 'papers'))
    .flatMap((mapped) => (mapped.ok ? [mapped.record] : []));

  it('prepares each record as the import thread would, with its classifier', async () => {
    const { PrepareThread } = await load();
    const thread = new PrepareThread(defaultTaxonomyPath());
    try {
      const [first, second] = await Promise.all([thread.prepare(records.slice(0, 10)), thread.prepare(records.slice(10))]);
      expect([...first!, ...second!]).toEqual(records.map((record) => prepareRecord(record, classify(record))));
      expect(records.length).toBeGreaterThan(10);
      expect(first!.some((p) => p.columns.topics !== '[]')).toBe(true);
    } finally {
      await thread.close();
    }
    expect(await thread.prepare(records)).toBeUndefined();
  });

  it('answers undefined, not an error, when its taxonomy cannot be read', async () => {
    const { PrepareThread } = await load();
    const thread = new PrepareThread(join(ROOT, 'no/such/topics.json'));
    try {
      expect(await thread.prepare(records.slice(0, 1))).toBeUndefined();
    } finally {
      await thread.close();
    }
  });
});
