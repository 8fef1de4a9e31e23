/**
 * syncArxiv end to end: real fetch against a loopback server serving the fixture feeds, the real
 * store and topic classifier, and a fake clock so arXiv's 3-second spacing costs no time.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadTopics } from '../../../src/app.js';
import { loadConfig, type ArxivConfig } from '../../../src/config.js';
import { fetchHttpGet } from '../../../src/sources/arxiv/client.js';
import { formatSyncSummary } from '../../../src/sources/arxiv/summary.js';
import { lastFeedKey, lastSyncKey, missedAnnouncementDays, syncArxiv, type SyncOptions } from '../../../src/sources/arxiv/sync.js';
import { PaperRecordSchema } from '../../../src/papers/model.js';
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../../src/store/sqlite/papers.js';
import { silentLog } from '../../helpers/corpus.js';
import { FakeClock } from '../helpers/fakeClock.js';
import { atom, FeedServer, rss } from '../helpers/feedServer.js';

const { classify } = loadTopics();
const DAY = 86_400_000;
let clock: FakeClock;
let server: FeedServer;
let store: SqlitePaperStore;
let config: ArxivConfig;

beforeAll(async () => {
  server = await new FeedServer({ now: () => clock.now(), sleep: async () => {} }).start();
  config = loadConfig({ ...server.env, ARXIV_CATEGORIES: 'cs.LG,cs.CL' }).arxiv;
});
afterAll(() => server.stop());
beforeEach(() => {
  clock = new FakeClock('2025-04-14T06:30:00Z');
  void store?.close();
  store = new SqlitePaperStore(openDatabase(':memory:'), { ownsDatabase: true });
});

const sync = (options: SyncOptions = {}) => syncArxiv({ store, classify, config, http: fetchHttpGet(), clock, log: silentLog }, options);
/** An API page as arXiv sporadically serves it: no entries, no results counted. */
const EMPTY_API_PAGE = {
  headers: { 'content-type': 'application/atom+xml' },
  body: `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">ArXiv Query: search_query=cat:cs.LG&amp;id_list=&amp;start=0&amp;max_results=3</title>
  <id>http://arxiv.org/api/empty</id>
  <updated>2025-04-14T00:00:00-04:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">3</opensearch:itemsPerPage>
</feed>`,
};
/** The API's answer to a malformed id, as it sends it with HTTP 400. */
const API_ERROR = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3D%26id_list%3Dabc%26start%3D0%26max_results%3D10" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=&amp;id_list=abc&amp;start=0&amp;max_results=10</title>
  <id>http://arxiv.org/api/errorid</id>
  <updated>2025-04-14T00:00:00-04:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_abc</id>
    <title>Error</title>
    <summary>incorrect id format for abc</summary>
    <updated>2025-04-14T00:00:00-04:00</updated>
    <link href="http://arxiv.org/api/errors#incorrect_id_format_for_abc" rel="alternate" type="text/html"/>
    <author><name>arXiv api core</name></author>
  </entry>
