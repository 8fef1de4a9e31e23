/**
 * At most {@link RATE_PER_SECOND} requests a second from each client address: a token bucket per
 * address that refills continuously, so a reader clicking around never notices and a script
 * hammering the site gets 429 with Retry-After.
 *
 * Memory is bounded by {@link MAX_CLIENTS} buckets, whatever arrives, at a constant cost per
 * request and no walk over the buckets: two generations of half the cap each (as quick-lru
 * keeps them). New addresses go into the recent one; an address found in the older one moves
 * back into the recent one; when the recent one is full it becomes the older one, and what was
 * older is dropped whole: the addresses not seen for a whole generation. (A single Map used as
 * an LRU, evicting its first key, cost 30–40 µs a request past the cap: V8 skips the holes that
 * deletions leave at the front of a Map on every new iterator.)
 *
 * What someone rotating through many addresses can and cannot do:
 * - They get a full bucket per new address, cap or no cap: a per-address limit slows one
 *   address, not someone who owns many (an IPv6 /64 holds 2^64). That needs a limit upstream
 *   (a proxy, a firewall), not a bigger map here.
 * - They cannot make a reader wait: eviction only ever forgets a bucket, and a forgotten
 *   address comes back to a full one. The worst a flood of new addresses does to others is
 *   lift their limit.
 * - They cannot free a heavy client of its limit unless it goes quiet: each request of an
 *   address still sending moves it into the recent generation, and only the older one is ever
 *   dropped. To drop a bucket that is not yet full again (it refills in a second), half the cap
 *   of other new addresses must arrive between two of its requests: 25,000 within a second.
 * - They cannot grow memory past the cap, nor make a request cost more than two map lookups,
 *   a delete and an insert.
 */

/** Requests a second each client address may make (and the burst it may make at once). */
export const RATE_PER_SECOND = 20;
/** Most addresses tracked at once; past it, those not seen for a generation (half of it) are dropped. */
export const MAX_CLIENTS = 50_000;

export interface RateLimiter {
  /** Takes one request for `client` at `nowMs`: 0 when allowed, else the seconds to wait. */
  take(client: string, nowMs: number): number;
  /** Addresses tracked now (at most the cap). */
  readonly size: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * @example const limiter = rateLimiter(); limiter.take('203.0.113.7', Date.now()) // 0
 */
export function rateLimiter(perSecond: number = RATE_PER_SECOND, maxClients: number = MAX_CLIENTS): RateLimiter {
  const generation = Math.max(1, Math.floor(maxClients / 2));
  let recent = new Map<string, Bucket>();
  let older = new Map<string, Bucket>();
  return {
    take(client, nowMs) {
      let bucket = recent.get(client);
      if (!bucket) {
        bucket = older.get(client);
        if (bucket) older.delete(client);
        else bucket = { tokens: perSecond, at: nowMs };
        if (recent.size >= generation) {
          older = recent;
          recent = new Map();
        }
        recent.set(client, bucket);
      }
      bucket.tokens = Math.min(perSecond, bucket.tokens + (Math.max(0, nowMs - bucket.at) / 1000) * perSecond);
      bucket.at = nowMs;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
    },
    get size() {
      return recent.size + older.size;
    },
  };
}
