/**
 * Interaction state: what a button needs to redo its work ("page 3 of this search") after the
 * message was sent, possibly by a process that has restarted since. Kept in SQLite under a short
 * random id that fits in a button's action handle.
 *
 * Saving state is on the path of every search reply, so it never waits long for a write lock
 * another process holds (an import, a re-index): a save that finds the database locked is kept
 * in memory, where this process's buttons find it at once, and written by a retry off the hot
 * path as soon as the lock is free. While saves are queued, new ones join the queue without
 * trying, so a lock held for minutes costs one short wait, not one per search.
 */
import { randomBytes } from 'node:crypto';
import { isBusyError, setBusyTimeout, type Db } from './db.js';

/** How long buttons keep working. */
export const STATE_TTL_DAYS = 30;
/** How often queued state is retried while the database is locked. */
export const STATE_RETRY_MS = 1000;
/** Searches whose state is held in memory at most (about 3 MB); past it, `put` answers undefined. */
export const MAX_PENDING_STATES = 10_000;
/** How long the last attempt to write queued state may wait for the lock at shutdown. */
const SHUTDOWN_WAIT_MS = 2000;

export interface StateStoreOptions {
  /** Default {@link MAX_PENDING_STATES}. */
  maxPending?: number;
}

interface Pending {
  data: string;
  createdAt: string;
}

export class StateStore {
  private readonly stmts;
  private readonly pending = new Map<string, Pending>();
  private readonly maxPending: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    options: StateStoreOptions = {},
  ) {
    this.maxPending = options.maxPending ?? MAX_PENDING_STATES;
    this.stmts = {
      put: db.prepare('INSERT INTO interaction_state (id, data, created_at) VALUES (?, ?, ?)'),
      putAt: db.prepare('INSERT OR REPLACE INTO interaction_state (id, data, created_at) VALUES (?, ?, ?)'),
      get: db.prepare<[string, string], { data: string }>('SELECT data FROM interaction_state WHERE id = ? AND created_at >= ?'),
      purge: db.prepare<[string]>('DELETE FROM interaction_state WHERE created_at < ?'),
    };
  }

  /**
   * Saves `data` and returns its id (10 characters, letters and digits), or undefined when the
   * database has been locked by another process for so long that {@link MAX_PENDING_STATES}
   * saves are already waiting (the caller then answers without buttons).
   * @example const id = states.put({ query: 'diffusion' }, new Date());
   */
  put(data: unknown, now: Date): string | undefined {
    const id = randomBytes(8).toString('base64url').replace(/[-_]/g, 'x').slice(0, 10);
    if (this.pending.size >= this.maxPending) return undefined;
    this.save(this.stmts.put, id, JSON.stringify(data), now.toISOString());
    return id;
  }

  /**
   * Saves `data` under a name of the caller's choosing (letters, digits, `-`, `.`; at most 40),
   * replacing what was there: for state that is the same every time it is made. Queued like
   * {@link put} while the database is locked, past the limit too (there are few of these).
   */
  putAt(id: string, data: unknown, now: Date): string {
    if (!/^[A-Za-z0-9.-]{1,40}$/.test(id)) throw new Error(`StateStore: "${id}" is not a valid state id`);
    this.save(this.stmts.putAt, id, JSON.stringify(data), now.toISOString());
    return id;
  }

  /** The data saved under `id`, unless it has expired. */
  get<T>(id: string, now: Date): T | undefined {
    const limit = cutoff(now);
    const queued = this.pending.get(id);
    if (queued) return queued.createdAt >= limit ? (JSON.parse(queued.data) as T) : undefined;
    const row = this.stmts.get.get(id, limit);
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  /**
   * Deletes expired state; returns how many entries went, or undefined when another process
   * held the write lock. It does not wait for the lock: it is housekeeping, the next purge does it.
   */
  purge(now: Date): number | undefined {
    const before = setBusyTimeout(this.db, 0);
    try {
      return this.stmts.purge.run(cutoff(now)).changes;
    } catch (err) {
      if (isBusyError(err)) return undefined;
      throw err;
    } finally {
      setBusyTimeout(this.db, before);
    }
  }

  /** Saves waiting for the write lock. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Writes the queued saves if the write lock is free right now (it does not wait for it);
   * returns how many are still queued.
   */
  flush(waitMs = 0): number {
    if (this.pending.size === 0) return 0;
    const before = setBusyTimeout(this.db, waitMs);
    try {
      const batch = [...this.pending];
      this.db
        .transaction(() => {
          for (const [id, p] of batch) this.stmts.putAt.run(id, p.data, p.createdAt);
        })
        .immediate();
      // Only what was written leaves the queue (nothing can be added meanwhile: this is synchronous).
      for (const [id, p] of batch) if (this.pending.get(id) === p) this.pending.delete(id);
    } catch (err) {
      if (!isBusyError(err)) throw err;
    } finally {
      setBusyTimeout(this.db, before);
    }
    return this.pending.size;
  }

  /** Starts retrying queued saves every {@link STATE_RETRY_MS} (the timer does not keep the process alive). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.flush(), STATE_RETRY_MS);
    this.timer.unref();
  }

  /**
   * Stops retrying and makes a last attempt, waiting up to two seconds for the lock; returns how
   * many saves could not be written (their buttons will say the results expired).
   */
  stop(): number {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    return this.flush(SHUTDOWN_WAIT_MS);
  }

  private save(stmt: { run(...args: unknown[]): unknown }, id: string, data: string, createdAt: string): void {
    if (this.pending.size === 0) {
      try {
        stmt.run(id, data, createdAt);
        return;
      } catch (err) {
        if (!isBusyError(err)) throw err;
      }
    }
    this.pending.set(id, { data, createdAt });
  }
}

function cutoff(now: Date): string {
  return new Date(now.getTime() - STATE_TTL_DAYS * 86_400_000).toISOString();
}
