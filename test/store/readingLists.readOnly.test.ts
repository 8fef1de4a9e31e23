/**
 * Reading lists in a library opened read-only (a user who cannot write DATA_DIR runs a command
 * that only reads): the lists saved in it are read, and a save is refused as SQLite refuses any
 * write to a read-only database, rather than kept in memory and lost.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStores } from '../../src/store/open.js';
import type { ListOwner, ReadingListStore } from '../../src/store/readingLists.js';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { SqliteReadingListStore } from '../../src/store/sqlite/readingLists.js';
import { silentLog } from '../helpers/corpus.js';

const mine: ListOwner = { platform: 'slack', team: 'T1', kind: 'member', id: 'U1' };
const ada = { id: 'U1', name: 'Ada' };
const at = new Date('2026-04-01T10:00:00Z');
const share = { paperId: 'arxiv:2', by: ada, at, message: 'C1:1' };

/** Every write of the interface, each expected to be refused as a write to a read-only database. */
async function expectWritesRefused(lists: ReadingListStore): Promise<void> {
  const writes = [
    () => lists.toggle(mine, 'arxiv:9', ada, at),
    () => lists.add(mine, 'arxiv:9', ada, at, 'note'),
    () => lists.remove(mine, 'arxiv:1'),
    () => lists.recordShare('slack', 'T1', 'C1', { ...share, message: 'C1:2' }),
    () => lists.setArchiving('slack', 'T1', 'C1', false, ada, at),
    () => lists.forgetMember('slack', 'T1', 'U1'),
    () => lists.forgetTeam('slack', 'T1'),
    () => lists.movePaper('arxiv:1', 'arxiv:3'),
  ];
  for (const write of writes) await expect(write()).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_READONLY/) });
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paperscout-lists-ro-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('reading lists in a library opened read-only', () => {
  it('reads what was saved; every write is refused and changes nothing', async () => {
    const path = join(dir, 'paperscout.db');
    const writer = openDatabase(path);
    const saved = new SqliteReadingListStore(writer);
    await saved.add(mine, 'arxiv:1', ada, at, 'kept');
    await saved.recordShare('slack', 'T1', 'C1', share);
    writer.close();

    // What openStores does for a library this user cannot write.
    const db = openDatabase(path, { readOnly: true });
    try {
      const lists = new SqliteReadingListStore(db);
      await expectWritesRefused(lists);
      expect(await lists.list(mine, { offset: 0, limit: 10 })).toEqual({ total: 1, entries: [{ paperId: 'arxiv:1', addedBy: ada, addedAt: at.toISOString(), note: 'kept', noteBy: ada }] });
      expect((await lists.archive('slack', 'T1', 'C1', { offset: 0, limit: 10 })).total).toBe(1);
      expect((await lists.archiveSetting('slack', 'T1', 'C1')).on).toBe(true);
    } finally {
      db.close();
    }
  });

  it('where there is no library to read, lists are empty and a save is refused, not kept in memory', async () => {
    // A DATA_DIR that cannot be created: a file is in its way.
    writeFileSync(join(dir, 'blocked'), '');
    const config = loadConfig({ DATA_DIR: join(dir, 'blocked', 'data') });
    const stores = await openStores(config, { log: silentLog, readOnlyIfUnwritable: true });
    try {
      expect(stores.readOnly).toBe(true);
      expect(await stores.readingLists.list(mine, { offset: 0, limit: 10 })).toEqual({ entries: [], total: 0 });
      await expectWritesRefused(stores.readingLists);
      expect(await stores.readingLists.paperIds(mine)).toEqual([]);
    } finally {
      await stores.close();
    }
  });
});
