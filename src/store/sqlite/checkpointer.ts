/**
 * A write-ahead log checkpointed beside the connection that writes, for imports. SQLite's own
 * checkpoint runs in the writer's COMMIT once the log passes a size: in a million-paper import it
 * was 26 of the import thread's 210 s (copying every batch's index pages from the log into the
 * database file), time the import thread then spends on nothing else. Here a thread of its own
 * copies the pages as they are committed, so the writer's COMMIT only appends to the log, and
 * the log starts over (stays small) whenever the writer commits with every page copied. The writer keeps an automatic checkpoint at a larger size as a backstop: should this
 * thread fall behind or fail, the log still cannot grow without bound.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Db } from './db.js';
import type { CheckpointWorkerData } from './checkpointWorker.js';

/** Milliseconds between the thread's checkpoints (a batch of an import is written in about 200). */
export const CHECKPOINT_INTERVAL_MS = 20;

/** The writer's own automatic checkpoint while the thread runs (pages of log, ~200 MB). */
export const BACKSTOP_CHECKPOINT_PAGES = 50_000;

export class Checkpointer {
  private worker: Worker | undefined;
  private stopped: Promise<void> | undefined;
  /** 0 while the thread runs, 1 once it is told to stop (shared with it). */
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private before: number | undefined;

  /**
   * @param db the writing connection (of a database file, in WAL mode)
   * @example const checkpointer = new Checkpointer(db, log); checkpointer.start(); … await checkpointer.stop();
   */
  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /**
   * Starts the thread and moves the writer's automatic checkpoint to the backstop. Run from the
   * TypeScript sources (tsx, vitest), or on a database in memory, it does nothing: a worker
   * thread cannot load the sources, and the writer checkpoints its own log as before.
   */
  start(): void {
    if (this.worker) return;
    const self = fileURLToPath(import.meta.url);
    if (extname(self) === '.ts' || this.db.memory) {
      this.log.debug('SQLite checkpoint thread not started: running from the TypeScript sources, or a database in memory');
      return;
    }
    Atomics.store(this.flag, 0, 0);
    const data: CheckpointWorkerData = { path: this.db.name, control: this.flag.buffer as SharedArrayBuffer, intervalMs: CHECKPOINT_INTERVAL_MS };
    const worker = new Worker(new URL(`./checkpointWorker${extname(self)}`, import.meta.url), { workerData: data });
    // It never keeps the process alive: a command that ends without stop() still exits.
    worker.unref();
    this.worker = worker;
    this.before = this.db.pragma('wal_autocheckpoint', { simple: true }) as number;
    this.db.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    this.log.debug({ path: this.db.name }, 'SQLite checkpoint thread started');
    this.stopped = new Promise((resolve) => {
      worker.on('error', (err) => this.log.warn({ err }, 'SQLite checkpoint thread failed: the import checkpoints its own log'));
      worker.on('exit', () => {
        this.restore();
        resolve();
      });
    });
  }

  /** Tells the thread to stop, and resolves once it has (its connection closed). */
  async stop(): Promise<void> {
    if (!this.worker) return;
    // Waited for, the thread's exit must keep the process alive until it comes.
    this.worker.ref();
    Atomics.store(this.flag, 0, 1);
    Atomics.notify(this.flag, 0);
    await this.stopped;
    this.worker = undefined;
  }

  /** The writer checkpoints as it did before, if it is still open. */
  private restore(): void {
    if (this.before !== undefined && this.db.open) this.db.pragma(`wal_autocheckpoint = ${this.before}`);
    this.before = undefined;
  }
}
