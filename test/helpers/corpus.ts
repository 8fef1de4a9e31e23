/**
 * Test libraries over small corpora written for the tests (test/fixtures), through the real
 * import pipeline, store and index.
 */
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { msg } from '../../src/i18n/index.js';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../src/store/sqlite/papers.js';
import type { PaperStore } from '../../src/store/papers.js';
import { ingestPaths } from '../../src/ingest/ingest.js';
import { SegmentBuilder } from '../../src/search/index/build.js';
import { SearchEngine } from '../../src/search/engine.js';
import { IndexView } from '../../src/search/index/view.js';

export const FIXTURE_PAPERS = fileURLToPath(new URL('../fixtures/papers.jsonl', import.meta.url));
export const silentLog = pino({ level: 'silent' });

/** An in-memory store holding the papers of `paths`, with topics from `classify`. */
export async function storeOf(paths: string[] = [FIXTURE_PAPERS], classify: (p: { title: string }) => string[] = () => [], now = new Date('2026-01-01T00:00:00Z')): Promise<PaperStore> {
  const store = new SqlitePaperStore(openDatabase(':memory:'), { ownsDatabase: true });
  const summary = await ingestPaths(paths, { store, classify, now: () => now });
  if (summary.rejected > 0 || summary.failedFiles.length > 0) throw new Error(`fixture has bad records: ${JSON.stringify(summary)}`);
  return store;
}

/** A search engine over a store, resolving topics by id only. */
export async function engineOf(store: PaperStore, topicIds: string[] = []): Promise<{ engine: SearchEngine; view: IndexView }> {
  const builder = new SegmentBuilder({ generation: await store.generation(), taxonomyHash: 'test', topicIds });
  for await (const row of store.rowsForIndex()) builder.add(row);
  const view = new IndexView(builder.finish());
  return { engine: engineOver(view, store, topicIds), view };
}

/** A search engine over an index view of `store`'s papers. */
export function engineOver(view: IndexView, store: PaperStore, topicIds: string[] = []): SearchEngine {
  return new SearchEngine(view, {
    lookupAbstracts: (docs) => store.abstractsOf(docs),
    resolveTopic: (name) => (topicIds.includes(name) ? { id: name } : { error: msg('search.noTopic', { name }) }),
  });
}
