/**
 * The RatingStore contract on SQLite and PostgreSQL: 👍/👎 given, changed and taken back, read
 * newest first and counted; followed authors by the name as the index keeps it, shown as typed;
 * members kept apart; what one instance writes read on another; the limits, also when instances
 * write at once (PostgreSQL); forgetting a member or a whole workspace, a paper moving when two
 * merge, and hostile text kept as it was given.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import {
  MAX_AUTHOR_NAME_LENGTH,
  MAX_FOLLOWS_PER_MEMBER,
  MAX_RATINGS_PER_MEMBER,
  SignalLimitError,
  type Member,
  type RatingStore,
  type RatingValue,
} from '../../src/store/ratings.js';
import { skipping } from '../helpers/skip.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const at = (minute: number) => new Date(Date.UTC(2026, 3, 1, 10, minute));
const iso = (minute: number) => at(minute).toISOString();
const member = (user: string, team = 'T1', platform = 'slack'): Member => ({ platform, team, user });
const ada = member('U1');

describe.each(BACKENDS)('RatingStore on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let a: Instance;
  let ratings: RatingStore;
  beforeEach(async () => {
    store = await backend.create();
    a = await store.instance();
    ratings = a.ratings;
  });
  afterEach(() => store.dispose());

  /** `n` ratings of `who` written at once, as a member who rated that many would have them. */
  async function manyRatings(who: Member, n: number): Promise<void> {
    const [p, t, u] = [who.platform, who.team, who.user];
    await a.rawExec(
      backend.name === 'sqlite'
        ? `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
           INSERT INTO paper_ratings SELECT '${p}', '${t}', '${u}', 'arxiv:bulk.' || i, 1, '2026-01-01T00:00:00.000Z' FROM n`
        : `INSERT INTO paper_ratings SELECT '${p}', '${t}', '${u}', 'arxiv:bulk.' || i, 1, '2026-01-01T00:00:00Z' FROM generate_series(1, ${n}) i`,
    );
  }

  it('rates 👍, changes to 👎, takes it back; says what it was and the counts after', async () => {
    expect(await ratings.rate(ada, 'arxiv:1706.03762', 1, at(0))).toEqual({ previous: null, counts: { up: 1, down: 0 } });
    expect(await ratings.rate(ada, 'arxiv:1810.04805', -1, at(1))).toEqual({ previous: null, counts: { up: 1, down: 1 } });
    expect(await ratings.rate(ada, 'arxiv:1706.03762', -1, at(2))).toEqual({ previous: 1, counts: { up: 0, down: 2 } });
    expect(await ratings.ratingsOf(ada, ['arxiv:1706.03762', 'arxiv:none', 'arxiv:1810.04805'])).toEqual(
      new Map<string, RatingValue>([
        ['arxiv:1706.03762', -1],
        ['arxiv:1810.04805', -1],
      ]),
    );
    expect(await ratings.rate(ada, 'arxiv:1706.03762', null, at(3))).toEqual({ previous: -1, counts: { up: 0, down: 1 } });
    expect(await ratings.rate(ada, 'arxiv:1706.03762', null, at(4))).toEqual({ previous: null, counts: { up: 0, down: 1 } });
    expect(await ratings.ratings(ada)).toEqual([{ paperId: 'arxiv:1810.04805', value: -1, at: iso(1) }]);
    expect(await ratings.counts(ada)).toEqual({ up: 0, down: 1 });
    expect(await ratings.ratingsOf(ada, [])).toEqual(new Map());
  });

  it('keeps the time of a value given again; a changed value takes the new time', async () => {
    await ratings.rate(ada, 'arxiv:1', 1, at(0));
    expect(await ratings.rate(ada, 'arxiv:1', 1, at(5))).toEqual({ previous: 1, counts: { up: 1, down: 0 } });
    expect(await ratings.ratings(ada)).toEqual([{ paperId: 'arxiv:1', value: 1, at: iso(0) }]);
    await ratings.rate(ada, 'arxiv:1', -1, at(7));
    expect(await ratings.ratings(ada)).toEqual([{ paperId: 'arxiv:1', value: -1, at: iso(7) }]);
  });

  it('reads ratings newest first (ties by paper id), a page of them, and refuses a bad page or value', async () => {
    for (const [minute, id, value] of [[3, 'arxiv:c', 1], [1, 'arxiv:a', -1], [5, 'arxiv:e', 1], [3, 'arxiv:b', -1], [4, 'arxiv:d', 1]] as const) {
      await ratings.rate(ada, id, value, at(minute));
    }
    expect((await ratings.ratings(ada)).map((r) => r.paperId)).toEqual(['arxiv:e', 'arxiv:d', 'arxiv:b', 'arxiv:c', 'arxiv:a']);
    expect(await ratings.ratings(ada, { offset: 2, limit: 2 })).toEqual([
      { paperId: 'arxiv:b', value: -1, at: iso(3) },
      { paperId: 'arxiv:c', value: 1, at: iso(3) },
    ]);
    expect(await ratings.ratings(ada, { offset: 9, limit: 2 })).toEqual([]);
    await expect(ratings.ratings(ada, { offset: -1, limit: 2 })).rejects.toThrow(RangeError);
    await expect(ratings.rate(ada, 'arxiv:x', 2 as RatingValue, at(0))).rejects.toThrow(RangeError);
    await expect(ratings.rate(ada, 'arxiv:x', 0 as RatingValue, at(0))).rejects.toThrow(RangeError);
    expect(await ratings.counts(ada)).toEqual({ up: 3, down: 2 });
  });

  it('keeps members apart: another member, another team, another platform', async () => {
    const members = [ada, member('U2'), member('U1', 'T2'), member('U1', 'T1', 'discord'), member('U1', 'dm', 'discord')];
    for (const [n, who] of members.entries()) {
      for (let k = 0; k <= n; k++) await ratings.rate(who, `arxiv:${n}.${k}`, k % 2 ? -1 : 1, at(k));
      await ratings.follow(who, `Author ${n}`, at(n));
    }
    for (const [n, who] of members.entries()) {
      expect((await ratings.ratings(who)).map((r) => r.paperId).sort(), JSON.stringify(who)).toEqual(Array.from({ length: n + 1 }, (_, k) => `arxiv:${n}.${k}`));
      expect(await ratings.ratingsOf(who, ['arxiv:0.0'])).toEqual(n === 0 ? new Map([['arxiv:0.0', 1]]) : new Map());
      expect((await ratings.follows(who)).map((f) => f.name)).toEqual([`Author ${n}`]);
    }
    expect(await ratings.unfollow(member('U2'), 'Author 0')).toBe(false);
  });

  it('reads on one instance what another wrote, and what another took back', async () => {
    const b = await store.instance();
    await a.ratings.rate(ada, 'arxiv:1', 1, at(0));
    await a.ratings.follow(ada, 'Kaiming He', at(1));
    expect(await b.ratings.ratingsOf(ada, ['arxiv:1'])).toEqual(new Map([['arxiv:1', 1]]));
    expect(await b.ratings.rate(ada, 'arxiv:1', null, at(2))).toEqual({ previous: 1, counts: { up: 0, down: 0 } });
    expect(await a.ratings.ratings(ada)).toEqual([]);
    expect(await b.ratings.follows(ada)).toEqual([{ author: 'kaiming he', name: 'Kaiming He', at: iso(1) }]);
  });

  it('follows an author by the name as the index keeps it, shown as last typed; unfollows however it is spelled', async () => {
    expect(await ratings.follow(ada, '  José   García ', at(0))).toEqual({ added: true, author: 'jose garcia', count: 1 });
    expect(await ratings.follow(ada, '何恺明', at(1))).toEqual({ added: true, author: '何恺明', count: 2 });
    expect(await ratings.follow(ada, 'Yann LeCun', at(2))).toEqual({ added: true, author: 'yann lecun', count: 3 });
    // Again, spelled otherwise: the same author, first followed at 0, now shown as typed now.
    expect(await ratings.follow(ada, 'JOSE GARCIA', at(3))).toEqual({ added: false, author: 'jose garcia', count: 3 });
    expect(await ratings.follows(ada)).toEqual([
      { author: 'yann lecun', name: 'Yann LeCun', at: iso(2) },
      { author: '何恺明', name: '何恺明', at: iso(1) },
      { author: 'jose garcia', name: 'JOSE GARCIA', at: iso(0) },
    ]);
    expect(await ratings.unfollow(ada, 'josé garcía')).toBe(true);
    expect(await ratings.unfollow(ada, 'josé garcía')).toBe(false);
    expect(await ratings.unfollow(ada, '  ')).toBe(false);
    expect((await ratings.follows(ada)).map((f) => f.author)).toEqual(['yann lecun', '何恺明']);
  });

  it(`refuses a name without letters and one longer than ${MAX_AUTHOR_NAME_LENGTH} characters, counting an emoji as one`, async () => {
    for (const name of ['', '   ', '—…!', '\u0000']) await expect(ratings.follow(ada, name, at(0)), JSON.stringify(name)).rejects.toThrow(/Give an author’s name/);
    const longest = '👩‍🔬'.repeat(MAX_AUTHOR_NAME_LENGTH / 5) + 'x'.repeat(MAX_AUTHOR_NAME_LENGTH - (MAX_AUTHOR_NAME_LENGTH / 5) * 3);
    expect([...longest]).toHaveLength(MAX_AUTHOR_NAME_LENGTH);
    expect((await ratings.follow(ada, longest, at(0))).added).toBe(true);
    const refused = ratings.follow(ada, `${longest}y`, at(1));
    await expect(refused).rejects.toBeInstanceOf(UserError);
    await expect(refused).rejects.toThrow(`at most ${MAX_AUTHOR_NAME_LENGTH} characters long; this one has ${MAX_AUTHOR_NAME_LENGTH + 1}`);
    expect(await ratings.follows(ada)).toHaveLength(1);
  });

  it(`refuses paper number ${MAX_RATINGS_PER_MEMBER + 1}, not a change or a take-back; then rates once there is room`, async () => {
    await manyRatings(ada, MAX_RATINGS_PER_MEMBER);
    expect(await ratings.counts(ada)).toEqual({ up: MAX_RATINGS_PER_MEMBER, down: 0 });
    const refused = ratings.rate(ada, 'arxiv:new', 1, at(0));
    await expect(refused).rejects.toBeInstanceOf(SignalLimitError);
    await expect(refused).rejects.toMatchObject({ kind: 'ratings', limit: MAX_RATINGS_PER_MEMBER });
    await expect(refused).rejects.toThrow(`You have rated ${MAX_RATINGS_PER_MEMBER.toLocaleString('en')} papers`);
    expect(await ratings.ratingsOf(ada, ['arxiv:new'])).toEqual(new Map());
    expect(await ratings.rate(ada, 'arxiv:bulk.7', -1, at(1))).toEqual({ previous: 1, counts: { up: MAX_RATINGS_PER_MEMBER - 1, down: 1 } });
    expect((await ratings.rate(ada, 'arxiv:bulk.8', null, at(2))).previous).toBe(1);
    expect(await ratings.rate(ada, 'arxiv:new', 1, at(3))).toEqual({ previous: null, counts: { up: MAX_RATINGS_PER_MEMBER - 1, down: 1 } });
    // Another member is not held back by this one.
    expect((await ratings.rate(member('U2'), 'arxiv:new', 1, at(4))).counts).toEqual({ up: 1, down: 0 });
  });

  it(`refuses author number ${MAX_FOLLOWS_PER_MEMBER + 1}, not one followed already`, async () => {
    for (let n = 0; n < MAX_FOLLOWS_PER_MEMBER; n++) await ratings.follow(ada, `Author ${n}`, at(0));
    const refused = ratings.follow(ada, 'One More', at(1));
    await expect(refused).rejects.toMatchObject({ kind: 'follows', limit: MAX_FOLLOWS_PER_MEMBER });
    await expect(refused).rejects.toThrow(`You follow ${MAX_FOLLOWS_PER_MEMBER} authors`);
    expect(await ratings.follow(ada, 'author 7', at(2))).toEqual({ added: false, author: 'author 7', count: MAX_FOLLOWS_PER_MEMBER });
    expect(await ratings.unfollow(ada, 'Author 3')).toBe(true);
    expect((await ratings.follow(ada, 'One More', at(3))).count).toBe(MAX_FOLLOWS_PER_MEMBER);
  });

  it('forgets a member: their ratings and follows gone, nothing of them left, others untouched', async () => {
    await ratings.rate(ada, 'arxiv:1', 1, at(0));
    await ratings.rate(ada, 'arxiv:2', -1, at(1));
    await ratings.follow(ada, 'Ada Lovelace', at(2));
    await ratings.rate(member('U2'), 'arxiv:1', 1, at(3));
    await ratings.rate(member('U1', 'T2'), 'arxiv:1', -1, at(4));
    await ratings.follow(member('U1', 'T1', 'discord'), 'Ada Lovelace', at(5));
    expect(await ratings.forgetMember(ada)).toEqual({ ratings: 2, follows: 1 });
    expect(await ratings.ratings(ada)).toEqual([]);
    expect(await ratings.follows(ada)).toEqual([]);
    expect(await ratings.counts(ada)).toEqual({ up: 0, down: 0 });
    const rows = (await a.ratingRows()) as Record<string, Array<{ platform: string; team: string; member: string }>>;
    expect(Object.values(rows).flat().filter((r) => r.platform === 'slack' && r.team === 'T1' && r.member === 'U1')).toEqual([]);
    expect(Object.values(rows).flat()).toHaveLength(3);
    expect(await ratings.forgetMember(ada)).toEqual({ ratings: 0, follows: 0 });
  });

  it('forgets a whole workspace, and only it', async () => {
    await ratings.rate(ada, 'arxiv:1', 1, at(0));
    await ratings.rate(member('U2'), 'arxiv:1', -1, at(1));
    await ratings.follow(member('U2'), 'Someone', at(2));
    await ratings.rate(member('U1', 'T2'), 'arxiv:1', 1, at(3));
    await ratings.rate(member('U1', 'T1', 'discord'), 'arxiv:1', 1, at(4));
    expect(await ratings.forgetTeam('slack', 'T1')).toBe(3);
    expect(Object.values(await a.ratingRows()).flat()).toHaveLength(2);
    expect(await ratings.ratingsOf(member('U1', 'T2'), ['arxiv:1'])).toEqual(new Map([['arxiv:1', 1]]));
    expect(await ratings.ratingsOf(member('U1', 'T1', 'discord'), ['arxiv:1'])).toEqual(new Map([['arxiv:1', 1]]));
    expect(await ratings.forgetTeam('slack', 'T1')).toBe(0);
  });

  it('moves a paper when two merge: a member who rated both keeps the later rating', async () => {
    const [doi, arxiv] = ['doi:10.1/x', 'arxiv:2401.00001'];
    const [bob, cal, dee] = [member('U2'), member('U3'), member('U4')];
    await ratings.rate(ada, doi, 1, at(1)); // the old id alone
    await ratings.rate(bob, doi, -1, at(5)); // both: the old id's later
    await ratings.rate(bob, arxiv, 1, at(2));
    await ratings.rate(cal, doi, 1, at(1)); // both: the new id's later
    await ratings.rate(cal, arxiv, -1, at(6));
    await ratings.rate(dee, arxiv, 1, at(3)); // the new id alone
    await ratings.rate(dee, 'arxiv:other', -1, at(4));
    await ratings.movePaper(doi, arxiv);
    expect(await ratings.ratings(ada)).toEqual([{ paperId: arxiv, value: 1, at: iso(1) }]);
    expect(await ratings.ratings(bob)).toEqual([{ paperId: arxiv, value: -1, at: iso(5) }]);
    expect(await ratings.ratings(cal)).toEqual([{ paperId: arxiv, value: -1, at: iso(6) }]);
    expect(await ratings.ratings(dee)).toEqual([
      { paperId: 'arxiv:other', value: -1, at: iso(4) },
      { paperId: arxiv, value: 1, at: iso(3) },
    ]);
    expect(JSON.stringify(await a.ratingRows())).not.toContain(doi);
    await ratings.movePaper(arxiv, arxiv);
    await ratings.movePaper('doi:10.1/none', arxiv);
    expect(await ratings.counts(bob)).toEqual({ up: 0, down: 1 });
  });

  it('keeps hostile ids and names as they were given (NUL and lone surrogates aside)', async () => {
    const texts = ["'); DROP TABLE paper_ratings; --", '<@U999> @everyone <!channel>', '%_\\ $1 ? :name', '["json", {"x": 1}]', '\u202Eevil\u202C 👩‍👩‍👧 e\u0301 中文'];
    const who = member(`"quoted" ${texts[0]}`, '["team"]', texts[2]);
    for (const [n, text] of texts.entries()) {
      await ratings.rate(who, `arxiv:${n} ${text}`, 1, at(n));
      await ratings.follow(who, `${text} Name${n}`, at(n));
    }
    expect(await ratings.ratingsOf(who, texts.map((t, n) => `arxiv:${n} ${t}`))).toHaveProperty('size', texts.length);
    expect((await ratings.follows(who)).map((f) => f.name)).toEqual(texts.map((t, n) => `${t} Name${n}`.replace(/\s+/g, ' ')).reverse());
    await ratings.follow(ada, 'A\u0000da L\uD800', at(0));
    expect(await ratings.follows(ada)).toEqual([{ author: 'ada l', name: 'Ada L\uFFFD', at: iso(0) }]);
    expect(await ratings.forgetMember(who)).toEqual({ ratings: texts.length, follows: texts.length });
  });

  it.skipIf(skipping(`On ${backend.name}, ratings written at once on two instances in one process`, backend.noConcurrentInstances))(
    'holds the limits when instances write at once, each answer counting what came before it',
    async () => {
      const b = await store.instance();
      await manyRatings(ada, MAX_RATINGS_PER_MEMBER - 1);
      const presses = await Promise.allSettled(Array.from({ length: 6 }, (_, n) => (n % 2 ? a : b).ratings.rate(ada, `arxiv:p${n}`, 1, at(n))));
      expect(presses.filter((p) => p.status === 'fulfilled')).toHaveLength(1);
      expect(presses.filter((p) => p.status === 'rejected' && p.reason instanceof SignalLimitError)).toHaveLength(5);
      expect((await ratings.counts(ada)).up).toBe(MAX_RATINGS_PER_MEMBER);
      const bob = member('U2');
      const rated = await Promise.all(Array.from({ length: 10 }, (_, n) => (n % 2 ? a : b).ratings.rate(bob, `arxiv:q${n}`, n % 3 ? 1 : -1, at(n))));
      expect(rated.map((r) => r.counts.up + r.counts.down).sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, n) => n + 1));
      const follows = await Promise.all([a, b, a, b].map((i, n) => i.ratings.follow(bob, n % 2 ? 'Ada Lovelace' : 'ADA LOVELACE', at(n))));
      expect(follows.filter((f) => f.added)).toHaveLength(1);
    },
  );

  it('rejects, rather than answering, when the store is closed', async () => {
    await a.close();
    await expect(ratings.rate(ada, 'arxiv:1', 1, at(0))).rejects.toThrow();
    await expect(ratings.ratings(ada)).rejects.toThrow();
  });
});
