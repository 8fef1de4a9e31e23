/**
 * Reading lists: what a member saved for themselves, what a channel keeps together (papers added
 * with a note), and the channel's archive (paper links shared in it, by whom and when). Keyed by
 * the platforms' ids, never by display names: a member's list belongs to them within one server
 * or workspace, a channel's to that channel, and nothing here is ever read across workspaces.
 *
 * Papers are kept by their store id (`arxiv:1706.03762`), so a list survives re-imports and
 * index rebuilds; when an import merges two stored papers into one, `movePaper` carries every
 * entry over. The interface is small and async so that SQLite and PostgreSQL both implement it,
 * with the same contract suite.
 */

/** Whose list: a member's own, or a channel's shared one. */
export type ListKind = 'member' | 'channel';

/** Where a list lives: platform, the server or workspace, and the member or channel in it. */
export interface ListOwner {
  platform: string;
  /** Discord guild id, Slack team (or enterprise) id; `dm` for a Discord conversation outside any server. */
  team: string;
  kind: ListKind;
  /** The member's user id, or the channel's id. */
  id: string;
}

/** A person, by platform id, with the name they had when they did it (shown; never a key). */
export interface Person {
  id: string;
  name?: string;
}

/** A paper on a list. */
export interface ListEntry {
  paperId: string;
  /** Who put it there (for a member's list, the member); undefined once they asked to be forgotten. */
  addedBy?: Person;
  /** ISO instant. */
  addedAt: string;
  /** Plain text, at most {@link MAX_NOTE_LENGTH} characters; never empty. */
  note?: string;
  /**
   * Who wrote the note: on a channel's list, whoever last gave one with `add`, not necessarily
   * who added the paper. Forgetting them removes the note.
   */
  noteBy?: Person;
}

/** A paper in a channel's archive: every time someone shared a link to it there. */
export interface ArchiveEntry {
  paperId: string;
  /** The first to share it (undefined once forgotten). */
  firstSharedBy?: Person;
  /** ISO instants. */
  firstSharedAt: string;
  lastSharedAt: string;
  /** How many times it was shared (distinct messages). */
  shares: number;
}

/**
 * Whether a channel's archive records the links shared there, and who last turned it on or off
 * and when (unset for a channel that never changed it: archives are on from the start, and
 * once the person is forgotten).
 */
export interface ArchiveSetting {
  on: boolean;
  setBy?: Person;
  /** An ISO instant. */
  setAt?: string;
}

/** A link to a paper seen in a channel. */
export interface Share {
  paperId: string;
  by: Person;
  at: Date;
  /**
   * The message it was seen in (`<channel>:<ts>` on Slack, the message id on Discord): the same
   * message seen twice (an event redelivered, a `link_shared` and a `message` event for one post)
   * is one share.
   */
  message: string;
}

/** A page of a list, newest first, and how many there are in all. */
export interface ListPage<T> {
  entries: T[];
  total: number;
}

/** What {@link ReadingListStore.forgetMember} did. */
export interface Forgotten {
  /** Papers removed from the member's own list in that team (their notes with them). */
  saved: number;
  /** Entries they added to channels' lists: kept (they are the channel's), now added by "someone". */
  channelEntries: number;
  /** Notes they wrote on those channel entries, removed. */
  notes: number;
  /** Shares of theirs in channels' archives: kept, now by "someone". */
  shares: number;
}

/**
 * Longest note on a list entry, in characters (Unicode code points: an emoji is one). A longer
 * one is a `UserError` (`library.noteTooLong`).
 */
export const MAX_NOTE_LENGTH = 500;

