/**
 * Brings a PostgreSQL database's schema up to this version's, once however many instances start
 * together: on one connection holding a session advisory lock, the steps not applied yet are
 * applied, each in its own transaction with its row in `schema_version`. The instances that were
 * waiting for the lock then find nothing to do. A database newer than this code refuses the start:
 * an older version must not write a schema it does not know.
 */
import type { Logger } from 'pino';
import { SetupError } from '../../errors.js';
import type { Postgres } from './connection.js';
import { MIGRATIONS } from './schema.js';

/** The advisory lock key of migrations (any constant the application does not use otherwise). */
const MIGRATION_LOCK = 7_301_952_114;

/**
 * Applies the missing steps of `migrations`; resolves the schema version after.
 * @example await migrate(db, log);
 */
export async function migrate(db: Postgres, log: Logger, migrations: readonly string[] = MIGRATIONS): Promise<number> {
  const client = await db.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_version (
      version integer PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_version');
    const current = rows[0]?.version ?? 0;
    if (current > migrations.length) {
      throw new SetupError(
        `The PostgreSQL database at ${db.target} has schema version ${current}, newer than this Paper Scout knows (${migrations.length}): ` +
          'a newer version has upgraded it. Run that version here too (or point DATABASE_URL at another database).',
      );
    }
    for (let version = current + 1; version <= migrations.length; version++) {
      await client.query('BEGIN');
      try {
        await client.query(migrations[version - 1]!);
        await client.query('INSERT INTO schema_version (version) VALUES ($1)', [version]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
      log.info({ version, target: db.target }, 'PostgreSQL schema migrated');
    }
    return migrations.length;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
