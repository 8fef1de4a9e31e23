/**
 * Subscriptions and digest runs as both stores keep them: their rows, and the objects the
 * digest runner sees.
 */
import type { DigestRun, Lease, RunState, Subscription } from './digests.js';

/** A subscription's row: the fields stored as they are, the others snake_cased; booleans are 0/1 in SQLite, true/false in PostgreSQL. */
export interface SubscriptionRow extends Pick<Subscription, 'id' | 'platform' | 'workspace' | 'channel' | 'query' | 'label' | 'time' | 'timezone' | 'days' | 'count' | 'status'> {
  fill: boolean | number;
  created_by: string;
  created_at: string;
  last_slot: string | null;
  last_digest_at: string | null;
  paused_reason: string | null;
  locale: string | null;
}

/** A digest run's row (`papers` is JSON text). */
export interface RunRow {
  subscription_id: number;
  slot: string;
  papers: string;
  parts: number;
  parts_done: number;
  in_flight: boolean | number;
  in_flight_since: string | null;
  state: RunState;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

/** When a lease taken now ends. */
export function leaseUntil(lease: Lease): string {
  return new Date(lease.now.getTime() + lease.ttlMs).toISOString();
}

export function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    platform: row.platform,
    workspace: row.workspace,
    channel: row.channel,
    query: row.query,
    label: row.label,
    time: row.time,
    timezone: row.timezone,
    days: row.days,
    count: row.count,
    fill: row.fill === true || row.fill === 1,
    createdBy: row.created_by,
    createdAt: row.created_at,
    ...(row.last_slot && { lastSlot: row.last_slot }),
    ...(row.last_digest_at && { lastDigestAt: row.last_digest_at }),
    status: row.status,
    ...(row.paused_reason && { pausedReason: row.paused_reason }),
    ...(row.locale && { locale: row.locale }),
  };
}

export function toRun(row: RunRow): DigestRun {
  const content = JSON.parse(row.papers) as { ids: string[]; fill: boolean; since: string };
  return {
    subscriptionId: row.subscription_id,
    slot: row.slot,
    papers: content.ids,
    fill: content.fill,
    since: content.since,
    parts: row.parts,
    partsDone: row.parts_done,
    inFlight: row.in_flight === true || row.in_flight === 1,
    ...(row.in_flight_since && { inFlightSince: row.in_flight_since }),
    state: row.state,
    attempts: row.attempts,
    ...(row.next_attempt_at && { nextAttemptAt: row.next_attempt_at }),
    ...(row.last_error && { lastError: row.last_error }),
    ...(row.lease_owner && { leaseOwner: row.lease_owner }),
    ...(row.lease_until && { leaseUntil: row.lease_until }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
