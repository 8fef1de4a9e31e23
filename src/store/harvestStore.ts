/**
 * Harvest state: where a long fetch from a source stands (an OAI-PMH resumption token and the
 * last datestamp fully stored, an OpenReview venue's last sync), so that a killed harvest picks
 * up where it stopped and a schedule knows what is due. A small interface with a SQLite
 * implementation; state is JSON the source defines.
 */
import type { Db } from './db.js';

export interface HarvestRecord<T = unknown> {
  key: string;
  /** The source that owns the state: `arxiv-oai`, `openreview`. */
  source: string;
  state: T;
  /** When the state was last written (ISO 8601). */
  updatedAt: string;
}

export interface HarvestStore {
  get<T>(key: string): HarvestRecord<T> | undefined;
  /** Writes the state; call inside the transaction that stores the page it describes. */
  put(key: string, source: string, state: unknown, now: Date): void;
  delete(key: string): void;
  /** Every state a source keeps (all sources when omitted), oldest update first. */
  list(source?: string): HarvestRecord[];
}

interface Row {
  key: string;
  source: string;
  state: string;
  updated_at: string;
}

/**
 * Harvest state in the `harvests` table of the library's SQLite database, so that it commits in
 * the same transaction as the papers of the page it describes.
 * @example
 * const harvests = new SqliteHarvestStore(db);
 * store.transaction(() => { writePage(); harvests.put('arxiv-oai:cs:2024-01-01', 'arxiv-oai', { token }, new Date()); });
 */
export class SqliteHarvestStore implements HarvestStore {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      get: db.prepare<[string], Row>('SELECT key, source, state, updated_at FROM harvests WHERE key = ?'),
      put: db.prepare(
        'INSERT INTO harvests (key, source, state, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET source = excluded.source, state = excluded.state, updated_at = excluded.updated_at',
      ),
      delete: db.prepare<[string]>('DELETE FROM harvests WHERE key = ?'),
      all: db.prepare<[], Row>('SELECT key, source, state, updated_at FROM harvests ORDER BY updated_at, key'),
      bySource: db.prepare<[string], Row>('SELECT key, source, state, updated_at FROM harvests WHERE source = ? ORDER BY updated_at, key'),
    };
  }

  get<T>(key: string): HarvestRecord<T> | undefined {
    const row = this.stmts.get.get(key);
    return row && toRecord<T>(row);
  }

  put(key: string, source: string, state: unknown, now: Date): void {
    this.stmts.put.run(key, source, JSON.stringify(state), now.toISOString());
  }

  delete(key: string): void {
    this.stmts.delete.run(key);
  }

  list(source?: string): HarvestRecord[] {
    const rows = source === undefined ? this.stmts.all.all() : this.stmts.bySource.all(source);
    return rows.map((row) => toRecord(row));
  }
}

function toRecord<T>(row: Row): HarvestRecord<T> {
  return { key: row.key, source: row.source, state: JSON.parse(row.state) as T, updatedAt: row.updated_at };
}
