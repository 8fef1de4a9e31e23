/**
 * Reading lists at issue 30's scale: 10,000 members with 100 saved papers each and 1,000
 * channels with 500 archived links each (and a list of 50 papers each), then `/library mine`
 * (a page of the member's list; every paper id, to search within it or export) and `/library
 * channel` (a page of the channel's list and of its archive) timed one after another through the
 * ReadingListStore, p50 and p99, with a Save pressed and a link shared for comparison. Goal:
 * both commands' store work p99 ≤ 50 ms.
 *
 * The fill writes the rows with SQL of its own (millions of one-row transactions through the
 * interface would take the run's time); every figure is taken through the interface.
 *
 *   npx tsx bench/readingLists.ts [--store sqlite|postgres|both] [--samples N] [--members N] [--channels N]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { silentLog } from '../test/helpers/corpus.js';
import { postgresBinaries, startPostgresCluster } from '../test/helpers/postgresCluster.js';
import type { StoreTarget } from '../src/store/open.js';
import { openPostgres } from '../src/store/postgres/index.js';
import type { ArchiveRow, EntryRow, ShareRow } from '../src/store/readingListRows.js';
import type { ListOwner, ReadingListStore } from '../src/store/readingLists.js';
import { openDatabase, tuneForBulkWrites, type Db } from '../src/store/sqlite/db.js';
import { SqliteReadingListStore } from '../src/store/sqlite/readingLists.js';
import { MAX_CHANNEL_ENTRIES } from '../src/commands/listPages.js';
import { fmtMs, percentile } from './stats.js';

export interface ReadingListScale {
  members: number;
  savedEach: number;
  channels: number;
  archivedEach: number;
  channelListEach: number;
  /** Timed calls of each kind. */
  samples: number;
}

export const ISSUE_SCALE: ReadingListScale = { members: 10_000, savedEach: 100, channels: 1000, archivedEach: 500, channelListEach: 50, samples: 2000 };

/** Members and channels are spread over this many workspaces, half on each platform. */
const TEAMS = 20;
/** Paper ids are drawn from a library of this many. */
const LIBRARY = 200_000;
const BATCH = 5000;
const EPOCH = Date.UTC(2025, 0, 1);
const YEAR_S = 365 * 86_400;

export const place = (n: number) => ({ platform: n % 2 ? ('discord' as const) : ('slack' as const), team: `T${n % TEAMS}` });
const syntheticPaper = (n: number) => `arxiv:${2400 + Math.floor(n / 100_000)}.${String(n % 100_000).padStart(5, '0')}`;
const paper = syntheticPaper;
/** A time in the year, spread without order (7919 is prime to a year's seconds). */
const when = (n: number) => new Date(EPOCH + ((n * 7919) % YEAR_S) * 1000).toISOString();

