/**
 * A whole core (database, library, commands) over a temporary DATA_DIR holding the test corpus,
 * as `npm start` would open it after `paperscout ingest`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, type App, type OpenAppOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { ingestPaths } from '../../src/ingest/ingest.js';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../src/store/sqlite/papers.js';
import { createClassifier } from '../../src/topics/classify.js';
import { loadTaxonomy } from '../../src/topics/taxonomy.js';
import { FIXTURE_PAPERS, silentLog } from './corpus.js';

export interface TestApp extends App {
  dataDir: string;
  /** Closes the app and deletes its DATA_DIR. */
  dispose(): Promise<void>;
}

/** Ingests `paths` into a fresh DATA_DIR (unless `empty`) and opens the app on it, with `env` over the defaults. */
export async function createTestApp(options: OpenAppOptions & { paths?: string[]; empty?: boolean; dataDir?: string; env?: Record<string, string> } = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'paperscout-test-'));
  // No test reaches the internet: lookups of missing papers are off unless a test points them at a loopback server.
  const config = loadConfig({ LOOKUP_UPSTREAM: 'off', ...options.env, DATA_DIR: dataDir });
  if (!options.empty) {
    const db = openDatabase(config.dbPath);
    const store = new SqlitePaperStore(db);
    await ingestPaths(options.paths ?? [FIXTURE_PAPERS], { store, classify: createClassifier(loadTaxonomy()), now: options.now ?? (() => new Date('2026-01-01T00:00:00Z')) });
    db.close();
  }
  const app = await openApp(config, silentLog, options);
  return {
    ...app,
    dataDir,
    async dispose() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
