/**
 * Keeps the search index in step with the store: the base segment from the snapshot file, and
 * deltas built from the rows the store changed since (see docs/design.md, "Segments").
 * - {@link openIndex}: the index for the store's current state, built in full only when there
 *   is no usable snapshot;
 * - {@link catchUp} / {@link catchUpNow}: folds the store's newer changes in as a delta, in
 *   slices that leave the event loop free, or at once;
 * - {@link mergeIndex} and {@link buildBase}: write a new snapshot (a merge of base and deltas,
 *   or a full streaming build), one process at a time under a lock file.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import { processAlive } from '../processes.js';
import type { PaperStore } from '../store/papers.js';
import { SegmentBuilder } from './index/build.js';
import { SnapshotError, openSnapshot, readHeader } from './index/format.js';
import { mergeSegments } from './index/merge.js';
import type { SegmentData } from './index/types.js';
import { IndexView } from './index/view.js';
import { writeSegmentFile } from './index/writer.js';
import { keepSignals } from './librarySignals.js';
import { tableFor } from './meaning/table.js';

export interface IndexSource {
  store: PaperStore;
  /** Topic ids in a fixed order and a hash of the taxonomy they come from. */
  topicIds: readonly string[];
  taxonomyHash: string;
}

/** Most rows per delta segment of a catch-up in a running process (packing 100 takes ~6–15 ms at 1M, compiled). */
export const SLICE_ROWS = 100;
/**
 * Rows in a catch-up's first slice. A process's first catch-up runs code V8 has not compiled
 * yet: packing and applying its first 100 rows took two to three times as long as the next
 * slices', and made the catch-up's longest block (36–57 ms at 95k–1M on a slow day).
 */
const FIRST_SLICE_ROWS = 20;
/** A slice whose packing or applying took longer than this halves the next; one under half of it doubles it (up to {@link SLICE_ROWS}). */
const STEP_BUDGET_MS = 12;
/**
 * The fewest rows a slice is cut to: part of applying a delta does not shrink with it (masking
 * looks at every segment), and each slice is one more segment for every query until a merge.
 */
const MIN_SLICE_ROWS = 10;

/**
 * The rows of a catch-up's next slice, from this one's and the longest its packing or applying took.
 * @example nextSliceRows(20, 3) // 40
 */
export function nextSliceRows(rows: number, slowestMs: number): number {
  if (slowestMs > STEP_BUDGET_MS) return Math.max(MIN_SLICE_ROWS, rows >> 1);
  if (slowestMs < STEP_BUDGET_MS / 2) return Math.min(SLICE_ROWS, rows * 2);
  return rows;
}
/** How long a catch-up tokenizes rows before it lets the event loop take a turn. */
const SLICE_BUDGET_MS = 8;
/** Rows read per query when a whole range of changes is folded in at once. */
const CATCH_UP_PAGE = 5_000;
/** Documents per chunk of a full build: what one chunk holds in memory before it is written out. */
export const CHUNK_DOCS = 100_000;
/**
 * Deltas past this many documents (or this many base documents masked) are worth a merge into a
 * new base: they cost every process that opens the index a rebuild of them at start.
 */
export function mergeThreshold(baseDocs: number): number {
  return Math.max(5_000, Math.min(50_000, Math.round(baseDocs * 0.02)));
}

/**
 * The index for the store's current contents: the snapshot at `path` (mapped) when it fits the
 * taxonomy, plus a delta of what changed since; else built in full (and saved to `path` unless it
 * is undefined, as for an in-memory demo library, or `save` is false, as for a library opened
 * read-only).
 * @example const view = await openIndex({ store, topicIds, taxonomyHash }, './data/index.bin', log);
 */
