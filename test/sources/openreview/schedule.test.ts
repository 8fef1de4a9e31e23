/**
 * Keeping OPENREVIEW_VENUES fresh: which venues are due (weekly; daily in the month after
 * decisions), and the daily check of a running bot, under fake timers with the fixtures served
 * from memory.
 */
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTopics } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import type { HttpRequest } from '../../../src/sources/http.js';
import { dueVenues, isDue, scheduleOpenReviewSync } from '../../../src/sources/openreview/schedule.js';
import { venueKey, type VenueState } from '../../../src/sources/openreview/sync.js';
import { memoryStores, putRecords } from '../../helpers/stores.js';
import { Loopback } from '../helpers/loopback.js';
import { PaperRecordSchema } from '../../../src/papers/model.js';
import { FakeClock } from '../helpers/fakeClock.js';
import { openreviewFixture } from './helpers.js';

const { classify } = loadTopics();
const VENUE = 'ICLR.cc/2025/Conference';
const state = (lastSync: string, decisionsSeenAt?: string): VenueState => ({ venue: VENUE, lastSync, ...(decisionsSeenAt && { decisionsSeenAt }), byStatus: {} });

afterEach(() => {
  vi.useRealTimers();
});

describe('isDue', () => {
  const now = new Date('2025-02-10T03:40:00Z');
  it.each([
    ['never synced', undefined, true],
    ['synced a week ago', state('2025-02-03T03:40:00Z'), true],
    ['synced six days ago', state('2025-02-04T03:40:00Z'), false],
    ['synced a day ago, decisions this month', state('2025-02-09T03:40:00Z', '2025-01-24T03:40:00Z'), true],
    ['synced three hours ago, decisions this month', state('2025-02-10T00:40:00Z', '2025-01-24T03:40:00Z'), false],
    ['synced a day ago, decisions over a month ago', state('2025-02-09T03:40:00Z', '2024-12-20T03:40:00Z'), false],
    ['a last sync in the future (clock moved)', state('2025-03-01T00:00:00Z'), true],
  ])('%s → %s', (_, given, due) => {
    expect(isDue(given, now)).toBe(due);
  });

  it('picks the due venues among the configured ones', async () => {
    const { harvests } = memoryStores();
    await harvests.put(venueKey(VENUE), 'openreview', state('2025-02-08T03:40:00Z'), now);
    expect(await dueVenues([VENUE, 'NeurIPS.cc/2024/Conference'], harvests, now)).toEqual(['NeurIPS.cc/2024/Conference']);
  });
});

