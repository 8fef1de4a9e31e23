/**
 * The two store implementations, for the contract suites (`test/store/*.contract.test.ts`):
 * each suite runs once per backend with the same expectations. A backend makes fresh, empty
 * stores; `instance()` opens another independent connection to the same one (another process
 * on one DATA_DIR, another instance on one PostgreSQL).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CitationStore } from '../../../src/store/citations.js';
import type { DigestStore } from '../../../src/store/digests.js';
import type { HarvestStore } from '../../../src/store/harvests.js';
import type { InstallationRows } from '../../../src/store/installations.js';
import type { JobLeases } from '../../../src/store/jobs.js';
import type { PaperStore } from '../../../src/store/papers.js';
import type { RatingStore } from '../../../src/store/ratings.js';
import type { ReadingListStore } from '../../../src/store/readingLists.js';
import { openPostgres } from '../../../src/store/postgres/index.js';
import type { SeenEvents } from '../../../src/store/seenEvents.js';
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { SqliteCitationStore } from '../../../src/store/sqlite/citations.js';
import { SqliteDigestStore } from '../../../src/store/sqlite/digests.js';
import { SqliteHarvestStore } from '../../../src/store/sqlite/harvests.js';
import { SqliteInstallationRows } from '../../../src/store/sqlite/installations.js';
import { SqliteJobLeases } from '../../../src/store/sqlite/jobs.js';
import { SqlitePaperStore } from '../../../src/store/sqlite/papers.js';
import { SqliteRatingStore } from '../../../src/store/sqlite/ratings.js';
import { SqliteReadingListStore } from '../../../src/store/sqlite/readingLists.js';
import { SqliteSeenEvents } from '../../../src/store/sqlite/seenEvents.js';
import { sqliteStateStore } from '../../../src/store/sqlite/states.js';
import type { StateStore } from '../../../src/store/states.js';
import { silentLog } from '../../helpers/corpus.js';
import { createTestDatabase, dropTestDatabase, postgresMissing } from '../../helpers/postgres.js';

export interface Instance {
  papers: PaperStore;
  states: StateStore;
  digests: DigestStore;
  seenEvents: SeenEvents;
  jobs: JobLeases;
  harvests: HarvestStore;
  readingLists: ReadingListStore;
  ratings: RatingStore;
  citations: CitationStore;
  installationRows: InstallationRows;
  /** Raw SQL on the store, for tests that look at what is at rest. */
  rawRows(sql: string): Promise<Record<string, unknown>[]>;
  /** Raw SQL that returns nothing (a trigger that makes a write fail where a test wants it to). */
  rawExec(sql: string): Promise<void>;
  /** Files what is filed under alias `from` under `to` instead, as an older version filed it (for tests of libraries it wrote). */
  renameAlias(from: string, to: string): Promise<void>;
  /** Every row of the reading-list tables, as the database holds them (to look for what should be gone). */
  readingListRows(): Promise<Record<string, unknown[]>>;
  /** Every row of the ratings tables, as the database holds them. */
  ratingRows(): Promise<Record<string, unknown[]>>;
  close(): Promise<void>;
}

export interface TestStore {
  /** A connection of its own to this store. */
  instance(): Promise<Instance>;
  /** Closes every instance and deletes the store. */
  dispose(): Promise<void>;
}

export interface StoreBackend {
  name: 'sqlite' | 'postgres';
  /** Why this backend's suites are skipped, if they are. */
  skip: string | undefined;
  /**
   * Why two instances may not write at once in one test process, where they may not: SQLite's
   * writers wait for the lock synchronously (better-sqlite3), so a second connection in the
   * process of the first waits for a transaction that cannot finish meanwhile.
   */
  noConcurrentInstances: string | undefined;
  create(): Promise<TestStore>;
}

const READING_LIST_TABLES = ['reading_list_entries', 'channel_shares', 'channel_archive', 'channel_archiving'];
const RATING_TABLES = ['paper_ratings', 'followed_authors'];

const sqlite: StoreBackend = {
  name: 'sqlite',
  skip: undefined,
  noConcurrentInstances:
    'SQLite writers in one process wait for the lock synchronously, so a second waits for a transaction that cannot finish; two SQLite writers are two processes in test/digest/processes.test.ts and test/ingest/kill.test.ts',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'paperscout-contract-'));
    const path = join(dir, 'paperscout.db');
    const opened: Instance[] = [];
    return {
      async instance() {
        const db = openDatabase(path);
        const instance: Instance = {
          papers: new SqlitePaperStore(db),
          states: sqliteStateStore(db),
          digests: new SqliteDigestStore(db),
          seenEvents: new SqliteSeenEvents(db),
          jobs: new SqliteJobLeases(db),
          harvests: new SqliteHarvestStore(db),
          readingLists: new SqliteReadingListStore(db),
          ratings: new SqliteRatingStore(db),
          citations: new SqliteCitationStore(db),
          installationRows: new SqliteInstallationRows(db),
          rawRows: async (sql) => db.prepare(sql).all() as Record<string, unknown>[],
          rawExec: async (sql) => void db.exec(sql),
          renameAlias: async (from, to) => void db.prepare('UPDATE paper_aliases SET alias = ? WHERE alias = ?').run(to, from),
          readingListRows: async () => Object.fromEntries(READING_LIST_TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t}`).all()])),
          ratingRows: async () => Object.fromEntries(RATING_TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t}`).all()])),
          close: async () => void (db.open && db.close()),
        };
        opened.push(instance);
        return instance;
      },
      async dispose() {
        for (const i of opened) await i.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const postgres: StoreBackend = {
  name: 'postgres',
  skip: postgresMissing,
  noConcurrentInstances: undefined,
  async create() {
    const url = await createTestDatabase();
    const opened: Instance[] = [];
    return {
      async instance() {
        const pg = await openPostgres(url, { log: silentLog, patience: 5000, max: 4 });
        let closed = false;
        const instance: Instance = {
          ...pg,
          rawRows: async (sql) => (await pg.db.query(sql)).rows as Record<string, unknown>[],
          rawExec: async (sql) => void (await pg.db.query(sql)),
          renameAlias: async (from, to) => void (await pg.db.query('UPDATE paper_aliases SET alias = $1 WHERE alias = $2', [to, from])),
          readingListRows: async () => Object.fromEntries(await Promise.all(READING_LIST_TABLES.map(async (t) => [t, (await pg.db.query(`SELECT * FROM ${t}`)).rows]))),
          ratingRows: async () => Object.fromEntries(await Promise.all(RATING_TABLES.map(async (t) => [t, (await pg.db.query(`SELECT * FROM ${t}`)).rows]))),
          close: async () => void (closed || ((closed = true), await pg.close())),
        };
        opened.push(instance);
        return instance;
      },
      async dispose() {
        for (const i of opened) await i.close();
        await dropTestDatabase(url);
      },
    };
  },
};

export const BACKENDS: readonly StoreBackend[] = [sqlite, postgres];
