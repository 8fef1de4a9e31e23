/**
 * Reading lists as both stores keep them (the interface is in `readingLists.ts`): the rows of
 * the four tables, the entries callers see, the rules for the text a store may hold, and what
 * moving a paper (two stored papers merged into one) writes. Each store is only its SQL.
 *
 * Tables: `reading_list_entries` (a member's or a channel's list), `channel_shares` (one row
 * per message and paper: what makes a redelivered event one share), `channel_archive` (per
 * channel and paper: first and last share, how many; kept with each share, so that a page of
 * the archive is one index range) and `channel_archiving` (a channel's setting, when turned off).
 */
import { UserError } from '../errors.js';
import { MAX_NOTE_LENGTH, type ArchiveEntry, type ArchiveSetting, type ListEntry, type ListKind, type ListOwner, type Person, type Share } from './readingLists.js';

/** A list entry's row. Times are ISO strings in both stores (timestamptz is read back so). */
export interface EntryRow {
  platform: string;
  team: string;
  kind: ListKind;
  owner: string;
  paper_id: string;
  added_by: string | null;
  added_by_name: string | null;
  added_at: string;
  note: string | null;
  /** Who wrote the note (someone other than the one who added the paper, on a channel's list). */
  note_by: string | null;
  note_by_name: string | null;
}

/** A share's row: one per message and paper. */
export interface ShareRow {
  platform: string;
  team: string;
  channel: string;
  message: string;
  paper_id: string;
  shared_by: string | null;
  shared_by_name: string | null;
  shared_at: string;
}

/** A paper in a channel's archive: its shares summed up. */
export interface ArchiveRow {
  platform: string;
  team: string;
  channel: string;
  paper_id: string;
  first_shared_by: string | null;
  first_shared_by_name: string | null;
  first_shared_at: string;
  last_shared_at: string;
  shares: number;
}

/** A channel's archive setting's row (SQLite keeps the flag as 0 or 1). */
export interface ArchivingRow {
  archiving: boolean | number;
  set_by: string | null;
  set_by_name: string | null;
  set_at: string;
}

/** A list's rows, in order: newest first, ties by paper id. */
export const NEWEST_FIRST = 'added_at DESC, paper_id';
/** An archive's rows, in order: most recently shared first, ties by paper id. */
export const RECENT_FIRST = 'last_shared_at DESC, paper_id';

const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as every store can hold it and give back unchanged: NUL characters (which PostgreSQL's
 * text refuses) dropped, lone surrogates (which UTF-8 cannot encode) U+FFFD. Anything else,
 * markup and mentions included, is kept as it is: it is rendered as plain text.
 * @example storableText('a\u0000b\uD800') // 'ab\uFFFD'
 */
