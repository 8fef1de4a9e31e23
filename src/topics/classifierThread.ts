/**
 * Topics for a large import, worked out on another thread: classifying is a fifth of an import's
 * work on the import thread, and the second core has room beside the index worker. The import
 * sends each batch here as soon as it is read and writes it once the batch before is written
 * (src/ingest/ingest.ts), so classifying one batch overlaps reading the next and writing the last.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ClassifiablePaper } from './classify.js';
import type { ClassifyReply, ClassifyRequest } from './classifyWorker.js';

export class ClassifierThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (topics: string[][] | undefined) => void>();
  private next = 0;
  private failed = false;

  /**
   * Starts the worker on the taxonomy at `taxonomyPath` (the one the import's own classifier
   * was loaded from).
   * @example const thread = new ClassifierThread(taxonomyPath); const topics = await thread.classify(papers);
   */
  constructor(taxonomyPath: string) {
    const self = fileURLToPath(import.meta.url);
    this.worker = new Worker(new URL(`./classifyWorker${extname(self)}`, import.meta.url), { workerData: taxonomyPath });
    this.worker.on('message', (reply: ClassifyReply) => {
      const resolve = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      resolve?.('topics' in reply ? reply.topics : undefined);
    });
    this.worker.on('error', () => this.fail());
    this.worker.on('exit', () => this.fail());
  }

  /**
   * Each paper's topic ids, in order; undefined when the thread cannot answer (it failed to
   * start or stopped), and then the caller classifies on its own thread.
   */
  classify(papers: readonly ClassifiablePaper[]): Promise<string[][] | undefined> {
    if (this.failed) return Promise.resolve(undefined);
    const id = this.next++;
    const request: ClassifyRequest = { id, papers: papers.map(({ title, abstract, keywords, labels }) => ({ title, abstract, keywords, labels })) };
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
