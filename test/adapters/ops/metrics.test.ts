/**
 * The metrics module on its own: digest posts and failures counted through any sender, sync
 * records, and gauges read at scrape time.
 */
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../../adapters/ops/metrics.js';
import { DeliveryError, type DigestSender } from '../../../src/digest/sender.js';
import { messageReply } from '../../../src/reply.js';

describe('metrics', () => {
  it('count digest posts and their failures by reason, leaving the rest of a sender as it was', async () => {
    const metrics = createMetrics();
    const outcomes: Array<Error | undefined> = [undefined, new DeliveryError('forbidden', 'missing access'), new Error('socket hang up'), undefined];
    const sender: DigestSender & { extra(): string } = {
      platform: 'discord',
      duplicateWindowMs: 120_000,
      async post() {
        const outcome = outcomes.shift();
        if (outcome) throw outcome;
      },
      find: async () => false,
      extra: () => 'still here',
    };
    const counted = metrics.countPosts(sender) as typeof sender;
    expect(counted.duplicateWindowMs).toBe(120_000);
    expect(counted.extra()).toBe('still here');
    for (let i = 0; i < 4; i++) await counted.post('C1', messageReply('hi'), { key: `k${i}`, subscription: 1, slot: '2026-01-01T09:00:00.000Z', part: i }).catch(() => undefined);
    const { body } = await metrics.render();
    expect(body).toContain('paperscout_digest_posts_total{platform="discord"} 2');
    expect(body).toContain('paperscout_digest_post_failures_total{platform="discord",reason="forbidden"} 1');
    expect(body).toContain('paperscout_digest_post_failures_total{platform="discord",reason="unknown"} 1');
  });

  it('count sync records by outcome and read the gauges when scraped', async () => {
    const metrics = createMetrics();
    metrics.synced({ categories: [], added: 12, updated: 3, unchanged: 40, skipped: 1, merged: 0, apart: 0, apartGroups: [], failed: [{ category: 'cs.CV', reason: 'HTTP 503' }], changed: true, aborted: false });
    let papers = 100;
    metrics.watch({
      library: () => ({ papers, generation: 7 }),
      adapters: () => ({ slack: { state: 'waiting', since: '', failures: 2, restarts: 1 } }),
    });
    papers = 112;
    const { body, contentType } = await metrics.render();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain('paperscout_sync_records_total{outcome="added"} 12');
    expect(body).toContain('paperscout_sync_records_total{outcome="skipped"} 1');
    expect(body).toContain('paperscout_sync_category_failures_total 1');
    expect(body).toContain('paperscout_library_papers 112');
    expect(body).toContain('paperscout_index_generation 7');
    expect(body).toContain('paperscout_adapter_up{adapter="slack"} 0');
    expect(body).toContain('paperscout_adapter_restarts_total{adapter="slack"} 1');
    expect(body).toMatch(/^paperscout_nodejs_eventloop_lag_seconds /m);
    expect(body.split('\n').filter((l) => /^[a-z]/.test(l) && !l.startsWith('paperscout_'))).toEqual([]);
  });
});
