/**
 * Ratings and follows in the SQLite database (the interface is in `../ratings.ts`, the rows and
 * the checks both stores share in `../ratingRows.ts`). A write that counts (a first rating, a
 * follow) is one BEGIN IMMEDIATE transaction with its count, so no process on the database takes
 * a member past a limit. On a database opened read-only, writes fail as SQLite's do
 * (SQLITE_READONLY) and reads work.
 */
import type { Db } from './db.js';
import {
  FOLLOWS_NEWEST_FIRST,
  RATINGS_NEWEST_FIRST,
  checkRatingsPage,
  checkValue,
  followColumns,
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

const MEMBER = 'platform = @platform AND team = @team AND member = @member';

type MemberParams = { platform: string; team: string; member: string };
const memberParams = (m: Member): MemberParams => ({ platform: m.platform, team: m.team, member: m.user });

export class SqliteRatingStore implements RatingStore {
  private readonly stmts;
  private readonly tx;

  constructor(db: Db) {
    const s = {
      value: db.prepare<MemberParams & { paperId: string }, number>(`SELECT value FROM paper_ratings WHERE ${MEMBER} AND paper_id = @paperId`).pluck(),
      countRated: db.prepare<MemberParams, number>(`SELECT count(*) FROM paper_ratings WHERE ${MEMBER}`).pluck(),
      counts: db.prepare<MemberParams, { value: number; n: number }>(`SELECT value, count(*) AS n FROM paper_ratings WHERE ${MEMBER} GROUP BY value`),
      put: db.prepare<RatingRow>(`INSERT INTO paper_ratings (platform, team, member, paper_id, value, rated_at)
        VALUES (@platform, @team, @member, @paper_id, @value, @rated_at)
        ON CONFLICT DO UPDATE SET value = excluded.value, rated_at = excluded.rated_at`),
      unrate: db.prepare<MemberParams & { paperId: string }>(`DELETE FROM paper_ratings WHERE ${MEMBER} AND paper_id = @paperId`),
      some: db.prepare<MemberParams & { ids: string }, { paper_id: string; value: number }>(
        `SELECT paper_id, value FROM paper_ratings WHERE ${MEMBER} AND paper_id IN (SELECT json_each.value FROM json_each(@ids))`,
      ),
      all: db.prepare<MemberParams, RatingRow>(`SELECT paper_id, value, rated_at FROM paper_ratings WHERE ${MEMBER} ORDER BY ${RATINGS_NEWEST_FIRST}`),
      page: db.prepare<MemberParams & { limit: number; offset: number }, RatingRow>(
        `SELECT paper_id, value, rated_at FROM paper_ratings WHERE ${MEMBER} ORDER BY ${RATINGS_NEWEST_FIRST} LIMIT @limit OFFSET @offset`,
      ),
      followed: db.prepare<MemberParams & { author: string }, number>(`SELECT 1 FROM followed_authors WHERE ${MEMBER} AND author = @author`).pluck(),
      countFollows: db.prepare<MemberParams, number>(`SELECT count(*) FROM followed_authors WHERE ${MEMBER}`).pluck(),
      follow: db.prepare<MemberParams & { author: string; name: string; at: string }>(`INSERT INTO followed_authors (platform, team, member, author, name, followed_at)
        VALUES (@platform, @team, @member, @author, @name, @at) ON CONFLICT DO UPDATE SET name = excluded.name`),
      unfollow: db.prepare<MemberParams & { author: string }>(`DELETE FROM followed_authors WHERE ${MEMBER} AND author = @author`),
      follows: db.prepare<MemberParams, FollowRow>(`SELECT author, name, followed_at FROM followed_authors WHERE ${MEMBER} ORDER BY ${FOLLOWS_NEWEST_FIRST}`),
      forgetRatings: db.prepare<MemberParams>(`DELETE FROM paper_ratings WHERE ${MEMBER}`),
      forgetFollows: db.prepare<MemberParams>(`DELETE FROM followed_authors WHERE ${MEMBER}`),
      teamRatings: db.prepare<[string, string]>('DELETE FROM paper_ratings WHERE platform = ? AND team = ?'),
      teamFollows: db.prepare<[string, string]>('DELETE FROM followed_authors WHERE platform = ? AND team = ?'),
      ratingsOfPapers: db.prepare<[string, string], RatingRow>('SELECT * FROM paper_ratings WHERE paper_id IN (?, ?)'),
      dropPaper: db.prepare<[string]>('DELETE FROM paper_ratings WHERE paper_id = ?'),
    };
    this.stmts = s;
    this.tx = {
      rate: db.transaction((member: Member, paperId: string, value: RatingValue | null, at: Date): Rated => {
        const params = memberParams(member);
        const there = s.value.get({ ...params, paperId });
        const previous = there === undefined ? null : there === 1 ? 1 : -1;
        if (value === null) {
          if (previous !== null) s.unrate.run({ ...params, paperId });
        } else if (previous !== value) {
          if (previous === null && s.countRated.get(params)! >= MAX_RATINGS_PER_MEMBER) throw new SignalLimitError('ratings', MAX_RATINGS_PER_MEMBER);
          s.put.run({ ...params, paper_id: paperId, value, rated_at: at.toISOString() });
        }
        return { previous, counts: toCounts(s.counts.all(params)) };
      }),
      follow: db.transaction((member: Member, columns: { author: string; name: string }, at: Date) => {
        const params = memberParams(member);
        const added = s.followed.get({ ...params, author: columns.author }) === undefined;
        if (added && s.countFollows.get(params)! >= MAX_FOLLOWS_PER_MEMBER) throw new SignalLimitError('follows', MAX_FOLLOWS_PER_MEMBER);
        s.follow.run({ ...params, ...columns, at: at.toISOString() });
        return { added, author: columns.author, count: s.countFollows.get(params)! };
      }),
      forget: db.transaction((params: MemberParams): ForgottenSignals => ({ ratings: s.forgetRatings.run(params).changes, follows: s.forgetFollows.run(params).changes })),
      forgetTeam: db.transaction((platform: string, team: string) => s.teamRatings.run(platform, team).changes + s.teamFollows.run(platform, team).changes),
      move: db.transaction((from: string, to: string) => {
        const moved = planRatingMove(s.ratingsOfPapers.all(from, to), from, to);
        s.dropPaper.run(from);
        for (const row of moved) s.put.run(row);
      }),
    };
  }

  async rate(member: Member, paperId: string, value: RatingValue | null, at: Date): Promise<Rated> {
    checkValue(value);
    return this.tx.rate.immediate(member, paperId, value, at);
  }

  async ratingsOf(member: Member, paperIds: readonly string[]): Promise<Map<string, RatingValue>> {
    if (paperIds.length === 0) return new Map();
    const rows = this.stmts.some.all({ ...memberParams(member), ids: JSON.stringify(paperIds) });
    return new Map(rows.map((r) => [r.paper_id, r.value === 1 ? 1 : -1]));
  }

  async ratings(member: Member, page?: { offset: number; limit: number }): Promise<Rating[]> {
    checkRatingsPage(page);
    const params = memberParams(member);
    return (page ? this.stmts.page.all({ ...params, ...page }) : this.stmts.all.all(params)).map(toRating);
  }

  async counts(member: Member): Promise<RatingCounts> {
    return toCounts(this.stmts.counts.all(memberParams(member)));
  }

  async follow(member: Member, name: string, at: Date): Promise<{ added: boolean; author: string; count: number }> {
    return this.tx.follow.immediate(member, followColumns(name), at);
  }

  async unfollow(member: Member, name: string): Promise<boolean> {
    return this.stmts.unfollow.run({ ...memberParams(member), author: unfollowKey(name) }).changes > 0;
  }

  async follows(member: Member): Promise<Follow[]> {
    return this.stmts.follows.all(memberParams(member)).map(toFollow);
  }

  async forgetMember(member: Member): Promise<ForgottenSignals> {
    return this.tx.forget.immediate(memberParams(member));
  }

  async forgetTeam(platform: string, team: string): Promise<number> {
    return this.tx.forgetTeam.immediate(platform, team);
  }

  async movePaper(from: string, to: string): Promise<void> {
    if (from !== to) this.tx.move.immediate(from, to);
  }
}
