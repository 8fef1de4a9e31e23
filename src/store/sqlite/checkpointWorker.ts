/**
 * The thread of a {@link Checkpointer}: on a connection of its own, copies the write-ahead log's
 * committed pages into the database file (a PASSIVE checkpoint: it waits for no lock; while it
 * runs, the writer's own checkpoint is skipped and the log cannot start over), then sleeps
 * until there may be more, until told to stop. A failure (disk full, I/O error) ends the thread:
 * the writer checkpoints its own log again.
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
  db.pragma('busy_timeout = 0');
  while (Atomics.load(flag, 0) === 0) {
    // Another connection's checkpoint under way is no error: the result's busy column says so.
    db.pragma('wal_checkpoint(PASSIVE)');
    Atomics.wait(flag, 0, 0, intervalMs);
  }
} finally {
  db.close();
}
