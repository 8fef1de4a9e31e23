import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ArxivConfig } from '../../../src/config.js';
import type { HttpGet } from '../../../src/sources/arxiv/client.js';
import { cronPattern, scheduleArxivSync, type ScheduleDeps } from '../../../src/sources/arxiv/schedule.js';
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../../src/store/sqlite/papers.js';
import { SqliteJobLeases } from '../../../src/store/sqlite/jobs.js';
import { loadTopics } from '../../../src/app.js';
import { FakeClock } from '../helpers/fakeClock.js';
import { FeedServer, fixture, rss } from '../helpers/feedServer.js';
import { loadConfig } from '../../../src/config.js';
import { fetchHttpGet } from '../../../src/sources/arxiv/client.js';
import { PaperRecordSchema } from '../../../src/papers/model.js';

const { classify } = loadTopics();
const config: ArxivConfig = { categories: ['cs.LG', 'cs.CL'], rssUrl: 'http://feeds.test/rss/', apiUrl: 'http://feeds.test/api/query', syncTime: '02:30', oaiUrl: 'http://feeds.test/oai' };
const FEEDS: Record<string, string> = { 'http://feeds.test/rss/cs.LG': 'rss-cs.LG-2025-04-14.xml', 'http://feeds.test/rss/cs.CL': 'rss-cs.CL-2025-04-14.xml' };

/** The fixture feeds, served from memory (no sockets, so fake timers cannot get in the way). */
function fixtureHttp(calls: string[] = []): HttpGet {
  return async (url) => {
    calls.push(url);
    const name = FEEDS[url];
    return { status: name ? 200 : 404, headers: new Headers(), text: async () => (name ? fixture(name) : 'not found') };
  };
}

function logCapture() {
  const lines: Array<{ level: number; msg: string; err?: { message: string }; [field: string]: unknown }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
  return { log, lines };
}

