/**
 * DigestStore.forgetWorkspace on SQLite and PostgreSQL: a workspace that removed the app loses
 * its subscriptions, their runs and its channels' ledger; other workspaces keep theirs, a
 * channel shared with another workspace keeps its ledger.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewSubscription, RunPlan } from '../../src/store/digests.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const T = new Date('2026-03-02T09:00:00.000Z');
const sub = (workspace: string, channel: string, query = 'diffusion'): NewSubscription => ({
  platform: 'slack',
  workspace,
  channel,
  query,
  label: query,
  time: '09:00',
  timezone: 'UTC',
  days: 'daily',
  count: 5,
  fill: false,
  createdBy: 'U1',
  createdAt: '2026-03-01T08:00:00.000Z',
});
const plan = (id: string): RunPlan => ({ papers: [{ id, keys: [id] }], fill: false, since: '2026-03-01T08:00:00.000Z', until: '2026-03-02T08:30:00.000Z' });

describe.each(BACKENDS)('DigestStore.forgetWorkspace on $name', (backend) => {
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

  it("deletes one workspace's subscriptions, runs and ledger, and nobody else's", async () => {
    const t1 = await a.digests.subscribe(sub('T1', 'C1'));
    const t1b = await a.digests.subscribe(sub('T1', 'C1', 'llm'));
    const t1shared = await a.digests.subscribe(sub('T1', 'CSHARED'));
    const t2 = await a.digests.subscribe(sub('T2', 'C2'));
    const t2shared = await a.digests.subscribe(sub('T2', 'CSHARED', 'llm'));
    const discord = await a.digests.subscribe({ ...sub('T1', 'C1'), platform: 'discord' });
    for (const [s, paper] of [[t1, 'p1'], [t1shared, 'p2'], [t2, 'p3'], [t2shared, 'p4'], [discord, 'p5']] as const) {
      expect(await a.digests.planRun(s, T.toISOString(), plan(paper), 1, { owner: 'A', now: T, ttlMs: 90_000 })).toBeDefined();
    }
    expect(await a.digests.forgetWorkspace('slack', 'T1')).toBe(3);
    for (const s of [t1, t1b, t1shared]) {
      expect(await a.digests.get(s.id)).toBeUndefined();
      expect(await a.digests.openRuns(s.id)).toEqual([]);
    }
    expect(await a.digests.sentAmong('slack', 'C1', ['p1'])).toEqual(new Set());
    expect(await a.digests.sentAmong('slack', 'CSHARED', ['p2', 'p4'])).toEqual(new Set(['p2', 'p4']));
    expect(await a.digests.sentAmong('slack', 'C2', ['p3'])).toEqual(new Set(['p3']));
    expect(await a.digests.sentAmong('discord', 'C1', ['p5'])).toEqual(new Set(['p5']));
    expect((await a.digests.all()).map((s) => s.id).sort()).toEqual([t2.id, t2shared.id, discord.id].sort());
    expect(await a.digests.openRuns(t2.id)).toHaveLength(1);
    expect(await a.digests.forgetWorkspace('slack', 'T1')).toBe(0);
  });
});
