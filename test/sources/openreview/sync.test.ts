/**
 * syncOpenReview end to end: real fetch against a loopback server answering in API v2's format,
 * the real store, harvest state and classifier, and a fake clock.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadTopics } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { fetchHttp } from '../../../src/sources/http.js';
import { PaperRecordSchema } from '../../../src/papers/model.js';
import { formatOpenReviewSummary } from '../../../src/sources/openreview/summary.js';
import { syncOpenReview, venueKey, type OpenReviewSyncOptions, type VenueState } from '../../../src/sources/openreview/sync.js';
import type { Db } from '../../../src/store/sqlite/db.js';
import type { SqliteHarvestStore } from '../../../src/store/sqlite/harvests.js';
import type { SqlitePaperStore } from '../../../src/store/sqlite/papers.js';
import { silentLog } from '../../helpers/corpus.js';
import { memoryStores, putRecords } from '../../helpers/stores.js';
import { FakeClock } from '../helpers/fakeClock.js';
import { Loopback, json, type KeyOf } from '../helpers/loopback.js';
import { openreviewFixture } from './helpers.js';

const { classify } = loadTopics();
const VENUE = 'ICLR.cc/2025/Conference';
let clock: FakeClock;
let server: Loopback;
let db: Db;
let store: SqlitePaperStore;
let harvests: SqliteHarvestStore;

/** `GET /notes` by what it asks (invitation or venueid) and its offset; `POST /login`. */
const notesKey: KeyOf = (url, method) => {
  if (url.pathname === '/login') return `${method} /login`;
  const p = url.searchParams;
  const what = p.has('invitation') ? `invitation=${p.get('invitation')}` : p.has('content.venueid') ? `venueid=${p.get('content.venueid')}` : p.has('id') ? `id=${p.get('id')}` : '?';
  return `${what}&offset=${p.get('offset')}`;
};
const page = (name: string) => ({ headers: { 'content-type': 'application/json' }, body: openreviewFixture(name) });
const DECIDED = {
  [`invitation=${VENUE}/-/Submission&offset=0`]: page('iclr2025-offset-0.json'),
  [`invitation=${VENUE}/-/Submission&offset=3`]: page('iclr2025-offset-3.json'),
  [`invitation=${VENUE}/-/Submission&offset=6`]: page('iclr2025-offset-6.json'),
};

beforeAll(async () => {
  server = await new Loopback({ now: () => clock.now(), sleep: async () => {} }).start();
});
afterAll(() => server.stop());
beforeEach(() => {
  clock = new FakeClock('2025-01-30T04:00:00Z');
  db?.close();
  ({ db, store, harvests } = memoryStores());
});

function sync(options: Partial<OpenReviewSyncOptions> = {}, env: Record<string, string> = {}) {
  const config = loadConfig({ OPENREVIEW_API_URL: server.base, ...env }).openreview;
  return syncOpenReview({ store, harvests, classify, config, http: fetchHttp(), clock, log: silentLog }, { venues: [VENUE], pageSize: 3, ...options });
}

