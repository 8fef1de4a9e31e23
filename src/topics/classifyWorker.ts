/**
 * A worker thread that works out the topics of an import's papers while the import thread reads
 * the next batch and writes the last one (see {@link ClassifierThread}). It compiles the taxonomy
 * at the path it is given, as {@link createClassifier} does for the import thread, so the topics
 * are the same.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createClassifier, type ClassifiablePaper } from './classify.js';
import { loadTaxonomy } from './taxonomy.js';

export interface ClassifyRequest {
  id: number;
  papers: ClassifiablePaper[];
}
export type ClassifyReply = { id: number; topics: string[][] } | { id: number; error: string };

if (parentPort) {
  const port = parentPort;
  const classify = createClassifier(loadTaxonomy(workerData as string));
  port.on('message', ({ id, papers }: ClassifyRequest) => {
    try {
      port.postMessage({ id, topics: papers.map(classify) } satisfies ClassifyReply);
    } catch (err) {
      port.postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies ClassifyReply);
    }
  });
}
