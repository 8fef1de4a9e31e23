/**
 * An import's write-ahead log is copied into the database by a thread of its own (the
 * Checkpointer), so the writer's commits only append to the log and the log stays small. The
 * thread runs from the compiled build (a worker cannot load the TypeScript sources).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/sqlite/db.js';
import type * as CheckpointerModule from '../../src/store/sqlite/checkpointer.js';
import { silentLog } from '../helpers/corpus.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { BACKSTOP_CHECKPOINT_PAGES, Checkpointer } = (await import(join(ROOT, 'dist/src/store/sqlite/checkpointer.js'))) as typeof CheckpointerModule;

let dir: string | undefined;
let db: Db | undefined;
let checkpointer: InstanceType<typeof Checkpointer> | undefined;

afterEach(async () => {
  await checkpointer?.stop();
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  checkpointer = db = dir = undefined;
});

function open(): { db: Db; path: string } {
  dir = mkdtempSync(join(tmpdir(), 'paperscout-ckpt-'));
  const path = join(dir, 'paperscout.db');
  db = openDatabase(path, { migrations: ['CREATE TABLE blobs (x BLOB NOT NULL)'] });
  return { db, path };
}

/** Resolves once `done()` holds, polling; rejects after `ms`. */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('Checkpointer', () => {
  it("copies the writer's committed pages into the database, so the log starts over and stays small", async () => {
    const { db, path } = open();
    checkpointer = new Checkpointer(db, silentLog);
    checkpointer.start();
    const insert = db.prepare('INSERT INTO blobs (x) VALUES (?)');
    const writeBatch = db.transaction(() => {
      for (let i = 0; i < 50; i++) insert.run(randomBytes(4000));
    });
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const batches = 100;
    for (let b = 0; b < batches; b++) {
      writeBatch();
      // The writer's own checkpoint waits for 50,000 pages of log (~200 MB): only the thread
      // brings the database file up to the size the writer sees.
      const pages = db.pragma('page_count', { simple: true }) as number;
      await until(() => statSync(path).size >= pages * pageSize, 10_000, `the database file holds batch ${b}`);
    }
    const written = batches * 50 * 4000;
    // Without the thread the log would hold all ~20 MB; with it, about a batch or two.
    expect(statSync(`${path}-wal`).size).toBeLessThan(written / 5);
    expect(db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: batches * 50 });
  });

  it("moves the writer's automatic checkpoint to the backstop while it runs, and back after", async () => {
    const { db } = open();
    db.pragma('wal_autocheckpoint = 10000');
    checkpointer = new Checkpointer(db, silentLog);
    checkpointer.start();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_CHECKPOINT_PAGES);
    await checkpointer.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10000);
    // Stopping twice is harmless.
    await checkpointer.stop();
  });
});
