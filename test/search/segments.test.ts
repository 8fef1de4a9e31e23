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
import { buildSegment } from '../../src/search/index/build.js';
import { openSnapshot } from '../../src/search/index/format.js';
import { IndexView } from '../../src/search/index/view.js';
import { catchUp, catchUpNow, mergeIndex } from '../../src/search/indexFile.js';
import { openDatabase } from '../../src/store/db.js';
import { PaperStore } from '../../src/store/paperStore.js';
import { engineOver, silentLog } from '../helpers/corpus.js';

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

describe('segments', () => {
  it('break ties on the store document, not on which segment holds a paper', () => {
    const store = new PaperStore(openDatabase(':memory:'));
    const path = join(dir, 'ties.bin');
    const source = { store, topicIds: TOPICS, taxonomyHash: 'h' };
    const paper = { title: 'graph kernel', abstract: 'zebra', authors: ['Ann Lee'], year: 2020, venue: 'ICML', topic: 't1' };
    const write = (key: string, p: typeof paper) =>
      store.transaction(() => {
        const gen = store.beginGeneration();
        const r = recordOf(p, key);
        store.upsert(r, gen, { source: 'test', classify: () => [r.topic], now: new Date('2026-01-01T00:00:00Z') });
      });
    write('a', paper);
    write('b', { ...paper, authors: ['Bo Chen'] });
    mergeIndex(source, path, silentLog);
    const view = new IndexView(openSnapshot(path).segment);
    // Paper a changes (keeping its store document) and then changes back: it now lives in a delta.
    write('a', { ...paper, abstract: 'zebra zebra' });
    write('a', paper);
    catchUpNow(view, store);
    expect(view.deltaDocs).toBe(1);
    const hits = engineOver(view, store, TOPICS).search('graph kernel').hits.map((h) => h.id);
    expect(hits).toEqual(['a', 'b']);
    store.close();
  });

  it('answer exactly as a full rebuild, through adds, updates, deletes, catch-ups and merges', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(paperArb, { minLength: 3, maxLength: 12 }), fc.array(opArb, { minLength: 5, maxLength: 25 }), async (initial, ops) => {
        const path = join(dir, `index-${serial++}.bin`);
        const store = new PaperStore(openDatabase(':memory:'));
        const source = { store, topicIds: TOPICS, taxonomyHash: 'h' };
        const write = (fn: (gen: number) => void) =>
          store.transaction(() => {
            const gen = store.beginGeneration();
            fn(gen);
          });
        const keys: string[] = [];
        const upsert = (p: GenPaper, key: string, gen: number) => {
          const r = recordOf(p, key);
          return store.upsert(r, gen, { source: 'test', classify: () => [r.topic], now: new Date(Date.UTC(2026, 0, 1 + keys.length)) }).id;
        };
        write((gen) => initial.forEach((p) => keys.push(upsert(p, `k${keys.length}`, gen))));
        mergeIndex(source, path, silentLog);
        let view = new IndexView(openSnapshot(path).segment);

        const check = () => {
          const rebuilt = new IndexView(buildSegment(store.rowsForIndex(), { generation: store.generation(), taxonomyHash: 'h', topicIds: TOPICS }));
          const ours = engineOver(view, store, TOPICS);
          const full = engineOver(rebuilt, store, TOPICS);
          expect(view.liveCount).toBe(rebuilt.liveCount);
          for (const q of QUERIES) {
            const a = ours.search(q, { limit: 200 });
            const b = full.search(q, { limit: 200 });
            expect(a.hits.map((h) => [h.id, h.score]), q).toEqual(b.hits.map((h) => [h.id, h.score]));
            expect(a.total, q).toBe(b.total);
            expect(ours.suggest(q, 10), q).toEqual(full.suggest(q, 10));
          }
        };

        for (const op of ops) {
          if (op.kind === 'add') write((gen) => keys.push(upsert(op.paper, `k${keys.length}`, gen)));
          else if (op.kind === 'update' && keys.length > 0) {
            const id = keys[op.pick % keys.length]!;
            const key = store.get(id)?.sourceKey;
            // An update keeps the paper's store document: its new version lands in a newer segment.
            if (key) write((gen) => upsert(op.paper, key, gen));
          } else if (op.kind === 'delete' && keys.length > 0) write((gen) => store.remove([keys[op.pick % keys.length]!], gen));
          else if (op.kind === 'catchUp') {
            // Queries while a catch-up is under way see the index as it was, whole.
            const before = view.generation;
            const pending = catchUp(view, store);
            if (view.generation === before && store.generation() === before) check();
            await pending;
          } else if (op.kind === 'merge') {
            catchUpNow(view, store);
            const old = view;
            mergeIndex(source, path, silentLog);
            // The old mapping keeps answering after the new file replaced it…
            check();
            // …and the new snapshot answers the same.
            view = new IndexView(openSnapshot(path).segment);
            catchUpNow(view, store);
            expect(view.liveCount).toBe(old.liveCount);
          } else if (op.kind === 'check') {
            catchUpNow(view, store);
            check();
          }
        }
        catchUpNow(view, store);
        check();
        store.close();
      }),
      { numRuns: 60, seed: 9 },
    );
  }, 120_000);
});
