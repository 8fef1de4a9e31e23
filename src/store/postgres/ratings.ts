/**
 * Ratings and follows in PostgreSQL, shared by every instance (the interface is in
 * `../ratings.ts`, the rows and the checks both stores share in `../ratingRows.ts`).
 *
 * A rating or a follow takes a transaction-scoped advisory lock on its member first, so that one
 * member's writes run one after the other whichever instance makes them: the limits hold, and
 * each answer's counts are the member's after that write. Every write is idempotent: one repeated
 * over a lost connection after its commit ends where it did.
 */
import type pg from 'pg';
import type { Postgres } from './connection.js';
import {
  FOLLOWS_NEWEST_FIRST,
  RATINGS_NEWEST_FIRST,
  checkRatingsPage,
  checkValue,
  followColumns,
  memberValues,
  planRatingMove,
  toCounts,
  toFollow,
  toRating,
  unfollowKey,
  type FollowRow,
  type RatingRow,
} from '../ratingRows.js';
import {
  MAX_FOLLOWS_PER_MEMBER,
  MAX_RATINGS_PER_MEMBER,
  SignalLimitError,
  type Follow,
  type ForgottenSignals,
  type Member,
  type Rated,
  type Rating,
  type RatingCounts,
  type RatingStore,
  type RatingValue,
} from '../ratings.js';

/** The first key of the advisory locks on members' signals (the second is a hash of the member). */
const MEMBER_LOCK = 31;
/** The member `$1`…`$3`: platform, team, user. */
const MEMBER = 'platform = $1 AND team = $2 AND member = $3';

const PUT_RATINGS = `INSERT INTO paper_ratings (platform, team, member, paper_id, value, rated_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::smallint[], $6::timestamptz[])
  ON CONFLICT (platform, team, member, paper_id) DO UPDATE SET value = excluded.value, rated_at = excluded.rated_at`;

export class PgRatingStore implements RatingStore {
  constructor(private readonly db: Postgres) {}

  async rate(member: Member, paperId: string, value: RatingValue | null, at: Date): Promise<Rated> {
    checkValue(value);
    const who = memberValues(member);
    return this.db.transaction(async (c) => {
      await lockMember(c, member);
      const there = await c.query<{ value: number }>(`SELECT value FROM paper_ratings WHERE ${MEMBER} AND paper_id = $4`, [...who, paperId]);
      const previous = there.rows[0] === undefined ? null : there.rows[0].value === 1 ? 1 : -1;
      if (value === null) {
        if (previous !== null) await c.query(`DELETE FROM paper_ratings WHERE ${MEMBER} AND paper_id = $4`, [...who, paperId]);
      } else if (previous !== value) {
        if (previous === null && (await countOf(c, 'paper_ratings', member)) >= MAX_RATINGS_PER_MEMBER) throw new SignalLimitError('ratings', MAX_RATINGS_PER_MEMBER);
        await c.query(PUT_RATINGS, [[member.platform], [member.team], [member.user], [paperId], [value], [at.toISOString()]]);
      }
      return { previous, counts: await counts(c, member) };
    });
  }

  async ratingsOf(member: Member, paperIds: readonly string[]): Promise<Map<string, RatingValue>> {
    if (paperIds.length === 0) return new Map();
    const { rows } = await this.db.query<{ paper_id: string; value: number }>(`SELECT paper_id, value FROM paper_ratings WHERE ${MEMBER} AND paper_id = ANY($4::text[])`, [
      ...memberValues(member),
      paperIds,
    ]);
    return new Map(rows.map((r) => [r.paper_id, r.value === 1 ? 1 : -1]));
  }

  async ratings(member: Member, page?: { offset: number; limit: number }): Promise<Rating[]> {
    checkRatingsPage(page);
    const sql = `SELECT paper_id, value, rated_at FROM paper_ratings WHERE ${MEMBER} ORDER BY ${RATINGS_NEWEST_FIRST}`;
    const { rows } = page
      ? await this.db.query<RatingRow>(`${sql} LIMIT $4 OFFSET $5`, [...memberValues(member), page.limit, page.offset])
      : await this.db.query<RatingRow>(sql, memberValues(member));
    return rows.map(toRating);
  }

  async counts(member: Member): Promise<RatingCounts> {
    const { rows } = await this.db.query<{ value: number; n: number }>(`SELECT value, count(*) AS n FROM paper_ratings WHERE ${MEMBER} GROUP BY value`, memberValues(member));
    return toCounts(rows);
  }