/** The rows of the scale, in batches (distinct papers per list: 104729 is prime to LIBRARY), with `paper` naming the n-th paper. */
function* rows(s: ReadingListScale, paper: (n: number) => string = syntheticPaper): Generator<{ entries: EntryRow[]; shares: ShareRow[]; archive: ArchiveRow[] }> {
  let batch = { entries: [] as EntryRow[], shares: [] as ShareRow[], archive: [] as ArchiveRow[] };
  const full = () => batch.entries.length + batch.shares.length >= BATCH;
  for (let m = 0; m < s.members; m++) {
    const who = `U${m}`;
    for (let k = 0; k < s.savedEach; k++) {
      const n = m * s.savedEach + k;
      batch.entries.push({ ...place(m), kind: 'member', owner: who, paper_id: paper((m * 7919 + k * 104_729) % LIBRARY), added_by: who, added_by_name: `Member ${m}`, added_at: when(n), note: k % 10 ? null : `note ${n}`, note_by: k % 10 ? null : who, note_by_name: k % 10 ? null : `Member ${m}` });
    }
    if (full()) {
      yield batch;
      batch = { entries: [], shares: [], archive: [] };
    }
  }
  for (let c = 0; c < s.channels; c++) {
    const channel = `C${c}`;
    const sharer = (k: number) => `U${(c * 31 + k) % s.members}`;
    for (let k = 0; k < s.channelListEach; k++) {
      batch.entries.push({ ...place(c), kind: 'channel', owner: channel, paper_id: paper((c * 7 + k * 104_729) % LIBRARY), added_by: sharer(k), added_by_name: null, added_at: when(c * 1000 + k), note: `why ${k}`, note_by: sharer(k), note_by_name: null });
    }
    for (let k = 0; k < s.archivedEach; k++) {
      const id = paper((c * 13 + k * 104_729) % LIBRARY);
      const times = k % 3 === 0 ? [when(c * 1000 + k), when(c * 1000 + k + 500)].sort() : [when(c * 1000 + k)];
      times.forEach((at, t) => batch.shares.push({ ...place(c), channel, message: `${channel}:${k}.${t}`, paper_id: id, shared_by: sharer(k + t), shared_by_name: null, shared_at: at }));
      batch.archive.push({ ...place(c), channel, paper_id: id, first_shared_by: sharer(k), first_shared_by_name: null, first_shared_at: times[0]!, last_shared_at: times.at(-1)!, shares: times.length });
    }
    if (full()) {
      yield batch;
      batch = { entries: [], shares: [], archive: [] };
    }
  }
  yield batch;
}

const COLUMNS = {
  reading_list_entries: ['platform', 'team', 'kind', 'owner', 'paper_id', 'added_by', 'added_by_name', 'added_at', 'note', 'note_by', 'note_by_name'],
  channel_shares: ['platform', 'team', 'channel', 'message', 'paper_id', 'shared_by', 'shared_by_name', 'shared_at'],
  channel_archive: ['platform', 'team', 'channel', 'paper_id', 'first_shared_by', 'first_shared_by_name', 'first_shared_at', 'last_shared_at', 'shares'],
} as const;
type Table = keyof typeof COLUMNS;
const TABLES = Object.keys(COLUMNS) as Table[];
const batchOf = (b: { entries: EntryRow[]; shares: ShareRow[]; archive: ArchiveRow[] }, t: Table): object[] =>
  t === 'reading_list_entries' ? b.entries : t === 'channel_shares' ? b.shares : b.archive;
const PG_TYPE: Record<string, string> = { added_at: 'timestamptz', shared_at: 'timestamptz', first_shared_at: 'timestamptz', last_shared_at: 'timestamptz', shares: 'integer' };

