/**
 * PostgreSQL at start and mid-run: instances starting together migrate once; a schema newer
 * than the code, a missing database, an unreachable server each said in one line naming what to
 * fix; a connection lost mid-run is opened again and the statement answered.
 */
import { createServer } from 'node:net';
import pg from 'pg';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SetupError } from '../../../src/errors.js';
import { StoreUnavailableError } from '../../../src/store/errors.js';
import { connectPostgres, describeTarget } from '../../../src/store/postgres/connection.js';
import { openPostgres } from '../../../src/store/postgres/index.js';
import { MIGRATIONS } from '../../../src/store/postgres/schema.js';
import { silentLog } from '../../helpers/corpus.js';
import { createTestDatabase, dropTestDatabase, postgresMissing } from '../../helpers/postgres.js';
import { FakeClock } from '../../sources/helpers/fakeClock.js';

function logLines(): { log: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  return { log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }), lines };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a PostgreSQL that cannot be reached', () => {
  it('is one line naming host and port per attempt, with backoff, then a clear error (no stack traces)', async () => {
    const port = await closedPort();
    const { log, lines } = logLines();
    const clock = new FakeClock('2026-03-02T09:00:00Z');
    const url = `postgres://paperscout:secret@127.0.0.1:${port}/paperscout`;
    const failure = await connectPostgres(url, { log, patience: 10_000, clock }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).toBe(`could not reach PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED). Check that the server is running and that DATABASE_URL names it.`);
    expect(clock.sleeps).toEqual([1000, 2000, 5000]);
    expect(lines.map((l) => l.msg)).toEqual([1, 2, 5].map((s) => `could not reach PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED); trying again in ${s} s`));
    expect(lines.every((l) => l.err === undefined && !JSON.stringify(l).includes('secret'))).toBe(true);
    expect(describeTarget(url)).toBe(`127.0.0.1:${port}/paperscout`);
  });
});

describe.skipIf(postgresMissing)('migrations and connections', () => {
  let url: string;
  beforeEach(async () => {
    url = await createTestDatabase();
  });
  afterEach(() => dropTestDatabase(url));

  it('three instances starting together migrate once', async () => {
    const opened = await Promise.all([1, 2, 3].map(() => openPostgres(url, { log: silentLog, patience: 5000, max: 2 })));
    try {
      const { rows } = await opened[0]!.db.query<{ version: number }>('SELECT version FROM schema_version ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    } finally {
      await Promise.all(opened.map((o) => o.close()));
    }
  });

  it('a schema newer than the code refuses to start, naming both versions', async () => {
    const first = await openPostgres(url, { log: silentLog, patience: 5000 });
    await first.db.query('INSERT INTO schema_version (version) VALUES ($1)', [MIGRATIONS.length + 5]);
    await first.close();
    const refused = await openPostgres(url, { log: silentLog, patience: 5000 }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SetupError);
    expect((refused as Error).message).toBe(
      `The PostgreSQL database at ${describeTarget(url)} has schema version ${MIGRATIONS.length + 5}, newer than this Paper Scout knows (${MIGRATIONS.length}): ` +
        'a newer version has upgraded it. Run that version here too (or point DATABASE_URL at another database).',
    );
  });

  it('a database that does not exist is said once, with the command that creates it', async () => {
    const missing = url.replace(/\/[^/]+$/, '/nosuchdb');
    const clock = new FakeClock();
    const refused = await connectPostgres(missing, { log: silentLog, patience: 'forever', clock }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SetupError);
    const { port } = new URL(url);
    expect((refused as Error).message).toBe(`PostgreSQL at 127.0.0.1:${port} has no database "nosuchdb": create it (createdb -h 127.0.0.1 -p ${port} -U postgres nosuchdb) or fix DATABASE_URL.`);
    expect(clock.sleeps).toEqual([]);
  });

  it('a connection lost mid-run (the server ended it) is opened again and the statement answered', async () => {
    const { log, lines } = logLines();
    const db = await connectPostgres(url, { log, patience: 5000, max: 2 });
    try {
      await db.query('CREATE TABLE t (n integer)');
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      // Every connection of the pool is ended by the server, as a restart or failover does.
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      await admin.end();
      await db.query('INSERT INTO t VALUES (1)');
      const inTransaction = await db.transaction(async (client) => (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]!.n);
      expect(inTransaction).toBe(1);
      // A statement whose connection is ended while it runs is run again on a new one.
      const running = db.query<{ n: number }>("SELECT count(*)::int AS n FROM t, pg_sleep(0.3) WHERE current_setting('application_name') = 'paperscout'");
      const killer = new pg.Client({ connectionString: url });
      await killer.connect();
      for (let i = 0; i < 50; i++) {
        const { rowCount } = await killer.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep(0.3)%' AND pid <> pg_backend_pid()");
        if (rowCount) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await killer.end();
      expect((await running).rows[0]!.n).toBe(1);
      expect(lines.map((l) => l.msg)).toContain('lost the connection to PostgreSQL; retrying on a new one');
      expect(lines.map((l) => l.msg)).toContain('PostgreSQL reached again');
    } finally {
      await db.end();
    }
  });
});
