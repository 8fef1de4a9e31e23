/**
 * The SQLite database under DATA_DIR (the default store): the source of truth for papers,
 * subscriptions and interaction state. Schema changes are numbered migrations applied in order at open.
 *
 * WAL mode: readers never wait for a writer in another process. Writers do, and better-sqlite3
 * waits synchronously, blocking the event loop: a batch tool may wait seconds for the write
 * lock, the serving bot only {@link SERVING_BUSY_TIMEOUT_MS} (see `setBusyTimeout`).
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { SetupError } from '../../errors.js';
import { BATCH_LOCK_WAIT_MS } from '../errors.js';
import { checkDatabaseWritable, ensureDirectory, explainDatabaseError, processUser } from './access.js';

// better-sqlite3 reads this once, when its addon loads (at the first connection): with it, a
// `file:` name is a URI, which is how a database is opened immutable (see openReadOnly).
process.env.SQLITE_USE_URI = '1';

export type Db = Database.Database;

/** How long a batch writer (ingest, reindex, the CLI) waits for another process's write lock. */
export const WRITER_BUSY_TIMEOUT_MS = BATCH_LOCK_WAIT_MS;
/**
 * How long the serving bot waits for a write lock before it queues the write or answers
 * without it: every millisecond of it blocks every user.
 */
export const SERVING_BUSY_TIMEOUT_MS = 50;

export interface OpenDatabaseOptions {
  /** Milliseconds to wait for another process's write lock (default {@link WRITER_BUSY_TIMEOUT_MS}). */
  busyTimeoutMs?: number;
  migrations?: readonly string[];
  /**
   * Open the existing database without writing anything, not even its schema (see
   * {@link openReadOnly}).
   */
  readOnly?: boolean;
}

