/**
 * The search index of a large import, built while the import runs: a worker thread turns the
 * rows written since the snapshot into chunk segments (one per ~{@link IMPORT_CHUNK_DOCS} papers, by
 * generation) on the second core, and at the end the snapshot and the chunks are merged on disk
 * into a new snapshot — the same masking and merge as every delta (docs/design.md, "Segments").
 */
import { rmSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { buildSegment } from './index/build.js';
import type { ChunkWorkerData, ChunkWorkerReply, ChunkWorkerRequest } from './index/chunkWorker.js';
import { openSnapshot } from './index/format.js';
import { MergeInputs, mergeSegments } from './index/merge.js';
import type { SegmentData } from './index/types.js';
import { buildChanged, keepDerived, mergeThreshold, settleIndex, withIndexLock, type ChangedRows, type IndexSource } from './indexFile.js';
import type { StoreTarget } from '../store/open.js';

/** Papers per chunk while an import runs: small enough that the chunks keep pace with it. */
export const IMPORT_CHUNK_DOCS = 50_000;

interface Chunk {
  file: string;
  from: number;
  to: number;
}

export class IngestIndexer {
  private readonly worker: Worker;
  private readonly chunks: Chunk[] = [];
  private busy = false;
  private failure: string | undefined;
  private finalWaiter: (() => void) | undefined;
  private readonly from: number;

  /**
   * Starts the worker; chunks cover the store's changes after the current snapshot's generation.
   * The worker opens the store at `target` on its own connection.
   * @example const indexer = await IngestIndexer.start(source, stores.target, config.indexPath, log);
   */
  static async start(source: IndexSource, target: StoreTarget, indexPath: string, log: Logger): Promise<IngestIndexer> {
    let base: SegmentData | undefined;
    try {
      const { segment } = openSnapshot(indexPath);
      if (segment.taxonomyHash === source.taxonomyHash && segment.generation <= (await source.store.generation())) base = segment;
    } catch {
      base = undefined;
    }
    return new IngestIndexer(source, target, indexPath, log, base);
  }

  private constructor(
    private readonly source: IndexSource,
    target: StoreTarget,
    private readonly indexPath: string,
    private readonly log: Logger,
    private readonly base: SegmentData | undefined,
  ) {
    this.from = this.base?.generation ?? 0;
    const self = fileURLToPath(import.meta.url);
    const data: ChunkWorkerData = { target, indexPath, topicIds: [...source.topicIds], taxonomyHash: source.taxonomyHash, from: this.from, chunkDocs: IMPORT_CHUNK_DOCS };
    this.worker = new Worker(new URL(`./index/chunkWorker${extname(self)}`, import.meta.url), { workerData: data });
    this.worker.on('message', (reply: ChunkWorkerReply) => {
      if (reply.type === 'chunk') this.chunks.push({ file: reply.file, from: reply.from, to: reply.to });
      else if (reply.type === 'error') this.failure = reply.message;
      if (reply.type !== 'chunk') {
        this.busy = false;
        if (reply.type === 'final' || reply.type === 'error') this.finalWaiter?.();
      }
    });
    this.worker.on('error', (err) => {
      this.failure = err.message;
      this.finalWaiter?.();
    });
  }

  /** After a committed batch: lets the worker build a chunk if enough rows have piled up. */
  notify(): void {
    if (this.busy || this.failure) return;
    this.busy = true;
    this.worker.postMessage({ type: 'flush', final: false });
  }

  /**
   * Ends the import's indexing: the last rows into segments, then (under the index lock) a merge
   * of the snapshot and every chunk, or nothing when the import was small enough to stay a
   * delta. The last rows are split in two by generation: the worker builds the first half as its
   * final chunk while this thread builds the second, so neither core waits for the other.
   */
  async finish(): Promise<'delta' | 'merged' | 'built' | 'busy'> {
    try {
      await this.idle();
      let tail: ChangedRows | undefined;
      if (!this.failure) {
        const last = this.chunks.at(-1)?.to ?? this.from;
        const to = await this.source.store.generation();
        const mid = last + Math.ceil((to - last) / 2);
        const final = this.flush(mid);
        try {
          if (mid < to) tail = await buildChanged(this.source.store, mid, to, { taxonomyHash: this.source.taxonomyHash, topics: this.source.topicIds });
        } finally {
          // Even when this thread's half failed: the worker's chunk is then listed, and removed below.
          await final;
        }
      }
      if (this.failure) {
        this.log.warn({ err: this.failure }, 'the index worker failed; building the index after the import instead');
        return await settleIndex(this.source, this.indexPath, this.log);
      }
      return await withIndexLock(this.indexPath, () => this.mergeChunks(tail));
    } finally {
      this.worker.postMessage({ type: 'stop' });
      await this.worker.terminate().catch(() => undefined);
      for (const chunk of this.chunks) rmSync(chunk.file, { force: true });
    }
  }

  /** Resolves once the worker has answered the flush it is busy with (at once when it is not, or has failed). */
  private async idle(): Promise<void> {
    while (this.busy && !this.failure) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** The worker's final flush, of the rows up to generation `upTo`: resolves on its answer. */
  private flush(upTo: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.finalWaiter = resolve;
      if (this.failure) return resolve();
      this.busy = true;
      this.worker.postMessage({ type: 'flush', final: true, upTo } satisfies ChunkWorkerRequest);
    });
  }

  /** `tail`: the rows after the worker's last chunk, built here. */
  private async mergeChunks(tail?: ChangedRows): Promise<'delta' | 'merged' | 'built'> {
    const { store, taxonomyHash, topicIds } = this.source;
    const base = this.base ?? buildSegment([], { generation: 0, taxonomyHash, topicIds });
    const threshold = this.base ? mergeThreshold(this.base.docCount) : 0;
    if (this.base && (await store.countChanged(this.base.generation, threshold + 1)) <= threshold) return 'delta';
    const masks = new MergeInputs(base);
    for (const chunk of this.chunks) masks.apply(openSnapshot(chunk.file).segment, await store.deletedDocs(chunk.from, chunk.to));
    if (tail) masks.apply(tail.segment, tail.deleted);
    // What the store changed meanwhile (another process writing).
    const latest = await store.generation();
    if (latest > masks.generation) {
      const { segment, deleted } = await buildChanged(store, masks.generation, latest, { taxonomyHash, topics: topicIds });
      masks.apply(segment, deleted);
    }
    mergeSegments(masks.inputs, this.indexPath, { generation: masks.generation, taxonomyHash, topicIds });
    keepDerived(openSnapshot(this.indexPath).segment, this.log);
    return this.base ? 'merged' : 'built';
  }
}
