/**
 * `paperscout ingest <file-or-dir-or-URL>... [--add]`: import papers into DATA_DIR, then bring the
 * search index up to date. An OpenAlex works file gives counts to the papers it matches, and adds
 * papers only with `--add`. Ctrl-C stops after the batch being written (and, past 32 MB, the one batch
 * already read and being prepared); running the same command again finishes the job.
 *
 * The counts go to stdout, what did not go in and why to stderr. Exit code 0 when every input
 * gave something; 2 when one gave nothing usable (missing, unreadable, empty, not a known format,
 * cut short, every record rejected), with the reason on stderr, what the others gave imported
 * all the same, and the last good import's details file left as it was; 1 for a failure of the
 * store or a fault (cli.ts).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import type { Config } from '../../src/config.js';
import { UserError } from '../../src/errors.js';
import type { Messages } from '../../src/i18n/index.js';
import { ingestPaths, unusableInputs } from '../../src/ingest/ingest.js';
import { createProgressBar, renderProgressLine } from '../../src/ingest/progress.js';
import { summaryHeadline, summaryNotes } from '../../src/ingest/summary.js';
import { DETAILS_FILE_NAME, DetailsFile } from '../../src/ingest/details.js';
import { buildBase, mergeIndex, settleIndex, withIndexLock } from '../../src/search/indexFile.js';
import { IngestIndexer } from '../../src/search/ingestIndex.js';
import { openStores } from '../../src/store/open.js';
import { PrepareThread } from '../../src/ingest/prepareThread.js';
import { ensureLibraryCurrent, loadTopics } from '../../src/app.js';
import { abortOnSignal } from './signals.js';

/** The exit code of an import an input of which gave nothing usable (as of a mistake in the command: the input is the user's to fix). */
const INPUT_UNUSABLE = 2;

/** Imports larger than this are prepared (topics, rows) and indexed while they run, by worker threads on the second core. */
const BACKGROUND_INDEX_BYTES = 32 << 20;

export async function runIngest(args: string[], config: Config, log: Logger, m: Messages): Promise<number> {
  const { values, positionals: paths } = parseArgs({ args, allowPositionals: true, options: { add: { type: 'boolean', default: false } } });
  if (paths.length === 0) throw new UserError('cli.giveFiles');
  const { taxonomy, taxonomyHash, classify, taxonomyPath } = loadTopics();
  const stores = await openStores(config, { log, bulk: true });
  const store = stores.papers;
  const stop = abortOnSignal(m.t('cli.stopping.batch'));
  let preparer: PrepareThread | undefined;
  const details = new DetailsFile(join(config.dataDir, DETAILS_FILE_NAME), m);
  try {
    await ensureLibraryCurrent(store, { taxonomyHash, classify }, log);
    const started = performance.now();
    const unit = m.t('cli.progress.records');
    const bar = createProgressBar(process.stderr, { render: (p, width) => renderProgressLine(p, width, unit) });
    const source = { store, topicIds: taxonomy.topics.map((t) => t.id), taxonomyHash };
    let indexing: Promise<IngestIndexer> | undefined;
    const summary = await ingestPaths(paths, {
      store,
      classify,
      prepareAhead: (records) => preparer?.prepare(records) ?? Promise.resolve(undefined),
      onProgress: (p) => {
        bar.update(p);
        if (p.bytesTotal >= BACKGROUND_INDEX_BYTES) {
          indexing ??= IngestIndexer.start(source, stores.target, config.indexPath, log);
          preparer ??= new PrepareThread(taxonomyPath);
        }
        void indexing?.then((indexer) => indexer.notify());
      },
      signal: stop.signal,
      userAgent: config.userAgent,
      details,
      citations: stores.citations,
      addWorks: values.add,
    });
    bar.done();
    await preparer?.close();
    const ingestSeconds = (performance.now() - started) / 1000;
    const unusable = unusableInputs(summary);
    // Results on stdout; what did not go in, and why, on stderr.
    process.stdout.write(`${summaryHeadline(summary, m)}\n`);
    const notes = summaryNotes(summary, { messages: m, detailsFile: details.finish(unusable === 0) });
    if (notes.length > 0) process.stderr.write(`${notes.join('\n')}\n`);
    const indexStarted = performance.now();
    // Small imports become a delta that readers fold in; large ones are merged into the snapshot.
    if (indexing) await (await indexing).finish();
    else await settleIndex(source, config.indexPath, log);
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    const papers = await store.count();
    process.stdout.write(`${m.t('cli.libraryTimed', { papers, dir: config.dataDir, importSeconds: ingestSeconds, indexSeconds })}\n`);
    if (unusable === 0) return 0;
    const wentIn = summary.added + summary.updated + summary.unchanged + summary.merged + (summary.works?.works ?? 0) > 0;
    process.stderr.write(`${wentIn ? m.t('ingest.someUnusable', { count: unusable }) : m.t('ingest.nothingUsable')}\n`);
    return INPUT_UNUSABLE;
  } finally {
    details.close();
    await preparer?.close();
    stop.dispose();
    await stores.close();
  }
}

/**
 * `paperscout reindex [--merge]`: rebuilds the search index snapshot from the store, or with
 * `--merge` folds the store's changes since the snapshot into a new one (what `npm start` runs
 * in a child process when its deltas have grown).
 */
export async function runReindex(args: string[], config: Config, log: Logger, m: Messages): Promise<number> {
  const merge = args.includes('--merge');
  // --pause-ms N (undocumented): pause after each piece a merge writes, so a test can kill it half way.
  const pauseAt = args.indexOf('--pause-ms');
  const pauseMs = pauseAt >= 0 ? Number(args[pauseAt + 1]) || 0 : 0;
  const unknown = args.filter((a, i) => a !== '--merge' && a !== '--pause-ms' && (pauseAt < 0 || i !== pauseAt + 1));
  if (unknown.length > 0) throw new UserError('cli.reindexArgs', { args: unknown.join(' ') });
  const { taxonomy, taxonomyHash, classify } = loadTopics();
  const stores = await openStores(config, { log });
  try {
    const store = stores.papers;
    await ensureLibraryCurrent(store, { taxonomyHash, classify }, log);
    const started = performance.now();
    const source = { store, topicIds: taxonomy.topics.map((t) => t.id), taxonomyHash };
    const done = await withIndexLock(config.indexPath, async () =>
      merge ? mergeIndex(source, config.indexPath, log, { pauseMs }) : (await buildBase(source, config.indexPath, log)).generation,
    );
    if (done === 'busy') {
      process.stderr.write(`${m.t('cli.indexBusy')}\n`);
      return 75;
    }
    process.stdout.write(`${m.t('cli.indexBuilt', { papers: await store.count(), seconds: (performance.now() - started) / 1000 })}\n`);
    return 0;
  } finally {
    await stores.close();
  }
}