/** Numbered schema steps; append only, never edit one that has shipped. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE papers (
    doc INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    authors TEXT NOT NULL,
    abstract TEXT NOT NULL,
    venue TEXT NOT NULL,
    year INTEGER,
    status TEXT NOT NULL,
    topics TEXT NOT NULL,
    keywords TEXT NOT NULL,
    labels TEXT NOT NULL,
    links TEXT NOT NULL,
    external_ids TEXT NOT NULL,
    published TEXT,
    source TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    first_seen TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    gen INTEGER NOT NULL
  );
  CREATE INDEX papers_first_seen ON papers(first_seen);
  CREATE INDEX papers_gen ON papers(gen);
  CREATE TABLE paper_aliases (
    alias TEXT PRIMARY KEY,
    paper_id TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX paper_aliases_paper ON paper_aliases(paper_id);
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  `,
  `
  CREATE TABLE interaction_state (
    id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX interaction_state_created ON interaction_state(created_at);
  `,
  `
  CREATE TABLE subscriptions (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    channel TEXT NOT NULL,
    query TEXT NOT NULL,
    label TEXT NOT NULL,
    time TEXT NOT NULL,
    timezone TEXT NOT NULL,
    days TEXT NOT NULL,
    count INTEGER NOT NULL,
    fill INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_slot TEXT,
    last_digest_at TEXT,
    status TEXT NOT NULL DEFAULT 'active',
    paused_reason TEXT,
    UNIQUE (platform, channel, query)
  );
  CREATE TABLE digest_ledger (
    platform TEXT NOT NULL,
    channel TEXT NOT NULL,
    key TEXT NOT NULL,
    paper_id TEXT NOT NULL,
    sent_at TEXT NOT NULL,
    PRIMARY KEY (platform, channel, key)
  ) WITHOUT ROWID;
  CREATE TABLE digest_runs (
    subscription_id INTEGER NOT NULL,
    slot TEXT NOT NULL,
    papers TEXT NOT NULL,
    parts INTEGER NOT NULL,
    parts_done INTEGER NOT NULL DEFAULT 0,
    in_flight INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (subscription_id, slot)
  ) WITHOUT ROWID;
  CREATE INDEX digest_runs_state ON digest_runs(state);
  `,
  `
  CREATE TABLE seen_events (
    key TEXT PRIMARY KEY,
    seen_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX seen_events_seen_at ON seen_events(seen_at);
  `,
  // Digest runs: when the part in flight was first tried (its outcome is looked up from there),
  // and a lease so that one process at a time sends a run.
  `
  ALTER TABLE digest_runs ADD COLUMN in_flight_since TEXT;
  ALTER TABLE digest_runs ADD COLUMN lease_owner TEXT;
  ALTER TABLE digest_runs ADD COLUMN lease_until TEXT;
  UPDATE digest_runs SET in_flight_since = updated_at WHERE in_flight = 1;
  `,
  // The language a channel's digests are written in: the subscriber's locale tag (NULL before
  // this column existed: the platform's default for the server or workspace is used then).
  `
  ALTER TABLE subscriptions ADD COLUMN locale TEXT;
  `,
  // Sources: where harvests stand (resumption tokens, last syncs), and OpenReview's TL;DRs.
  `
  CREATE TABLE harvests (
    key TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    state TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) WITHOUT ROWID;
  ALTER TABLE papers ADD COLUMN tldr TEXT;
  `,
  // Scheduled jobs (the arXiv sync, the OpenReview refresh, backfills) claimed per slot, so that one process runs each.
  `
  CREATE TABLE job_leases (
    job TEXT PRIMARY KEY,
    last_slot TEXT,
    slot TEXT,
    lease_owner TEXT,
    lease_until TEXT
  ) WITHOUT ROWID;
  `,
  // Deleted papers, by the generation that deleted them: search indexes following the store mask them.
  `
  CREATE TABLE paper_tombstones (
    doc INTEGER PRIMARY KEY,
    gen INTEGER NOT NULL
  );
  CREATE INDEX paper_tombstones_gen ON paper_tombstones(gen);
  `,
  // Reading lists (readingListRows.ts says what each table holds). The partial indexes find a
  // member's rows in a team's channels when they ask to be forgotten.
  `
  CREATE TABLE reading_list_entries (
    platform TEXT NOT NULL,
    team TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('member', 'channel')),
    owner TEXT NOT NULL,
    paper_id TEXT NOT NULL,
    added_by TEXT,
    added_by_name TEXT,
    added_at TEXT NOT NULL,
    note TEXT,
    note_by TEXT,
    note_by_name TEXT,
    PRIMARY KEY (platform, team, kind, owner, paper_id)
  ) WITHOUT ROWID;
  CREATE INDEX reading_list_entries_newest ON reading_list_entries(platform, team, kind, owner, added_at DESC, paper_id);
  CREATE INDEX reading_list_entries_paper ON reading_list_entries(paper_id);
  CREATE INDEX reading_list_entries_added_by ON reading_list_entries(platform, team, added_by) WHERE kind = 'channel' AND added_by IS NOT NULL;
  CREATE INDEX reading_list_entries_note_by ON reading_list_entries(platform, team, note_by) WHERE kind = 'channel' AND note_by IS NOT NULL;
  CREATE TABLE channel_shares (
    platform TEXT NOT NULL,
    team TEXT NOT NULL,
    channel TEXT NOT NULL,
    message TEXT NOT NULL,
    paper_id TEXT NOT NULL,
    shared_by TEXT,
    shared_by_name TEXT,
    shared_at TEXT NOT NULL,
    PRIMARY KEY (platform, team, channel, message, paper_id)
  ) WITHOUT ROWID;
  CREATE INDEX channel_shares_paper ON channel_shares(paper_id);
  CREATE INDEX channel_shares_by ON channel_shares(platform, team, shared_by) WHERE shared_by IS NOT NULL;
  CREATE TABLE channel_archive (
    platform TEXT NOT NULL,
    team TEXT NOT NULL,
    channel TEXT NOT NULL,
    paper_id TEXT NOT NULL,
    first_shared_by TEXT,
    first_shared_by_name TEXT,
    first_shared_at TEXT NOT NULL,
    last_shared_at TEXT NOT NULL,
    shares INTEGER NOT NULL,
    PRIMARY KEY (platform, team, channel, paper_id)
  ) WITHOUT ROWID;
  CREATE INDEX channel_archive_recent ON channel_archive(platform, team, channel, last_shared_at DESC, paper_id);
  CREATE INDEX channel_archive_paper ON channel_archive(paper_id);
  CREATE INDEX channel_archive_first_by ON channel_archive(platform, team, first_shared_by) WHERE first_shared_by IS NOT NULL;
  CREATE TABLE channel_archiving (
    platform TEXT NOT NULL,
    team TEXT NOT NULL,
    channel TEXT NOT NULL,
    archiving INTEGER NOT NULL,
    set_by TEXT,
    set_by_name TEXT,
    set_at TEXT NOT NULL,
    PRIMARY KEY (platform, team, channel)
  ) WITHOUT ROWID;
  `,
  // Installations of the Slack app in many workspaces (OAuth): tokens sealed, kept a while after an uninstall.
  `
  CREATE TABLE installations (
    key TEXT PRIMARY KEY,
    team_id TEXT,
    enterprise_id TEXT,
    enterprise_install INTEGER NOT NULL,
    bot_user_id TEXT,
    scopes TEXT NOT NULL,
    installer TEXT,
    secret TEXT,
    data TEXT NOT NULL,
    installed_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    removed_at TEXT
  ) WITHOUT ROWID;
  `,
  // The workspaces an org-wide (Enterprise Grid) installation serves.
  `
  CREATE TABLE installation_teams (
    team_id TEXT PRIMARY KEY,
    installation_key TEXT NOT NULL,
    covered_at TEXT NOT NULL,
    revoked_at TEXT
  ) WITHOUT ROWID;
  CREATE INDEX installation_teams_key ON installation_teams(installation_key);
  `,
  // Citations from OpenAlex (citationRows.ts says what each table holds): a row per paper asked
  // about, and its references indexed by work (an FTS5 index of numbers: rowid the document).
  `
  CREATE TABLE paper_citations (
    doc INTEGER PRIMARY KEY,
    openalex INTEGER,
    cited_by INTEGER,
    fetched TEXT NOT NULL,
    refs BLOB
  );
  CREATE INDEX paper_citations_openalex ON paper_citations(openalex);
  CREATE VIRTUAL TABLE citation_refs USING fts5(works, content='', detail=none, columnsize=0);
  `,
  // Members' own signals (ratingRows.ts says what each table holds): 👍/👎 on papers, followed authors.
  `
  CREATE TABLE paper_ratings (
    platform TEXT NOT NULL,
    team TEXT NOT NULL,
    member TEXT NOT NULL,
    paper_id TEXT NOT NULL,
    value INTEGER NOT NULL CHECK (value IN (1, -1)),
    rated_at TEXT NOT NULL,
    PRIMARY KEY (platform, team, member, paper_id)
  ) WITHOUT ROWID;
  CREATE INDEX paper_ratings_newest ON paper_ratings(platform, team, member, rated_at DESC, paper_id);
  CREATE INDEX paper_ratings_paper ON paper_ratings(paper_id);
  CREATE TABLE followed_authors (
    platform TEXT NOT NULL,
    team TEXT NOT NULL,
    member TEXT NOT NULL,
    author TEXT NOT NULL,
    name TEXT NOT NULL,
    followed_at TEXT NOT NULL,
    PRIMARY KEY (platform, team, member, author)
  ) WITHOUT ROWID;
  `,
];

/**
 * Opens (creating if needed) the database at `path`, or in memory for `:memory:`, and brings
 * its schema up to date. A directory or file this process cannot write is a `SetupError` naming
 * it, the user and the fix, not a bare SqliteError.
 * @example const db = openDatabase('./data/paperscout.db');
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Db {
  if (path === ':memory:') return configure(new Database(path), options);
  if (options.readOnly) return openReadOnly(path, options);
  ensureDirectory(dirname(path), 'DATA_DIR');
  checkDatabaseWritable(path);
  let db: Db | undefined;
  try {
    db = new Database(path);
    return configure(db, options);
  } catch (err) {
    db?.close();
    throw explainDatabaseError(err, path) ?? damagedDatabase(err, path) ?? err;
  }
}

/**
 * A file that SQLite cannot read as a database (damaged, or something else under the name),
 * explained: which file, and the two ways on (a backup, or a new library).
 */
