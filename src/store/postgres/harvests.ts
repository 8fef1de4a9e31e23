/**
 * Harvest state in PostgreSQL (table `harvests`), shared by every instance: a backfill started on
 * one machine resumes on another, and every instance's OpenReview schedule sees the same last
 * syncs. A page's state is written in the paper store's transaction (`PgPaperStore.write`'s
 * `putHarvest`), with the same statement.
 */
import { toHarvestRecord, type HarvestRecord, type HarvestRow, type HarvestStore } from '../harvests.js';
import type { Postgres } from './connection.js';

/** The statement that writes a state (shared with the paper store's writer). */
export const PUT_HARVEST = `INSERT INTO harvests (key, source, state, updated_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (key) DO UPDATE SET source = excluded.source, state = excluded.state, updated_at = excluded.updated_at`;

/** `updated_at` is a timestamptz, read back as an ISO string (see connection.ts). */
const COLUMNS = 'key, source, state, updated_at';

export class PgHarvestStore implements HarvestStore {
  constructor(private readonly db: Postgres) {}

  async get<T>(key: string): Promise<HarvestRecord<T> | undefined> {
    const row = (await this.db.query<HarvestRow>(`SELECT ${COLUMNS} FROM harvests WHERE key = $1`, [key])).rows[0];
    return row && toHarvestRecord<T>(row);
  }

  async put(key: string, source: string, state: unknown, now: Date): Promise<void> {
    await this.db.query(PUT_HARVEST, [key, source, JSON.stringify(state), now.toISOString()]);
  }

  async delete(key: string): Promise<void> {
    await this.db.query('DELETE FROM harvests WHERE key = $1', [key]);
  }

  async list(source?: string): Promise<HarvestRecord[]> {
    const { rows } =
      source === undefined
        ? await this.db.query<HarvestRow>(`SELECT ${COLUMNS} FROM harvests ORDER BY updated_at, key`)
        : await this.db.query<HarvestRow>(`SELECT ${COLUMNS} FROM harvests WHERE source = $1 ORDER BY updated_at, key`, [source]);
    return rows.map((row) => toHarvestRecord(row));
  }
}
