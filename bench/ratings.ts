/**
 * Members' ratings and follows at issue 41's scale: 10,000 members with 50 ratings and 5 followed
 * authors each, and members at the limit (10,000 ratings), then a press of 👍/👎 (the rating read,
 * then written, as a toggling button does) timed through the RatingStore, p50 and p99, with the
 * reads a personal feed makes of a member. Goal: a press's store work p99 ≤ 50 ms.
 *
 * The fill writes the rows with SQL of its own; every figure is taken through the interface.
 *
 *   npx tsx bench/ratings.ts [--store sqlite|postgres|both] [--samples N] [--members N]
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
import { MAX_RATINGS_PER_MEMBER, SignalLimitError, type Member, type RatingStore } from '../src/store/ratings.js';
import { openDatabase, tuneForBulkWrites } from '../src/store/sqlite/db.js';
import { SqliteRatingStore } from '../src/store/sqlite/ratings.js';
import { place, time } from './readingLists.js';
import { fmtMs } from './stats.js';

export interface RatingScale {
  members: number;
  ratingsEach: number;
  followsEach: number;
  /** Members (among `members`) with {@link MAX_RATINGS_PER_MEMBER} ratings instead. */
  full: number;
  samples: number;
}

export const RATING_SCALE: RatingScale = { members: 10_000, ratingsEach: 50, followsEach: 5, full: 10, samples: 2000 };

/** Paper ids are drawn from a library of this many. */
const LIBRARY = 200_000;
const BATCH = 5000;
const EPOCH = Date.UTC(2026, 0, 1);
const paper = (n: number) => `arxiv:${2400 + Math.floor(n / 100_000)}.${String(n % 100_000).padStart(5, '0')}`;
const when = (n: number) => new Date(EPOCH + ((n * 7919) % (365 * 86_400)) * 1000).toISOString();
const memberOf = (m: number): Member => ({ ...place(m), user: `U${m}` });

type Row = [string, string, string, string, number, string];
type FollowRow = [string, string, string, string, string, string];

/** The scale's rows in batches: distinct papers per member (104729 is prime to LIBRARY). */
function* rows(s: RatingScale): Generator<{ ratings: Row[]; follows: FollowRow[] }> {
  let batch = { ratings: [] as Row[], follows: [] as FollowRow[] };
  for (let m = 0; m < s.members; m++) {
    const { platform, team, user } = memberOf(m);
    const count = m < s.full ? MAX_RATINGS_PER_MEMBER : s.ratingsEach;
    for (let k = 0; k < count; k++) batch.ratings.push([platform, team, user, paper((m * 7919 + k * 104_729) % LIBRARY), k % 4 ? 1 : -1, when(m * count + k)]);
    for (let k = 0; k < s.followsEach; k++) batch.follows.push([platform, team, user, `author ${(m * 31 + k) % 5000}`, `Author ${(m * 31 + k) % 5000}`, when(m + k)]);
    if (batch.ratings.length >= BATCH) {
      yield batch;
      batch = { ratings: [], follows: [] };
    }
  }
  yield batch;
}

interface Filled {
  ratings: RatingStore;
  size(): Promise<number>;
  close(): Promise<void>;
}

