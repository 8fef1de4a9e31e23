/**
 * Seen events in PostgreSQL (table `seen_events`), shared by every instance: of two replicas
 * receiving the same Slack retry, one handles it. A claim is one statement; an id seen longer ago
 * than the TTL counts as new. Each claim carries a token of its own, so a claim repeated over a
 * lost connection (which may have committed the first time) still answers true to its caller.
 */
import { randomBytes } from 'node:crypto';
import { SEEN_EVENT_TTL_HOURS, type SeenEvents } from '../seenEvents.js';
import type { Postgres } from './connection.js';

/** Expired ids are deleted at most this often (the claim itself ignores them). */
const PURGE_EVERY_MS = 60_000;

export class PgSeenEvents implements SeenEvents {
  private lastPurge = 0;

  constructor(private readonly db: Postgres) {}

  async firstSighting(key: string, now: Date): Promise<boolean> {
    const expired = new Date(now.getTime() - SEEN_EVENT_TTL_HOURS * 3_600_000).toISOString();
    const token = randomBytes(8).toString('hex');
    const { rowCount } = await this.db.query(
      `INSERT INTO seen_events AS s (key, seen_at, claimed_by) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET seen_at = excluded.seen_at, claimed_by = excluded.claimed_by
         WHERE s.seen_at < $4 OR s.claimed_by = excluded.claimed_by`,
      [key, now.toISOString(), token, expired],
    );
    if (now.getTime() - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = now.getTime();
      await this.db.query('DELETE FROM seen_events WHERE seen_at < $1', [expired]);
    }
    return rowCount === 1;
  }
}