</feed>`;
const MONDAY = { '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml'), '/rss/cs.CL': rss('rss-cs.CL-2025-04-14.xml') };

describe('syncArxiv', () => {
  it('adds a normal day with topics, one paper per cross-listing, and leaves out new versions of unknown papers', async () => {
    server.serve(MONDAY);
    const summary = await sync();
    expect(summary).toMatchObject({ added: 5, updated: 0, unchanged: 0, skipped: 0, failed: [], changed: true, aborted: false });
    expect(summary.categories).toMatchObject([
      { category: 'cs.LG', feedDate: '2025-04-14', fetched: 6, added: 4, replacementsIgnored: 2, duplicates: 0, empty: false },
      { category: 'cs.CL', feedDate: '2025-04-14', fetched: 2, added: 1, duplicates: 1 },
    ]);
    expect(await store.count()).toBe(5);
    const moe = (await store.get('arxiv:2504.09001'))!;
    expect(moe).toMatchObject({
      title: 'Sparse Mixture-of-Experts Routing for Large Language Models at Small Scale',
      authors: ['Ana Ruiz', 'Tomás Okafor', 'Mei Lin'],
      venue: 'arXiv',
      year: 2025,
      published: '2025-04-14',
      labels: ['cs.LG', 'cs.CL'],
      links: { page: 'https://arxiv.org/abs/2504.09001', pdf: 'https://arxiv.org/pdf/2504.09001' },
      firstSeen: '2025-04-14T06:30:00.000Z',
    });
    expect(moe.topics).toContain('deep-learning/large-language-models');
    expect((await store.get('arxiv:2504.09101'))!.topics).toContain('deep-learning/large-language-models');
    expect((await store.get('arxiv:2504.09002'))!.topics).toContain('reinforcement-learning/offline');
    expect((await store.get('arxiv:2504.09003'))!.topics).toContain('deep-learning/graph-neural-networks');
    expect(await store.get('arxiv:2503.12345')).toBeUndefined();
    expect(await store.get('arxiv:2412.01234')).toBeUndefined();
    expect((await store.findByRef({ kind: 'doi', id: '10.5555/example.2025.0042' }))?.paper.id).toBe('arxiv:2504.09003');
    expect(await store.getMeta(lastSyncKey('cs.LG'))).toBe('2025-04-14T06:30:00.000Z');
    expect(await store.getMeta(lastSyncKey('cs.CL'))).toBe('2025-04-14T06:30:03.000Z'); // after the 3 s spacing
    expect(await store.getMeta(lastFeedKey('cs.CL'))).toBe('2025-04-14');
  });

  it('says how many records merged into papers held under another identifier and which were kept apart', async () => {
    // A proceedings paper without its arXiv id (found again by title and first author), and
    // another paper with the DOI the feed gives 2504.09003 but another arXiv id.
    const held = [
      { title: 'Tokenizer-Free Language Modeling with Byte-Level Patches', authors: ['Ines Duarte', 'Kofi Mensah'], venue: 'ICML', year: 2025, status: 'Poster' },
      { title: 'A Different Paper on Graph Calibration', authors: ['Priya Natarajan'], externalIds: { arxiv: '2411.00001', doi: '10.5555/example.2025.0042' } },
    ].map((record) => PaperRecordSchema.parse(record));
    await store.write((tx) => tx.upsertBatch(held, { source: 'paperlists:icml2025', classify, now: clock.now() }));
    server.serve({ '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml') });
    const summary = await sync({ categories: ['cs.LG'] });
    expect(summary).toMatchObject({ added: 3, updated: 1, merged: 1, apart: 1 });
    expect(summary.categories[0]).toMatchObject({ merged: 1, apart: 1 });
    expect(summary.apartGroups).toEqual([
      { alias: 'doi:10.5555/example.2025.0042', records: 1, first: { alias: 'doi:10.5555/example.2025.0042', paper: 'arxiv:2411.00001', differs: 'arxiv', record: 'arXiv 2504.09003' } },
    ]);
    expect(formatSyncSummary(summary).split('\n')).toEqual([
      'arXiv cs.LG, feed of 2025-04-14: 6 entries: 3 added, 1 updated, 0 unchanged, 0 skipped, 2 new versions of papers not in the library left out, ' +
        '1 merged into a paper held under another identifier, 1 kept apart',
      'Total: 3 added, 1 updated, 0 unchanged, 0 skipped, 1 merged into a paper held under another identifier, 1 kept apart',
      'Kept apart: 1 record shares an identifier with a paper it is not (another arXiv id, DOI or OpenReview id, or only a link in common), so it was not merged into that paper:',
      '  doi:10.5555/example.2025.0042: 1 record, arXiv 2504.09003 (not arxiv:2411.00001: another arXiv id)',
    ]);
    // The merged paper is now held under its arXiv id too: the next sync merges nothing new.
    clock.advance(3600_000);
    expect(await sync({ categories: ['cs.LG'] })).toMatchObject({ added: 0, unchanged: 4, merged: 0, apart: 0, apartGroups: [] });
  });

  it('asks at most once every 3 s, across categories, with a User-Agent naming Paper Scout', async () => {
    server.serve(MONDAY);
    await sync();
    expect(server.requests.map((r) => r.key)).toEqual(['/rss/cs.LG', '/rss/cs.CL']);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(3000);
    expect(server.requests[0]!.userAgent).toMatch(/^PaperScout\//);
  });

  it('changes nothing when the same day is synced again', async () => {
    server.serve(MONDAY);
    await sync();
    const generation = await store.generation();
    clock.advance(3600_000);
    const again = await sync();
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 5, changed: false });
    expect(await store.generation()).toBe(generation);
  });

  it("updates a paper from its v2 `replace` item instead of adding it, keeping when it first appeared", async () => {
    server.serve(MONDAY);
    await sync();
    clock.advance(DAY);
    server.serve({ '/rss/cs.LG': rss('rss-cs.LG-2025-04-15.xml') });
    const summary = await sync({ categories: ['cs.LG'] });
    expect(summary.categories[0]).toMatchObject({ feedDate: '2025-04-15', added: 1, updated: 1, unchanged: 0, replacementsIgnored: 0 });
    expect(await store.count()).toBe(6);
    const moe = (await store.get('arxiv:2504.09001'))!;
    expect(moe.abstract).toMatch(/Version 2 adds experiments at 350M parameters/);
    expect(moe).toMatchObject({ published: '2025-04-14', year: 2025, firstSeen: '2025-04-14T06:30:00.000Z' });
    expect((await store.get('arxiv:2504.10001'))!.topics).toContain('deep-learning/attention-mechanisms');
  });

  it('reads an empty weekend feed as nothing to add, not an error', async () => {
    server.serve({ '/rss/cs.LG': rss('rss-empty-weekend.xml') });
    const summary = await sync({ categories: ['cs.LG'] });
    expect(summary).toMatchObject({ added: 0, failed: [], changed: false });
    expect(summary.categories[0]).toMatchObject({ feedDate: '2025-04-19', empty: true, fetched: 0 });
    expect(summary.categories[0]!.error).toBeUndefined();
    expect(await store.getMeta(lastFeedKey('cs.LG'))).toBe('2025-04-19');
    expect(formatSyncSummary(summary)).toBe('arXiv cs.LG, feed of 2025-04-19: no announcements (a weekend or holiday feed)\nTotal: 0 added, 0 updated, 0 unchanged, 0 skipped, 0 merged into papers held under another identifier, 0 kept apart');
  });

  it('reports a malformed entry with its index and adds the rest', async () => {
    server.serve({ '/rss/cs.LG': rss('rss-cs.LG-malformed.xml') });
    const summary = await sync({ categories: ['cs.LG'] });
    expect(summary).toMatchObject({ added: 2, skipped: 2, failed: [] });
    expect(summary.categories[0]!.skipped).toEqual([
      { source: 'rss', index: 1, reason: 'no title (arXiv 2504.11002)' },
      { source: 'rss', index: 2, reason: 'no arXiv id: its guid, link and description name none' },
    ]);
    expect(formatSyncSummary(summary)).toContain('  RSS item 1 skipped: no title (arXiv 2504.11002)\n  RSS item 2 skipped: no arXiv id');
  });

  it('waits out a 503 and then syncs', async () => {
    server.serve({ '/rss/cs.LG': [{ status: 503, headers: { 'retry-after': '7' }, body: 'busy' }, rss('rss-cs.LG-2025-04-14.xml')] });
    const summary = await sync({ categories: ['cs.LG'] });
    expect(summary).toMatchObject({ added: 4, failed: [] });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBe(7000);
    expect(clock.sleeps).toEqual([7000]);
  });

  it('lists a failing category and carries on with the others', async () => {
    server.serve({
      '/rss/cs.XX': { status: 404, body: 'Not Found' },
      '/rss/cs.LG': { status: 200, body: '<!DOCTYPE html><html><head><title>Maintenance</title><meta charset="utf-8"></head></html>' },
      '/rss/cs.CL': rss('rss-cs.CL-2025-04-14.xml'),
      '/rss/cs.RO': { status: 503 },
    });
    const summary = await sync({ categories: ['cs.XX', 'cs.LG', 'cs.CL', 'cs.RO'] });
    expect(summary.added).toBe(2);
    expect(summary.failed.map((f) => f.category)).toEqual(['cs.XX', 'cs.LG', 'cs.RO']);
    expect(summary.failed[0]!.reason).toMatch(/^arXiv answered HTTP 404 Not Found for http:\/\/127\.0\.0\.1:\d+\/rss\/cs\.XX: Not Found \(is "cs\.XX" an arXiv category\? e\.g\. cs\.LG\)$/);
    expect(summary.failed[1]!.reason).toMatch(/^expected an RSS feed but the body is not XML/);
    expect(summary.failed[2]!.reason).toMatch(/after 5 attempts \(last: HTTP 503 Service Unavailable\)/);
    expect(await store.getMeta(lastSyncKey('cs.XX'))).toBeUndefined();
    expect(formatSyncSummary(summary)).toMatch(/; 3 of 4 categories failed$/);
  });

  it('catches up through the API after missed announcement days, back to the last feed synced', async () => {
    await store.setMeta(lastFeedKey('cs.LG'), '2025-04-09'); // Wednesday: Thursday's and Friday's announcements were missed
    server.serve({ '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml'), '/api/query?start=0': atom('api-cs.LG-start-0.xml'), '/api/query?start=3': atom('api-cs.LG-start-3.xml') });
    const summary = await sync({ categories: ['cs.LG'], catchUpPageSize: 3 });
    const [lg] = summary.categories;
    expect(lg).toMatchObject({ fetched: 12, added: 7, duplicates: 1, catchUp: { since: '2025-04-06', pages: 2, entries: 6, truncated: false } });
    expect(lg!.skipped).toEqual([{ source: 'api', index: 3, reason: 'no title (arXiv 2504.08660)' }]);
    const api = server.requests.find((r) => r.key === '/api/query?start=0')!.url.searchParams;
    expect(Object.fromEntries(api)).toEqual({ search_query: 'cat:cs.LG', sortBy: 'submittedDate', sortOrder: 'descending', start: '0', max_results: '3' });
    expect(await store.get('arxiv:2504.08702')).toMatchObject({ published: '2025-04-09', labels: ['stat.ML', 'cs.LG'], externalIds: { doi: '10.5555/example.drift.2025' } });
    expect(await store.get('arxiv:2504.08650')).toBeDefined();
    expect(await store.get('arxiv:2504.08000')).toBeUndefined(); // older than the window
    expect((await store.get('arxiv:2504.09001'))!.published).toBe('2025-04-14'); // the feed's record, not the API's duplicate
    const at = server.requests.map((r) => r.at);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(3000);
    expect(await store.getMeta(lastFeedKey('cs.LG'))).toBe('2025-04-14');
  });

  it('stops catching up at the page limit and says so', async () => {
    await store.setMeta(lastFeedKey('cs.LG'), '2025-04-09');
    server.serve({ '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml'), '/api/query?start=0': atom('api-cs.LG-start-0.xml') });
    const summary = await sync({ categories: ['cs.LG'], catchUpPageSize: 3, catchUpMaxPages: 1 });
    expect(summary.categories[0]!.catchUp).toEqual({ since: '2025-04-06', pages: 1, entries: 3, truncated: true });
    expect(formatSyncSummary(summary)).toContain('(stopped at the page limit: older papers were not fetched)');
  });

  it('writes the feed when catching up fails, and tries the catch-up again next time', async () => {
    await store.setMeta(lastFeedKey('cs.LG'), '2025-04-09');
    server.serve({ '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml'), '/api/query?start=0': { status: 500, body: 'oops' } });
    const summary = await sync({ categories: ['cs.LG'] });
    expect(summary).toMatchObject({ added: 4, failed: [] });
    expect(summary.categories[0]!.catchUp?.error).toMatch(/HTTP 500/);
    expect(await store.getMeta(lastFeedKey('cs.LG'))).toBe('2025-04-09');
    expect(await store.getMeta(lastSyncKey('cs.LG'))).toBeUndefined();
  });

  it('asks again for an empty API page instead of taking it for "caught up"', async () => {
    store.setMeta(lastFeedKey('cs.LG'), '2025-04-09');
    server.serve({
      '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml'),
      '/api/query?start=0': [EMPTY_API_PAGE, atom('api-cs.LG-start-0.xml')],
      '/api/query?start=3': atom('api-cs.LG-start-3.xml'),
    });
    const summary = await sync({ categories: ['cs.LG'], catchUpPageSize: 3 });
    expect(summary.categories[0]).toMatchObject({ added: 7, catchUp: { pages: 2, entries: 6 } });
    expect(summary.categories[0]!.catchUp!.error).toBeUndefined();
    expect(server.requests.map((r) => r.key)).toEqual(['/rss/cs.LG', '/api/query?start=0', '/api/query?start=0', '/api/query?start=3']);
    expect(await store.get('arxiv:2504.08650')).toBeDefined();
    expect(await store.getMeta(lastFeedKey('cs.LG'))).toBe('2025-04-14');
  });

  it('fails the catch-up when the API keeps answering empty, and tries the missed days again next time', async () => {
    store.setMeta(lastFeedKey('cs.LG'), '2025-04-09');
    server.serve({ '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml'), '/api/query?start=0': EMPTY_API_PAGE });
    const summary = await sync({ categories: ['cs.LG'], catchUpPageSize: 3 });
    expect(summary.categories[0]!.catchUp!.error).toMatch(/^the arXiv API answered 4 times with an empty page at offset 0 .*; it is asked again at the next sync$/);
    expect(server.requests.filter((r) => r.key === '/api/query?start=0')).toHaveLength(4);
    expect(await store.getMeta(lastFeedKey('cs.LG'))).toBe('2025-04-09');
    expect(await store.getMeta(lastSyncKey('cs.LG'))).toBeUndefined();
  });

  it.each([500, 502, 504])('retries an API %i with backoff', async (status) => {
    store.setMeta(lastFeedKey('cs.LG'), '2025-04-09');
    server.serve({
      '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml'),
      '/api/query?start=0': [{ status, body: 'Bad gateway' }, atom('api-cs.LG-start-0.xml')],
      '/api/query?start=3': atom('api-cs.LG-start-3.xml'),
    });
    const summary = await sync({ categories: ['cs.LG'], catchUpPageSize: 3 });
    expect(summary.categories[0]).toMatchObject({ added: 7, catchUp: { pages: 2 } });
    expect(clock.sleeps).toContain(5000);
  });

  it("reports the API's own explanation of an error, not its markup", async () => {
    store.setMeta(lastFeedKey('cs.LG'), '2025-04-09');
    server.serve({ '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml'), '/api/query?start=0': { status: 400, headers: { 'content-type': 'application/atom+xml' }, body: API_ERROR } });
    const summary = await sync({ categories: ['cs.LG'] });
    const error = summary.categories[0]!.catchUp!.error!;
    expect(error).toMatch(/^arXiv answered HTTP 400 Bad Request for http:\/\/127\.0\.0\.1:\d+\/api\/query\?.*: incorrect id format for abc$/);
    expect(error).not.toContain('ArXiv Query');
  });

  it('does not catch up over a weekend', async () => {
    await store.setMeta(lastFeedKey('cs.LG'), '2025-04-11'); // Friday
    server.serve({ '/rss/cs.LG': rss('rss-cs.LG-2025-04-14.xml') });
    const summary = await sync({ categories: ['cs.LG'] });
    expect(summary.categories[0]!.catchUp).toBeUndefined();
    expect(server.requests.map((r) => r.key)).toEqual(['/rss/cs.LG']);
  });

  it('stops before the next category once aborted, keeping what was written', async () => {
    server.serve(MONDAY);
    const controller = new AbortController();
    const summary = await syncArxiv(
      {
        store,
        classify,
        config,
        clock,
        log: silentLog,
        http: (url, options) => {
          if (url.endsWith('cs.CL')) controller.abort(); // Ctrl-C while cs.CL is being fetched
          return fetchHttpGet()(url, options);
        },
      },
      { signal: controller.signal },
    );
    expect(summary).toMatchObject({ aborted: true, added: 4 });
    expect(summary.categories.map((c) => c.category)).toEqual(['cs.LG']);
    expect(await store.count()).toBe(4);
  });
});

describe('missedAnnouncementDays', () => {
  it.each([
    ['2025-04-11', '2025-04-14', 0],
    ['2025-04-14', '2025-04-15', 0],
    ['2025-04-09', '2025-04-14', 2],
    ['2025-04-19', '2025-04-22', 1],
    ['2025-04-14', '2025-04-14', 0],
    ['2025-04-15', '2025-04-14', 0],
    ['2025-03-31', '2025-04-14', 9],
  ])('%s → %s: %i', (last, feed, missed) => {
    expect(missedAnnouncementDays(last, feed)).toBe(missed);
  });
});
