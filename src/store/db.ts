/**
 * The SQLite database under DATA_DIR: the source of truth for papers, subscriptions and
 * interaction state. Schema changes are numbered migrations applied in order at open.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

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
];

/**
 * Opens (creating if needed) the database at `path`, or in memory for `:memory:`, and brings
 * its schema up to date.
 * @example const db = openDatabase('./data/paperscout.db');
 */
export function openDatabase(path: string, migrations: readonly string[] = MIGRATIONS): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, migrations);
  return db;
}

function migrate(db: Db, migrations: readonly string[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `Database schema version ${current} is newer than this Paper Scout knows (${migrations.length}): ` +
        'upgrade Paper Scout or point DATA_DIR at another directory.',
    );
  }
  for (let version = current; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
