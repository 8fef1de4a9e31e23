import { SEEN_EVENT_TTL_HOURS, type SeenEvents } from '../seenEvents.js';
import type { Db } from './db.js';

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
