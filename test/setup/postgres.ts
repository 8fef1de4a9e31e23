/**
 * vitest globalSetup: one private PostgreSQL server for the whole run (see
 * test/helpers/postgresCluster.ts), stopped at the end. Test files get its URL with
 * `inject('postgres')` and make databases of their own on it. Without the binaries the
 * PostgreSQL tests are skipped, and this says why once (or, under REQUIRE_TEST_TOOLS=1, fails).
 */
import type { TestProject } from 'vitest/node';
import { postgresBinaries, startPostgresCluster } from '../helpers/postgresCluster.js';
import { skipping } from '../helpers/skip.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server's `postgres` database URL, or why there is none. */
    postgres: { url: string } | { missing: string };
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const found = postgresBinaries();
  if ('missing' in found) {
    skipping('PostgreSQL tests', found.missing, { required: true });
    project.provide('postgres', { missing: found.missing });
    return async () => undefined;
  }
  const cluster = await startPostgresCluster();
  project.provide('postgres', { url: cluster.url });
  return () => cluster.stop();
}
