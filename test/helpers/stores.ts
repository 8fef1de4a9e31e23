/**
 * The SQLite stores in memory, as the source and lookup tests use them: the paper store, harvest
 * state and job leases on one database, and a shorthand for writing records.
 */
import type { PaperRecord } from '../../src/papers/model.js';
import type { PaperStore, UpsertOptions, UpsertResult } from '../../src/store/papers.js';
import { openDatabase, type Db } from '../../src/store/sqlite/db.js';
import { SqliteHarvestStore } from '../../src/store/sqlite/harvests.js';
import { SqliteJobLeases } from '../../src/store/sqlite/jobs.js';
import { SqlitePaperStore } from '../../src/store/sqlite/papers.js';

export interface MemoryStores {
  db: Db;
  store: SqlitePaperStore;
  harvests: SqliteHarvestStore;
  jobs: SqliteJobLeases;
}

/** Fresh stores on a database of their own (`:memory:` unless a path is given). */
export function memoryStores(path = ':memory:'): MemoryStores {
  const db = openDatabase(path);
  return { db, store: new SqlitePaperStore(db), harvests: new SqliteHarvestStore(db), jobs: new SqliteJobLeases(db) };
}

/** Writes records in one transaction, as an import batch does. */
export function putRecords(store: PaperStore, records: readonly PaperRecord[], options: UpsertOptions): Promise<UpsertResult[]> {
  return store.write((tx) => tx.upsertBatch(records, options));
}
