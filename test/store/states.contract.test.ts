/**
 * The StateStore contract on SQLite and PostgreSQL: saved state comes back (on another instance
 * too, as a button pressed on a message another instance sent), expires after the TTL, and
 * named state is replaced.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STATE_TTL_DAYS } from '../../src/store/states.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const T = new Date('2026-03-02T09:00:00.000Z');
const days = (n: number) => new Date(T.getTime() + n * 86_400_000);

describe.each(BACKENDS)('StateStore on $name', (backend) => {
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

  it('saves state under a short id that another instance reads back', async () => {
    const b = await store.instance();
    const id = (await a.states.put({ query: 'diffusion', locale: 'zh-CN', heading: { en: 'Diffusion' } }, T))!;
    expect(id).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(await b.states.get(id, T)).toEqual({ query: 'diffusion', locale: 'zh-CN', heading: { en: 'Diffusion' } });
    expect(await b.states.get('nosuchid00', T)).toBeUndefined();
    expect(a.states.pendingCount).toBe(0);
  });

  it(`expires after ${STATE_TTL_DAYS} days, and purges what expired`, async () => {
    const old = (await a.states.put({ n: 1 }, T))!;
    const fresh = (await a.states.put({ n: 2 }, days(10)))!;
    expect(await a.states.get(old, days(STATE_TTL_DAYS))).toEqual({ n: 1 });
    expect(await a.states.get(old, days(STATE_TTL_DAYS + 0.001))).toBeUndefined();
    expect(await a.states.purge(days(STATE_TTL_DAYS + 1))).toBe(1);
    expect(await a.states.get(fresh, days(STATE_TTL_DAYS + 1))).toEqual({ n: 2 });
    expect(await a.states.purge(days(STATE_TTL_DAYS + 1))).toBe(0);
  });

  it('replaces named state, and refuses a name a button cannot carry', async () => {
    const b = await store.instance();
    expect(await a.states.putAt('dg-1-abc', { v: 1 }, T)).toBe('dg-1-abc');
    expect(await b.states.putAt('dg-1-abc', { v: 2 }, days(1))).toBe('dg-1-abc');
    expect(await a.states.get('dg-1-abc', days(1))).toEqual({ v: 2 });
    await expect(a.states.putAt('has space', {}, T)).rejects.toThrow(/not a valid state id/);
    await expect(a.states.putAt('x'.repeat(41), {}, T)).rejects.toThrow(/not a valid state id/);
  });

  it('stop writes nothing twice and reports nothing unsaved', async () => {
    const id = (await a.states.put({ n: 1 }, T))!;
    expect(await a.states.flush()).toBe(0);
    expect(await a.states.stop()).toBe(0);
    const b = await store.instance();
    expect(await b.states.get(id, T)).toEqual({ n: 1 });
  });
});
