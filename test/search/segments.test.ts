/**
 * A segmented index (base snapshot + deltas + masks, merged now and then) answers exactly as a
 * full rebuild over the same papers: same ids, same order, same scores, for every kind of query,
 * over random sequences of additions, updates and deletions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { PaperRecord } from '../../src/papers/model.js';
import { SegmentBuilder } from '../../src/search/index/build.js';
import { openSnapshot } from '../../src/search/index/format.js';
import { IndexView } from '../../src/search/index/view.js';
import { catchUp, catchUpNow, mergeIndex } from '../../src/search/indexFile.js';
import type { PaperStore, PaperWriter } from '../../src/store/papers.js';
import { engineOver, silentLog } from '../helpers/corpus.js';
import { BACKENDS, type TestStore } from '../store/contract/backends.js';

const dir = mkdtempSync(join(tmpdir(), 'paperscout-segments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORDS = ['graph', 'neural', 'networks', 'learning', 'diffusion', 'model', 'models', 'robust', 'attention', 'transformer', 'transformers', 'quantum', 'kernel', 'bandit', 'policy', 'segmentation', 'segmentaton', 'language', 'causal', 'zebra', 'ünïcode', 'łódź'];
const NAMES = ['Ann Lee', 'Bo Chen', 'Yoshua Bengio', 'Ada Lovelace', 'Li Wei', 'Marta Kwiatkowska', 'José Núñez'];
const TOPICS = ['t1', 't2', 't3'];
const QUERIES = [
  'graph neural networks', 'learning', 'diffusion model', 'atention', 'transformers', 'segmentation', 'segm', 'gr', 'mo',
  'quantum kernel bandit', 'Ann Lee', 'bengio', 'author:"Y. Bengio"', 'robust -graph', 'topic:t1', 'topic:t2 learning', 'year:2020..2022',
  'venue:icml', 'sort:new learning', '"neural networks"', 'lodz', 'unicode', 'causal language models', 'zebra',
];

const paperArb = fc.record({
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')),
  abstract: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 20 }).map((w) => w.join(' ')),
  authors: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
  year: fc.integer({ min: 2018, max: 2024 }),
  venue: fc.constantFrom<string>('ICML', 'NeurIPS', 'arXiv', ''),
  topic: fc.constantFrom(...TOPICS),
});
type GenPaper = typeof paperArb extends fc.Arbitrary<infer T> ? T : never;
const opArb = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('add' as const), paper: paperArb }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), paper: paperArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('catchUp' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('check' as const) }) },
);

let serial = 0;
function recordOf(p: GenPaper, key: string): PaperRecord & { topic: string } {
  return { title: p.title, authors: p.authors, abstract: p.abstract, venue: p.venue, year: p.year, status: '', keywords: [], labels: [], links: {}, externalIds: {}, sourceKey: key, topic: p.topic };
}

/** Papers written as a test's one-record imports: source `test`, topics from the record. */
function upsertIn(tx: PaperWriter, p: GenPaper, key: string, day: number): Promise<string> {
  const r = recordOf(p, key);
  return tx.upsertBatch([r], { source: 'test', classify: () => [r.topic], now: new Date(Date.UTC(2026, 0, day)) }).then(([result]) => {
    if (!result || 'refused' in result) throw new Error(`refused: ${JSON.stringify(result)}`);
    return result.id;
  });
}

/** The index a full rebuild makes of the store now. */
async function rebuiltView(store: PaperStore): Promise<IndexView> {
  const builder = new SegmentBuilder({ generation: await store.generation(), taxonomyHash: 'h', topicIds: TOPICS });
  for await (const row of store.rowsForIndex()) builder.add(row);
  return new IndexView(builder.finish());
}

/** Property runs per store (the PostgreSQL runs each make a database of their own). */
const RUNS = { sqlite: 60, postgres: 12 } as const;

