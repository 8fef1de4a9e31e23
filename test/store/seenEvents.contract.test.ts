/**
 * The SeenEvents contract on SQLite and PostgreSQL: the first sighting of an event id wins,
 * within a day, across instances, and of deliveries racing exactly one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEEN_EVENT_TTL_HOURS } from '../../src/store/seenEvents.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const at = (iso: string) => new Date(iso);

describe.each(BACKENDS)('SeenEvents on $name', (backend) => {
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

  it('says yes to the first sighting of an id and no to the next ones', async () => {
    expect(await a.seenEvents.firstSighting('slack:Ev1', at('2026-04-01T10:00:00Z'))).toBe(true);
    expect(await a.seenEvents.firstSighting('slack:Ev1', at('2026-04-01T10:00:01Z'))).toBe(false);
    expect(await a.seenEvents.firstSighting('slack:Ev1', at('2026-04-01T10:05:00Z'))).toBe(false);
    expect(await a.seenEvents.firstSighting('slack:Ev2', at('2026-04-01T10:05:00Z'))).toBe(true);
  });

  it(`forgets an id after ${SEEN_EVENT_TTL_HOURS} hours`, async () => {
    await a.seenEvents.firstSighting('slack:Ev1', at('2026-04-01T10:00:00Z'));
    expect(await a.seenEvents.firstSighting('slack:Ev1', at('2026-04-02T09:59:59Z'))).toBe(false);
    expect(await a.seenEvents.firstSighting('slack:Ev2', at('2026-04-02T10:00:01Z'))).toBe(true);
    expect(await a.seenEvents.firstSighting('slack:Ev1', at('2026-04-02T10:00:02Z'))).toBe(true);
    expect(await a.seenEvents.firstSighting('slack:Ev1', at('2026-04-02T10:00:03Z'))).toBe(false);
  });

  it('remembers across instances; of deliveries racing on two instances, one wins', async () => {
    const b = await store.instance();
    expect(await a.seenEvents.firstSighting('slack:Ev1', at('2026-04-01T10:00:00Z'))).toBe(true);
    expect(await b.seenEvents.firstSighting('slack:Ev1', at('2026-04-01T10:01:00Z'))).toBe(false);
    for (let n = 2; n < 8; n++) {
      const sightings = await Promise.all([a, b, a, b].map((i) => i.seenEvents.firstSighting(`slack:Ev${n}`, at('2026-04-01T10:02:00Z'))));
      expect(sightings.filter(Boolean)).toHaveLength(1);
    }
  });

  it('rejects, rather than answering, when the store is closed', async () => {
    await a.close();
    await expect(a.seenEvents.firstSighting('slack:Ev1', at('2026-04-01T10:00:00Z'))).rejects.toThrow();
  });
});
