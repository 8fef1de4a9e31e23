/**
 * Harvest state in the `harvests` table of the library's SQLite database (the interface is in
 * `../harvests.ts`); a page's state is written in the paper store's transaction instead
 * (`SqlitePaperStore.write`'s `putHarvest`), with the same statement.
 */
import { toHarvestRecord, type HarvestRecord, type HarvestRow, type HarvestStore } from '../harvests.js';
import type { Db } from './db.js';

/** The statement that writes a state (shared with the paper store's writer). */
export const PUT_HARVEST =
  'INSERT INTO harvests (key, source, state, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET source = excluded.source, state = excluded.state, updated_at = excluded.updated_at';

/**
 * @example
 * const harvests = new SqliteHarvestStore(db);
 * (await harvests.get<OaiHarvestState>(key))?.state.token
 */
export class SqliteHarvestStore implements HarvestStore {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      get: db.prepare<[string], HarvestRow>('SELECT key, source, state, updated_at FROM harvests WHERE key = ?'),
      put: db.prepare<[string, string, string, string]>(PUT_HARVEST),
      delete: db.prepare<[string]>('DELETE FROM harvests WHERE key = ?'),
      all: db.prepare<[], HarvestRow>('SELECT key, source, state, updated_at FROM harvests ORDER BY updated_at, key'),
      bySource: db.prepare<[string], HarvestRow>('SELECT key, source, state, updated_at FROM harvests WHERE source = ? ORDER BY updated_at, key'),
    };
  }

  async get<T>(key: string): Promise<HarvestRecord<T> | undefined> {
    const row = this.stmts.get.get(key);
    return row && toHarvestRecord<T>(row);
  }

  async put(key: string, source: string, state: unknown, now: Date): Promise<void> {
    this.stmts.put.run(key, source, JSON.stringify(state), now.toISOString());
  }

  async delete(key: string): Promise<void> {
    this.stmts.delete.run(key);
  }

  async list(source?: string): Promise<HarvestRecord[]> {
    const rows = source === undefined ? this.stmts.all.all() : this.stmts.bySource.all(source);
    return rows.map((row) => toHarvestRecord(row));
  }
}
