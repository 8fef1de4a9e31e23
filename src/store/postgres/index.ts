/**
 * The PostgreSQL store: connects (waiting for the server as `patience` says), migrates under the
 * advisory lock, and returns one implementation per store interface over a shared pool.
 */
import type { DigestStore } from '../../digest/store.js';
import type { JobLeases } from '../jobs.js';
import type { SeenEvents } from '../seenEvents.js';
import type { StateStore } from '../states.js';
import { connectPostgres, type ConnectOptions, type Postgres } from './connection.js';
import { PgDigestStore } from './digests.js';
import { PgJobLeases } from './jobs.js';
import { migrate } from './migrate.js';
import { PgSeenEvents } from './seenEvents.js';
import { pgStateStore } from './states.js';

export interface PostgresStores {
  db: Postgres;
  states: StateStore;
  digests: DigestStore;
  seenEvents: SeenEvents;
  jobs: JobLeases;
  close(): Promise<void>;
}

/**
 * @example const pg = await openPostgres(process.env.DATABASE_URL!, { log, patience: 'forever' });
 */
export async function openPostgres(url: string, options: ConnectOptions): Promise<PostgresStores> {
  const db = await connectPostgres(url, options);
  try {
    await migrate(db, options.log);
  } catch (err) {
    await db.end().catch(() => undefined);
    throw err;
  }
  return {
    db,
    states: pgStateStore(db),
    digests: new PgDigestStore(db),
    seenEvents: new PgSeenEvents(db),
    jobs: new PgJobLeases(db),
    close: () => db.end(),
  };
}
