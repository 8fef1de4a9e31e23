/**
 * Interaction state rows in SQLite (table `interaction_state`). A write that finds another
 * process holding the write lock waits as long as the connection's busy timeout says (the serving
 * bot: 50 ms), a background retry not at all, the last one at shutdown two seconds; then it
 * reports the store busy and the queue in `../states.ts` keeps the rows.
 */
import { QueuedStateStore, type StateRow, type StateRows, type StateStore, type StateStoreOptions, type WritePatience } from '../states.js';
import { isBusyError, setBusyTimeout, type Db } from './db.js';

/** How long the last attempt to write queued state may wait for the lock at shutdown. */
const SHUTDOWN_WAIT_MS = 2000;

export class SqliteStateRows implements StateRows {
  private readonly stmts;
  private readonly writeAll: (rows: readonly StateRow[]) => void;

  constructor(private readonly db: Db) {
    this.stmts = {
      put: db.prepare<[string, string, string]>('INSERT OR REPLACE INTO interaction_state (id, data, created_at) VALUES (?, ?, ?)'),
      get: db.prepare<[string, string], { data: string }>('SELECT data FROM interaction_state WHERE id = ? AND created_at >= ?'),
      purge: db.prepare<[string]>('DELETE FROM interaction_state WHERE created_at < ?'),
    };
    this.writeAll = (rows) => {
      if (rows.length === 1) this.stmts.put.run(rows[0]!.id, rows[0]!.data, rows[0]!.createdAt);
      else db.transaction(() => rows.forEach((r) => this.stmts.put.run(r.id, r.data, r.createdAt))).immediate();
    };
  }

  async write(rows: readonly StateRow[], patience: WritePatience): Promise<boolean> {
    const waitMs = patience === 'none' ? 0 : patience === 'shutdown' ? SHUTDOWN_WAIT_MS : undefined;
    const before = waitMs === undefined ? undefined : setBusyTimeout(this.db, waitMs);
    try {
      this.writeAll(rows);
      return true;
    } catch (err) {
      if (isBusyError(err)) return false;
      throw err;
    } finally {
      if (before !== undefined) setBusyTimeout(this.db, before);
    }
  }

  async read(id: string, notBefore: string): Promise<string | undefined> {
    return this.stmts.get.get(id, notBefore)?.data;
  }

  async purge(before: string): Promise<number | undefined> {
    const was = setBusyTimeout(this.db, 0);
    try {
      return this.stmts.purge.run(before).changes;
    } catch (err) {
      if (isBusyError(err)) return undefined;
      throw err;
    } finally {
      setBusyTimeout(this.db, was);
    }
  }
}

/**
 * The state store on a SQLite database.
 * @example const states = sqliteStateStore(openDatabase(config.dbPath));
 */
export function sqliteStateStore(db: Db, options: StateStoreOptions = {}): StateStore {
  return new QueuedStateStore(new SqliteStateRows(db), options);
}
