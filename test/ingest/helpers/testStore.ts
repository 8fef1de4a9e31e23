/** A fresh store in a temp dir of its own, for one test. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Db } from '../../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../../src/store/sqlite/papers.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/ingest');

export interface TestStore {
  dir: string;
  db: Db;
  store: SqlitePaperStore;
  /** Writes `text` to `name` under the test's dir and returns its path. */
  file(name: string, text: string): string;
  cleanup(): void;
}

export function openTestStore(): TestStore {
  const dir = mkdtempSync(join(tmpdir(), 'paperscout-ingest-'));
  const db = openDatabase(join(dir, 'db.sqlite'));
  return {
    dir,
    db,
    store: new SqlitePaperStore(db),
    file(name, text) {
      const path = join(dir, 'in', name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
    cleanup() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fixed clock for the store's first-seen and updated-at times. */
export const NOW = () => new Date('2025-01-15T12:00:00Z');
