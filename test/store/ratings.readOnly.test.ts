/**
 * Ratings and follows in a library opened read-only (a user who cannot write DATA_DIR runs a
 * command that only reads, such as `paperscout feedback export`): what was kept is read, and a
 * write is refused as SQLite refuses any write to a read-only database, not kept in memory and lost.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStores } from '../../src/store/open.js';
import type { Member, RatingStore } from '../../src/store/ratings.js';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { SqliteRatingStore } from '../../src/store/sqlite/ratings.js';
import { silentLog } from '../helpers/corpus.js';

const ada: Member = { platform: 'slack', team: 'T1', user: 'U1' };
const at = new Date('2026-04-01T10:00:00Z');

/** Every write of the interface, each expected to be refused as a write to a read-only database. */
async function expectWritesRefused(ratings: RatingStore): Promise<void> {
  const writes = [
    () => ratings.rate(ada, 'arxiv:9', 1, at),
    () => ratings.rate(ada, 'arxiv:1', null, at),
    () => ratings.follow(ada, 'Grace Hopper', at),
    () => ratings.unfollow(ada, 'Ada Lovelace'),
    () => ratings.forgetMember(ada),
    () => ratings.forgetTeam('slack', 'T1'),
    () => ratings.movePaper('arxiv:1', 'arxiv:3'),
  ];
  for (const write of writes) await expect(write()).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_READONLY/) });
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paperscout-ratings-ro-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ratings in a library opened read-only', () => {
  it('reads what was kept; every write is refused and changes nothing', async () => {
    const path = join(dir, 'paperscout.db');
    const writer = openDatabase(path);
    await new SqliteRatingStore(writer).rate(ada, 'arxiv:1', 1, at);
    await new SqliteRatingStore(writer).follow(ada, 'Ada Lovelace', at);
    writer.close();

    const db = openDatabase(path, { readOnly: true });
    try {
      const ratings = new SqliteRatingStore(db);
      await expectWritesRefused(ratings);
      expect(await ratings.ratings(ada)).toEqual([{ paperId: 'arxiv:1', value: 1, at: at.toISOString() }]);
      expect(await ratings.follows(ada)).toEqual([{ author: 'ada lovelace', name: 'Ada Lovelace', at: at.toISOString() }]);
    } finally {
      db.close();
    }
  });

  it('where there is no library to read, there are none and a rating is refused, not kept in memory', async () => {
    writeFileSync(join(dir, 'blocked'), '');
    const stores = await openStores(loadConfig({ DATA_DIR: join(dir, 'blocked', 'data') }), { log: silentLog, readOnlyIfUnwritable: true });
    try {
      expect(stores.readOnly).toBe(true);
      await expectWritesRefused(stores.ratings);
      expect(await stores.ratings.ratings(ada)).toEqual([]);
      expect(await stores.ratings.counts(ada)).toEqual({ up: 0, down: 0 });
    } finally {
      await stores.close();
    }
  });
});
