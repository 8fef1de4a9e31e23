/**
 * The DigestStore contract, run against SQLite and PostgreSQL alike: subscriptions, the ledger,
 * and the run protocol (plan once, one lease holder, every change by the owner only, takeover
 * after expiry), including races between two and three instances on one store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Lease, NewSubscription, RunPlan } from '../../src/store/digests.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const T = new Date('2026-03-02T09:00:00.000Z');
const SLOT = T.toISOString();
const later = (ms: number) => new Date(T.getTime() + ms);
const lease = (owner: string, now = T, ttlMs = 90_000): Lease => ({ owner, now, ttlMs });

const NEW: NewSubscription = {
  platform: 'slack',
  workspace: 'T1',
  channel: 'C1',
  query: 'topic:"deep-learning/large-language-models"',
  label: 'LLMs',
  time: '09:00',
  timezone: 'Europe/Berlin',
  days: 'weekdays',
  count: 5,
  fill: false,
  createdBy: 'U1',
  createdAt: '2026-03-01T08:00:00.000Z',
};

const PLAN: RunPlan = {
  papers: [
    { id: 'arxiv:2401.00001', keys: ['arxiv:2401.00001', 'title:a'] },
    { id: 'arxiv:2401.00002', keys: ['arxiv:2401.00002', 'doi:10.1/x'] },
  ],
  fill: false,
  since: '2026-03-01T08:00:00.000Z',
  until: '2026-03-02T08:30:00.000Z',
};

describe.each(BACKENDS)('DigestStore on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let a: Instance;
  beforeEach(async () => {
    store = await backend.create();
    a = await store.instance();
  });
  afterEach(() => store.dispose());

  it('subscribes, updates the same search in place, lists by channel and pauses', async () => {
    const sub = await a.digests.subscribe(NEW);
    expect(sub).toMatchObject({ ...NEW, status: 'active' });
    expect(sub.lastSlot).toBeUndefined();
    const again = await a.digests.subscribe({ ...NEW, time: '10:00', fill: true, locale: 'zh-CN' });
    expect(again).toMatchObject({ id: sub.id, time: '10:00', fill: true, locale: 'zh-CN' });
    // A later subscribe without a locale keeps the one stored.
    expect(await a.digests.subscribe({ ...NEW, time: '11:00' })).toMatchObject({ id: sub.id, locale: 'zh-CN' });
    const other = await a.digests.subscribe({ ...NEW, query: 'diffusion', label: '“diffusion”' });
    expect((await a.digests.forChannel('slack', 'C1')).map((s) => s.id)).toEqual([sub.id, other.id]);
    expect(await a.digests.forChannel('discord', 'C1')).toEqual([]);
    await a.digests.pause(other.id, { key: 'digest.pausedForbidden', values: { reason: 'not_in_channel' } });
    expect((await a.digests.active()).map((s) => s.id)).toEqual([sub.id]);
    // Paused ones too, by platform, workspace and channel.
    const elsewhere = await a.digests.subscribe({ ...NEW, platform: 'discord', workspace: 'G1', channel: 'C9' });
    expect((await a.digests.all()).map((s) => [s.id, s.status])).toEqual([[elsewhere.id, 'active'], [sub.id, 'active'], [other.id, 'paused']]);
    expect(JSON.parse((await a.digests.get(other.id))!.pausedReason!)).toEqual({ key: 'digest.pausedForbidden', values: { reason: 'not_in_channel' } });
    // Subscribing again resumes it.
    expect(await a.digests.subscribe({ ...NEW, query: 'diffusion', label: '“diffusion”' })).toMatchObject({ id: other.id, status: 'active' });
    expect((await a.digests.get(other.id))!.pausedReason).toBeUndefined();
  });

  it('plans a slot once, with its ledger, and removes runs with their subscription', async () => {
    const sub = await a.digests.subscribe(NEW);
    const run = await a.digests.planRun(sub, SLOT, PLAN, 1, lease('A'));
    expect(run).toMatchObject({ subscriptionId: sub.id, slot: SLOT, papers: ['arxiv:2401.00001', 'arxiv:2401.00002'], parts: 1, partsDone: 0, inFlight: false, state: 'sending', leaseOwner: 'A' });
    expect(run!.leaseUntil).toBe(later(90_000).toISOString());
    expect(await a.digests.planRun(sub, SLOT, { ...PLAN, papers: [{ id: 'x', keys: ['x'] }] }, 1, lease('B'))).toBeUndefined();
    expect(await a.digests.sentAmong('slack', 'C1', ['title:a', 'doi:10.1/x', 'x', 'arxiv:9'])).toEqual(new Set(['title:a', 'doi:10.1/x']));
    expect(await a.digests.sentAmong('slack', 'C2', ['title:a'])).toEqual(new Set());
    expect(await a.digests.sentAmong('slack', 'C1', [])).toEqual(new Set());
    expect((await a.digests.get(sub.id))!.lastDigestAt).toBe(PLAN.until);
    expect(await a.digests.openRuns(sub.id)).toHaveLength(1);
    await a.digests.unsubscribe(sub.id);
    expect(await a.digests.get(sub.id)).toBeUndefined();
    expect(await a.digests.run(sub.id, SLOT)).toBeUndefined();
  });

  it('two instances planning one slot at once: one run, planned once', async () => {
    const b = await store.instance();
    const sub = await a.digests.subscribe(NEW);
    const planned = await Promise.all([a.digests.planRun(sub, SLOT, PLAN, 1, lease('A')), b.digests.planRun(sub, SLOT, PLAN, 1, lease('B'))]);
    expect(planned.filter(Boolean)).toHaveLength(1);
  });

  it('leases: taken when free, expired or already ours and due; never from a live holder', async () => {
    const b = await store.instance();
    const sub = await a.digests.subscribe(NEW);
    const run = (await a.digests.planRun(sub, SLOT, PLAN, 1, lease('A')))!;
    expect(await b.digests.claimRun(run, lease('B', later(89_000)))).toBeUndefined();
    expect(await a.digests.claimRun(run, lease('A', later(1000)))).toMatchObject({ leaseOwner: 'A' });
    expect(await b.digests.renewLease(run, lease('B'))).toBeUndefined();
    expect(await a.digests.renewLease(run, lease('A', later(60_000)))).toMatchObject({ leaseUntil: later(150_000).toISOString() });
    expect(await b.digests.claimRun(run, lease('B', later(150_000)))).toMatchObject({ leaseOwner: 'B' });
    // The old holder changes nothing from now on.
    expect(await a.digests.startPart(run, 'A', later(151_000))).toBe(false);
    expect(await a.digests.finishPart(run, 'A', 1, later(151_000))).toBe(false);
    expect(await a.digests.finishRun(sub, run, 'A', later(151_000))).toBe(false);
    expect(await a.digests.releaseUndelivered(sub, (await a.digests.run(sub.id, SLOT))!, 'A', ['arxiv:2401.00001'])).toBe(false);
    expect(await a.digests.dropUndelivered(sub, (await a.digests.run(sub.id, SLOT))!, 'A')).toBe(false);
    await a.digests.releaseRun(run, 'A');
    expect(await a.digests.run(sub.id, SLOT)).toMatchObject({ leaseOwner: 'B', state: 'sending' });
    await b.digests.releaseRun(run, 'B');
    expect((await a.digests.run(sub.id, SLOT))!.leaseOwner).toBeUndefined();
    // A run not due yet is not taken.
    expect(await a.digests.claimRun(run, lease('A', later(160_000)))).toBeDefined();
    expect(await a.digests.failPart(run, 'A', { error: 'down', inFlight: false, attempts: 1, next: later(300_000), state: 'sending' }, later(160_000))).toBe(true);
    await a.digests.releaseRun(run, 'A');
    expect(await b.digests.claimRun(run, lease('B', later(299_000)))).toBeUndefined();
    expect(await b.digests.claimRun(run, lease('B', later(300_000)))).toMatchObject({ attempts: 1, lastError: 'down', nextAttemptAt: later(300_000).toISOString() });
  });

  it('three instances claiming one expired run at once: exactly one gets it', async () => {
    const [b, c] = [await store.instance(), await store.instance()];
    const sub = await a.digests.subscribe(NEW);
    const run = (await a.digests.planRun(sub, SLOT, PLAN, 1, lease('dead')))!;
    for (let round = 1; round <= 5; round++) {
      const now = later(round * 100_000);
      const claims = await Promise.all([a, b, c].map((i, n) => i.digests.claimRun(run, lease(`owner${round}-${n}`, now))));
      expect(claims.filter(Boolean)).toHaveLength(1);
    }
  });

  it('parts: in flight keeps its first attempt, confirmed, failed, then the run finished and its slot done', async () => {
    const sub = await a.digests.subscribe(NEW);
    const run = (await a.digests.planRun(sub, SLOT, PLAN, 2, lease('A')))!;
    expect(await a.digests.startPart(run, 'A', later(1000))).toBe(true);
    expect(await a.digests.startPart(run, 'A', later(5000))).toBe(true);
    expect(await a.digests.run(sub.id, SLOT)).toMatchObject({ inFlight: true, inFlightSince: later(1000).toISOString(), updatedAt: later(5000).toISOString() });
    expect(await a.digests.clearInFlight(run, 'A', later(6000))).toBe(true);
    expect((await a.digests.run(sub.id, SLOT))!.inFlightSince).toBeUndefined();
    expect(await a.digests.finishPart(run, 'A', 1, later(7000))).toBe(true);
    expect(await a.digests.startPart(run, 'A', later(8000))).toBe(true);
    expect(await a.digests.failPart(run, 'A', { error: 'timeout', inFlight: true, attempts: 1, next: later(60_000), state: 'sending' }, later(9000))).toBe(true);
    expect(await a.digests.run(sub.id, SLOT)).toMatchObject({ partsDone: 1, inFlight: true, inFlightSince: later(8000).toISOString(), attempts: 1, lastError: 'timeout' });
    expect(await a.digests.failPart(run, 'A', { error: 'refused', inFlight: false, attempts: 2, next: later(120_000), state: 'sending' }, later(10_000))).toBe(true);
    expect(await a.digests.run(sub.id, SLOT)).toMatchObject({ inFlight: false, attempts: 2 });
    expect((await a.digests.run(sub.id, SLOT))!.inFlightSince).toBeUndefined();
    expect(await a.digests.finishPart(run, 'A', 2, later(11_000))).toBe(true);
    expect(await a.digests.finishRun(sub, run, 'A', later(12_000))).toBe(true);
    expect(await a.digests.run(sub.id, SLOT)).toMatchObject({ state: 'done', partsDone: 2, inFlight: false });
    expect((await a.digests.run(sub.id, SLOT))!.leaseOwner).toBeUndefined();
    expect((await a.digests.get(sub.id))!.lastSlot).toBe(SLOT);
    expect(await a.digests.openRuns(sub.id)).toEqual([]);
    // An older slot never moves the last one back.
    await a.digests.completeSlot(sub, '2026-03-01T09:00:00.000Z');
    expect((await a.digests.get(sub.id))!.lastSlot).toBe(SLOT);
  });

  it('papers of a run that never arrived are released: out of the ledger, "new since" moved back', async () => {
    const sub = await a.digests.subscribe(NEW);
    const run = (await a.digests.planRun(sub, SLOT, PLAN, 1, lease('A')))!;
    expect(await a.digests.releaseUndelivered(sub, run, 'A', ['arxiv:2401.00002'])).toBe(true);
    expect(await a.digests.sentAmong('slack', 'C1', ['arxiv:2401.00001', 'arxiv:2401.00002', 'doi:10.1/x'])).toEqual(new Set(['arxiv:2401.00001']));
    expect((await a.digests.get(sub.id))!.lastDigestAt).toBe(PLAN.since);
    expect(await a.digests.dropUndelivered(sub, run, 'A')).toBe(true);
    expect(await a.digests.run(sub.id, SLOT)).toBeUndefined();
    expect(await a.digests.sentAmong('slack', 'C1', ['title:a'])).toEqual(new Set());
  });

  it('a run given up leaves its slot to the runner; failed runs are not open', async () => {
    const sub = await a.digests.subscribe(NEW);
    const run = (await a.digests.planRun(sub, SLOT, PLAN, 1, lease('A')))!;
    expect(await a.digests.failPart(run, 'A', { error: 'gone', inFlight: false, attempts: 8, state: 'failed' }, later(1000))).toBe(true);
    expect(await a.digests.openRuns(sub.id)).toEqual([]);
    expect(await a.digests.run(sub.id, SLOT)).toMatchObject({ state: 'failed', attempts: 8 });
    expect(await a.digests.claimRun(run, lease('A', later(2000)))).toBeUndefined();
  });
});
