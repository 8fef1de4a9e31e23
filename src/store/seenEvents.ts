/**
 * Platform events already taken, by their delivery id, for a day. A platform redelivers an event
 * it believes was lost (Slack retries an Events API callback after a timeout, a refused
 * connection, an error status, or for reasons it does not give), and each event must be answered
 * once: across a restart, and across instances that share the store. The interface is small and
 * async so that the SQLite and PostgreSQL stores both implement it.
 */

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
