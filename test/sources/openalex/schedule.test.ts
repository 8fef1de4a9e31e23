/**
 * Citation counts kept current by a running bot: at OPENALEX_SYNC (UTC) once a day, across the
 * processes sharing a store (job leases), as a refresh; nothing when OPENALEX_SYNC is off.
 * Under fake timers, OpenAlex answered in memory.
 */
import pino from 'pino';
import { afterEach, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { scheduleOpenAlexSync } from '../../../src/sources/openalex/schedule.js';
import { OPENALEX_JOB } from '../../../src/sources/openalex/sync.js';
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { SqliteCitationStore } from '../../../src/store/sqlite/citations.js';
import { SqliteJobLeases } from '../../../src/store/sqlite/jobs.js';
import { SqlitePaperStore } from '../../../src/store/sqlite/papers.js';
import { FakeClock } from '../helpers/fakeClock.js';
import { FakeOpenAlex, openAlexWork } from '../helpers/fakeOpenAlex.js';

afterEach(() => {
  vi.useRealTimers();
});

function logCapture() {
  const lines: Array<{ msg: string }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }) });
  return { log, lines };
}

it('syncs at OPENALEX_SYNC each day, once across two processes sharing the store, and refreshes the index after', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(new Date('2026-03-02T04:09:00Z'));
  const db = openDatabase(':memory:');
  const papers = new SqlitePaperStore(db);
  await papers.write((tx) =>
    tx.upsertBatch([{ title: 'Invented Scheduled Paper', authors: ['Aino Virtanen'], abstract: '', venue: '', year: 2024, status: '', keywords: [], labels: [], links: {}, externalIds: { doi: '10.5555/sched.1' } }], {
      source: 'test',
      classify: () => [],
      now: new Date(),
    }),
  );
  const openalex = new FakeOpenAlex([openAlexWork({ n: 77, title: 'Invented Scheduled Paper', year: 2024, authors: ['Aino Virtanen'], cited: 5, doi: '10.5555/sched.1' })]);
  const jobs = new SqliteJobLeases(db);
  const config = loadConfig({ OPENALEX_API_URL: 'http://openalex.test', OPENALEX_SYNC: '04:10', OPENALEX_MAILTO: 'lab@example.org' }).openalex;
  const { log, lines } = logCapture();
  const changed: number[] = [];
  const schedules = [0, 1].map((i) =>
    scheduleOpenAlexSync(
      { papers, citations: new SqliteCitationStore(db), config, log, http: openalex.http, onChange: () => void changed.push(i), once: { jobs, job: OPENALEX_JOB } },
      new FakeClock('2026-03-02T04:10:00Z'),
    ),
  );
  for (const schedule of schedules) schedule.start();
  expect(schedules[0]!.nextRun()?.toISOString()).toBe('2026-03-02T04:10:00.000Z');
  await vi.advanceTimersByTimeAsync(2 * 60_000);
  await vi.waitFor(() => expect(lines.filter((l) => /OpenAlex sync done|scheduled job skipped/.test(l.msg))).toHaveLength(2));
  expect(openalex.filters).toEqual(['doi:10.5555/sched.1']);
  expect(openalex.requests[0]!.url.searchParams.get('mailto')).toBe('lab@example.org');
  expect(changed).toHaveLength(1);
  expect((await papers.findByRef({ kind: 'doi', id: '10.5555/sched.1' }))!.paper.citations).toMatchObject({ count: 5, openalex: 'W77' });
  expect(await jobs.lastDone(OPENALEX_JOB)).toBe('2026-03-02');
  for (const schedule of schedules) await schedule.stop();
});

it('does nothing with OPENALEX_SYNC=off', async () => {
  const db = openDatabase(':memory:');
  const config = loadConfig({ OPENALEX_SYNC: 'off' }).openalex;
  expect(config.syncTime).toBeUndefined();
  const { log, lines } = logCapture();
  const schedule = scheduleOpenAlexSync({ papers: new SqlitePaperStore(db), citations: new SqliteCitationStore(db), config, log, onChange: () => undefined });
  schedule.start();
  expect(schedule.nextRun()).toBeNull();
  expect(lines.map((l) => l.msg)).toEqual(['OPENALEX_SYNC=off: citation counts are left to `paperscout sync openalex`']);
  await schedule.stop();
});
