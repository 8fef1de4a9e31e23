/**
 * Keeps the index snapshot in step with the store: load it when it reflects the store's current
 * generation and taxonomy, otherwise rebuild it from the store and write it back.
 */
import type { Logger } from 'pino';
import type { PaperStore } from '../store/paperStore.js';
import { buildIndex } from './index/build.js';
import { readSnapshot, readSnapshotInfo, writeSnapshot } from './index/snapshot.js';
import type { IndexData } from './index/types.js';

export interface IndexSource {
  store: PaperStore;
  /** Topic ids in a fixed order and a hash of the taxonomy they come from. */
  topicIds: readonly string[];
  taxonomyHash: string;
}

/**
 * The index for the store's current contents: from `path` when fresh, else rebuilt (and saved
 * to `path` unless it is undefined, as for an in-memory demo library).
 * @example const data = loadOrBuildIndex({ store, topicIds, taxonomyHash }, './data/index.bin', log);
 */
export function loadOrBuildIndex(source: IndexSource, path: string | undefined, log: Logger): IndexData {
  const generation = source.store.generation();
  if (path) {
    const info = readSnapshotInfo(path);
    if (info && info.generation === generation && info.taxonomyHash === source.taxonomyHash) {
      try {
        return readSnapshot(path);
      } catch (err) {
        log.warn({ err, path }, 'index snapshot unreadable; rebuilding it from the store');
      }
    }
  }
  return rebuildIndex(source, path, log);
}

/** Builds the index from the store and, when `path` is given, saves it there. */
export function rebuildIndex(source: IndexSource, path: string | undefined, log: Logger): IndexData {
  const started = performance.now();
  const data = buildIndex(source.store.rowsForIndex(), {
    generation: source.store.generation(),
    taxonomyHash: source.taxonomyHash,
    topicIds: source.topicIds,
  });
  if (path) writeSnapshot(path, data);
  log.info({ papers: data.docCount, terms: data.terms.length, ms: Math.round(performance.now() - started) }, 'search index built');
  return data;
}
