/**
 * Keeps the index snapshot in step with the store: load it when it reflects the store's current
 * generation and taxonomy, otherwise rebuild it from the store and write it back.
 *
 * A batch tool (the CLI, the terminal) rebuilds on the spot. The serving bot never does: 7 s of
 * CPU for 100k papers would stall every user, so it only loads snapshots ({@link loadSnapshot})
 * and has a child process rebuild them (adapters/background.ts).
 */
import type { Logger } from 'pino';
import type { PaperStore } from '../store/papers.js';
import { buildIndex } from './index/build.js';
import { SnapshotError, readSnapshot, writeSnapshot } from './index/snapshot.js';
import type { IndexData } from './index/types.js';

export interface IndexSource {
  store: PaperStore;
  /** Topic ids in a fixed order and a hash of the taxonomy they come from. */
  topicIds: readonly string[];
  taxonomyHash: string;
}

/** A snapshot that could be loaded, or why not. */
export type SnapshotLoad =
  | { ok: true; data: IndexData; fresh: boolean }
  | { ok: false; problem: SnapshotError['problem']; reason: string };

/**
 * Loads the snapshot at `path` whatever generation it reflects (`fresh` says whether it is the
 * store's current one), checking its checksums and shape. Never builds anything; a directory in
 * its place throws a SetupError.
 * @example const load = await loadSnapshot(source, './data/index.bin'); if (!load.ok) console.log(load.reason);
 */
export async function loadSnapshot(source: IndexSource, path: string): Promise<SnapshotLoad> {
  try {
    const data = readSnapshot(path);
    return { ok: true, data, fresh: data.generation === (await source.store.generation()) && data.taxonomyHash === source.taxonomyHash };
  } catch (err) {
    if (err instanceof SnapshotError) return { ok: false, problem: err.problem, reason: err.message };
    throw err;
  }
}

/**
 * The index for the store's current contents: from `path` when fresh, else rebuilt (and saved
 * to `path` unless it is undefined, as for an in-memory demo library). A damaged snapshot is
 * rebuilt with one warning line saying why.
 * @example const data = await loadOrBuildIndex({ store, topicIds, taxonomyHash }, './data/index.bin', log);
 */
export async function loadOrBuildIndex(source: IndexSource, path: string | undefined, log: Logger): Promise<IndexData> {
  if (path) {
    const load = await loadSnapshot(source, path);
    if (load.ok && load.fresh) return load.data;
    if (!load.ok && load.problem === 'damaged') log.warn(`${damagedLine(path, load.reason)}: rebuilding it from the library`);
    if (!load.ok && load.problem === 'outdated') log.info(`${load.reason}: rebuilding the search index from the library`);
  }
  return rebuildIndex(source, path, log);
}

/** The one line that says a snapshot is damaged and why. */
export function damagedLine(path: string, reason: string): string {
  return `The search index ${path} is damaged (${reason})`;
}

/**
 * Builds the index from the store and, when `path` is given, saves it there. The generation is
 * read first: rows written while the build reads are newer, and the next check catches up on them.
 */
export async function rebuildIndex(source: IndexSource, path: string | undefined, log: Logger): Promise<IndexData> {
  const started = performance.now();
  const generation = await source.store.generation();
  const data = await buildIndex(source.store.rowsForIndex(), {
    generation,
    taxonomyHash: source.taxonomyHash,
    topicIds: source.topicIds,
  });
  if (path) writeSnapshot(path, data);
  log.info({ papers: data.docCount, terms: data.terms.length, ms: Math.round(performance.now() - started) }, 'search index built');
  return data;
}
