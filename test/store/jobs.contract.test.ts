/**
 * The JobLeases contract on SQLite and PostgreSQL: a job's slot is run by one claimer, done once,
 * and taken over when its holder stops renewing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobLease } from '../../src/store/jobs.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const T = new Date('2026-03-02T02:30:00.000Z');
const lease = (owner: string, afterMs = 0, ttlMs = 60_000): JobLease => ({ owner, now: new Date(T.getTime() + afterMs), ttlMs });

describe.each(BACKENDS)('JobLeases on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let a: Instance;
  let b: Instance;
  beforeEach(async () => {
    store = await backend.create();
    a = await store.instance();
    b = await store.instance();
  });
  afterEach(() => store.dispose());

  it('one claimer per slot; a slot done is never claimed again, the next one is', async () => {
    expect(await a.jobs.claim('arxiv-sync', '2026-03-02', lease('A'))).toBe(true);
    expect(await b.jobs.claim('arxiv-sync', '2026-03-02', lease('B', 1000))).toBe(false);
    expect(await a.jobs.renew('arxiv-sync', lease('A', 30_000))).toBe(true);
    expect(await b.jobs.renew('arxiv-sync', lease('B', 30_000))).toBe(false);
    expect(await b.jobs.claim('arxiv-sync', '2026-03-02', lease('B', 61_000))).toBe(false);
    await b.jobs.release('arxiv-sync', 'B', true); // not B's: nothing happens
    expect(await a.jobs.lastDone('arxiv-sync')).toBeUndefined();
    await a.jobs.release('arxiv-sync', 'A', true);
    expect(await b.jobs.lastDone('arxiv-sync')).toBe('2026-03-02');
    expect(await b.jobs.claim('arxiv-sync', '2026-03-02', lease('B', 100_000))).toBe(false);
    expect(await b.jobs.claim('arxiv-sync', '2026-03-01', lease('B', 100_000))).toBe(false);
    expect(await b.jobs.claim('arxiv-sync', '2026-03-03', lease('B', 100_000))).toBe(true);
    // Jobs are independent.
    expect(await a.jobs.claim('openreview-sync', '2026-03-03', lease('A', 100_000))).toBe(true);
  });

  it('a holder that stopped renewing loses the slot at expiry; given up undone, it is free at once', async () => {
    expect(await a.jobs.claim('arxiv-sync', '2026-03-02', lease('A'))).toBe(true);
    expect(await b.jobs.claim('arxiv-sync', '2026-03-02', lease('B', 59_999))).toBe(false);
    expect(await b.jobs.claim('arxiv-sync', '2026-03-02', lease('B', 60_000))).toBe(true);
    expect(await a.jobs.renew('arxiv-sync', lease('A', 60_001))).toBe(false);
    await b.jobs.release('arxiv-sync', 'B', false);
    expect(await b.jobs.lastDone('arxiv-sync')).toBeUndefined();
    expect(await a.jobs.claim('arxiv-sync', '2026-03-02', lease('A', 60_002))).toBe(true);
  });

  it('says who holds a live lease; a claim replacing a holder known dead takes it at once', async () => {
    expect(await b.jobs.holder('arxiv-sync', T)).toBeUndefined();
    expect(await a.jobs.claim('arxiv-sync', '2026-03-02', lease('A'))).toBe(true);
    expect(await b.jobs.holder('arxiv-sync', new Date(T.getTime() + 1000))).toEqual({ owner: 'A', until: '2026-03-02T02:31:00.000Z' });
    expect(await b.jobs.holder('arxiv-sync', new Date(T.getTime() + 60_000))).toBeUndefined(); // expired
    expect(await b.jobs.claim('arxiv-sync', '2026-03-02', lease('B', 1000), 'C')).toBe(false); // not the holder
    expect(await b.jobs.claim('arxiv-sync', '2026-03-02', lease('B', 1000), 'A')).toBe(true);
    expect(await a.jobs.renew('arxiv-sync', lease('A', 2000))).toBe(false);
    expect((await a.jobs.holder('arxiv-sync', new Date(T.getTime() + 2000)))?.owner).toBe('B');
  });

  it('of three instances claiming at once, one runs the slot', async () => {
    const c = await store.instance();
    for (let day = 10; day < 15; day++) {
      const claims = await Promise.all([a, b, c].map((i, n) => i.jobs.claim('arxiv-sync', `2026-03-${day}`, lease(`${day}-${n}`))));
      expect(claims.filter(Boolean)).toHaveLength(1);
      const winner = claims.indexOf(true);
      await [a, b, c][winner]!.jobs.release('arxiv-sync', `${day}-${winner}`, true);
    }
  });
});
