/**
 * Interaction state: what a button needs to redo its work ("page 3 of this search") after the
 * message was sent, possibly by a process that has restarted since. Kept in SQLite under a short
 * random id that fits in a button's action handle.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from './db.js';

/** How long buttons keep working. */
export const STATE_TTL_DAYS = 30;

export class StateStore {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      put: db.prepare('INSERT INTO interaction_state (id, data, created_at) VALUES (?, ?, ?)'),
      putAt: db.prepare('INSERT OR REPLACE INTO interaction_state (id, data, created_at) VALUES (?, ?, ?)'),
      get: db.prepare<[string, string], { data: string }>('SELECT data FROM interaction_state WHERE id = ? AND created_at >= ?'),
      purge: db.prepare<[string]>('DELETE FROM interaction_state WHERE created_at < ?'),
    };
  }

  /**
   * Saves `data` and returns its id (10 characters, letters and digits).
   * @example const id = states.put({ query: 'diffusion' }, new Date());
   */
  put(data: unknown, now: Date): string {
    const id = randomBytes(8).toString('base64url').replace(/[-_]/g, 'x').slice(0, 10);
    this.stmts.put.run(id, JSON.stringify(data), now.toISOString());
    return id;
  }

  /**
   * Saves `data` under a name of the caller's choosing (letters, digits, `-`, `.`; at most 40),
   * replacing what was there: for state that is the same every time it is made.
   */
  putAt(id: string, data: unknown, now: Date): string {
    if (!/^[A-Za-z0-9.-]{1,40}$/.test(id)) throw new Error(`StateStore: "${id}" is not a valid state id`);
    this.stmts.putAt.run(id, JSON.stringify(data), now.toISOString());
    return id;
  }

  /** The data saved under `id`, unless it has expired. */
  get<T>(id: string, now: Date): T | undefined {
    const row = this.stmts.get.get(id, cutoff(now));
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  /** Deletes expired state; returns how many entries went. */
  purge(now: Date): number {
    return this.stmts.purge.run(cutoff(now)).changes;
  }
}

function cutoff(now: Date): string {
  return new Date(now.getTime() - STATE_TTL_DAYS * 86_400_000).toISOString();
}
