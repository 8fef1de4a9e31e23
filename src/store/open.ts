/**
 * Opens the store the configuration names: the SQLite database under DATA_DIR by default, or the
 * PostgreSQL database of DATABASE_URL (loaded only then). This is the one module above the two
 * implementations that names either; everything else sees the interfaces of {@link Stores}.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { CitationStore } from './citations.js';
import type { DigestStore } from './digests.js';
import type { HarvestStore } from './harvests.js';
import type { InstallationRows } from './installations.js';
import type { JobLeases } from './jobs.js';
import type { PaperStore } from './papers.js';
import type { RatingStore } from './ratings.js';
import type { ReadingListStore } from './readingLists.js';
import type { SeenEvents } from './seenEvents.js';
import type { StateStore } from './states.js';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { SetupError } from '../errors.js';
import { SERVING_BUSY_TIMEOUT_MS, openDatabase, setBusyTimeout, tuneForBulkWrites, type Db } from './sqlite/db.js';
import { checkDatabaseWritable, ensureDirectory } from './sqlite/access.js';
import { SqliteCitationStore } from './sqlite/citations.js';
import { SqliteDigestStore } from './sqlite/digests.js';
import { SqliteHarvestStore } from './sqlite/harvests.js';
import { SqliteInstallationRows } from './sqlite/installations.js';
import { SqliteJobLeases } from './sqlite/jobs.js';
import { SqlitePaperStore } from './sqlite/papers.js';
import { SqliteRatingStore } from './sqlite/ratings.js';
import { SqliteReadingListStore } from './sqlite/readingLists.js';
import { Checkpointer } from './sqlite/checkpointer.js';
import { SqliteSeenEvents } from './sqlite/seenEvents.js';
import { sqliteStateStore } from './sqlite/states.js';

/** How long the command line waits for an unreachable PostgreSQL before giving up. */
export const CLI_PATIENCE_MS = 30_000;

/**
 * Where the configured store is, as plain data: what a worker thread needs to open the paper
 * store again on a connection of its own.
 */
export type StoreTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** The store the configuration names. */
export function storeTarget(config: Pick<Config, 'database' | 'dbPath'>): StoreTarget {
  return config.database ? { kind: 'postgres', url: config.database.url } : { kind: 'sqlite', path: config.dbPath };
}

/** Everything the bot keeps, behind one interface per kind. */
export interface Stores {
  /** Where it is, for logs: the database file, or PostgreSQL's host, port and database. */
  readonly description: string;
  /** Where it is, to open it again elsewhere (a worker thread). */
  readonly target: StoreTarget;
  /**
   * Opened read-only (see {@link OpenStoresOptions.readOnlyIfUnwritable}): nothing is written to
   * it, and interaction state is kept in memory for this process only.
   */
  readonly readOnly: boolean;
  papers: PaperStore;
  /** Interaction state (buttons). */
  states: StateStore;
  /** Digest subscriptions, ledger and runs. */
  digests: DigestStore;
  /** Platform event ids already taken. */
  seenEvents: SeenEvents;
  /** Leases of scheduled jobs (syncs), so that one instance runs each. */
  jobs: JobLeases;
  /** Where harvests stand (backfill resumption tokens, OpenReview venues' last syncs). */
  harvests: HarvestStore;
  /** Members' and channels' reading lists, and channels' archives of shared papers. */
  readingLists: ReadingListStore;
  /** Members' own signals: 👍/👎 on papers and followed authors. */
  ratings: RatingStore;
  /** Papers' citation counts from OpenAlex, their works and references. */
  citations: CitationStore;
  /** Installations of the Slack app (OAuth), as rows: `SealedInstallationStore` seals and opens their tokens. */
  installationRows: InstallationRows;
  /**
   * Tells `onChange` at once whenever another process's write of papers commits, where the store
   * can (PostgreSQL's LISTEN; not SQLite, whose readers poll the generation).
   */
  watchPapers?(onChange: () => void): { close(): Promise<void> };
  /** From now on a write waits only briefly for a lock held elsewhere: the bot is serving users. */
  serve(): void;
  /**
   * Closes the store. With `checkpoint` (a clean stop of the bot), SQLite folds its write-ahead
   * log back into the database first, so a copy of DATA_DIR is one self-contained file.
   */
  close(options?: { checkpoint?: boolean }): Promise<void>;
}

export interface OpenStoresOptions {
  log: Logger;
  /**
   * How long to keep trying to reach a PostgreSQL that does not answer at start: `forever` (the
   * bot, a service) or milliseconds (default {@link CLI_PATIENCE_MS}).
   */
  patience?: 'forever' | number;
  /**
   * The connection will write many papers (an import): SQLite gets a larger page cache, and a
   * thread that checkpoints its log beside it.
   */
  bulk?: boolean;
  /**
   * The caller only reads (a search, stats): a SQLite library this process cannot write (on a
   * read-only volume, or another user's) is opened read-only instead of refused, and one that
   * does not exist and cannot be created is an empty one in memory. A library it can write is
   * opened as usual, and kept up to date.
   */
  readOnlyIfUnwritable?: boolean;
}

