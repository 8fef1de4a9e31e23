/**
 * The PostgreSQL store: connects (waiting for the server as `patience` says), migrates under the
 * advisory lock, and returns one implementation per store interface over a shared pool.
 */
import type { CitationStore } from '../citations.js';
import type { DigestStore } from '../digests.js';
import type { HarvestStore } from '../harvests.js';
import type { InstallationRows } from '../installations.js';
import type { JobLeases } from '../jobs.js';
import type { PaperStore } from '../papers.js';
import type { RatingStore } from '../ratings.js';
import type { ReadingListStore } from '../readingLists.js';
import type { SeenEvents } from '../seenEvents.js';
import type { StateStore } from '../states.js';
import { PgCitationStore } from './citations.js';
import { connectPostgres, type ConnectOptions, type Postgres } from './connection.js';
import { PgDigestStore } from './digests.js';
import { PgHarvestStore } from './harvests.js';
import { PgInstallationRows } from './installations.js';
import { PgJobLeases } from './jobs.js';
import { listen, type Listener } from './listen.js';
import { migrate } from './migrate.js';
import { PAPERS_CHANNEL, PgPaperStore } from './papers.js';
import { PgRatingStore } from './ratings.js';
import { PgReadingListStore } from './readingLists.js';
import { PgSeenEvents } from './seenEvents.js';
import { pgStateStore } from './states.js';

export interface PostgresStores {
  db: Postgres;
  papers: PaperStore;
  states: StateStore;
  digests: DigestStore;
  seenEvents: SeenEvents;
  jobs: JobLeases;
  harvests: HarvestStore;
  readingLists: ReadingListStore;
  ratings: RatingStore;
  citations: CitationStore;
  installationRows: InstallationRows;
  /** Calls `onChange` whenever a write of papers commits (and once per reconnection of the listener). */
  watchPapers(onChange: () => void): Listener;
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
    papers: new PgPaperStore(db),
    states: pgStateStore(db),
    digests: new PgDigestStore(db),
    seenEvents: new PgSeenEvents(db),
    jobs: new PgJobLeases(db),
    harvests: new PgHarvestStore(db),
    readingLists: new PgReadingListStore(db),
    ratings: new PgRatingStore(db),
    citations: new PgCitationStore(db),
    installationRows: new PgInstallationRows(db),
    watchPapers: (onChange) => listen(db, PAPERS_CHANNEL, options.log, () => onChange()),
    close: () => db.end(),
  };
}