function deps(overrides: Partial<ScheduleDeps> = {}): ScheduleDeps {
  return { store: new SqlitePaperStore(openDatabase(':memory:')), classify, config, log: logCapture().log, http: fixtureHttp(), onChange: () => {}, ...overrides };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('cronPattern', () => {
  it.each([
    ['02:30', '30 2 * * *'],
    ['00:00', '0 0 * * *'],
    ['23:59', '59 23 * * *'],
    ['7:05', '5 7 * * *'],
  ])('%s → %s', (time, pattern) => {
    expect(cronPattern(time)).toBe(pattern);
  });

  it('refuses what is not a time of day', () => {
    expect(() => cronPattern('24:00')).toThrow(/ARXIV_SYNC_TIME must be a time of day HH:MM \(UTC\), got "24:00"/);
  });
});

describe('scheduleArxivSync', () => {
  it('syncs daily at the configured UTC time and reports changes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2025-04-14T01:00:00Z'));
    const calls: string[] = [];
    const onChange = vi.fn();
    const schedule = scheduleArxivSync(deps({ http: fixtureHttp(calls), onChange }), new FakeClock());
    expect(schedule.nextRun()).toBeNull();
    schedule.start();
    schedule.start(); // once armed, starting again changes nothing
    expect(schedule.nextRun()?.toISOString()).toBe('2025-04-14T02:30:00.000Z');
    await vi.advanceTimersByTimeAsync(89 * 60_000);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    expect(calls).toEqual(['http://feeds.test/rss/cs.LG', 'http://feeds.test/rss/cs.CL']);
    expect(onChange.mock.calls[0]![0]).toMatchObject({ added: 5, changed: true });
    expect(schedule.nextRun()?.toISOString()).toBe('2025-04-15T02:30:00.000Z');
    await schedule.stop();
    expect(schedule.nextRun()).toBeNull();
  });

  it('with job leases, of two processes sharing a store one syncs each day', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2025-04-14T02:29:00Z'));
    const db = openDatabase(':memory:');
    const jobs = new SqliteJobLeases(db);
    const calls: string[][] = [[], []];
    const { log, lines } = logCapture();
    const schedules = [0, 1].map((i) =>
      scheduleArxivSync(deps({ store: new SqlitePaperStore(db), log, http: fixtureHttp(calls[i]), once: { jobs, job: 'arxiv-sync' } }), new FakeClock('2025-04-14T02:30:00Z')),
    );
    for (const schedule of schedules) schedule.start();
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    await vi.waitFor(() => expect(lines.filter((l) => /arXiv sync done|scheduled job skipped/.test(l.msg))).toHaveLength(2));
    expect(calls.map((c) => c.length).sort()).toEqual([0, 2]);
    expect(await jobs.lastDone('arxiv-sync')).toBe('2025-04-14');
    for (const schedule of schedules) await schedule.stop();
  });

  it('logs how many records merged into papers held under another identifier, and those kept apart', async () => {
    const clock = new FakeClock('2025-04-14T02:30:00Z');
    const server = await new FeedServer({ now: () => clock.now(), sleep: async () => {} }).start();
    try {
      server.serve({ '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml') });
      const store = new SqlitePaperStore(openDatabase(':memory:'));
      const held = [
        { title: 'Tokenizer-Free Language Modeling with Byte-Level Patches', authors: ['Ines Duarte', 'Kofi Mensah'], venue: 'ICML', year: 2025, status: 'Poster' },
        { title: 'A Different Paper on Graph Calibration', authors: ['Priya Natarajan'], externalIds: { arxiv: '2411.00001', doi: '10.5555/example.2025.0042' } },
      ].map((record) => PaperRecordSchema.parse(record));
      await store.write((tx) => tx.upsertBatch(held, { source: 'paperlists:icml2025', classify, now: clock.now() }));
      const { log, lines } = logCapture();
      const fromLoopback = loadConfig({ ...server.env, ARXIV_CATEGORIES: 'cs.LG' }).arxiv;
      const schedule = scheduleArxivSync({ store, classify, config: fromLoopback, log, http: fetchHttpGet(), onChange: () => {} }, clock);
      await schedule.runNow();
      const done = lines.find((l) => l.msg.startsWith('arXiv sync done'));
      expect(done).toMatchObject({ level: 30, added: 3, updated: 1, merged: 1, apart: 1, failed: 0 });
      expect(done!.msg).toContain('\nTotal: 3 added, 1 updated, 0 unchanged, 0 skipped, 1 merged into a paper held under another identifier, 1 kept apart\n');
      expect(done!.msg).toContain('\n  doi:10.5555/example.2025.0042: 1 record, arXiv 2504.09003 (not arxiv:2411.00001: another arXiv id)');
      await store.close();
    } finally {
      await server.stop();
    }
  });

  it('runs one sync at a time: a second request joins the running one', async () => {
    const calls: string[] = [];
    const onChange = vi.fn();
    const schedule = scheduleArxivSync(deps({ http: fixtureHttp(calls), onChange }), new FakeClock());
    const [a, b] = [schedule.runNow(), schedule.runNow()];
    expect(a).toBe(b);
    expect(await a).toMatchObject({ added: 5 });
    expect(calls).toHaveLength(2);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(await schedule.runNow()).toMatchObject({ added: 0, unchanged: 5, changed: false });
    expect(onChange).toHaveBeenCalledTimes(1); // nothing changed the second time
  });

  it('logs failures instead of throwing them out of the timer', async () => {
    const { log, lines } = logCapture();
    const onChange = () => {
      throw new Error('index refresh exploded');
    };
    const schedule = scheduleArxivSync(deps({ log, onChange, http: async () => Promise.reject(new Error('unexpected')) }), new FakeClock());
    const failing = await schedule.runNow();
    expect(failing).toMatchObject({ added: 0, failed: [{ category: 'cs.LG' }, { category: 'cs.CL' }] });
    expect(lines.some((l) => l.level === 40 && /arXiv sync done/.test(l.msg))).toBe(true);

    const refreshing = scheduleArxivSync(deps({ log, onChange }), new FakeClock());
    expect(await refreshing.runNow()).toMatchObject({ added: 5 });
    expect(lines.find((l) => l.msg === 'refreshing after the arXiv sync failed')?.err?.message).toBe('index refresh exploded');

    const broken = scheduleArxivSync(deps({ log, config: { ...config, categories: undefined as unknown as string[] } }), new FakeClock());
    await expect(broken.runNow()).resolves.toBeUndefined();
    expect(lines.some((l) => l.level === 50 && l.msg === 'arXiv sync failed')).toBe(true);
  });

  it('stop() aborts a sync in flight and waits for it', async () => {
    let started!: () => void;
    const requested = new Promise<void>((resolve) => (started = resolve));
    const hanging: HttpGet = (_url, { signal }) =>
      new Promise((_, reject) => {
        started();
        signal?.addEventListener('abort', () => reject(signal.reason as Error));
      });
    const schedule = scheduleArxivSync(deps({ http: hanging }), new FakeClock());
    schedule.start();
    const running = schedule.runNow();
    await requested;
    await schedule.stop();
    expect(await running).toMatchObject({ aborted: true, categories: [] });
  });
});
