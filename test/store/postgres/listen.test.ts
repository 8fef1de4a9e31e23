/**
 * LISTEN on a connection of its own: a NOTIFY from another connection arrives; when the server
 * ends the listening connection it is opened again, the listener is told to look for itself,
 * and notifications arrive again.
 */
import pg from 'pg';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectPostgres, type Postgres } from '../../../src/store/postgres/connection.js';
import { listen } from '../../../src/store/postgres/listen.js';
import { createTestDatabase, dropTestDatabase, postgresMissing } from '../../helpers/postgres.js';

describe.skipIf(postgresMissing)('listen', () => {
  let url: string;
  let db: Postgres;
  beforeEach(async () => {
    url = await createTestDatabase();
    db = await connectPostgres(url, { log: pino({ level: 'silent' }), patience: 5000 });
  });
  afterEach(async () => {
    await db.end();
    await dropTestDatabase(url);
  });

  it('hears NOTIFY from another connection, and again after its connection was ended', async () => {
    const heard: Array<string | undefined> = [];
    const lines: string[] = [];
    const listener = listen(db, 'paperscout_papers', pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l).msg) }), (p) => heard.push(p));
    try {
      await vi.waitFor(() => expect(listener.listening).toBe(true));
      expect(heard).toEqual([undefined]); // told to look for itself once listening
      await db.query("SELECT pg_notify('paperscout_papers', '7')");
      await vi.waitFor(() => expect(heard).toEqual([undefined, '7']));
      await db.query("SELECT pg_notify('other_channel', '8')");

      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'");
      await admin.end();
      await vi.waitFor(() => expect(lines).toContain('listening for changes in PostgreSQL again'), { timeout: 5000 });
      await db.query("SELECT pg_notify('paperscout_papers', '9')");
      await vi.waitFor(() => expect(heard).toEqual([undefined, '7', undefined, '9']));
      expect(lines).toContain('the PostgreSQL connection listening for changes was lost; opening it again');
    } finally {
      await listener.close();
    }
    expect(listener.listening).toBe(false);
  });
});
