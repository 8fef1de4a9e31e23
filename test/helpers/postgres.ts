/**
 * The test run's PostgreSQL server (started by test/setup/postgres.ts), for test files: whether
 * there is one, and databases of their own on it.
 */
import { inject } from 'vitest';
import pg from 'pg';

const provided = inject('postgres');

/** Why the PostgreSQL tests are skipped, or undefined when they run. */
export const postgresMissing: string | undefined = 'missing' in provided ? provided.missing : undefined;

/** A new, empty database on the test server; resolves its URL. */
export async function createTestDatabase(): Promise<string> {
  if (!('url' in provided)) throw new Error(provided.missing);
  const name = `t_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: provided.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return provided.url.replace(/\/postgres$/, `/${name}`);
}

/** Drops a database made by {@link createTestDatabase}, closing what is still connected to it. */
export async function dropTestDatabase(url: string): Promise<void> {
  if (!('url' in provided)) return;
  const admin = new pg.Client({ connectionString: provided.url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
