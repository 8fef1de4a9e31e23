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
import { buildIndex } from '../../src/search/index/build.js';
import { SearchEngine } from '../../src/search/engine.js';
import type { IndexData } from '../../src/search/index/types.js';

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
export async function engineOf(store: PaperStore, topicIds: string[] = []): Promise<{ engine: SearchEngine; data: IndexData }> {
  const data = await buildIndex(store.rowsForIndex(), { generation: await store.generation(), taxonomyHash: 'test', topicIds });
  const engine = new SearchEngine(data, {
    lookupRef: async (ref) => {
      const found = await store.findByRef(ref);
      return found ? { storeDoc: found.doc, id: found.paper.id, title: found.paper.title } : undefined;
    },
    lookupAbstracts: (docs) => store.abstractsOf(docs),
    resolveTopic: (name) => (topicIds.includes(name) ? { id: name } : { error: msg('search.noTopic', { name }) }),
  });
  return { engine, data };
}
