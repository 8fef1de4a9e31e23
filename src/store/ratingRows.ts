/**
 * Ratings and follows as both stores keep them (the interface is in `ratings.ts`): the rows of
 * the two tables, the checks a write passes before any SQL, and what moving a paper writes. Each
 * store is only its SQL.
 *
 * Tables: `paper_ratings` (one row per member and paper: the value, 1 or -1, and when it was
 * given) and `followed_authors` (one row per member and author key, with the name as given).
 * A member is `(platform, team, member)`; the column is not `user`, which PostgreSQL reserves.
 */
import { UserError } from '../errors.js';
import { storableText } from './readingListRows.js';
import { MAX_AUTHOR_NAME_LENGTH, authorKeyOf, type Follow, type Member, type Rating, type RatingCounts, type RatingValue } from './ratings.js';

/** A rating's row. Times are ISO strings in both stores (timestamptz is read back so). */
export interface RatingRow {
  platform: string;
  team: string;
  member: string;
  paper_id: string;
  value: number;
  rated_at: string;
}

/** A follow's row. */
export interface FollowRow {
  author: string;
  name: string;
  followed_at: string;
}

/** A member's ratings, in order: newest first, ties by paper id. */
export const RATINGS_NEWEST_FIRST = 'rated_at DESC, paper_id';
/** A member's follows, in order: most recently followed first, ties by author key. */
export const FOLLOWS_NEWEST_FIRST = 'followed_at DESC, author';

/** A member's key columns, in the order both stores bind them. */
export function memberValues(member: Member): [string, string, string] {
  return [member.platform, member.team, member.user];
}

/** Rejects a value no store may hold (a caller passing a number from a payload). */
export function checkValue(value: RatingValue | null): void {
  if (value !== null && value !== 1 && value !== -1) throw new RangeError(`rating: the value is 1, -1 or null (got ${String(value)})`);
}

/** Rejects a page no store can answer (a negative offset, a fractional limit). */
export function checkRatingsPage(page: { offset: number; limit: number } | undefined): void {
  if (page === undefined) return;
  if (!Number.isSafeInteger(page.offset) || page.offset < 0 || !Number.isSafeInteger(page.limit) || page.limit < 0) {
    throw new RangeError(`ratings page: offset and limit must be whole numbers ≥ 0 (got ${page.offset}, ${page.limit})`);
  }
}

/**
 * The columns of a follow of `name`: its key and the name as it can be stored. A name with no
 * letters or digits, or longer than {@link MAX_AUTHOR_NAME_LENGTH}, is a UserError.
 * @example followColumns(' José  García ') // { author: 'jose garcia', name: 'José García' }
 */
export function followColumns(name: string): { author: string; name: string } {
  const shown = storableText(name).replace(/\s+/g, ' ').trim();
  const length = [...shown].length;
  if (length > MAX_AUTHOR_NAME_LENGTH) throw new UserError('ratings.authorTooLong', { max: MAX_AUTHOR_NAME_LENGTH, length });
  const author = authorKeyOf(shown);
  if (author === '') throw new UserError('ratings.authorEmpty');
  return { author, name: shown };
}

/** The key `unfollow` looks for: that of the name as `follow` would have stored it ('' matches nothing). */
export function unfollowKey(name: string): string {
  return authorKeyOf(storableText(name));
}

export function toRating(row: Pick<RatingRow, 'paper_id' | 'value' | 'rated_at'>): Rating {
  return { paperId: row.paper_id, value: Number(row.value) === 1 ? 1 : -1, at: row.rated_at };
}

export function toFollow(row: FollowRow): Follow {
  return { author: row.author, name: row.name, at: row.followed_at };
}

/** Counts from rows of `(value, n)`. */
export function toCounts(rows: readonly { value: number; n: number }[]): RatingCounts {
  const counts = { up: 0, down: 0 };
  for (const row of rows) {
    if (Number(row.value) === 1) counts.up += Number(row.n);
    else counts.down += Number(row.n);
  }
  return counts;
}

/**
 * The ratings paper `to` has after paper `from` merges into it, given every rating of either:
 * a member who rated both keeps the one given last (ties: `to`'s), a member who rated `from`
 * alone has it under `to`. Written once every rating of `from` is deleted (insert or replace).
 * @example planRatingMove(rowsOfBoth, 'doi:10.1/x', 'arxiv:2401.00001')
 */
export function planRatingMove(rows: readonly RatingRow[], from: string, to: string): RatingRow[] {
  const key = (r: RatingRow) => JSON.stringify(memberValues({ platform: r.platform, team: r.team, user: r.member }));
  const kept = new Map<string, RatingRow>();
  for (const row of rows) if (row.paper_id === to) kept.set(key(row), row);
  const moved: RatingRow[] = [];
  for (const row of rows) {
    if (row.paper_id !== from) continue;
    const there = kept.get(key(row));
    if (!there || row.rated_at > there.rated_at) moved.push({ ...row, paper_id: to });
  }
  return moved;
}