export async function openIndex(source: IndexSource, path: string | undefined, log: Logger, { save = true }: { save?: boolean } = {}): Promise<IndexView> {
  let base: SegmentData | undefined;
  if (path) {
    const load = await loadSnapshot(source, path);
    if (load.ok && load.usable) base = load.segment;
    else if (load.ok) log.info({ path }, 'the taxonomy changed since the index snapshot was written (or it is ahead of the store): rebuilding it');
    else if (load.problem === 'damaged') log.warn(`${damagedLine(path, load.reason)}: rebuilding it from the library`);
    else if (load.problem === 'outdated') log.info(`${load.reason}: rebuilding the search index from the library`);
  }
  base ??= await buildBase(source, save ? path : undefined, log);
  learnMeaning(base, log);
  const view = new IndexView(base);
  await catchUpNow(view, source.store);
  return view;
}

/** A snapshot that could be opened (`usable` when it fits the taxonomy and the store), or why not. */
export type SnapshotLoad =
  | { ok: true; segment: SegmentData; usable: boolean }
  | { ok: false; problem: SnapshotError['problem']; reason: string };

/**
 * Opens (maps) the snapshot at `path`, checking its header, small sections and shape. Never
 * builds anything; a directory in its place throws a SetupError.
 */
export async function loadSnapshot(source: IndexSource, path: string): Promise<SnapshotLoad> {
  try {
    const { segment } = openSnapshot(path);
    return { ok: true, segment, usable: segment.taxonomyHash === source.taxonomyHash && segment.generation <= (await source.store.generation()) };
  } catch (err) {
    if (err instanceof SnapshotError) return { ok: false, problem: err.problem, reason: err.message };
    throw err;
  }
}

/** The one line that says a snapshot is damaged and why. */
export function damagedLine(path: string, reason: string): string {
  return `The search index ${path} is damaged (${reason})`;
}

/**
 * Folds every change of the store since the view's generation into it as one delta (what a
 * process opening the index, or a merge, does before it serves or writes). Returns whether it
 * changed.
 */
export async function catchUpNow(view: IndexView, store: PaperStore): Promise<boolean> {
  const from = view.generation;
  const to = await store.generation();
  if (from >= to) return false;
  const { segment, deleted } = await buildChanged(store, from, to, view);
  // Another catch-up may have moved the view on meanwhile (its reads and ours cover the same rows).
  if (view.generation !== from) return false;
  view.apply(segment, deleted);
  return true;
}

/** The store's changes over some generations: a delta segment, and the store documents removed. */
export interface ChangedRows {
  segment: SegmentData;
  deleted: number[];
}

/**
 * The store's changes in generations `(from, to]` as one delta segment, and the store documents
 * removed in them.
 * @example const { segment, deleted } = await buildChanged(store, view.generation, await store.generation(), view);
 */
export async function buildChanged(
  store: PaperStore,
  from: number,
  to: number,
  taxonomy: { taxonomyHash: string; topics: readonly string[] },
): Promise<ChangedRows> {
  const builder = new SegmentBuilder({ generation: to, taxonomyHash: taxonomy.taxonomyHash, topicIds: taxonomy.topics });
  for (let after = 0; ; ) {
    const rows = await store.rowsChanged(from, to, after, CATCH_UP_PAGE);
    for (const row of rows) builder.add(row);
    if (rows.length < CATCH_UP_PAGE) break;
    after = rows[rows.length - 1]!.doc;
  }
  return { segment: builder.finish(), deleted: await store.deletedDocs(from, to) };
}

/**
 * Folds the store's changes into the view in slices of up to {@link SLICE_ROWS} rows without
 * holding the event loop for more than a few milliseconds: the first slice is small, and each
 * next one is sized by how long the last took to pack and apply. Reading a slice, tokenizing
 * its rows (yielding every {@link SLICE_BUDGET_MS}), packing it and applying it each take a
 * turn of their own. Each
 * slice becomes a small delta segment, applied in one synchronous step (so a query sees each
 * paper before or after, never half way); the view's generation moves only with the last one.
 * Removals are masked with the first slice (before a slice could hold a paper that took a
 * removed paper's document number).
 * Returns whether it changed, or 'too-many' when the changes exceed `maxDocs` (a merge or
 * rebuild should take them instead).
 */