/** An opened store, filled, with what its files take. */
interface Filled {
  lists: ReadingListStore;
  size(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Writes the scale's rows into the SQLite database at `path` (its schema there already), with
 * `paper` naming the n-th paper; the database is left open for the caller.
 */
export function fillSqlite(path: string, scale: ReadingListScale, paper?: (n: number) => string): Db {
  const db = openDatabase(path);
  const cache = db.pragma('cache_size', { simple: true }) as number;
  tuneForBulkWrites(db);
  const insert = Object.fromEntries(
    // A library smaller than the ids drawn names some paper twice in a list: kept once.
    TABLES.map((t) => [t, db.prepare(`INSERT ${paper ? 'OR IGNORE ' : ''}INTO ${t} (${COLUMNS[t].join(', ')}) VALUES (${COLUMNS[t].map((c) => `@${c}`).join(', ')})`)]),
  );
  // The secondary indexes are built once the rows are in (a sort each, not a million random inserts).
  const indexes = db.prepare<string[], { name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${TABLES.map(() => '?').join(', ')})`).all(...TABLES);
  for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);
  for (const batch of rows(scale, paper)) db.transaction(() => TABLES.forEach((t) => batchOf(batch, t).forEach((row) => insert[t]!.run(row))))();
  for (const { sql } of indexes) db.exec(sql);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma(`cache_size = ${cache}`); // measured as the bot opens it
  return db;
}

async function fill(target: StoreTarget, scale: ReadingListScale): Promise<Filled> {
  if (target.kind === 'sqlite') {
    const db = fillSqlite(target.path, scale);
    return { lists: new SqliteReadingListStore(db), size: async () => statSync(target.path).size, close: async () => void db.close() };
  }
  const pg = await openPostgres(target.url, { log: silentLog, patience: 10_000 });
  const { rows: indexes } = await pg.db.query<{ name: string; sql: string }>(
    `SELECT i.indexname AS name, i.indexdef AS sql FROM pg_indexes i JOIN pg_index x ON x.indexrelid = (quote_ident(i.indexname))::regclass
     WHERE i.tablename = ANY($1::text[]) AND NOT x.indisprimary`,
    [TABLES],
  );
  for (const { name } of indexes) await pg.db.query(`DROP INDEX ${name}`);
  for (const batch of rows(scale)) {
    for (const t of TABLES) {
      const list = batchOf(batch, t) as Array<Record<string, unknown>>;
      if (list.length === 0) continue;
      const casts = COLUMNS[t].map((c, i) => `$${i + 1}::${PG_TYPE[c] ?? 'text'}[]`).join(', ');
      await pg.db.query(`INSERT INTO ${t} (${COLUMNS[t].join(', ')}) SELECT * FROM unnest(${casts})`, COLUMNS[t].map((c) => list.map((r) => r[c])));
    }
  }
  for (const { sql } of indexes) await pg.db.query(sql);
  // What autovacuum does after such a load: statistics, and the visibility map for counts.
  await pg.db.query(`VACUUM ANALYZE ${TABLES.join(', ')}`);
  return {
    lists: pg.readingLists,
    size: async () => (await pg.db.query<{ n: number }>(`SELECT ${TABLES.map((t) => `pg_total_relation_size('${t}')`).join(' + ')} AS n`)).rows[0]!.n,
    close: () => pg.close(),
  };
}

/** p50 and p99 of `samples` calls of `op`, one after another, after a tenth as many untimed. */
export async function time(samples: number, op: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < samples / 10; i++) await op(i + samples);
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await op(i);
    ms.push(performance.now() - started);
  }
  return { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99) };
}

/**
 * Fills the store at `target` (empty, its schema created by opening it) to `scale` and times the
 * reads of `/library mine` and `/library channel`; resolves report lines.
 * @example for (const line of await benchReadingLists({ kind: 'sqlite', path }, ISSUE_SCALE)) console.log(line);
 */
export async function benchReadingLists(target: StoreTarget, scale: ReadingListScale = ISSUE_SCALE): Promise<string[]> {
  const started = performance.now();
  const filled = await fill(target, scale);
  const fillSeconds = (performance.now() - started) / 1000;
  const { lists } = filled;
  try {
    // Members and channels visited in a scattered order (a prime stride), each call a different one.
    const memberAt = (i: number): ListOwner => {
      const m = (i * 7919) % scale.members;
      return { ...place(m), kind: 'member', id: `U${m}` };
    };
    const channelAt = (i: number): ListOwner => {
      const c = (i * 7919) % scale.channels;
      return { ...place(c), kind: 'channel', id: `C${c}` };
    };
    const page = { offset: 0, limit: 10 };
    // What `/library channel` reads (listPages.ts): the channel's whole list and archive, merged.
    const whole = { offset: 0, limit: MAX_CHANNEL_ENTRIES };
    const figures: Array<[string, { p50: number; p99: number }, string]> = [
      ['/library mine: a page + total', await time(scale.samples, (i) => lists.list(memberAt(i), page)), '≤ 50 ms'],
      ['/library mine: all, as it reads', await time(scale.samples, (i) => lists.list(memberAt(i), whole)), '≤ 50 ms'],
      ['/library mine: every id', await time(scale.samples, (i) => lists.paperIds(memberAt(i))), '≤ 50 ms'],
      [
        '/library channel: list + archive',
        await time(scale.samples, async (i) => {
          const c = channelAt(i);
          await Promise.all([lists.list(c, page), lists.archive(c.platform, c.team, c.id, page)]);
        }),
        '≤ 50 ms',
      ],
      [
        '/library channel: all, as it reads',
        await time(scale.samples, async (i) => {
          const c = channelAt(i);
          await Promise.all([lists.list(c, whole), lists.archive(c.platform, c.team, c.id, whole)]);
        }),
        '≤ 50 ms',
      ],
      ['archive: last page', await time(scale.samples, (i) => { const c = channelAt(i); return lists.archive(c.platform, c.team, c.id, { offset: scale.archivedEach - 10, limit: 10 }); }), ''],
      ['Save (toggle) + count', await time(scale.samples, (i) => lists.toggle(memberAt(i), paper(LIBRARY + i), { id: 'U' }, new Date(EPOCH + i))), ''],
      ['a link shared', await time(scale.samples, (i) => { const c = channelAt(i); return lists.recordShare(c.platform, c.team, c.id, { paperId: paper(i), by: { id: 'U' }, at: new Date(EPOCH + i), message: `bench:${i}` }); }), ''],
    ];
    const entries = scale.members * scale.savedEach + scale.channels * scale.channelListEach;
    const lines = [
      `Reading lists on ${target.kind}: ${entries.toLocaleString('en-US')} list entries, ${(scale.channels * scale.archivedEach).toLocaleString('en-US')} archived papers; filled in ${fillSeconds.toFixed(1)} s, ${Math.round((await filled.size()) / 1048576)} MB`,
      ...figures.map(([name, { p50, p99 }, goal]) => `  ${name.padEnd(36)}p50 ${fmtMs(p50).padEnd(10)} p99 ${fmtMs(p99).padEnd(10)} ${goal && `goal p99 ${goal}`}`),
    ];
    return lines;
  } finally {
    await filled.close();
  }
}

/**
 * Both stores at `scale`: SQLite in a temporary directory, PostgreSQL on a private cluster
 * (skipped, saying so, without Debian's postgresql package or with `postgres: false`).
 * @example for (const line of await benchReadingListStores(ISSUE_SCALE)) console.log(line);
 */
export async function benchReadingListStores(scale: ReadingListScale = ISSUE_SCALE, stores: { sqlite?: boolean; postgres?: boolean } = {}): Promise<string[]> {
  const lines: string[] = [];
  if (stores.sqlite !== false) {
    const dir = mkdtempSync(join(tmpdir(), 'paperscout-bench-lists-'));
    try {
      lines.push(...(await benchReadingLists({ kind: 'sqlite', path: join(dir, 'paperscout.db') }, scale)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (stores.postgres !== false) {
    const found = postgresBinaries();
    if ('missing' in found) lines.push(`Reading lists on postgres: skipped (${found.missing})`);
    else {
      const cluster = await startPostgresCluster({ durable: true });
      try {
        lines.push(...(await benchReadingLists({ kind: 'postgres', url: await cluster.createDatabase('bench_lists') }, scale)));
      } finally {
        await cluster.stop();
      }
    }
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { store: { type: 'string', default: 'both' }, samples: { type: 'string' }, members: { type: 'string' }, channels: { type: 'string' } } });
  const scale: ReadingListScale = {
    ...ISSUE_SCALE,
    ...(values.samples && { samples: Number(values.samples) }),
    ...(values.members && { members: Number(values.members) }),
    ...(values.channels && { channels: Number(values.channels) }),
  };
  for (const line of await benchReadingListStores(scale, { sqlite: values.store !== 'postgres', postgres: values.store !== 'sqlite' })) console.log(line);
}
