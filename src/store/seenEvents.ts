/**
 * Platform events already taken, by their delivery id, for a day. A platform redelivers an event
 * it believes was lost (Slack retries an Events API callback after a timeout, a refused
 * connection, an error status, or for reasons it does not give), and each event must be answered
 * once: across a restart, and across instances that share the store. The interface is small and
 * async so that a PostgreSQL implementation can follow the SQLite one.
 */
import type { Db } from './db.js';

/** How long an event id is remembered: Slack's retries come within minutes; a day is ample. */
export const SEEN_EVENT_TTL_HOURS = 24;

export interface SeenEvents {
  /**
   * Records that the event `key` arrived at `now`. Resolves true the first time (the caller
   * handles it) and false for every later delivery within the TTL (the caller drops it).
   * Atomic: of two deliveries racing, exactly one gets true.
   */
  firstSighting(key: string, now: Date): Promise<boolean>;
}

/**
 * Seen events in the SQLite database (table `seen_events`); expired ids are deleted as new ones
 * arrive, so the table holds about a day of events.
 * @example if (await seen.firstSighting(`slack:${body.event_id}`, new Date())) handle(body);
 */
export class SqliteSeenEvents implements SeenEvents {
  private readonly claim: (key: string, now: Date) => boolean;

  constructor(db: Db) {
    const purge = db.prepare<[string]>('DELETE FROM seen_events WHERE seen_at < ?');
    const insert = db.prepare<[string, string]>('INSERT INTO seen_events (key, seen_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING');
    this.claim = db.transaction((key: string, now: Date) => {
      purge.run(new Date(now.getTime() - SEEN_EVENT_TTL_HOURS * 3_600_000).toISOString());
      return insert.run(key, now.toISOString()).changes === 1;
    });
  }

  async firstSighting(key: string, now: Date): Promise<boolean> {
    return this.claim(key, now);
  }
}
