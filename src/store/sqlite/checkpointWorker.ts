/**
 * The thread of a {@link Checkpointer}: on a connection of its own, copies the write-ahead log's
 * committed pages into the database file (a PASSIVE checkpoint: it never waits for, nor blocks,
 * the writer or readers), then sleeps until there may be more, until told to stop.
 */
import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

export interface CheckpointWorkerData {
  path: string;
  /** One Int32: 0 while running, 1 once told to stop (and woken). */
  control: SharedArrayBuffer;
  /** Milliseconds between checkpoints. */
  intervalMs: number;
}

const { path, control, intervalMs } = workerData as CheckpointWorkerData;
const flag = new Int32Array(control);
const db = new Database(path, { fileMustExist: true });
try {
  // Checkpointing never waits for a lock; a checkpoint another connection runs is simply skipped.
  db.pragma('busy_timeout = 0');
  while (Atomics.load(flag, 0) === 0) {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // SQLITE_BUSY or LOCKED: try again after the pause.
    }
    Atomics.wait(flag, 0, 0, intervalMs);
  }
} finally {
  db.close();
}
