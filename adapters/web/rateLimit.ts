/**
 * At most {@link RATE_PER_SECOND} requests a second from each client address: a token bucket per
 * address that refills continuously, so a reader clicking around never notices and a script
 * hammering the site gets 429 with Retry-After. Buckets of addresses gone quiet are dropped, so
 * memory stays bounded by the addresses of the last few seconds.
 */

/** Requests a second each client address may make (and the burst it may make at once). */
export const RATE_PER_SECOND = 20;
/** Most addresses tracked at once; past it the quiet ones are dropped first. */
const MAX_CLIENTS = 50_000;

export interface RateLimiter {
  /** Takes one request for `client` at `nowMs`: 0 when allowed, else the seconds to wait. */
  take(client: string, nowMs: number): number;
}

/**
 * @example const limiter = rateLimiter(); limiter.take('203.0.113.7', Date.now()) // 0
 */
export function rateLimiter(perSecond: number = RATE_PER_SECOND): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const sweep = (nowMs: number) => {
    for (const [client, b] of buckets) {
      // Full again: forgetting it changes nothing.
      if (b.tokens + ((nowMs - b.at) / 1000) * perSecond >= perSecond) buckets.delete(client);
    }
  };
  return {
    take(client, nowMs) {
      let bucket = buckets.get(client);
      if (!bucket) {
        if (buckets.size >= MAX_CLIENTS) sweep(nowMs);
        bucket = { tokens: perSecond, at: nowMs };
        buckets.set(client, bucket);
      }
      bucket.tokens = Math.min(perSecond, bucket.tokens + (Math.max(0, nowMs - bucket.at) / 1000) * perSecond);
      bucket.at = nowMs;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
    },
  };
}
