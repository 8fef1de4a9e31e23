/**
 * Reading lists in the SQLite database (the interface is in `../readingLists.ts`, the rows and
 * the rules both stores share in `../readingListRows.ts`). Every change is one BEGIN IMMEDIATE
 * transaction, so a toggle, its count and a share with its archive row are one step for every
 * process on the database. On a database opened read-only, writes fail as SQLite's do
 * (SQLITE_READONLY) and reads work. Two statements name their index: without statistics
 * (nothing runs ANALYZE), SQLite would rather scan a team's shares by primary key.
 */
import type { Db } from './db.js';
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

const LIST = 'platform = @platform AND team = @team AND kind = @kind AND owner = @owner';
const CHANNEL = 'platform = @platform AND team = @team AND channel = @channel';
const TEAM = 'platform = @platform AND team = @team';
const ENTRY_COLUMNS = 'paper_id, added_by, added_by_name, added_at, note, note_by, note_by_name';
const ARCHIVE_COLUMNS = 'paper_id, first_shared_by, first_shared_by_name, first_shared_at, last_shared_at, shares';

type ListParams = { platform: string; team: string; kind: string; owner: string };
type ChannelParams = { platform: string; team: string; channel: string };

const listParams = (o: ListOwner): ListParams => ({ platform: o.platform, team: o.team, kind: o.kind, owner: o.id });

export class SqliteReadingListStore implements ReadingListStore {
  private readonly stmts;
  private readonly tx;

