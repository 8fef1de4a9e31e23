/**
 * Seen event ids in SQLite: the first sighting wins, within a day; across a reopened database
 * and across two connections to one file (two instances on one DATA_DIR).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { SEEN_EVENT_TTL_HOURS } from '../../src/store/seenEvents.js';
import { SqliteSeenEvents } from '../../src/store/sqlite/seenEvents.js';

const dir = mkdtempSync(join(tmpdir(), 'paperscout-seen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (iso: string) => new Date(iso);

describe('SqliteSeenEvents', () => {
  it('says yes to the first sighting of an id and no to the next ones', async () => {
    const seen = new SqliteSeenEvents(openDatabase(':memory:'));
    expect(await seen.firstSighting('slack:Ev1', at('2026-04-01T10:00:00Z'))).toBe(true);
    expect(await seen.firstSighting('slack:Ev1', at('2026-04-01T10:00:01Z'))).toBe(false);
    expect(await seen.firstSighting('slack:Ev1', at('2026-04-01T10:05:00Z'))).toBe(false);
    expect(await seen.firstSighting('slack:Ev2', at('2026-04-01T10:05:00Z'))).toBe(true);
  });

  it(`forgets an id after ${SEEN_EVENT_TTL_HOURS} hours, and deletes what it forgot`, async () => {
    const db = openDatabase(':memory:');
    const seen = new SqliteSeenEvents(db);
    await seen.firstSighting('slack:Ev1', at('2026-04-01T10:00:00Z'));
    expect(await seen.firstSighting('slack:Ev1', at('2026-04-02T09:59:59Z'))).toBe(false);
    expect(await seen.firstSighting('slack:Ev2', at('2026-04-02T10:00:01Z'))).toBe(true);
    expect(db.prepare('SELECT key FROM seen_events ORDER BY key').pluck().all()).toEqual(['slack:Ev2']);
    expect(await seen.firstSighting('slack:Ev1', at('2026-04-02T10:00:02Z'))).toBe(true);
  });

  it('remembers across a reopened database and between two connections to one file', async () => {
    const path = join(dir, 'paperscout.db');
    const first = openDatabase(path);
    expect(await new SqliteSeenEvents(first).firstSighting('slack:Ev1', at('2026-04-01T10:00:00Z'))).toBe(true);
    first.close();
    const [a, b] = [openDatabase(path), openDatabase(path)];
    try {
      const [seenA, seenB] = [new SqliteSeenEvents(a), new SqliteSeenEvents(b)];
      expect(await seenB.firstSighting('slack:Ev1', at('2026-04-01T10:01:00Z'))).toBe(false);
      const sightings = await Promise.all(['A', 'B', 'A', 'B'].map((who) => (who === 'A' ? seenA : seenB).firstSighting('slack:Ev2', at('2026-04-01T10:02:00Z'))));
      expect(sightings.filter(Boolean)).toHaveLength(1);
    } finally {
      a.close();
      b.close();
    }
  });

  it('rejects, rather than answering, when the database fails', async () => {
    const db = openDatabase(':memory:');
    const seen = new SqliteSeenEvents(db);
    db.close();
    await expect(seen.firstSighting('slack:Ev1', at('2026-04-01T10:00:00Z'))).rejects.toThrow(/database connection is not open/);
  });
});