describe('syncOpenReview', () => {
  it("reads all of a venue's submissions page by page up to count, with each decision as the status", async () => {
    server.serve(DECIDED, notesKey);
    const summary = await sync();
    expect(server.keys).toEqual([0, 3, 6].map((o) => `invitation=${VENUE}/-/Submission&offset=${o}`));
    expect(Object.fromEntries(server.requests[1]!.url.searchParams)).toEqual({ invitation: `${VENUE}/-/Submission`, limit: '3', offset: '3' });
    expect(summary).toMatchObject({ added: 5, updated: 0, skipped: 2, failed: [], changed: true });
    expect(summary.venues[0]).toMatchObject({
      count: 7,
      pages: 3,
      notes: 7,
      byStatus: { Oral: 1, Spotlight: 1, Poster: 1, Rejected: 1, Withdrawn: 1 },
      skipped: [
        { page: 2, index: 0, id: 'Zz9yX8wV7u', reason: 'no title' },
        { page: 3, index: 0, id: 'Hh1gG2fF3e', reason: 'no content (the submission is not public?)' },
      ],
    });
    expect(await store.get('openreview:Kx7vQ2mN9a')).toMatchObject({ venue: 'ICLR', year: 2025, status: 'Oral', tldr: expect.stringContaining('scaling laws'), labels: ['foundation or frontier models, including LLMs'] });
    expect((await store.get('openreview:Kx7vQ2mN9a'))!.topics).toContain('deep-learning/large-language-models');
    expect(await store.get('openreview:Pz1xC4vB5n')).toMatchObject({ venue: 'ICLR', status: 'Rejected' });
    expect(await store.get('openreview:Wm8nJ2kL3p')).toMatchObject({ venue: 'ICLR', status: 'Withdrawn' });
    expect(formatOpenReviewSummary(summary)).toBe(
      [
        `OpenReview ${VENUE}: 7 of 7 submissions: 5 added, 0 updated, 0 unchanged, 2 skipped`,
        '  Oral 1, Spotlight 1, Poster 1, Rejected 1, Withdrawn 1; rejected and withdrawn submissions are kept with that status, never shown as accepted',
        '  page 2, note 0 (Zz9yX8wV7u) skipped: no title',
        '  page 3, note 0 (Hh1gG2fF3e) skipped: no content (the submission is not public?)',
        'Total: 5 added, 0 updated, 0 unchanged, 2 skipped, 0 merged into papers held under another identifier, 0 kept apart',
      ].join('\n'),
    );
  });

  it('says how many submissions merged into papers held under another identifier and which were kept apart', async () => {
    // The arXiv preprint of the oral (same title and first author), and another venue's
    // submission whose record gives the spotlight's pdf link.
    const preprint = { title: 'Scaling Laws for Sparse Mixture-of-Experts Language Models', authors: ['Ana Ruiz', 'Mei Lin'], venue: 'arXiv', year: 2024, externalIds: { arxiv: '2410.01234' } };
    const other = {
      title: 'Forgetting in Diffusion Models, Revisited', authors: ['Tomás Okafor'], venue: 'NeurIPS', year: 2024,
      externalIds: { openreview: 'Nx1aB2cD3e' }, links: { pdf: 'https://openreview.net/pdf/0000000000000000000000000000000000017334.pdf' },
    };
    await putRecords(store, [PaperRecordSchema.parse(preprint)], { source: 'arxiv', classify, now: clock.now() });
    await putRecords(store, [PaperRecordSchema.parse(other)], { source: 'openreview', classify, now: clock.now() });
    server.serve(DECIDED, notesKey);
    const summary = await sync();
    expect(summary).toMatchObject({ added: 4, updated: 1, merged: 1, apart: 1 });
    expect(summary.venues[0]).toMatchObject({ merged: 1, apart: 1 });
    expect((await store.findByRef({ kind: 'openreview', id: 'Kx7vQ2mN9a' }))!.paper).toMatchObject({ id: 'arxiv:2410.01234', venue: 'ICLR', status: 'Oral' });
    const text = formatOpenReviewSummary(summary).split('\n');
    expect(text[0]).toBe(`OpenReview ${VENUE}: 7 of 7 submissions: 4 added, 1 updated, 0 unchanged, 2 skipped, 1 merged into a paper held under another identifier, 1 kept apart`);
    expect(text.slice(-4)).toEqual([
      'Total: 4 added, 1 updated, 0 unchanged, 2 skipped, 1 merged into a paper held under another identifier, 1 kept apart',
      'Kept apart: 1 record shares an identifier with a paper it is not (another arXiv id, DOI or OpenReview id, or only a link in common), so it was not merged into that paper:',
      '  url:openreview.net/pdf/0000000000000000000000000000000000017334.pdf: 1 record, OpenReview Bq3wE8rT1y (not openreview:Nx1aB2cD3e: another OpenReview id)',
      'A link that papers which differ share identifies none of them from now on: a record finds its paper by its other identifiers.',
    ]);
    // Held under its forum id now: a re-sync merges nothing new.
    clock.advance(86_400_000);
    server.serve(DECIDED, notesKey);
    expect(await sync()).toMatchObject({ added: 0, unchanged: 5, merged: 0, apart: 0 });
  });

  it('updates decisions on a re-sync, and remembers when decisions first appeared', async () => {
    server.serve({ [`invitation=${VENUE}/-/Submission&offset=0`]: page('iclr2025-under-review.json') }, notesKey);
    const before = await sync({ pageSize: 1000 });
    expect(before.venues[0]!.byStatus).toEqual({ 'Under review': 5 });
    expect((await store.get('openreview:Kx7vQ2mN9a'))!.status).toBe('Under review');
    expect((await harvests.get<VenueState>(venueKey(VENUE)))!.state).toEqual({ venue: VENUE, lastSync: '2025-01-30T04:00:00.000Z', count: 5, byStatus: { 'Under review': 5 } });

    clock.advance(86_400_000);
    server.serve(DECIDED, notesKey);
    const after = await sync();
    expect(after.venues[0]).toMatchObject({ added: 0, updated: 5, decisionsChanged: 5 });
    expect((await store.get('openreview:Kx7vQ2mN9a'))!.status).toBe('Oral');
    expect((await store.get('openreview:Pz1xC4vB5n'))!.status).toBe('Rejected');
    expect(formatOpenReviewSummary(after)).toContain('  5 decisions changed since the last sync');
    expect((await harvests.get<VenueState>(venueKey(VENUE)))!.state).toMatchObject({ lastSync: expect.stringMatching(/^2025-01-31T04:00/), decisionsSeenAt: expect.stringMatching(/^2025-01-31T04:00/) });
  });

  it('never lets a rejection take over an arXiv preprint, while an acceptance does', async () => {
    const preprint = (arxiv: string, title: string, author: string) => ({ title, authors: [author], abstract: 'Preprint.', venue: 'arXiv', year: 2024, status: '', keywords: [], labels: ['cs.LG'], links: {}, externalIds: { arxiv } });
    await putRecords(
      store,
      [preprint('2410.00001', 'A Benchmark of Benchmarks for Reasoning', 'Andrea Gelman'), preprint('2410.00002', 'Scaling Laws for Sparse Mixture-of-Experts Language Models', 'Ana Ruiz')],
      { source: 'arxiv', classify, now: clock.now() },
    );
    server.serve(DECIDED, notesKey);
    await sync();
    expect(await store.get('arxiv:2410.00001')).toMatchObject({ venue: 'arXiv', year: 2024, status: '', externalIds: { arxiv: '2410.00001', openreview: 'Pz1xC4vB5n' } });
    expect(await store.get('arxiv:2410.00002')).toMatchObject({ venue: 'ICLR', year: 2025, status: 'Oral' });
    expect(await store.count()).toBe(5);
  });

  it('logs in with the configured account and sends its token', async () => {
    server.serve({ 'POST /login': json({ token: 'tok-123', user: { id: '~Lab_Admin1' } }), ...DECIDED }, notesKey);
    await sync({}, { OPENREVIEW_USERNAME: 'lab-admin@example.org', OPENREVIEW_PASSWORD: 'hunter2' });
    expect(server.keys[0]).toBe('POST /login');
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ id: 'lab-admin@example.org', password: 'hunter2' });
    expect(server.requests.slice(1).map((r) => r.headers.authorization)).toEqual(['Bearer tok-123', 'Bearer tok-123', 'Bearer tok-123']);
  });

  it("explains OpenReview's challenge to anonymous queries", async () => {
    const challenge = json({ name: 'ChallengeRequiredError', message: 'Challenge verification required', status: 403, details: { challengeUrl: 'https://openreview.net/challenge' } }, 403);
    server.serve({ [`invitation=${VENUE}/-/Submission&offset=0`]: challenge }, notesKey);
    const summary = await sync();
    expect(summary.failed[0]!.reason).toMatch(
      /^OpenReview answered HTTP 403 Forbidden for .*: ChallengeRequiredError: Challenge verification required \(OpenReview wants a login for this query: set OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD\)$/,
    );
    expect(await store.count()).toBe(0);
  });

  it('reads a venue that files no submission invitation by where its submissions stand', async () => {
    const empty = json({ notes: [], count: 0 });
    const accepted = JSON.parse(openreviewFixture('iclr2025-offset-0.json')) as { notes: unknown[] };
    const rejected = JSON.parse(openreviewFixture('iclr2025-offset-3.json')) as { notes: unknown[] };
    server.serve(
      {
        [`invitation=${VENUE}/-/Submission&offset=0`]: empty,
        [`venueid=${VENUE}&offset=0`]: json({ notes: accepted.notes, count: 3 }),
        [`venueid=${VENUE}/Rejected_Submission&offset=0`]: json({ notes: rejected.notes.slice(1, 2), count: 1 }),
        [`venueid=${VENUE}/Withdrawn_Submission&offset=0`]: json({ notes: rejected.notes.slice(2), count: 1 }),
        [`venueid=${VENUE}/Desk_Rejected_Submission&offset=0`]: empty,
      },
      notesKey,
    );
    const summary = await sync({ pageSize: 1000 });
    expect(summary.venues[0]!.byStatus).toEqual({ Oral: 1, Spotlight: 1, Poster: 1, Rejected: 1, Withdrawn: 1 });
    expect(server.keys).toHaveLength(5);
  });

  it('reports a venue OpenReview does not know and goes on with the next', async () => {
    server.serve({ ...DECIDED, 'invitation=Nope.cc/2025/Conference/-/Submission&offset=0': json({ name: 'ValidationError', message: 'Invalid invitation' }, 400) }, notesKey);
    const summary = await sync({ venues: ['Nope.cc/2025/Conference', VENUE] });
    expect(summary.failed).toEqual([{ venue: 'Nope.cc/2025/Conference', reason: expect.stringMatching(/ValidationError: Invalid invitation \(is "Nope\.cc\/2025\/Conference" an OpenReview venue id\? e\.g\. ICLR\.cc\/2025\/Conference\)$/) }]);
    expect(summary.added).toBe(5);
  });
});