  constructor(db: Db) {
    const s = {
      has: db.prepare<ListParams & { paperId: string }, { note: string | null }>(`SELECT note FROM reading_list_entries WHERE ${LIST} AND paper_id = @paperId`),
      count: db.prepare<ListParams, { n: number }>(`SELECT count(*) AS n FROM reading_list_entries WHERE ${LIST}`),
      insert: db.prepare<EntryRow>(`INSERT INTO reading_list_entries (platform, team, kind, owner, ${ENTRY_COLUMNS})
        VALUES (@platform, @team, @kind, @owner, @paper_id, @added_by, @added_by_name, @added_at, @note, @note_by, @note_by_name)
        ON CONFLICT DO UPDATE SET added_by = excluded.added_by, added_by_name = excluded.added_by_name, added_at = excluded.added_at,
          note = excluded.note, note_by = excluded.note_by, note_by_name = excluded.note_by_name`),
      setNote: db.prepare(`UPDATE reading_list_entries SET note = @note, note_by = @noteBy, note_by_name = @noteByName WHERE ${LIST} AND paper_id = @paperId`),
      remove: db.prepare<ListParams & { paperId: string }>(`DELETE FROM reading_list_entries WHERE ${LIST} AND paper_id = @paperId`),
      page: db.prepare<ListParams & { limit: number; offset: number }, EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM reading_list_entries WHERE ${LIST} ORDER BY ${NEWEST_FIRST} LIMIT @limit OFFSET @offset`,
      ),
      ids: db.prepare<ListParams, string>(`SELECT paper_id FROM reading_list_entries WHERE ${LIST} ORDER BY ${NEWEST_FIRST}`).pluck(),
      some: db.prepare<ListParams & { ids: string }, EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM reading_list_entries WHERE ${LIST} AND paper_id IN (SELECT value FROM json_each(@ids))`,
      ),
      archivingOff: db.prepare<ChannelParams, number>(`SELECT 1 FROM channel_archiving WHERE ${CHANNEL} AND archiving = 0`).pluck(),
      archiving: db.prepare<ChannelParams, ArchivingRow>(`SELECT archiving, set_by, set_by_name, set_at FROM channel_archiving WHERE ${CHANNEL}`),
      share: db.prepare<ShareRow>(`INSERT INTO channel_shares (platform, team, channel, message, paper_id, shared_by, shared_by_name, shared_at)
        VALUES (@platform, @team, @channel, @message, @paper_id, @shared_by, @shared_by_name, @shared_at) ON CONFLICT DO NOTHING`),
      archiveShare: db.prepare<ShareRow>(`INSERT INTO channel_archive (platform, team, channel, ${ARCHIVE_COLUMNS})
        VALUES (@platform, @team, @channel, @paper_id, @shared_by, @shared_by_name, @shared_at, @shared_at, 1)
        ON CONFLICT DO UPDATE SET shares = shares + 1,
          first_shared_by = CASE WHEN excluded.first_shared_at < first_shared_at THEN excluded.first_shared_by ELSE first_shared_by END,
          first_shared_by_name = CASE WHEN excluded.first_shared_at < first_shared_at THEN excluded.first_shared_by_name ELSE first_shared_by_name END,
          first_shared_at = min(first_shared_at, excluded.first_shared_at), last_shared_at = max(last_shared_at, excluded.last_shared_at)`),
      archiveCount: db.prepare<ChannelParams, { n: number }>(`SELECT count(*) AS n FROM channel_archive WHERE ${CHANNEL}`),
      archivePage: db.prepare<ChannelParams & { limit: number; offset: number }, ArchiveRow>(
        `SELECT ${ARCHIVE_COLUMNS} FROM channel_archive WHERE ${CHANNEL} ORDER BY ${RECENT_FIRST} LIMIT @limit OFFSET @offset`,
      ),
      archiveSome: db.prepare<ChannelParams & { ids: string }, ArchiveRow>(
        `SELECT ${ARCHIVE_COLUMNS} FROM channel_archive WHERE ${CHANNEL} AND paper_id IN (SELECT value FROM json_each(@ids))`,
      ),
      setArchiving: db.prepare(`INSERT INTO channel_archiving (platform, team, channel, archiving, set_by, set_by_name, set_at)
        VALUES (@platform, @team, @channel, @archiving, @by, @byName, @at)
        ON CONFLICT DO UPDATE SET archiving = excluded.archiving, set_by = excluded.set_by, set_by_name = excluded.set_by_name, set_at = excluded.set_at`),
      forgetSaved: db.prepare(`DELETE FROM reading_list_entries WHERE ${TEAM} AND kind = 'member' AND owner = @user`),
      forgetAdded: db.prepare(`UPDATE reading_list_entries SET added_by = NULL, added_by_name = NULL WHERE ${TEAM} AND kind = 'channel' AND added_by = @user`),
      forgetNotes: db.prepare(
        `UPDATE reading_list_entries SET note = NULL, note_by = NULL, note_by_name = NULL WHERE ${TEAM} AND kind = 'channel' AND note_by = @user`,
      ),
      forgetShares: db.prepare(`UPDATE channel_shares INDEXED BY channel_shares_by SET shared_by = NULL, shared_by_name = NULL WHERE ${TEAM} AND shared_by = @user`),
      forgetFirst: db.prepare(`UPDATE channel_archive INDEXED BY channel_archive_first_by SET first_shared_by = NULL, first_shared_by_name = NULL WHERE ${TEAM} AND first_shared_by = @user`),
      forgetSetting: db.prepare(`UPDATE channel_archiving SET set_by = NULL, set_by_name = NULL WHERE ${TEAM} AND set_by = @user`),
      teamEntries: db.prepare(`DELETE FROM reading_list_entries WHERE ${TEAM}`),
      teamShares: db.prepare(`DELETE FROM channel_shares WHERE ${TEAM}`),
      teamArchive: db.prepare(`DELETE FROM channel_archive WHERE ${TEAM}`),
      teamSettings: db.prepare(`DELETE FROM channel_archiving WHERE ${TEAM}`),
      entriesOf: db.prepare<[string, string], EntryRow>('SELECT * FROM reading_list_entries WHERE paper_id IN (?, ?)'),
      sharesOf: db.prepare<[string, string], ShareRow>('SELECT * FROM channel_shares WHERE paper_id IN (?, ?)'),
      dropEntries: db.prepare<[string]>('DELETE FROM reading_list_entries WHERE paper_id = ?'),
      dropShares: db.prepare<[string]>('DELETE FROM channel_shares WHERE paper_id = ?'),
      dropArchive: db.prepare<[string]>('DELETE FROM channel_archive WHERE paper_id = ?'),
      putArchive: db.prepare<ArchiveRow>(`INSERT OR REPLACE INTO channel_archive (platform, team, channel, ${ARCHIVE_COLUMNS})
        VALUES (@platform, @team, @channel, @paper_id, @first_shared_by, @first_shared_by_name, @first_shared_at, @last_shared_at, @shares)`),
    };
    this.stmts = s;
    this.tx = {
      toggle: db.transaction((owner: ListOwner, paperId: string, by: Person, at: Date) => {
        const list = listParams(owner);
        const saved = s.remove.run({ ...list, paperId }).changes === 0;
        if (saved) s.insert.run(entryRow(owner, paperId, by, at, null));
        return { saved, count: s.count.get(list)!.n };
      }),
      add: db.transaction((owner: ListOwner, paperId: string, by: Person, at: Date, note: string | null | undefined) => {
        const list = listParams(owner);
        const there = s.has.get({ ...list, paperId });
        if (!there) s.insert.run(entryRow(owner, paperId, by, at, note ?? null));
        else if (note !== undefined) {
          const writer = personColumns(by);
          s.setNote.run({ ...list, paperId, note, noteBy: note === null ? null : writer.id, noteByName: note === null ? null : writer.name });
        }
        return { added: !there, count: s.count.get(list)!.n };
      }),
      share: db.transaction((row: ShareRow) => {
        if (s.archivingOff.get(row) !== undefined) return false;
        if (s.share.run(row).changes === 0) return false;
        s.archiveShare.run(row);
        return true;
      }),
      forget: db.transaction((params: { platform: string; team: string; user: string }): Forgotten => {
        const saved = s.forgetSaved.run(params).changes;
        const channelEntries = s.forgetAdded.run(params).changes;
        const notes = s.forgetNotes.run(params).changes;
        const shares = s.forgetShares.run(params).changes;
        s.forgetFirst.run(params);
        s.forgetSetting.run(params);
        return { saved, channelEntries, notes, shares };
      }),
      forgetTeam: db.transaction((params: { platform: string; team: string }) => {
        const entries = s.teamEntries.run(params).changes;
        const shares = s.teamShares.run(params).changes;
        s.teamArchive.run(params);
        s.teamSettings.run(params);
        return entries + shares;
      }),
      move: db.transaction((from: string, to: string) => {
        const plan = planMove(s.entriesOf.all(from, to), s.sharesOf.all(from, to), from, to);
        s.dropEntries.run(from);
        s.dropShares.run(from);
        s.dropArchive.run(from);
        for (const row of plan.entries) s.insert.run(row);
        for (const row of plan.shares) s.share.run(row);
        for (const row of plan.archive) s.putArchive.run(row);
      }),
    };
  }

  async toggle(owner: ListOwner, paperId: string, by: Person, at: Date): Promise<{ saved: boolean; count: number }> {
    return this.tx.toggle.immediate(owner, paperId, by, at);
  }

  async add(owner: ListOwner, paperId: string, by: Person, at: Date, note?: string): Promise<{ added: boolean; count: number }> {
    return this.tx.add.immediate(owner, paperId, by, at, noteColumn(note));
  }

  async remove(owner: ListOwner, paperId: string): Promise<boolean> {
    return this.stmts.remove.run({ ...listParams(owner), paperId }).changes > 0;
  }

  async has(owner: ListOwner, paperId: string): Promise<boolean> {
    return this.stmts.has.get({ ...listParams(owner), paperId }) !== undefined;
  }

  async list(owner: ListOwner, page: { offset: number; limit: number }): Promise<ListPage<ListEntry>> {
    checkPage(page);
    const list = listParams(owner);
    return { entries: this.stmts.page.all({ ...list, ...page }).map(toEntry), total: this.stmts.count.get(list)!.n };
  }

  async paperIds(owner: ListOwner): Promise<string[]> {
    return this.stmts.ids.all(listParams(owner));
  }

  async entries(owner: ListOwner, paperIds: readonly string[]): Promise<Map<string, ListEntry>> {
    if (paperIds.length === 0) return new Map();
    return byPaper(this.stmts.some.all({ ...listParams(owner), ids: JSON.stringify(paperIds) }), toEntry);
  }

  async recordShare(platform: string, team: string, channel: string, share: Share): Promise<boolean> {
    return this.tx.share.immediate(shareRow(platform, team, channel, share));
  }

  async archive(platform: string, team: string, channel: string, page: { offset: number; limit: number }): Promise<ListPage<ArchiveEntry>> {
    checkPage(page);
    const where = { platform, team, channel };
    return { entries: this.stmts.archivePage.all({ ...where, ...page }).map(toArchiveEntry), total: this.stmts.archiveCount.get(where)!.n };
  }

  async archiveEntries(platform: string, team: string, channel: string, paperIds: readonly string[]): Promise<Map<string, ArchiveEntry>> {
    if (paperIds.length === 0) return new Map();
    return byPaper(this.stmts.archiveSome.all({ platform, team, channel, ids: JSON.stringify(paperIds) }), toArchiveEntry);
  }

  async archiveSetting(platform: string, team: string, channel: string): Promise<ArchiveSetting> {
    return toArchiveSetting(this.stmts.archiving.get({ platform, team, channel }));
  }

  async setArchiving(platform: string, team: string, channel: string, on: boolean, by: Person, at: Date): Promise<void> {
    const who = personColumns(by);
    this.stmts.setArchiving.run({ platform, team, channel, archiving: on ? 1 : 0, by: who.id, byName: who.name, at: at.toISOString() });
  }

  async forgetMember(platform: string, team: string, userId: string): Promise<Forgotten> {
    return this.tx.forget.immediate({ platform, team, user: userId });
  }

  async forgetTeam(platform: string, team: string): Promise<number> {
    return this.tx.forgetTeam.immediate({ platform, team });
  }

  async movePaper(from: string, to: string): Promise<void> {
    if (from !== to) this.tx.move.immediate(from, to);
  }
}
