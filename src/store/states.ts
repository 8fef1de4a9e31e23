/**
 * Interaction state: what a button needs to redo its work ("page 3 of this search") after the
 * message was sent, possibly by a process that has restarted since, or by another instance
 * sharing the store. Kept under a short random id that fits in a button's action handle.
 *
 * Saving state is on the path of every search reply, so it never waits long for a store that
 * cannot take writes (another process holding SQLite's write lock, an unreachable PostgreSQL): a
 * save that fails so is kept in memory, where this process's buttons find it at once, and written
 * by a retry off the hot path as soon as the store takes writes again. While saves are queued, new
 * ones join the queue without trying, so an outage costs one short wait, not one per search. The
 * queue is written once, here; each store only says how to write, read and purge rows.
 */
import { randomBytes } from 'node:crypto';

/** How long buttons keep working. */
export const STATE_TTL_DAYS = 30;
/** How often queued state is retried while the store cannot take writes. */
export const STATE_RETRY_MS = 1000;
/** Searches whose state is held in memory at most (about 3 MB); past it, `put` answers undefined. */
export const MAX_PENDING_STATES = 10_000;
/**
 * Characters of state held in memory at most (16 MB at most): a search's state is a few hundred,
 * related work's holds its pasted text (up to 10,000), so a count alone does not bound the
 * memory. Past it, `put` answers undefined too.
 */
export const MAX_PENDING_CHARS = 8_000_000;

export interface StateStore {
  /**
   * Saves `data` and returns its id (10 characters, letters and digits), or undefined when the
   * store has refused writes for so long that {@link MAX_PENDING_STATES} saves, or
   * {@link MAX_PENDING_CHARS} characters of them, are already waiting (the caller then answers
   * without buttons).
   * @example const id = await states.put({ query: 'diffusion' }, new Date());
   */
  put(data: unknown, now: Date): Promise<string | undefined>;
  /**
   * Saves `data` under a name of the caller's choosing (letters, digits, `-`, `.`; at most 40),
   * replacing what was there: for state that is the same every time it is made. Queued like
   * {@link put} when the store refuses writes, past the limit too (there are few of these).
   */
  putAt(id: string, data: unknown, now: Date): Promise<string>;
  /** The data saved under `id`, unless it has expired. */
  get<T>(id: string, now: Date): Promise<T | undefined>;
  /**
   * Deletes expired state; returns how many entries went, or undefined when the store could not
   * take the write right now. It does not wait: it is housekeeping, the next purge does it.
   */
  purge(now: Date): Promise<number | undefined>;
  /** Saves waiting for the store. */
  readonly pendingCount: number;
  /** Writes the queued saves if the store takes them right now; resolves how many are still queued. */
  flush(): Promise<number>;
  /** Starts retrying queued saves every {@link STATE_RETRY_MS} (the timer does not keep the process alive). */
  start(): void;
  /**
   * Stops retrying and makes a last attempt, waiting a little for the store; resolves how many
   * saves could not be written (their buttons will say the results expired).
   */
  stop(): Promise<number>;
}

export interface StateRow {
  id: string;
  /** JSON. */
  data: string;
  /** ISO instant. */
  createdAt: string;
}

/**
 * How long a write may wait for the store: `serving` (a reply waits on it: briefly), `none` (a
 * retry in the background), `shutdown` (the last chance: a couple of seconds).
 */
export type WritePatience = 'serving' | 'none' | 'shutdown';

/** Where a state store keeps its rows: one table, in SQLite or PostgreSQL. */
export interface StateRows {
  /**
   * Writes (or replaces) the rows, all or none. Resolves false when the store cannot take writes
   * within the patience given (a lock held elsewhere, a database that cannot be reached); any
   * other failure rejects.
   */
  write(rows: readonly StateRow[], patience: WritePatience): Promise<boolean>;
  /** The data of row `id` if it was created at or after `notBefore`. */
  read(id: string, notBefore: string): Promise<string | undefined>;
  /** Deletes rows created before `before`; undefined when the store cannot take the write now. */
  purge(before: string): Promise<number | undefined>;
}

export interface StateStoreOptions {
  /** Default {@link MAX_PENDING_STATES}. */
  maxPending?: number;
  /** Default {@link MAX_PENDING_CHARS}. */
  maxPendingChars?: number;
}

/**
 * The state store over any {@link StateRows}, with the in-memory queue for saves the store
 * cannot take yet.
 * @example const states = new QueuedStateStore(rows); states.start(); … await states.stop();
 */
export class QueuedStateStore implements StateStore {
  private readonly pending = new Map<string, StateRow>();
  private readonly maxPending: number;
  private readonly maxPendingChars: number;
  /** Characters of the queued rows' data. */
  private pendingChars = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<number> | undefined;

  constructor(
    private readonly rows: StateRows,
    options: StateStoreOptions = {},
  ) {
    this.maxPending = options.maxPending ?? MAX_PENDING_STATES;
    this.maxPendingChars = options.maxPendingChars ?? MAX_PENDING_CHARS;
  }

  async put(data: unknown, now: Date): Promise<string | undefined> {
    const id = randomBytes(8).toString('base64url').replace(/[-_]/g, 'x').slice(0, 10);
    const json = JSON.stringify(data);
    if (this.pending.size >= this.maxPending || this.pendingChars + json.length > this.maxPendingChars) return undefined;
    await this.save({ id, data: json, createdAt: now.toISOString() });
    return id;
  }

  async putAt(id: string, data: unknown, now: Date): Promise<string> {
    if (!/^[A-Za-z0-9.-]{1,40}$/.test(id)) throw new Error(`StateStore: "${id}" is not a valid state id`);
    await this.save({ id, data: JSON.stringify(data), createdAt: now.toISOString() });
    return id;
  }

  async get<T>(id: string, now: Date): Promise<T | undefined> {
    const limit = cutoff(now);
    const queued = this.pending.get(id);
    if (queued) return queued.createdAt >= limit ? (JSON.parse(queued.data) as T) : undefined;
    const data = await this.rows.read(id, limit);
    return data === undefined ? undefined : (JSON.parse(data) as T);
  }

  purge(now: Date): Promise<number | undefined> {
    return this.rows.purge(cutoff(now));
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  flush(patience: WritePatience = 'none'): Promise<number> {
    // One flush at a time; a save queued meanwhile waits for the next.
    this.flushing ??= this.writeQueued(patience).finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.flush().catch(() => undefined); // a store that fails otherwise is reported by the commands that use it
    }, STATE_RETRY_MS);
    this.timer.unref();
  }

  async stop(): Promise<number> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flushing?.catch(() => undefined);
    return this.flush('shutdown').catch(() => this.pending.size);
  }

  private async writeQueued(patience: WritePatience): Promise<number> {
    if (this.pending.size === 0) return 0;
    const batch = [...this.pending.values()];
    if (await this.rows.write(batch, patience)) {
      // Only what was written leaves the queue (a save of the same id since then stays).
      for (const row of batch) {
        if (this.pending.get(row.id) !== row) continue;
        this.pending.delete(row.id);
        this.pendingChars -= row.data.length;
      }
    }
    return this.pending.size;
  }

  private async save(row: StateRow): Promise<void> {
    if (this.pending.size === 0 && (await this.rows.write([row], 'serving'))) return;
    this.pendingChars += row.data.length - (this.pending.get(row.id)?.data.length ?? 0);
    this.pending.set(row.id, row);
  }
}

function cutoff(now: Date): string {
  return new Date(now.getTime() - STATE_TTL_DAYS * 86_400_000).toISOString();
}
