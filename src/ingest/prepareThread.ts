/**
 * An import's records prepared on another thread: working out a new paper's topics, identifiers
 * and stored row (JSON columns, content hash) was a third of a large import's work on the import
 * thread, and the second core has room beside the index worker. The import sends each batch
 * here as soon as it is read and writes it once the batch before is written
 * (src/ingest/ingest.ts), so preparing one batch overlaps reading the next and writing the last.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PaperRecord } from '../papers/model.js';
import type { PreparedRecord } from '../store/papers.js';
import type { PrepareReply, PrepareRequest } from './prepareWorker.js';

export class PrepareThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (prepared: PreparedRecord[] | undefined) => void>();
  private next = 0;
  private failed = false;

  /**
   * Starts the worker on the taxonomy at `taxonomyPath` (the one the import's own classifier
   * was loaded from).
   * @example const thread = new PrepareThread(taxonomyPath); const prepared = await thread.prepare(records);
   */
  constructor(taxonomyPath: string) {
    const self = fileURLToPath(import.meta.url);
    this.worker = new Worker(new URL(`./prepareWorker${extname(self)}`, import.meta.url), { workerData: taxonomyPath });
    this.worker.on('message', (reply: PrepareReply) => {
      const resolve = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      resolve?.('prepared' in reply ? reply.prepared : undefined);
    });
    this.worker.on('error', () => this.fail());
    this.worker.on('exit', () => this.fail());
  }

  /**
   * Each record prepared as `prepareRecord` would on this thread, in order; undefined when
   * the thread cannot answer (it failed to start or stopped), and then the store works it out.
   */
  prepare(records: readonly PaperRecord[]): Promise<PreparedRecord[] | undefined> {
    if (this.failed) return Promise.resolve(undefined);
    const id = this.next++;
    const request: PrepareRequest = { id, records };
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    this.failed = true;
    await this.worker.terminate().catch(() => undefined);
    this.fail();
  }

  private fail(): void {
    this.failed = true;
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
  }
}
