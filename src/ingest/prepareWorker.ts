/**
 * A worker thread that prepares an import's records while the import thread reads the next
 * batch and writes the last one (see {@link PrepareThread}): each record's topics, identifiers,
 * id and the row a new paper is stored as. It compiles the taxonomy at the path it is given, as
 * {@link createClassifier} does for the import thread, so the topics are the same.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PaperRecord } from '../papers/model.js';
import { prepareRecord } from '../store/paperRecords.js';
import type { PreparedRecord } from '../store/papers.js';
import { createClassifier } from '../topics/classify.js';
import { loadTaxonomy } from '../topics/taxonomy.js';

export interface PrepareRequest {
  id: number;
  records: readonly PaperRecord[];
}
export type PrepareReply = { id: number; prepared: PreparedRecord[] } | { id: number; error: string };

if (parentPort) {
  const port = parentPort;
  const classify = createClassifier(loadTaxonomy(workerData as string));
  port.on('message', ({ id, records }: PrepareRequest) => {
    try {
      port.postMessage({ id, prepared: records.map((record) => prepareRecord(record, classify(record))) } satisfies PrepareReply);
    } catch (err) {
      port.postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies PrepareReply);
    }
  });
}