async function fill(target: StoreTarget, scale: RatingScale): Promise<Filled> {
  if (target.kind === 'sqlite') {
    const db = openDatabase(target.path);
    tuneForBulkWrites(db);
    const rating = db.prepare<Row>('INSERT INTO paper_ratings (platform, team, member, paper_id, value, rated_at) VALUES (?, ?, ?, ?, ?, ?)');
    const follow = db.prepare<FollowRow>('INSERT INTO followed_authors (platform, team, member, author, name, followed_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (const batch of rows(scale)) {
      db.transaction(() => {
        for (const row of batch.ratings) rating.run(...row);
        for (const row of batch.follows) follow.run(...row);
      })();
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { ratings: new SqliteRatingStore(db), size: async () => statSync(target.path).size, close: async () => void db.close() };
  }
  const pg = await openPostgres(target.url, { log: silentLog, patience: 10_000 });
  const columns = (list: unknown[][]) => list[0]!.map((_, i) => list.map((row) => row[i]));
  for (const batch of rows(scale)) {
    if (batch.ratings.length > 0) {
      await pg.db.query(
        'INSERT INTO paper_ratings SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::smallint[], $6::timestamptz[])',
        columns(batch.ratings),
      );
    }
    if (batch.follows.length > 0) {
      await pg.db.query('INSERT INTO followed_authors SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])', columns(batch.follows));
    }
  }
  await pg.db.query('VACUUM ANALYZE paper_ratings, followed_authors');
  return {
    ratings: pg.ratings,
    size: async () => (await pg.db.query<{ n: number }>("SELECT pg_total_relation_size('paper_ratings') + pg_total_relation_size('followed_authors') AS n")).rows[0]!.n,
    close: () => pg.close(),
  };
}

/**
 * Fills the store at `target` to `scale` and times a press of 👍/👎 and a member's reads;
 * resolves report lines.
 * @example for (const line of await benchRatings({ kind: 'sqlite', path }, RATING_SCALE)) console.log(line);
 */
export async function benchRatings(target: StoreTarget, scale: RatingScale = RATING_SCALE): Promise<string[]> {
  const started = performance.now();
  const filled = await fill(target, scale);
  const fillSeconds = (performance.now() - started) / 1000;
  const { ratings } = filled;
  try {
    const memberAt = (i: number) => memberOf(scale.full + ((i * 7919) % (scale.members - scale.full)));
    const fullAt = (i: number) => memberOf(i % scale.full);
    /** A button press: the member's rating of the paper read, then 👍 given, or taken back. */
    const press = async (who: Member, i: number) => {
      const id = paper(i < LIBRARY ? (i * 104_729) % LIBRARY : i);
      const now = (await ratings.ratingsOf(who, [id])).get(id);
      return ratings.rate(who, id, now === 1 ? null : 1, new Date(EPOCH + i));
    };
    const figures: Array<[string, { p50: number; p99: number }, string]> = [
      ['👍/👎 pressed (read + write)', await time(scale.samples, (i) => press(memberAt(i), i)), '≤ 50 ms'],
      [
        `… at ${MAX_RATINGS_PER_MEMBER.toLocaleString('en-US')}: a rating changed`,
        await time(scale.samples / 4, async (i) => {
          const m = i % scale.full;
          const id = paper((m * 7919 + ((i * 31) % MAX_RATINGS_PER_MEMBER) * 104_729) % LIBRARY);
          const now = (await ratings.ratingsOf(fullAt(i), [id])).get(id);
          return ratings.rate(fullAt(i), id, now === 1 ? -1 : 1, new Date(EPOCH + i));
        }),
        '≤ 50 ms',
      ],
      [
        `… at ${MAX_RATINGS_PER_MEMBER.toLocaleString('en-US')}: one more refused`,
        await time(scale.samples / 4, (i) => press(fullAt(i), LIBRARY + i).catch((err: unknown) => (err instanceof SignalLimitError ? undefined : Promise.reject(err)))),
        '≤ 50 ms',
      ],
      ['a member’s ratings, all', await time(scale.samples, (i) => ratings.ratings(memberAt(i))), ''],
      ['a member’s follows', await time(scale.samples, (i) => ratings.follows(memberAt(i))), ''],
    ];
    const total = (scale.members - scale.full) * scale.ratingsEach + scale.full * MAX_RATINGS_PER_MEMBER;
    return [
      `Ratings on ${target.kind}: ${total.toLocaleString('en-US')} ratings and ${(scale.members * scale.followsEach).toLocaleString('en-US')} follows of ${scale.members.toLocaleString('en-US')} members; filled in ${fillSeconds.toFixed(1)} s, ${Math.round((await filled.size()) / 1048576)} MB`,
      ...figures.map(([name, { p50, p99 }, goal]) => `  ${name.padEnd(36)}p50 ${fmtMs(p50).padEnd(10)} p99 ${fmtMs(p99).padEnd(10)} ${goal && `goal p99 ${goal}`}`),
    ];
  } finally {
    await filled.close();
  }
}

/**
 * Both stores at `scale`: SQLite in a temporary directory, PostgreSQL on a private cluster
 * (skipped, saying so, without Debian's postgresql package or with `postgres: false`).
 */
export async function benchRatingStores(scale: RatingScale = RATING_SCALE, stores: { sqlite?: boolean; postgres?: boolean } = {}): Promise<string[]> {
  const lines: string[] = [];
  if (stores.sqlite !== false) {
    const dir = mkdtempSync(join(tmpdir(), 'paperscout-bench-ratings-'));
    try {
      lines.push(...(await benchRatings({ kind: 'sqlite', path: join(dir, 'paperscout.db') }, scale)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (stores.postgres !== false) {
    const found = postgresBinaries();
    if ('missing' in found) lines.push(`Ratings on postgres: skipped (${found.missing})`);
    else {
      const cluster = await startPostgresCluster({ durable: true });
      try {
        lines.push(...(await benchRatings({ kind: 'postgres', url: await cluster.createDatabase('bench_ratings') }, scale)));
      } finally {
        await cluster.stop();
      }
    }
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { store: { type: 'string', default: 'both' }, samples: { type: 'string' }, members: { type: 'string' } } });
  const scale: RatingScale = { ...RATING_SCALE, ...(values.samples && { samples: Number(values.samples) }), ...(values.members && { members: Number(values.members) }) };
  for (const line of await benchRatingStores(scale, { sqlite: values.store !== 'postgres', postgres: values.store !== 'sqlite' })) console.log(line);
}