describe('scheduleOpenReviewSync', () => {
  it('checks daily at 03:40 UTC and syncs only the venues that are due', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2025-01-30T01:00:00Z'));
    const { store, harvests } = memoryStores();
    const calls: string[] = [];
    const http: HttpRequest = async (url) => {
      calls.push(url);
      const body = openreviewFixture('iclr2025-under-review.json');
      return { status: 200, headers: new Headers(), text: async () => body };
    };
    const onChange = vi.fn();
    const config = loadConfig({ OPENREVIEW_API_URL: 'http://openreview.test', OPENREVIEW_VENUES: VENUE }).openreview;
    const clock = new FakeClock('2025-01-30T03:40:00Z');
    const schedule = scheduleOpenReviewSync({ store, harvests, classify, config, log: pino({ level: 'silent' }), http, onChange }, clock);
    schedule.start();
    expect(schedule.nextRun()?.toISOString()).toBe('2025-01-30T03:40:00.000Z');
    await vi.advanceTimersByTimeAsync(3 * 3_600_000);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    expect(calls).toEqual([`http://openreview.test/notes?invitation=${encodeURIComponent(`${VENUE}/-/Submission`)}&limit=1000&offset=0`]);
    expect((await harvests.get<VenueState>(venueKey(VENUE)))!.state.lastSync).toBe('2025-01-30T03:40:00.000Z');

    clock.advance(86_400_000); // the next day: synced yesterday, no decisions yet → not due
    expect(await schedule.runNow()).toBeUndefined();
    expect(calls).toHaveLength(1);
    clock.advance(6 * 86_400_000); // a week on → due
    expect(await schedule.runNow()).toMatchObject({ updated: 0, unchanged: 5 });
    expect(calls).toHaveLength(2);
    await schedule.stop();
    expect(schedule.nextRun()).toBeNull();
  });

  it('logs how many submissions merged into papers held under another identifier, and those kept apart', async () => {
    const clock = new FakeClock('2025-01-30T03:40:00Z');
    const server = await new Loopback({ now: () => clock.now(), sleep: async () => {} }).start();
    try {
      server.serve({ [`/notes?invitation=${encodeURIComponent(`${VENUE}/-/Submission`)}&limit=1000&offset=0`]: { headers: { 'content-type': 'application/json' }, body: openreviewFixture('iclr2025-under-review.json') } });
      const { store, harvests } = memoryStores();
      const preprint = { title: 'Scaling Laws for Sparse Mixture-of-Experts Language Models', authors: ['Ana Ruiz', 'Mei Lin'], venue: 'arXiv', year: 2024, externalIds: { arxiv: '2410.01234' } };
      const other = {
        title: 'Forgetting in Diffusion Models, Revisited', authors: ['Tomás Okafor'], venue: 'NeurIPS', year: 2024,
        externalIds: { openreview: 'Nx1aB2cD3e' }, links: { pdf: 'https://openreview.net/pdf/0000000000000000000000000000000000017334.pdf' },
      };
      await putRecords(store, [PaperRecordSchema.parse(preprint)], { source: 'arxiv', classify, now: clock.now() });
      await putRecords(store, [PaperRecordSchema.parse(other)], { source: 'openreview', classify, now: clock.now() });
      const lines: Array<{ level: number; msg: string; [field: string]: unknown }> = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
      const config = loadConfig({ OPENREVIEW_API_URL: server.base, OPENREVIEW_VENUES: VENUE }).openreview;
      const schedule = scheduleOpenReviewSync({ store, harvests, classify, config, log, onChange: () => {} }, clock);
      expect(await schedule.runNow()).toMatchObject({ added: 4, merged: 1, apart: 1 });
      const done = lines.find((l) => l.msg.startsWith('OpenReview sync done'));
      expect(done).toMatchObject({ level: 30, added: 4, updated: 1, merged: 1, apart: 1, failed: 0 });
      expect(done!.msg).toContain('\nTotal: 4 added, 1 updated, 0 unchanged, 0 skipped, 1 merged into a paper held under another identifier, 1 kept apart\n');
      expect(done!.msg).toContain('\n  url:openreview.net/pdf/0000000000000000000000000000000000017334.pdf: 1 record, OpenReview Bq3wE8rT1y (not openreview:Nx1aB2cD3e: another OpenReview id)');
    } finally {
      await server.stop();
    }
  });

  it('with job leases, of two processes sharing a store one checks and syncs each day', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2025-01-30T03:39:00Z'));
    const { store, harvests, jobs } = memoryStores();
    const calls: string[][] = [[], []];
    const http = (i: number): HttpRequest => async (url) => {
      calls[i]!.push(url);
      const body = openreviewFixture('iclr2025-under-review.json');
      return { status: 200, headers: new Headers(), text: async () => body };
    };
    const config = loadConfig({ OPENREVIEW_API_URL: 'http://openreview.test', OPENREVIEW_VENUES: VENUE }).openreview;
    const onChange = vi.fn();
    const schedules = [0, 1].map((i) =>
      scheduleOpenReviewSync(
        { store, harvests, classify, config, log: pino({ level: 'silent' }), http: http(i), onChange, once: { jobs, job: 'openreview-sync' } },
        new FakeClock('2025-01-30T03:40:00Z'),
      ),
    );
    for (const schedule of schedules) schedule.start();
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    await vi.waitFor(async () => expect(await jobs.lastDone('openreview-sync')).toBe('2025-01-30'));
    expect(calls.map((c) => c.length).sort()).toEqual([0, 1]);
    expect(onChange).toHaveBeenCalledTimes(1);
    for (const schedule of schedules) await schedule.stop();
  });

  it('is not armed without OPENREVIEW_VENUES', () => {
    const { store, harvests } = memoryStores();
    const config = loadConfig({}).openreview;
    const schedule = scheduleOpenReviewSync({ store, harvests, classify, config, log: pino({ level: 'silent' }), onChange: () => {} });
    schedule.start();
    expect(schedule.nextRun()).toBeNull();
  });
});
