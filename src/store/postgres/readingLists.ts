/**
 * Reading lists in PostgreSQL, shared by every instance (the interface is in
 * `../readingLists.ts`, the rows and the rules both stores share in `../readingListRows.ts`).
 *
 * A toggle or an add takes a transaction-scoped advisory lock on its list first, so that writes
 * to one list run one after the other whichever instance makes them: two presses of Save at
 * once end where two presses in a row do, and each answer's count is the list's after that
 * press. A share and its archive row are one statement; a repeat of it (a redelivered event, or
 * a retry over a lost connection that had committed) finds the message's share there and
 * changes nothing. A toggle repeated over a lost connection after its commit would toggle back:
 * the one write here that a retry can undo, and only when the connection drops after COMMIT.
 */
import type pg from 'pg';
import type { Postgres } from './connection.js';
import {
  NEWEST_FIRST,
  RECENT_FIRST,
  byPaper,
  checkPage,
  entryRow,
  noteColumn,
  personColumns,
  planMove,
  shareRow,
  toArchiveEntry,
  toArchiveSetting,
  toEntry,
  type ArchiveRow,
  type ArchivingRow,
  type EntryRow,
  type ShareRow,
} from '../readingListRows.js';
import type { ArchiveEntry, ArchiveSetting, Forgotten, ListEntry, ListOwner, ListPage, Person, ReadingListStore, Share } from '../readingLists.js';

/** The first key of the advisory locks on lists (the second is a hash of the list). */
const LIST_LOCK = 30;
/** The list `$1`…`$4`: platform, team, kind, owner. */
const LIST = 'platform = $1 AND team = $2 AND kind = $3 AND owner = $4';
/** The channel `$1`…`$3`: platform, team, channel. */
const CHANNEL = 'platform = $1 AND team = $2 AND channel = $3';
const ENTRY_COLUMNS = 'paper_id, added_by, added_by_name, added_at, note, note_by, note_by_name';
const ARCHIVE_COLUMNS = 'paper_id, first_shared_by, first_shared_by_name, first_shared_at, last_shared_at, shares';

const INSERT_ENTRIES = `INSERT INTO reading_list_entries (platform, team, kind, owner, ${ENTRY_COLUMNS})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::text[], $10::text[], $11::text[])
  ON CONFLICT (platform, team, kind, owner, paper_id) DO UPDATE SET added_by = excluded.added_by, added_by_name = excluded.added_by_name,
    added_at = excluded.added_at, note = excluded.note, note_by = excluded.note_by, note_by_name = excluded.note_by_name`;
const INSERT_SHARES = `INSERT INTO channel_shares (platform, team, channel, message, paper_id, shared_by, shared_by_name, shared_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
  ON CONFLICT DO NOTHING`;
const PUT_ARCHIVE = `INSERT INTO channel_archive (platform, team, channel, ${ARCHIVE_COLUMNS})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::timestamptz[], $9::integer[])
  ON CONFLICT (platform, team, channel, paper_id) DO UPDATE SET first_shared_by = excluded.first_shared_by, first_shared_by_name = excluded.first_shared_by_name,
    first_shared_at = excluded.first_shared_at, last_shared_at = excluded.last_shared_at, shares = excluded.shares`;
/**
 * A share and its archive row, unless the channel's archiving is off or the message's share of
 * the paper is there: `$1`…`$8` are the share row's columns, in order.
 */