export interface ReadingListStore {
  /**
   * Puts `paperId` on the list, or takes it off if it is there (a Save button pressed twice).
   * Resolves whether it is on the list now and how many papers the list holds.
   */
  toggle(owner: ListOwner, paperId: string, by: Person, at: Date): Promise<{ saved: boolean; count: number }>;
  /**
   * Puts `paperId` on the list (a note replaces the one there, if given; an empty note removes
   * it); resolves whether it was new and how many papers the list holds. Text is kept as given,
   * except what no store can hold: NUL characters are dropped, lone surrogates become U+FFFD.
   */
  add(owner: ListOwner, paperId: string, by: Person, at: Date, note?: string): Promise<{ added: boolean; count: number }>;
  /** Takes `paperId` off the list; resolves whether it was there. */
  remove(owner: ListOwner, paperId: string): Promise<boolean>;
  /** Whether `paperId` is on the list. */
  has(owner: ListOwner, paperId: string): Promise<boolean>;
  /** A page of the list, newest first (ties by paper id). */
  list(owner: ListOwner, page: { offset: number; limit: number }): Promise<ListPage<ListEntry>>;
  /** Every paper id on the list, newest first (for searching within it and exporting). */
  paperIds(owner: ListOwner): Promise<string[]>;
  /** The entries of these papers on the list (for showing who added them). */
  entries(owner: ListOwner, paperIds: readonly string[]): Promise<Map<string, ListEntry>>;

  /**
   * Records a share, unless the channel's archiving is off; resolves whether it was recorded
   * (false: archiving is off, or this message's share of this paper was recorded before).
   */
  recordShare(platform: string, team: string, channel: string, share: Share): Promise<boolean>;
  /** A page of a channel's archive, most recently shared first. */
  archive(platform: string, team: string, channel: string, page: { offset: number; limit: number }): Promise<ListPage<ArchiveEntry>>;
  /** The archive entries of these papers in a channel. */
  archiveEntries(platform: string, team: string, channel: string, paperIds: readonly string[]): Promise<Map<string, ArchiveEntry>>;
  /** Whether links shared in the channel are recorded (on unless turned off), and who said so. */
  archiveSetting(platform: string, team: string, channel: string): Promise<ArchiveSetting>;
  setArchiving(platform: string, team: string, channel: string, on: boolean, by: Person, at: Date): Promise<void>;

  /**
   * Deletes everything stored about a member of a team: their own list and notes; channel
   * entries they added stay (they are the channel's) but lose who added them and their note;
   * shares they made stay in the archives, by "someone".
   */
  forgetMember(platform: string, team: string, userId: string): Promise<Forgotten>;
  /**
   * Deletes every list, archive and setting of a server or workspace (the app was uninstalled
   * from it); resolves how many list entries and shares were deleted.
   */
  forgetTeam(platform: string, team: string): Promise<number>;
  /**
   * Moves every entry of paper `from` to paper `to` (two stored papers merged into one). A list
   * or archive that holds both keeps one entry: the older one's addedAt and addedBy, its note or
   * else the other's; an archive counts the shares of both (a message linking both, once).
   */
  movePaper(from: string, to: string): Promise<void>;
}

/** Most papers of a list a recommendation profile is built from (the newest). */
export const MAX_PROFILE_PAPERS = 200;

/**
 * The papers that make a list's recommendation profile, newest first: a member's saved papers;
 * for a channel, its reading list and the papers shared in it (never a member's own list, which
 * shapes only what that member is shown).
 * @example await profilePaperIds(lists, { platform: 'slack', team: 'T01', kind: 'channel', id: 'C02' })
 */
export async function profilePaperIds(lists: Pick<ReadingListStore, 'list' | 'archive'>, owner: ListOwner, max = MAX_PROFILE_PAPERS): Promise<string[]> {
  const page = { offset: 0, limit: max };
  const listed = (await lists.list(owner, page)).entries.map((e) => ({ id: e.paperId, at: e.addedAt }));
  if (owner.kind === 'member') return listed.map((e) => e.id);
  const shared = (await lists.archive(owner.platform, owner.team, owner.id, page)).entries.map((e) => ({ id: e.paperId, at: e.lastSharedAt }));
  const latest = new Map<string, string>();
  for (const { id, at } of [...listed, ...shared]) if ((latest.get(id) ?? '') < at) latest.set(id, at);
  return [...latest]
    .sort((a, b) => (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : a[0] < b[0] ? -1 : 1))
    .slice(0, max)
    .map(([id]) => id);
}
