/**
 * Interaction state rows in PostgreSQL (table `interaction_state`), shared by every instance: a
 * button pressed on a message another instance sent finds its state here. A save the database
 * cannot take now (unreachable, restarting) is reported so and kept by the queue in
 * `../states.ts`; a reply never waits for a reconnection.
 */
import { QueuedStateStore, type StateRow, type StateRows, type StateStore, type StateStoreOptions, type WritePatience } from '../states.js';
import { isConnectionError, type Postgres } from './connection.js';
import { isStoreUnavailable } from '../errors.js';

const UPSERT = `INSERT INTO interaction_state (id, data, created_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[])
  ON CONFLICT (id) DO UPDATE SET data = excluded.data, created_at = excluded.created_at`;

export class PgStateRows implements StateRows {
  constructor(private readonly db: Postgres) {}

  async write(rows: readonly StateRow[], patience: WritePatience): Promise<boolean> {
    const values = [rows.map((r) => r.id), rows.map((r) => r.data), rows.map((r) => r.createdAt)];
    try {
      // At shutdown it is worth riding out a blip; on the way to a reply it is not.
      if (patience === 'shutdown') await this.db.query(UPSERT, values);
      else await this.db.pool.query(UPSERT, values);
      return true;
    } catch (err) {
      if (isConnectionError(err) || isStoreUnavailable(err)) return false;
      throw err;
    }
  }

  async read(id: string, notBefore: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ data: string }>('SELECT data FROM interaction_state WHERE id = $1 AND created_at >= $2', [id, notBefore]);
    return rows[0]?.data;
  }

  async purge(before: string): Promise<number | undefined> {
    try {
      return (await this.db.pool.query('DELETE FROM interaction_state WHERE created_at < $1', [before])).rowCount ?? 0;
    } catch (err) {
      if (isConnectionError(err)) return undefined;
      throw err;
    }
  }
}

/**
 * The state store on PostgreSQL.
 * @example const states = pgStateStore(db); states.start();
 */
export function pgStateStore(db: Postgres, options: StateStoreOptions = {}): StateStore {
  return new QueuedStateStore(new PgStateRows(db), options);
}