describe.each(BACKENDS)('segments on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let stores: TestStore[] = [];
  const openStore = async (): Promise<PaperStore> => {
    const created = await backend.create();
    stores.push(created);
    return (await created.instance()).papers;
  };
  const disposeStores = async () => {
    for (const s of stores) await s.dispose();
    stores = [];
  };

  it('break ties on the store document, not on which segment holds a paper', async () => {
    try {
      const store = await openStore();
      const path = join(dir, `ties-${backend.name}.bin`);
      const source = { store, topicIds: TOPICS, taxonomyHash: 'h' };
      const paper = { title: 'graph kernel', abstract: 'zebra', authors: ['Ann Lee'], year: 2020, venue: 'ICML', topic: 't1' };
      const write = (key: string, p: typeof paper) => store.write((tx) => upsertIn(tx, p, key, 1));
      await write('a', paper);
      await write('b', { ...paper, authors: ['Bo Chen'] });
      await mergeIndex(source, path, silentLog);
      const view = new IndexView(openSnapshot(path).segment);
      // Paper a changes (keeping its store document) and then changes back: it now lives in a delta.
      await write('a', { ...paper, abstract: 'zebra zebra' });
      await write('a', paper);
      await catchUpNow(view, store);
      expect(view.deltaDocs).toBe(1);
      const hits = (await engineOver(view, store, TOPICS).search('graph kernel')).hits.map((h) => h.id);
      expect(hits).toEqual(['a', 'b']);
    } finally {
      await disposeStores();
    }
  });

  it('answer exactly as a full rebuild, through adds, updates, deletes, catch-ups and merges', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(paperArb, { minLength: 3, maxLength: 12 }), fc.array(opArb, { minLength: 5, maxLength: 25 }), async (initial, ops) => {
        try {
          const path = join(dir, `index-${backend.name}-${serial++}.bin`);
          const store = await openStore();
          const source = { store, topicIds: TOPICS, taxonomyHash: 'h' };
          const keys: string[] = [];
          const add = (tx: PaperWriter, p: GenPaper) => upsertIn(tx, p, `k${keys.length}`, 1 + Math.floor(keys.length / 3)).then((id) => void keys.push(id));
          await store.write(async (tx) => {
            for (const p of initial) await add(tx, p);
          });
          await mergeIndex(source, path, silentLog);
          let view = new IndexView(openSnapshot(path).segment);

          const check = async () => {
            const rebuilt = await rebuiltView(store);
            const ours = engineOver(view, store, TOPICS);
            const full = engineOver(rebuilt, store, TOPICS);
            expect(view.liveCount).toBe(rebuilt.liveCount);
            // Sorting any set of live documents newest first keeps the order the walk visits them in.
            const walked: number[] = [];
            view.walkNewest((g) => walked.push(g) > 0);
            const every = walked.filter((_, i) => i % 3 !== 1);
            expect(Array.from(view.sortNewest([...every].reverse()))).toEqual(every);
            // Digests ask for papers first seen after a time: none, a few, most or all of them.
            for (const day of [0, 2, 5, 9, 14, 60]) {
              const firstSeenAfter = new Date(Date.UTC(2026, 0, day));
              const expected: string[] = [];
              rebuilt.forEachLive((g) => void (rebuilt.firstSeen(g) > firstSeenAfter.getTime() / 1000 && expected.push(rebuilt.id(g))));
              const all = await ours.search('year:2000..2100', { limit: 200, firstSeenAfter });
              expect(all.hits.map((h) => h.id).sort(), `after day ${day}`).toEqual(expected.sort());
              for (const q of ['topic:t1', 'learning', 'venue:icml']) {
                const a = await ours.search(q, { limit: 200, firstSeenAfter });
                const b = await full.search(q, { limit: 200, firstSeenAfter });
                expect(a.hits.map((h) => [h.id, h.score]), `${q} after day ${day}`).toEqual(b.hits.map((h) => [h.id, h.score]));
                expect(a.total, q).toBe(b.total);
              }
            }
            for (const q of QUERIES) {
              const a = await ours.search(q, { limit: 200 });
              const b = await full.search(q, { limit: 200 });
              expect(a.hits.map((h) => [h.id, h.score]), q).toEqual(b.hits.map((h) => [h.id, h.score]));
              expect(a.total, q).toBe(b.total);
              expect(ours.suggest(q, 10), q).toEqual(full.suggest(q, 10));
            }
          };

          for (const op of ops) {
            if (op.kind === 'add') await store.write((tx) => add(tx, op.paper));
            else if (op.kind === 'update' && keys.length > 0) {
              const id = keys[op.pick % keys.length]!;
              const key = (await store.get(id))?.sourceKey;
              // An update keeps the paper's store document: its new version lands in a newer segment.
              if (key) await store.write((tx) => upsertIn(tx, op.paper, key, 1 + keys.length));
            } else if (op.kind === 'delete' && keys.length > 0) await store.write((tx) => tx.remove(keys[op.pick % keys.length]!));
            else if (op.kind === 'catchUp') {
              // Queries while a catch-up is under way see the index as it was, whole.
              const before = view.generation;
              const pending = catchUp(view, store);
              if (view.generation === before && (await store.generation()) === before) await check();
              await pending;
            } else if (op.kind === 'merge') {
              await catchUpNow(view, store);
              const old = view;
              await mergeIndex(source, path, silentLog);
              // The old mapping keeps answering after the new file replaced it…
              await check();
              // …and the new snapshot answers the same.
              view = new IndexView(openSnapshot(path).segment);
              await catchUpNow(view, store);
              expect(view.liveCount).toBe(old.liveCount);
            } else if (op.kind === 'check') {
              await catchUpNow(view, store);
              await check();
            }
          }
          await catchUpNow(view, store);
          await check();
        } finally {
          await disposeStores();
        }
      }),
      { numRuns: RUNS[backend.name], seed: 9 },
    );
  }, 240_000);
});