/**
 * Opens (creating or migrating as needed) the configured store.
 * @example const stores = await openStores(config, { log }); … await stores.close();
 */
export async function openStores(config: Config, options: OpenStoresOptions): Promise<Stores> {
  const { log } = options;
  if (config.database) {
    const [{ openPostgres }, { describeTarget }] = await Promise.all([import('./postgres/index.js'), import('./postgres/connection.js')]);
    const pg = await openPostgres(config.database.url, { log, patience: options.patience ?? CLI_PATIENCE_MS });
    return { ...pg, description: `PostgreSQL ${describeTarget(config.database.url)}`, target: storeTarget(config), readOnly: false, serve: () => undefined, close: () => pg.close() };
  }
  if (options.readOnlyIfUnwritable && !writable(config.dbPath)) return openReadOnlyStores(config);
  const db = openDatabase(config.dbPath);
  let checkpointer: Checkpointer | undefined;
  if (options.bulk) {
    tuneForBulkWrites(db);
    checkpointer = new Checkpointer(db, log);
    checkpointer.start();
  }
  return {
    description: config.dbPath,
    target: storeTarget(config),
    readOnly: false,
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
    serve: () => void setBusyTimeout(db, SERVING_BUSY_TIMEOUT_MS),
    async close({ checkpoint = false } = {}) {
      await checkpointer?.stop();
      if (!db.open) return;
      if (checkpoint) {
        try {
          const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number; checkpointed: number }>;
          if (result?.busy) log.warn({ ...result }, 'SQLite checkpoint incomplete: another process is using the database');
          else log.debug({ ...result }, 'SQLite checkpointed');
        } catch (err) {
          log.warn({ err }, 'SQLite checkpoint failed');
        }
      }
      db.close();
    },
  };
}

/** Whether this process can create (if need be) and write the database at `dbPath`. */
function writable(dbPath: string): boolean {
  try {
    ensureDirectory(dirname(dbPath), 'DATA_DIR');
    checkDatabaseWritable(dbPath);
    return true;
  } catch (err) {
    if (err instanceof SetupError) return false;
    throw err;
  }
}

/**
 * The SQLite library opened read-only, or an empty one in memory when there is none. Reading
 * lists and ratings are read from it and never written: where there is no library, from an empty database
 * that refuses writes as a read-only one does (SQLITE_READONLY), so that nothing a member saves
 * is kept for this process only and then lost.
 */
function openReadOnlyStores(config: Config): Stores {
  const found = existsSync(config.dbPath);
  const db: Db = found ? openDatabase(config.dbPath, { readOnly: true }) : openDatabase(':memory:');
  const memory = openDatabase(':memory:');
  const lists = found ? db : queryOnly(openDatabase(':memory:'));
  return {
    description: config.dbPath,
    target: storeTarget(config),
    readOnly: true,
    papers: new SqlitePaperStore(db),
    states: sqliteStateStore(memory),
    digests: new SqliteDigestStore(db),
    seenEvents: new SqliteSeenEvents(db),
    jobs: new SqliteJobLeases(db),
    harvests: new SqliteHarvestStore(db),
    readingLists: new SqliteReadingListStore(lists),
    ratings: new SqliteRatingStore(lists),
    citations: new SqliteCitationStore(db),
    installationRows: new SqliteInstallationRows(db),
    serve: () => undefined,
    async close() {
      if (db.open) db.close();
      if (lists.open) lists.close();
      memory.close();
    },
  };
}

function queryOnly(db: Db): Db {
  db.pragma('query_only = ON');
  return db;
}

/**
 * The paper store at `target` alone, on a connection of its own (a worker thread's).
 * @example const { papers, close } = await openPaperStoreAt(stores.target, log);
 */
export async function openPaperStoreAt(target: StoreTarget, log: Logger): Promise<{ papers: PaperStore; close(): Promise<void> }> {
  if (target.kind === 'postgres') {
    const { openPostgres } = await import('./postgres/index.js');
    const pg = await openPostgres(target.url, { log, patience: CLI_PATIENCE_MS, max: 2 });
    return { papers: pg.papers, close: () => pg.close() };
  }
  const db = openDatabase(target.path);
  return { papers: new SqlitePaperStore(db), close: async () => void (db.open && db.close()) };
}

/**
 * A paper store in memory, for the bundled demo corpus (searched while the library is empty).
 * @example const demo = openMemoryPaperStore(); await ingestPaths([demoFile], { store: demo, classify });
 */
export function openMemoryPaperStore(): PaperStore {
  return new SqlitePaperStore(openDatabase(':memory:'), { ownsDatabase: true });
}