const RECORD_SHARE = `WITH share AS (
    INSERT INTO channel_shares (platform, team, channel, message, paper_id, shared_by, shared_by_name, shared_at)
    SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::timestamptz
    WHERE NOT EXISTS (SELECT 1 FROM channel_archiving WHERE ${CHANNEL} AND NOT archiving)
    ON CONFLICT DO NOTHING RETURNING *
  )
  INSERT INTO channel_archive AS a (platform, team, channel, ${ARCHIVE_COLUMNS})
  SELECT platform, team, channel, paper_id, shared_by, shared_by_name, shared_at, shared_at, 1 FROM share
  ON CONFLICT (platform, team, channel, paper_id) DO UPDATE SET shares = a.shares + 1,
    first_shared_by = CASE WHEN excluded.first_shared_at < a.first_shared_at THEN excluded.first_shared_by ELSE a.first_shared_by END,
    first_shared_by_name = CASE WHEN excluded.first_shared_at < a.first_shared_at THEN excluded.first_shared_by_name ELSE a.first_shared_by_name END,
    first_shared_at = LEAST(a.first_shared_at, excluded.first_shared_at), last_shared_at = GREATEST(a.last_shared_at, excluded.last_shared_at)
  RETURNING 1`;

const listValues = (o: ListOwner) => [o.platform, o.team, o.kind, o.id];

/** A page and the total in one round trip: one row with nulls for the page's columns when it is empty. */
type Counted<R> = { [K in keyof R]: R[K] | null } & { total: number };

export class PgReadingListStore implements ReadingListStore {
  constructor(private readonly db: Postgres) {}

  async toggle(owner: ListOwner, paperId: string, by: Person, at: Date): Promise<{ saved: boolean; count: number }> {
    return this.db.transaction(async (c) => {
      await lockList(c, owner);
      const removed = await c.query(`DELETE FROM reading_list_entries WHERE ${LIST} AND paper_id = $5`, [...listValues(owner), paperId]);
      const saved = removed.rowCount === 0;
      if (saved) await insertEntries(c, [entryRow(owner, paperId, by, at, null)]);
      return { saved, count: await count(c, owner) };
    });
  }

  async add(owner: ListOwner, paperId: string, by: Person, at: Date, note?: string): Promise<{ added: boolean; count: number }> {
    const text = noteColumn(note);
    return this.db.transaction(async (c) => {
      await lockList(c, owner);
      const there = await c.query(`SELECT 1 FROM reading_list_entries WHERE ${LIST} AND paper_id = $5`, [...listValues(owner), paperId]);
      const added = there.rowCount === 0;
      if (added) await insertEntries(c, [entryRow(owner, paperId, by, at, text ?? null)]);
      else if (text !== undefined) {
        const writer = text === null ? { id: null, name: null } : personColumns(by);
        await c.query(`UPDATE reading_list_entries SET note = $6, note_by = $7, note_by_name = $8 WHERE ${LIST} AND paper_id = $5`, [
          ...listValues(owner),
          paperId,
          text,
          writer.id,
          writer.name,
        ]);
      }
      return { added, count: await count(c, owner) };
    });
  }

  async remove(owner: ListOwner, paperId: string): Promise<boolean> {
    const { rowCount } = await this.db.query(`DELETE FROM reading_list_entries WHERE ${LIST} AND paper_id = $5`, [...listValues(owner), paperId]);
    return (rowCount ?? 0) > 0;
  }

  async has(owner: ListOwner, paperId: string): Promise<boolean> {
    const { rowCount } = await this.db.query(`SELECT 1 FROM reading_list_entries WHERE ${LIST} AND paper_id = $5`, [...listValues(owner), paperId]);
    return (rowCount ?? 0) > 0;
  }

  async list(owner: ListOwner, page: { offset: number; limit: number }): Promise<ListPage<ListEntry>> {
    checkPage(page);
    const { rows } = await this.db.query<Counted<EntryRow>>(
      `SELECT n.total, e.* FROM (SELECT count(*) AS total FROM reading_list_entries WHERE ${LIST}) n
       LEFT JOIN LATERAL (SELECT ${ENTRY_COLUMNS} FROM reading_list_entries WHERE ${LIST} ORDER BY ${NEWEST_FIRST} LIMIT $5 OFFSET $6) e ON true`,
      [...listValues(owner), page.limit, page.offset],
    );
    return { entries: rows.filter((r) => r.paper_id !== null).map((r) => toEntry(r as EntryRow)), total: rows[0]!.total };
  }