export async function catchUp(view: IndexView, store: PaperStore, maxDocs = Infinity): Promise<boolean | 'too-many'> {
  const from = view.generation;
  const to = await store.generation();
  if (from >= to) return false;
  if (maxDocs < Infinity && (await store.countChanged(from, maxDocs + 1)) > maxDocs) return 'too-many';
  const options = { generation: from, taxonomyHash: view.taxonomyHash, topicIds: view.topics };
  let deleted: number[] | undefined = await store.deletedDocs(from, to);
  let size = FIRST_SLICE_ROWS;
  for (let after = 0; ; ) {
    const rows = await store.rowsChanged(from, to, after, size);
    await nextTurn();
    const last = rows.length < size;
    const builder = new SegmentBuilder(last ? { ...options, generation: to } : options);
    let turnStarted = performance.now();
    for (const row of rows) {
      builder.add(row);
      if (performance.now() - turnStarted >= SLICE_BUDGET_MS) {
        await nextTurn();
        turnStarted = performance.now();
      }
    }
    await nextTurn();
    let started = performance.now();
    const delta = builder.finish();
    const packing = performance.now() - started;
    await nextTurn();
    // Another catch-up may have finished meanwhile: apply only onto the generation this one read from.
    if (view.generation !== from) return false;
    started = performance.now();
    view.apply(delta, deleted ?? []);
    const slowest = Math.max(packing, performance.now() - started);
    deleted = undefined;
    if (last) return true;
    size = nextSliceRows(size, slowest);
    after = rows[rows.length - 1]!.doc;
    await nextTurn();
  }
}

/** Lets the event loop answer what waits (a command, a heartbeat) before the next step. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Whether the store's generation (as last read) is ahead of the view's. */
export function isStale(view: IndexView, storeGeneration: number): boolean {
  return view.generation < storeGeneration;
}

/**
 * Builds the index of the whole store. With a `path`, streams: rows are tokenized in chunks of
 * {@link CHUNK_DOCS}, each written to a temporary segment file, and the chunks merged on disk
 * into `path`, which is then mapped; memory stays bounded by the chunk size. The generation is
 * read first: rows written while the build reads (in pages, not one snapshot of the store) are
 * newer, and the first catch-up folds them in again, masking what the build took of them.
 */
export async function buildBase(source: IndexSource, path: string | undefined, log: Logger): Promise<SegmentData> {
  const started = performance.now();
  const generation = await source.store.generation();
  const options = { generation, taxonomyHash: source.taxonomyHash, topicIds: source.topicIds };
  if (!path) {
    const builder = new SegmentBuilder(options);
    for await (const row of source.store.rowsForIndex()) builder.add(row);
    return builder.finish();
  }
  const chunks: string[] = [];
  try {
    let builder = new SegmentBuilder(options);
    const flush = () => {
      const file = `${path}.chunk${chunks.length}.${process.pid}.tmp`;
      writeSegmentFile(file, builder.finish());
      chunks.push(file);
      builder = new SegmentBuilder(options);
    };
    for await (const row of source.store.rowsForIndex()) {
      builder.add(row);
      if (builder.size >= CHUNK_DOCS) flush();
    }
    if (chunks.length === 0) writeSegmentFile(path, builder.finish());
    else {
      if (builder.size > 0) flush();
      mergeSegments(chunks.map((file) => ({ segment: openSnapshot(file).segment })), path, options);
    }
  } finally {
    for (const file of chunks) rmSync(file, { force: true });
  }
  const { segment } = openSnapshot(path);
  keepDerived(segment, log);
  log.info({ papers: segment.docCount, terms: segment.docFreq.length, ms: Math.round(performance.now() - started) }, 'search index built');
  return segment;
}

/**
 * Reads the association table of a base (meaning/table.ts), or learns it and writes it beside
 * the snapshot, so that the first description a process is asked for does not wait for it.
 */
