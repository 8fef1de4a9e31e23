/**
 * What a process does when the index snapshot on disk cannot be served (it is missing, was
 * written for another taxonomy or text version, or is damaged). Two answers, chosen by whoever
 * opens the library and handed to its `LiveIndex` (`liveIndex.ts`):
 * - {@link rebuildHere}: a batch tool (the command line, an import) rebuilds it now, and saves it
 *   (or, opened read-only, keeps it in memory);
 * - {@link rebuildElsewhere}: the serving bot only loads snapshots. Rebuilding a large library
 *   would hold its event loop for minutes, so a child process does it (`paperscout reindex`,
 *   started by the bot's background jobs in `adapters/background.ts`); until one has written a
 *   snapshot it can use, searches answer the catalog's `error.indexRebuilding`.
 */
import type { Logger } from 'pino';
import { UserError } from '../errors.js';
import { catchUpNow, damagedLine, learnMeaning, loadSnapshot, mergeThreshold, openIndex, type IndexSource } from './indexFile.js';
import { IndexView } from './index/view.js';

export interface RebuildPolicy {
  /**
   * At start: the index for the store, from the snapshot at `path` (mapped) and a delta of what
   * the store changed since; undefined when there is none to serve yet.
   */
  open(source: IndexSource, path: string, log: Logger): Promise<IndexView | undefined>;
  /** Later, while there is still no index (a refresh): likewise. */
  retry(source: IndexSource, path: string, log: Logger): Promise<IndexView | undefined>;
  /** What a search meets while there is no index. */
  missing(): Error;
}

/**
 * Rebuilds a snapshot that cannot be served here and now (see {@link openIndex}), and saves it
 * unless `save` is false (a library this user cannot write).
 * @example new LiveIndex({ source, path, rebuild: rebuildHere({ save: !readOnly }), resolveTopic, log })
 */
export function rebuildHere({ save = true }: { save?: boolean } = {}): RebuildPolicy {
  const build = (source: IndexSource, path: string, log: Logger) => openIndex(source, path, log, { save });
  return {
    open: build,
    retry: build,
    missing: () => new Error('Library.open() must be called before searching'),
  };
}

/**
 * Serves only snapshots another process wrote. At start a snapshot a little behind the store is
 * caught up at once; one far behind is served as it is while the background catches up and has
 * a child merge a fresh one.
 * @example new LiveIndex({ source, path, rebuild: rebuildElsewhere, resolveTopic, log })
 */
export const rebuildElsewhere: RebuildPolicy = {
  async open(source, path, log) {
    const load = await loadSnapshot(source, path);
    if (load.ok && load.usable) {
      learnMeaning(load.segment, log);
      const view = new IndexView(load.segment);
      // A small gap is a delta built now; a large one is left to the background (a merge).
      const threshold = mergeThreshold(view.base.docCount);
      if ((await source.store.countChanged(view.generation, threshold + 1)) <= threshold) await catchUpNow(view, source.store);
      else log.info('the search index is far behind the library: serving it until a fresh one is merged');
      return view;
    }
    if (load.ok) {
      log.info('the search index was built for another taxonomy: searches say it is being rebuilt until a child process has rebuilt it');
    } else if (load.problem === 'damaged') {
      log.error(`${damagedLine(path, load.reason)}: searches say it is being rebuilt until a child process has rebuilt it`);
    } else {
      log.info(`${load.reason}: searches say the index is being rebuilt until a child process has built it`);
    }
    return undefined;
  },
  async retry(source, path, log) {
    const load = await loadSnapshot(source, path);
    if (!load.ok || !load.usable) {
      if (!load.ok && load.problem === 'damaged') log.error(`${damagedLine(path, load.reason)}: searches still say it is being rebuilt`);
      return undefined;
    }
    learnMeaning(load.segment, log);
    const view = new IndexView(load.segment);
    await catchUpNow(view, source.store);
    return view;
  },
  missing: () => new UserError('error.indexRebuilding'),
};