  async follow(member: Member, name: string, at: Date): Promise<{ added: boolean; author: string; count: number }> {
    const columns = followColumns(name);
    const who = memberValues(member);
    return this.db.transaction(async (c) => {
      await lockMember(c, member);
      const there = await c.query(`SELECT 1 FROM followed_authors WHERE ${MEMBER} AND author = $4`, [...who, columns.author]);
      const added = there.rowCount === 0;
      if (added && (await countOf(c, 'followed_authors', member)) >= MAX_FOLLOWS_PER_MEMBER) throw new SignalLimitError('follows', MAX_FOLLOWS_PER_MEMBER);
      await c.query(
        `INSERT INTO followed_authors (platform, team, member, author, name, followed_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (platform, team, member, author) DO UPDATE SET name = excluded.name`,
        [...who, columns.author, columns.name, at.toISOString()],
      );
      return { added, author: columns.author, count: await countOf(c, 'followed_authors', member) };
    });
  }

  async unfollow(member: Member, name: string): Promise<boolean> {
    const { rowCount } = await this.db.query(`DELETE FROM followed_authors WHERE ${MEMBER} AND author = $4`, [...memberValues(member), unfollowKey(name)]);
    return (rowCount ?? 0) > 0;
  }

  async follows(member: Member): Promise<Follow[]> {
    const { rows } = await this.db.query<FollowRow>(`SELECT author, name, followed_at FROM followed_authors WHERE ${MEMBER} ORDER BY ${FOLLOWS_NEWEST_FIRST}`, memberValues(member));
    return rows.map(toFollow);
  }

  async forgetMember(member: Member): Promise<ForgottenSignals> {
    const { rows } = await this.db.query<ForgottenSignals>(
      `WITH ratings AS (DELETE FROM paper_ratings WHERE ${MEMBER} RETURNING 1),
         follows AS (DELETE FROM followed_authors WHERE ${MEMBER} RETURNING 1)
       SELECT (SELECT count(*) FROM ratings)::integer AS ratings, (SELECT count(*) FROM follows)::integer AS follows`,
      memberValues(member),
    );
    return { ratings: rows[0]!.ratings, follows: rows[0]!.follows };
  }

  async forgetTeam(platform: string, team: string): Promise<number> {
    const { rows } = await this.db.query<{ deleted: number }>(
      `WITH ratings AS (DELETE FROM paper_ratings WHERE platform = $1 AND team = $2 RETURNING 1),
         follows AS (DELETE FROM followed_authors WHERE platform = $1 AND team = $2 RETURNING 1)
       SELECT (SELECT count(*) FROM ratings) + (SELECT count(*) FROM follows) AS deleted`,
      [platform, team],
    );
    return rows[0]!.deleted;
  }

  async movePaper(from: string, to: string): Promise<void> {
    if (from === to) return;
    await this.db.transaction(async (c) => {
      const { rows } = await c.query<RatingRow>('SELECT * FROM paper_ratings WHERE paper_id = ANY($1::text[]) FOR UPDATE', [[from, to]]);
      const moved = planRatingMove(rows, from, to);
      await c.query('DELETE FROM paper_ratings WHERE paper_id = $1', [from]);
      if (moved.length === 0) return;
      const names = ['platform', 'team', 'member', 'paper_id', 'value', 'rated_at'] as const;
      await c.query(
        PUT_RATINGS,
        names.map((name) => moved.map((row) => row[name])),
      );
    });
  }
}

/**
 * Waits for (and holds until the transaction ends) the lock on one member's signals, keyed by a
 * hash of the member (two members sharing a hash only wait for each other).
 */
async function lockMember(c: pg.PoolClient, member: Member): Promise<void> {
  await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MEMBER_LOCK, JSON.stringify(memberValues(member))]);
}

async function countOf(c: pg.PoolClient, table: 'paper_ratings' | 'followed_authors', member: Member): Promise<number> {
  const { rows } = await c.query<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE ${MEMBER}`, memberValues(member));
  return rows[0]!.n;
}

async function counts(c: pg.PoolClient, member: Member): Promise<RatingCounts> {
  const { rows } = await c.query<{ value: number; n: number }>(`SELECT value, count(*) AS n FROM paper_ratings WHERE ${MEMBER} GROUP BY value`, memberValues(member));
  return toCounts(rows);
}
