/**
 * A worker thread that builds index chunks while an import is still writing: asked to flush, it
 * reads the rows the store wrote since its last chunk (by generation, on its own connection) and,
 * once there are enough of them (or at the end), tokenizes them into a segment file. The import
 * thread and this one run on two cores at once. See {@link startChunkWorker}.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { openPaperStoreAt, type StoreTarget } from '../../store/open.js';
import { SegmentBuilder } from './build.js';
import { writeSegmentFile } from './writer.js';

export interface ChunkWorkerData {
  /** The store the import writes to, opened again here. */
  target: StoreTarget;
  indexPath: string;
  topicIds: string[];
  taxonomyHash: string;
  /** Generation the first chunk starts after. */
  from: number;
  /** Rows that make a chunk worth writing before the end. */
  chunkDocs: number;
}

/** `upTo`: the last generation a final flush covers (the import's last rows are split with the parent); the store's latest by default. */
export type ChunkWorkerRequest = { type: 'flush'; final: boolean; upTo?: number } | { type: 'stop' };
export type ChunkWorkerReply =
  | { type: 'chunk'; file: string; from: number; to: number; docs: number }
  /** The end of the answer to a flush: `final` after the last one. */
  | { type: 'idle' }
  | { type: 'final' }
  | { type: 'error'; message: string };

/** Rows read per query while a chunk is built. */
const PAGE_ROWS = 5000;

if (parentPort) {
  const port = parentPort;
  const data = workerData as ChunkWorkerData;
  const opening = openPaperStoreAt(data.target, pino({ level: 'silent' }));
  let from = data.from;
  let serial = 0;
  // The parent asks for one flush at a time (and waits for its answer), so messages never overlap.
  port.on('message', async (message: ChunkWorkerRequest) => {
    if (message.type === 'stop') {
      await (await opening.catch(() => undefined))?.close();
      port.close();
      return;
    }
    try {
      const { papers: store } = await opening;
      const to = message.upTo ?? (await store.generation());
      if (to <= from || (!message.final && (await store.countChanged(from, data.chunkDocs)) < data.chunkDocs)) {
        port.postMessage({ type: message.final ? 'final' : 'idle' } satisfies ChunkWorkerReply);
        return;
      }
      const builder = new SegmentBuilder({ generation: to, taxonomyHash: data.taxonomyHash, topicIds: data.topicIds });
      for (let after = 0; ; ) {
        const rows = await store.rowsChanged(from, to, after, PAGE_ROWS);
        for (const row of rows) builder.add(row);
        if (rows.length < PAGE_ROWS) break;
        after = rows[rows.length - 1]!.doc;
      }
      const file = `${data.indexPath}.chunk-${serial++}.${process.pid}.tmp`;
      writeSegmentFile(file, builder.finish());
      port.postMessage({ type: 'chunk', file, from, to, docs: builder.size } satisfies ChunkWorkerReply);
      from = to;
      port.postMessage({ type: message.final ? 'final' : 'idle' } satisfies ChunkWorkerReply);
    } catch (err) {
      port.postMessage({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies ChunkWorkerReply);
    }
  });
}