export function storableText(text: string): string {
  return text.replace(NUL, '').replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * A note's column: undefined when none was given (keep the one there), null for an empty one
 * (remove it), else the storable text; longer than {@link MAX_NOTE_LENGTH} is a UserError.
 * @example noteColumn('read §3 first') // 'read §3 first'
 */
export function noteColumn(note: string | undefined): string | null | undefined {
  if (note === undefined) return undefined;
  const text = storableText(note);
  const length = [...text].length;
  if (length > MAX_NOTE_LENGTH) throw new UserError('library.noteTooLong', { max: MAX_NOTE_LENGTH, length });
  return text === '' ? null : text;
}

/** A person's columns: the id, and the name (shown, never a key) as it can be stored. */
export function personColumns(person: Person): { id: string; name: string | null } {
  return { id: person.id, name: person.name === undefined ? null : storableText(person.name) };
}

/**
 * A new entry's row: added by `by` now, with their note if any.
 * @example entryRow(owner, 'arxiv:1706.03762', { id: 'U1', name: 'Ada' }, new Date(), null)
 */
export function entryRow(owner: ListOwner, paperId: string, by: Person, at: Date, note: string | null): EntryRow {
  const who = personColumns(by);
  return {
    platform: owner.platform,
    team: owner.team,
    kind: owner.kind,
    owner: owner.id,
    paper_id: paperId,
    added_by: who.id,
    added_by_name: who.name,
    added_at: at.toISOString(),
    note,
    note_by: note === null ? null : who.id,
    note_by_name: note === null ? null : who.name,
  };
}

/** A share's row. */
export function shareRow(platform: string, team: string, channel: string, share: Share): ShareRow {
  const by = personColumns(share.by);
  return { platform, team, channel, message: share.message, paper_id: share.paperId, shared_by: by.id, shared_by_name: by.name, shared_at: share.at.toISOString() };
}

/** Rejects a page no store can answer (a negative offset, a fractional limit). */
export function checkPage(page: { offset: number; limit: number }): void {
  if (!Number.isSafeInteger(page.offset) || page.offset < 0 || !Number.isSafeInteger(page.limit) || page.limit < 0) {
    throw new RangeError(`reading list page: offset and limit must be whole numbers ≥ 0 (got ${page.offset}, ${page.limit})`);
  }
}

function person(id: string | null, name: string | null): Person | undefined {
  if (id === null) return undefined;
  return name === null ? { id } : { id, name };
}

/** A channel's archive setting from its row, if it has one (archives are on until turned off). */
export function toArchiveSetting(row: ArchivingRow | undefined): ArchiveSetting {
  if (!row) return { on: true };
  const setBy = person(row.set_by, row.set_by_name);
  return { on: row.archiving === true || row.archiving === 1, ...(setBy && { setBy }), setAt: row.set_at };
}

export function toEntry(row: EntryRow): ListEntry {
  const addedBy = person(row.added_by, row.added_by_name);
  const noteBy = person(row.note_by, row.note_by_name);
  return {
    paperId: row.paper_id,
    ...(addedBy && { addedBy }),
    addedAt: row.added_at,
    ...(row.note !== null && { note: row.note }),
    ...(row.note !== null && noteBy && { noteBy }),
  };
}

export function toArchiveEntry(row: ArchiveRow): ArchiveEntry {
  const firstSharedBy = person(row.first_shared_by, row.first_shared_by_name);
  return {
    paperId: row.paper_id,
    ...(firstSharedBy && { firstSharedBy }),
    firstSharedAt: row.first_shared_at,
    lastSharedAt: row.last_shared_at,
    shares: Number(row.shares),
  };
}

/** Rows keyed by their paper, mapped. */
export function byPaper<R extends { paper_id: string }, T>(rows: readonly R[], map: (row: R) => T): Map<string, T> {
  return new Map(rows.map((row) => [row.paper_id, map(row)]));
}

/** What {@link planMove} says to write once every row of the old paper is deleted. */
export interface MovePlan {
  /** Entries under the new paper: insert, or replace the one there. */
  entries: EntryRow[];
  /** Shares moved to the new paper: insert, unless that message's share of it is there. */
  shares: ShareRow[];
  /** The archive rows of the new paper in every channel that had the old one: insert or replace. */
  archive: ArchiveRow[];
}

const listOf = (r: EntryRow) => JSON.stringify([r.platform, r.team, r.kind, r.owner]);
const channelOf = (r: { platform: string; team: string; channel: string }) => JSON.stringify([r.platform, r.team, r.channel]);

/**
 * Moving paper `from` to `to`, given every entry and share of either: a list that holds both
 * keeps the older entry (its addedAt and addedBy) with its note, or else the other's; an archive
 * counts the shares of both, a message that linked both once, and its first sharer is the
 * earliest one's.
 * @example const plan = planMove(entriesOfBoth, sharesOfBoth, 'doi:10.1/x', 'arxiv:2401.00001');
 */
export function planMove(entries: readonly EntryRow[], shares: readonly ShareRow[], from: string, to: string): MovePlan {
  const kept = new Map<string, EntryRow>();
  for (const row of entries) if (row.paper_id === to) kept.set(listOf(row), row);
  const moved: EntryRow[] = [];
  for (const row of entries) {
    if (row.paper_id !== from) continue;
    const there = kept.get(listOf(row));
    if (!there) {
      moved.push({ ...row, paper_id: to });
      continue;
    }
    const [older, newer] = row.added_at < there.added_at ? [row, there] : [there, row];
    const noted = older.note !== null ? older : newer;
    moved.push({ ...older, paper_id: to, note: noted.note, note_by: noted.note_by, note_by_name: noted.note_by_name });
  }

  const messages = new Set(shares.filter((s) => s.paper_id === to).map((s) => `${channelOf(s)}\u0000${s.message}`));
  const channels = new Set(shares.filter((s) => s.paper_id === from).map(channelOf));
  const movedShares: ShareRow[] = [];
  const byChannel = new Map<string, ShareRow[]>();
  for (const share of shares) {
    const channel = channelOf(share);
    if (!channels.has(channel)) continue;
    const key = `${channel}\u0000${share.message}`;
    if (share.paper_id === from) {
      if (messages.has(key)) continue; // the message linked both: one share
      movedShares.push({ ...share, paper_id: to });
    }
    byChannel.set(channel, [...(byChannel.get(channel) ?? []), { ...share, paper_id: to }]);
  }
  return { entries: moved, shares: movedShares, archive: [...byChannel.values()].map(summarize) };
}

/** One channel's shares of one paper, as its archive row. */
function summarize(shares: readonly ShareRow[]): ArchiveRow {
  const sorted = [...shares].sort((a, b) => (a.shared_at < b.shared_at ? -1 : a.shared_at > b.shared_at ? 1 : 0));
  const first = sorted[0]!;
  return {
    platform: first.platform,
    team: first.team,
    channel: first.channel,
    paper_id: first.paper_id,
    first_shared_by: first.shared_by,
    first_shared_by_name: first.shared_by_name,
    first_shared_at: first.shared_at,
    last_shared_at: sorted[sorted.length - 1]!.shared_at,
    shares: sorted.length,
  };
}