function damagedDatabase(err: unknown, path: string): SetupError | undefined {
  const code = String((err as { code?: unknown }).code ?? '');
  if (!/^SQLITE_(NOTADB|CORRUPT)/.test(code)) return undefined;
  return new SetupError(
    `The database ${path} is damaged or is not a Paper Scout database (${code}). Restore it from a backup, or start a new library: ` +
      `move it aside (mv ${path} ${path}.damaged, and its -wal and -shm files if there are any) and import your papers again (paperscout ingest or sync); ` +
      'its digests, reading lists and Slack installations go with it.',
  );
}

/**
 * Opens the existing database at `path` read-only, writing nothing: for a library on a read-only
 * volume, or one that belongs to another user. A database in WAL mode needs its -shm file, which
 * SQLite creates when the directory allows; where it cannot and there is no -wal file (the last
 * writer closed cleanly, so everything is in the database file), the file is opened immutable. A
 * schema older than this version reads is a SetupError: bringing it up to date needs a writer.
 */
function openReadOnly(path: string, options: OpenDatabaseOptions): Db {
  const open = (name: string) => {
    const db = new Database(name, { readonly: true, fileMustExist: true });
    try {
      setBusyTimeout(db, options.busyTimeoutMs ?? WRITER_BUSY_TIMEOUT_MS);
      checkSchema(db, path, options.migrations ?? MIGRATIONS);
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  };
  try {
    return open(path);
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    if (/^SQLITE_(CANTOPEN|READONLY)/.test(code) && existsSync(path) && !existsSync(`${path}-wal`)) {
      return open(`file:${path.split('/').map(encodeURIComponent).join('/')}?immutable=1`);
    }
    if (err instanceof SetupError) throw err;
    const damaged = damagedDatabase(err, path);
    if (damaged) throw damaged;
    if (/^SQLITE_(CANTOPEN|READONLY)/.test(code)) {
      throw new SetupError(
        `The database ${path} cannot be read by ${processUser().label} without writing its -wal or -shm file beside it (${code}). ` +
          'Run a command that writes (paperscout reindex) once as a user who may write it, or give this user read access to every paperscout.db* file.',
      );
    }
    throw err;
  }
}

function checkSchema(db: Db, path: string, migrations: readonly string[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) throw newerSchema(current, migrations.length);
  if (current < migrations.length) {
    throw new SetupError(
      `The library ${path} was written by an older Paper Scout, and ${processUser().label} cannot write it to bring it up to date: ` +
        'run a command that writes (paperscout reindex) once as a user who may write it.',
    );
  }
}

function newerSchema(current: number, known: number): SetupError {
  return new SetupError(
    `Database schema version ${current} is newer than this Paper Scout knows (${known}): upgrade Paper Scout or point DATA_DIR at another directory.`,
  );
}

/**
 * Sets how long `db` waits for another process's write lock; returns the previous setting.
 * @example const before = setBusyTimeout(db, 0); try { … } finally { setBusyTimeout(db, before); }
 */
export function setBusyTimeout(db: Db, ms: number): number {
  const before = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`);
  return before;
}

/** Whether an error means another connection holds the lock SQLite needed. */
export function isBusyError(err: unknown): boolean {
  const code = String((err as { code?: unknown }).code ?? '');
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}

function configure(db: Db, options: OpenDatabaseOptions): Db {
  // Waiting for the lock comes first: switching to WAL and migrating may need it.
  setBusyTimeout(db, options.busyTimeoutMs ?? WRITER_BUSY_TIMEOUT_MS);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db, options.migrations ?? MIGRATIONS);
  return db;
}

function migrate(db: Db, migrations: readonly string[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) throw newerSchema(current, migrations.length);
  for (let version = current; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]!);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}

/** SQLite page cache for a bulk import (KiB): the alias and id indexes of a million papers stay in memory. */
export const BULK_CACHE_KIB = 163_840;

/**
 * Settings for a connection that writes many papers: a page cache large enough that inserts
 * into the identifier indexes (random keys) do not go to the file for every page.
 */
export function tuneForBulkWrites(db: Db): void {
  db.pragma(`cache_size = -${BULK_CACHE_KIB}`);
  // Checkpoint every ~40 MB of WAL instead of 4 MB: pages written again and again (index
  // interiors) are copied into the database once per checkpoint, not once per batch. (An
  // import's Checkpointer copies them on a thread of its own, and raises this to a backstop.)
  db.pragma('wal_autocheckpoint = 10000');
}
