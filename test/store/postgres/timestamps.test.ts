/**
 * Timestamps from PostgreSQL as ISO strings: the fast reading of UTC values gives exactly what
 * parsing through Date gives, for any instant and any number of fraction digits PostgreSQL
 * writes; other forms (an offset, BC) still go through Date. And what the server really sends
 * (this run's private server) reads back as it was written.
 */
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../../src/store/postgres/connection.js';
import { openPostgres, type PostgresStores } from '../../../src/store/postgres/index.js';
import { silentLog } from '../../helpers/corpus.js';
import { createTestDatabase, dropTestDatabase, postgresMissing } from '../../helpers/postgres.js';

const viaDate = (value: string) => (pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (v: string) => Date)(value).toISOString();

/** An instant as PostgreSQL writes a timestamptz in a UTC session: microseconds, trailing zeros dropped. */
function asPostgresWrites(ms: number, micros: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = `${iso.slice(20, 23)}${String(micros).padStart(3, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}+00`;
}

describe('isoTimestamp', () => {
  it('reads UTC values as Date would', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }), fc.integer({ min: 0, max: 999 }), (ms, micros) => {
        const text = asPostgresWrites(ms, micros);
        expect(isoTimestamp(text)).toBe(viaDate(text));
      }),
    );
  });

  it.each(['2025-03-01 13:00:00+01', '2025-03-01 06:30:00.5-05:30', '0044-03-15 12:00:00+00 BC'])('reads %s through Date', (text) => {
    expect(isoTimestamp(text)).toBe(viaDate(text));
  });
});

describe.skipIf(postgresMissing !== undefined)('timestamps the server sends', () => {
  let url: string;
  let stores: PostgresStores;
  beforeAll(async () => {
    url = await createTestDatabase();
    stores = await openPostgres(url, { log: silentLog, patience: 10_000 });
  });
  afterAll(async () => {
    await stores?.close();
    await dropTestDatabase(url);
  });

  it('read back as written, in the session’s zone (UTC, whatever the server’s) and in another', async () => {
    const at = '2026-12-03T07:26:32.123Z';
    expect((await stores.db.query<{ zone: string; t: string }>('SELECT current_setting($$TimeZone$$) AS zone, $1::timestamptz::text AS t', [at])).rows[0]).toEqual({ zone: 'UTC', t: '2026-12-03 07:26:32.123+00' });
    expect((await stores.db.query<{ t: string }>('SELECT $1::timestamptz AS t', [at])).rows[0]!.t).toBe(at);
    const other = await stores.db.transaction(async (client) => {
      await client.query("SET LOCAL TIME ZONE 'Asia/Kolkata'");
      return (await client.query<{ t: string; zone: string }>('SELECT $1::timestamptz AS t, current_setting($$TimeZone$$) AS zone', [at])).rows[0]!;
    });
    expect(other).toEqual({ t: at, zone: 'Asia/Kolkata' });
  });
});