  async paperIds(owner: ListOwner): Promise<string[]> {
    const { rows } = await this.db.query<{ paper_id: string }>(`SELECT paper_id FROM reading_list_entries WHERE ${LIST} ORDER BY ${NEWEST_FIRST}`, listValues(owner));
    return rows.map((r) => r.paper_id);
  }

  async entries(owner: ListOwner, paperIds: readonly string[]): Promise<Map<string, ListEntry>> {
    if (paperIds.length === 0) return new Map();
    const { rows } = await this.db.query<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM reading_list_entries WHERE ${LIST} AND paper_id = ANY($5::text[])`, [
      ...listValues(owner),
      paperIds,
    ]);
    return byPaper(rows, toEntry);
  }

  async recordShare(platform: string, team: string, channel: string, share: Share): Promise<boolean> {
    const row = shareRow(platform, team, channel, share);
    const values = [row.platform, row.team, row.channel, row.message, row.paper_id, row.shared_by, row.shared_by_name, row.shared_at];
    return (await this.db.query(RECORD_SHARE, values)).rowCount === 1;
  }

  async archive(platform: string, team: string, channel: string, page: { offset: number; limit: number }): Promise<ListPage<ArchiveEntry>> {
    checkPage(page);
    const { rows } = await this.db.query<Counted<ArchiveRow>>(
      `SELECT n.total, a.* FROM (SELECT count(*) AS total FROM channel_archive WHERE ${CHANNEL}) n
       LEFT JOIN LATERAL (SELECT ${ARCHIVE_COLUMNS} FROM channel_archive WHERE ${CHANNEL} ORDER BY ${RECENT_FIRST} LIMIT $4 OFFSET $5) a ON true`,
      [platform, team, channel, page.limit, page.offset],
    );
    return { entries: rows.filter((r) => r.paper_id !== null).map((r) => toArchiveEntry(r as ArchiveRow)), total: rows[0]!.total };
  }

  async archiveEntries(platform: string, team: string, channel: string, paperIds: readonly string[]): Promise<Map<string, ArchiveEntry>> {
    if (paperIds.length === 0) return new Map();
    const { rows } = await this.db.query<ArchiveRow>(`SELECT ${ARCHIVE_COLUMNS} FROM channel_archive WHERE ${CHANNEL} AND paper_id = ANY($4::text[])`, [
      platform,
      team,
      channel,
      paperIds,
    ]);
    return byPaper(rows, toArchiveEntry);
  }

  async archiveSetting(platform: string, team: string, channel: string): Promise<ArchiveSetting> {
    const { rows } = await this.db.query<ArchivingRow>(`SELECT archiving, set_by, set_by_name, set_at FROM channel_archiving WHERE ${CHANNEL}`, [platform, team, channel]);
    return toArchiveSetting(rows[0]);
  }

  async setArchiving(platform: string, team: string, channel: string, on: boolean, by: Person, at: Date): Promise<void> {
    const who = personColumns(by);
    await this.db.query(
      `INSERT INTO channel_archiving (platform, team, channel, archiving, set_by, set_by_name, set_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (platform, team, channel) DO UPDATE SET archiving = excluded.archiving, set_by = excluded.set_by,
         set_by_name = excluded.set_by_name, set_at = excluded.set_at`,
      [platform, team, channel, on, who.id, who.name, at.toISOString()],
    );
  }

  async forgetMember(platform: string, team: string, userId: string): Promise<Forgotten> {
    const TEAM = 'platform = $1 AND team = $2';
    return this.db.transaction(async (c) => {
      const run = async (sql: string) => (await c.query(sql, [platform, team, userId])).rowCount ?? 0;
      const saved = await run(`DELETE FROM reading_list_entries WHERE ${TEAM} AND kind = 'member' AND owner = $3`);
      const channelEntries = await run(`UPDATE reading_list_entries SET added_by = NULL, added_by_name = NULL WHERE ${TEAM} AND kind = 'channel' AND added_by = $3`);
      const notes = await run(`UPDATE reading_list_entries SET note = NULL, note_by = NULL, note_by_name = NULL WHERE ${TEAM} AND kind = 'channel' AND note_by = $3`);
      const shares = await run(`UPDATE channel_shares SET shared_by = NULL, shared_by_name = NULL WHERE ${TEAM} AND shared_by = $3`);
      await run(`UPDATE channel_archive SET first_shared_by = NULL, first_shared_by_name = NULL WHERE ${TEAM} AND first_shared_by = $3`);
      await run(`UPDATE channel_archiving SET set_by = NULL, set_by_name = NULL WHERE ${TEAM} AND set_by = $3`);
      return { saved, channelEntries, notes, shares };
    });
  }

  async forgetTeam(platform: string, team: string): Promise<number> {
    const { rows } = await this.db.query<{ deleted: number }>(
      `WITH entries AS (DELETE FROM reading_list_entries WHERE platform = $1 AND team = $2 RETURNING 1),
         shares AS (DELETE FROM channel_shares WHERE platform = $1 AND team = $2 RETURNING 1),
         archive AS (DELETE FROM channel_archive WHERE platform = $1 AND team = $2),
         settings AS (DELETE FROM channel_archiving WHERE platform = $1 AND team = $2)
       SELECT (SELECT count(*) FROM entries) + (SELECT count(*) FROM shares) AS deleted`,
      [platform, team],
    );
    return rows[0]!.deleted;
  }

  async movePaper(from: string, to: string): Promise<void> {
    if (from === to) return;
    await this.db.transaction(async (c) => {
      const entries = await c.query<EntryRow>('SELECT * FROM reading_list_entries WHERE paper_id = ANY($1::text[]) FOR UPDATE', [[from, to]]);
      const shares = await c.query<ShareRow>('SELECT * FROM channel_shares WHERE paper_id = ANY($1::text[]) FOR UPDATE', [[from, to]]);
      const plan = planMove(entries.rows, shares.rows, from, to);
      await c.query('DELETE FROM reading_list_entries WHERE paper_id = $1', [from]);
      await c.query('DELETE FROM channel_shares WHERE paper_id = $1', [from]);
      await c.query('DELETE FROM channel_archive WHERE paper_id = $1', [from]);
      await insertEntries(c, plan.entries);
      if (plan.shares.length > 0) await c.query(INSERT_SHARES, columns(plan.shares, ['platform', 'team', 'channel', 'message', 'paper_id', 'shared_by', 'shared_by_name', 'shared_at']));
      if (plan.archive.length > 0) {
        const names = ['platform', 'team', 'channel', 'paper_id', 'first_shared_by', 'first_shared_by_name', 'first_shared_at', 'last_shared_at', 'shares'] as const;
        await c.query(PUT_ARCHIVE, columns(plan.archive, names));
      }
    });
  }
}

/**
 * Waits for (and holds until the transaction ends) the lock on one list's writes, keyed by a hash
 * of the list (unambiguous however its ids look; two lists sharing a hash only wait for each other).
 */
async function lockList(c: pg.PoolClient, owner: ListOwner): Promise<void> {
  await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LIST_LOCK, JSON.stringify(listValues(owner))]);
}

async function count(c: pg.PoolClient, owner: ListOwner): Promise<number> {
  const { rows } = await c.query<{ n: number }>(`SELECT count(*) AS n FROM reading_list_entries WHERE ${LIST}`, listValues(owner));
  return rows[0]!.n;
}

async function insertEntries(c: pg.PoolClient, rows: readonly EntryRow[]): Promise<void> {
  if (rows.length === 0) return;
  const names = ['platform', 'team', 'kind', 'owner', 'paper_id', 'added_by', 'added_by_name', 'added_at', 'note', 'note_by', 'note_by_name'] as const;
  await c.query(INSERT_ENTRIES, columns(rows, names));
}

/** Rows as one array per column, for `unnest`. */
function columns<R, K extends keyof R>(rows: readonly R[], names: readonly K[]): unknown[][] {
  return names.map((name) => rows.map((row) => row[name]));
}