export function learnMeaning(segment: SegmentData, log: Logger): void {
  tableFor(segment, (err) => log.warn({ err }, 'could not save the meaning table beside the search index: each start learns it again (a few seconds at 100k papers)'));
}

/**
 * What a writer of a base keeps beside it for the processes that serve it: the meaning table
 * and the library's signals (librarySignals.ts), so that neither the first description nor the
 * first broad query after a start computes them.
 */
export function keepDerived(segment: SegmentData, log: Logger): void {
  learnMeaning(segment, log);
  try {
    keepSignals(segment);
  } catch (err) {
    log.warn({ err }, "could not save the library's signals beside the search index: the first broad query after each start computes them (a second at 1M papers)");
  }
}

/**
 * Writes a new base: the current base merged with a delta of everything the store changed since
 * (no re-tokenizing of the base), or a full build when there is no usable base. Returns the new
 * base's generation.
 */
export async function mergeIndex(source: IndexSource, path: string, log: Logger, options: { pauseMs?: number } = {}): Promise<number> {
  const load = await loadSnapshot(source, path);
  if (!load.ok || !load.usable) return (await buildBase(source, path, log)).generation;
  const view = new IndexView(load.segment);
  const started = performance.now();
  await catchUpNow(view, source.store);
  const inputs = view.parts.map((p) => ({ segment: p.data, dead: view.dead.subarray(p.docBase, p.docBase + p.data.docCount) }));
  const { docCount } = mergeSegments(inputs, path, { generation: view.generation, taxonomyHash: source.taxonomyHash, topicIds: source.topicIds, ...options });
  keepDerived(openSnapshot(path).segment, log);
  log.info({ papers: docCount, ms: Math.round(performance.now() - started) }, 'search index merged');
  return view.generation;
}

/**
 * After a process wrote to the store (an import, a sync): writes a new snapshot if the changes
 * since the current one are past the merge threshold (or there is no usable snapshot), and
 * otherwise leaves them to the deltas every reader builds. Another process already writing the
 * index makes this a no-op ('busy').
 */
export function settleIndex(source: IndexSource, path: string, log: Logger): Promise<'delta' | 'merged' | 'built' | 'busy'> {
  return withIndexLock(path, async () => {
    const load = await loadSnapshot(source, path);
    const base = load.ok && load.usable ? load.segment : undefined;
    if (!base) {
      await buildBase(source, path, log);
      return 'built' as const;
    }
    const threshold = mergeThreshold(base.docCount);
    if ((await source.store.countChanged(base.generation, threshold + 1)) <= threshold) return 'delta' as const;
    await mergeIndex(source, path, log);
    return 'merged' as const;
  });
}

/** The generation of the snapshot at `path`, or undefined. */
export function snapshotGeneration(path: string): number | undefined {
  try {
    return readHeader(path).header.generation;
  } catch {
    return undefined;
  }
}

/**
 * Runs `fn` holding `<path>.lock`, so that one process writes the index at a time; resolves
 * 'busy' when another live process holds it. A lock left by a process that is gone is taken over.
 */
export async function withIndexLock<T>(path: string, fn: () => Promise<T> | T): Promise<T | 'busy'> {
  const lock = `${path}.lock`;
  // DATA_DIR holds only the index when the store is PostgreSQL: it may not exist yet.
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (lockHeld(lock)) return 'busy';
      rmSync(lock, { force: true });
      continue;
    }
    try {
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return await fn();
    } finally {
      rmSync(lock, { force: true });
    }
  }
  return 'busy';
}

function lockHeld(lock: string): boolean {
  try {
    const pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    if (Number.isInteger(pid) && pid > 0) return pid !== process.pid && processAlive(pid);
    // Created but not yet filled in: a young lock counts as held.
    return Date.now() - statSync(lock).mtimeMs < 10_000;
  } catch {
    return false;
  }
}
