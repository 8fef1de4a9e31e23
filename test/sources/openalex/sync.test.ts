/**
 * `sync openalex` against a loopback OpenAlex that answers as the API documents, on both
 * stores: DOIs and arXiv ids asked 50 a request, the rest one title search each; counts,
 * works and references stored, links in the library resolved; a title that fits two papers
 * gives neither a count; counts that cannot be believed refused without losing the count
 * there was; misses not asked again; 429 with Retry-After, 5xx and bodies that are not JSON
 * retried; a failure that stops the sync loses nothing and the next run resumes; a refresh
 * asks by work id for counts older than 30 days.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PaperRecord } from '../../../src/papers/model.js';
import { fetchHttp } from '../../../src/sources/http.js';
import { syncOpenAlex, type OpenAlexSyncDeps, type OpenAlexSyncOptions } from '../../../src/sources/openalex/sync.js';
import { formatOpenAlexSummary } from '../../../src/sources/openalex/summary.js';
import { userAgent } from '../../../src/userAgent.js';
import { silentLog } from '../../helpers/corpus.js';
import { BACKENDS, type Instance, type TestStore } from '../../store/contract/backends.js';
import { FakeClock } from '../helpers/fakeClock.js';
import { FakeOpenAlex, openAlexWork, type Work } from '../helpers/fakeOpenAlex.js';

const MAILTO = 'lab-admin@example.org';
const DAY_MS = 86_400_000;

const paper = (title: string, over: Partial<PaperRecord> = {}): PaperRecord => ({
  title,
  authors: ['Aino Virtanen', 'Rahul Iyer'],
  abstract: '',
  venue: 'ICML',
  year: 2020,
  status: '',
  keywords: [],
  labels: [],
  links: {},
  externalIds: {},
  ...over,
});

/** The library: ids, titles and what OpenAlex holds of each. */
const LIBRARY: PaperRecord[] = [
  paper('Sparse Routing for Invented Mixtures of Experts', { externalIds: { doi: '10.5555/invented.1' } }),
  paper('Invented Attention Is Enough', { externalIds: { arxiv: '1706.03762' }, year: 2017 }),
  paper('Graph Convolutions for Invented Node Labels', { authors: ['Thomas Kipf', 'Max Welling'], year: 2017 }),
  paper('A Paper OpenAlex Never Heard Of'),
  paper('Generative Adversarial Invented Nets', { authors: ['Ian Goodfellow', 'Yoshua Bengio'], year: 2014, externalIds: { openreview: 'GanFirst01' } }),
  // The same title, year and authors (the store files titles by first author: here another one).
  paper('Generative Adversarial Invented Nets', { authors: ['Yoshua Bengio', 'Ian Goodfellow'], year: 2014, externalIds: { openreview: 'GanSecond2' } }),
  paper('A Count Nobody Should Believe', { externalIds: { doi: '10.5555/invented.bad' } }),
];

const WORKS: Work[] = [
  openAlexWork({ n: 101, title: 'Sparse Routing for Invented Mixtures of Experts', year: 2020, authors: ['Aino Virtanen'], cited: 412, doi: '10.5555/invented.1', refs: [103, 999] }),
  openAlexWork({ n: 102, title: 'Invented Attention Is Enough', year: 2017, authors: ['Aino Virtanen'], cited: 90210, doi: '10.48550/arxiv.1706.03762', arxiv: '1706.03762', refs: [103] }),
  openAlexWork({ n: 103, title: 'Graph Convolutions for Invented Node Labels', year: 2017, authors: ['Thomas N. Kipf', 'Max Welling'], cited: 20000 }),
  // Same title, another year and other authors: not the library's paper.
  openAlexWork({ n: 130, title: 'Graph Convolutions for Invented Node Labels', year: 2009, authors: ['Somebody Else'], cited: 3 }),
  openAlexWork({ n: 105, title: 'Generative Adversarial Invented Nets', year: 2014, authors: ['Ian J. Goodfellow', 'Yoshua Bengio'], cited: 60000 }),
  openAlexWork({ n: 107, title: 'A Count Nobody Should Believe', year: 2020, authors: ['Aino Virtanen'], cited: -3, doi: '10.5555/invented.bad' }),
];

let server: FakeOpenAlex;
beforeAll(async () => {
  server = await new FakeOpenAlex().start();
});
afterAll(() => server.stop());

describe.each(BACKENDS)('sync openalex on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let db: Instance;
  let clock: FakeClock;
  /** Document numbers of LIBRARY's papers, in order. */
  let docs: number[];
  let ids: string[];

  beforeEach(async () => {
    store = await backend.create();
    db = await store.instance();
    clock = new FakeClock('2026-03-01T04:10:00Z');
    server.load(WORKS).requests.length = 0;
    const results = await db.papers.write((tx) => tx.upsertBatch(LIBRARY, { source: 'test', classify: () => [], now: clock.now() }));
    docs = results.map((r) => ('doc' in r ? r.doc : 0));
    ids = results.map((r) => ('id' in r ? r.id : ''));
  });
  afterEach(() => store.dispose());

  const deps = (over: Partial<OpenAlexSyncDeps> = {}): OpenAlexSyncDeps => ({
    papers: db.papers,
    citations: db.citations,
    jobs: db.jobs,
    config: { apiUrl: server.base, mailto: MAILTO },
    http: fetchHttp({ userAgent: userAgent(MAILTO), accept: 'application/json' }),
    clock,
    log: silentLog,
    ...over,
  });
  const sync = (options: OpenAlexSyncOptions = {}, over: Partial<OpenAlexSyncDeps> = {}) => syncOpenAlex(deps(over), options);
  const countOf = async (i: number) => (await db.citations.counts([docs[i]!])).get(docs[i]!)?.count;

  it('asks by DOI and arXiv DOI in one batch, by title one request each, and keeps counts, works and references', async () => {
    const summary = await sync();
    expect(summary).toMatchObject({ asked: 7, matched: 3, countsChanged: 3, unmatched: 1, ambiguous: 2, refused: 1, requests: 5, by: { work: 0, ids: 2, title: 1 }, changed: true });
    expect(summary.error).toBeUndefined();
    // One request for the three papers with ids, then one title search each for the other four.
    expect(server.filters).toEqual([
      'doi:10.5555/invented.1|10.48550/arxiv.1706.03762|10.5555/invented.bad',
      'title.search:graph convolutions for invented node labels,from_publication_date:2016-01-01,to_publication_date:2018-12-31',
      'title.search:a paper openalex never heard of,from_publication_date:2019-01-01,to_publication_date:2021-12-31',
      'title.search:generative adversarial invented nets,from_publication_date:2013-01-01,to_publication_date:2015-12-31',
      'title.search:generative adversarial invented nets,from_publication_date:2013-01-01,to_publication_date:2015-12-31',
    ]);
    for (const request of server.requests) {
      expect(request.status).toBe(200);
      expect(request.url.searchParams.get('mailto')).toBe(MAILTO);
      expect(request.url.searchParams.get('select')).toBe('id,doi,display_name,publication_year,authorships,cited_by_count,referenced_works,locations');
      expect(request.headers['user-agent']).toContain(`mailto:${MAILTO}`);
    }
    expect(server.requests[0]!.url.searchParams.get('per-page')).toBe('50');
    expect(server.requests[0]!.url.searchParams.get('cursor')).toBe('*');
    // 100 ms between requests: at most 10 a second.
    expect(clock.sleeps).toEqual([100, 100, 100, 100]);

    const counts = await db.citations.counts(docs);
    expect(new Map([...counts].map(([doc, c]) => [docs.indexOf(doc), [c.openalex, c.count]]))).toEqual(
      new Map([
        [0, ['W101', 412]],
        [1, ['W102', 90210]],
        [2, ['W103', 20000]],
      ]),
    );
    expect([...counts.values()].every((c) => c.fetched >= '2026-03-01T04:10:00.000Z' && c.fetched <= clock.now().toISOString())).toBe(true);
    // References resolved in the library both ways; W999 is kept for when the library has it.
    expect((await db.citations.references(docs[0]!, { offset: 0, limit: 5 })).entries).toEqual([{ doc: docs[2], count: 20000 }]);
    expect((await db.citations.citedBy(docs[2]!, { offset: 0, limit: 5 })).entries).toEqual([
      { doc: docs[1], count: 90210 },
      { doc: docs[0], count: 412 },
    ]);
    expect(await db.citations.stats()).toEqual({ matched: 3, unmatched: 3, references: 3 });
    // The index follows: counted papers changed generation.
    expect((await db.papers.rowsChanged(1, await db.papers.generation(), 0, 10)).map((r) => [docs.indexOf(r.doc), r.citedBy])).toEqual([
      [0, 412],
      [1, 90210],
      [2, 20000],
    ]);

    const text = formatOpenAlexSummary(summary);
    expect(text).toContain('OpenAlex: 7 papers asked about: 3 matched (3 with a new or changed count), 1 not found, 2 ambiguous, 1 count refused; 5 requests');
    expect(text).toContain(`ambiguous: W105 "Generative Adversarial Invented Nets" fits ${ids[4]}, ${ids[5]}: no count given to any of them`);
    expect(text).toContain(`refused: W107 for ${ids[6]}: cited_by_count -3 is not a whole number from 0 to 10,000,000`);
  });

  it('does not ask again about papers it asked about, except a count it refused', async () => {
    await sync();
    server.requests.length = 0;
    const again = await sync();
    expect(server.filters).toEqual(['doi:10.5555/invented.bad']);
    expect(again).toMatchObject({ asked: 1, matched: 0, refused: 1, requests: 1, changed: false });
  });

  it('batches up to 50 values a request, an arXiv id as its DOI, and matches each work to its paper', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      paper(`Invented Batch Paper Number ${i}`, { externalIds: i % 2 === 0 ? { doi: `10.5555/batch.${i}` } : { doi: `10.5555/batch.${i}`, arxiv: `2401.${String(10000 + i)}` } }),
    );
    await db.papers.write((tx) => tx.upsertBatch(many, { source: 'test', classify: () => [], now: clock.now() }));
    server.load([...WORKS, ...many.map((p, i) => openAlexWork({ n: 5000 + i, title: p.title, year: 2020, cited: i, doi: i % 3 === 0 && p.externalIds.arxiv ? `10.48550/arxiv.${p.externalIds.arxiv}` : `10.5555/batch.${i}` }))]);
    const summary = await sync();
    const doiRequests = server.filters.filter((f) => f.startsWith('doi:'));
    // 3 + 60 + 60×2 values = 183: four requests of at most 50 (a paper's two values go together).
    expect(doiRequests.map((f) => f.slice(4).split('|').length)).toEqual([49, 50, 49, 35]);
    expect(summary.requests).toBe(4 + 4);
    expect(summary).toMatchObject({ matched: 3 + 120, by: { ids: 2 + 120 } });
    const stored = await db.citations.counts(await Promise.all(many.map(async (p) => (await db.papers.findByRef({ kind: 'doi', id: p.externalIds.doi! }))!.doc)));
    expect([...stored.values()].map((c) => c.count).sort((a, b) => a - b)).toEqual(many.map((_, i) => i));
  });

  it('takes a DOI OpenAlex lacks as a miss, and looks for a preprint it lacks by arXiv DOI by its title', async () => {
    const more = [
      paper('An Invented Paper Whose DOI OpenAlex Lacks', { externalIds: { doi: '10.5555/lacking' } }),
      paper('An Invented Preprint Published Under Another DOI', { externalIds: { arxiv: '2301.00001' } }),
    ];
    await db.papers.write((tx) => tx.upsertBatch(more, { source: 'test', classify: () => [], now: clock.now() }));
    server.load([...WORKS, openAlexWork({ n: 200, title: 'An Invented Preprint Published Under Another DOI', year: 2020, authors: ['Aino Virtanen'], cited: 77, doi: '10.5555/published' })]);
    const summary = await sync();
    const titles = server.filters.filter((f) => f.startsWith('title.search:')).map((f) => f.split(',')[0]);
    expect(titles).toContain('title.search:an invented preprint published under another doi');
    expect(titles).not.toContain('title.search:an invented paper whose doi openalex lacks');
    expect(summary).toMatchObject({ asked: 9, matched: 4, unmatched: 2, requests: 1 + 5 });
    const preprint = await db.papers.findByRef({ kind: 'arxiv', id: '2301.00001' });
    expect((await db.citations.counts([preprint!.doc])).get(preprint!.doc)).toMatchObject({ openalex: 'W200', count: 77 });
  });

  it('fills batches of 50 across pages of papers when DOIs are spread thin', async () => {
    // 1,500 papers, one in 25 with a DOI: each page of 500 holds 20 of them.
    const spread = Array.from({ length: 1500 }, (_, i) => paper(`Invented Spread Paper Number ${i}`, i % 25 === 0 ? { externalIds: { doi: `10.5555/spread.${i}` } } : {}));
    await db.papers.write((tx) => tx.upsertBatch(spread, { source: 'test', classify: () => [], now: clock.now() }));
    server.load([...WORKS, ...spread.map((p, i) => openAlexWork({ n: 9000 + i, title: p.title, year: 2020, authors: ['Aino Virtanen'], cited: i, ...(p.externalIds.doi && { doi: p.externalIds.doi }) }))]);
    const summary = await sync();
    // 3 of the library's values and 60 DOIs: two requests, not one a page.
    expect(server.filters.filter((f) => f.startsWith('doi:')).map((f) => f.slice(4).split('|').length)).toEqual([50, 13]);
    expect(server.filters.filter((f) => f.startsWith('title.search:'))).toHaveLength(4 + 1440);
    expect(summary).toMatchObject({ asked: 7 + 1500, matched: 3 + 1500, by: { ids: 2 + 60, title: 1 + 1440 } });
  }, 60_000);

  it('waits as a 429 Retry-After says, retries 5xx and bodies that are not JSON, and finishes', async () => {
    server.fail(
      { status: 429, headers: { 'retry-after': '7', 'content-type': 'application/json' }, body: '{"error":"Rate limit exceeded"}' },
      { status: 503, body: 'busy' },
      { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Gateway hiccup</body></html>' },
    );
    const summary = await sync();
    expect(summary).toMatchObject({ asked: 7, matched: 3, requests: 8 });
    expect(summary.error).toBeUndefined();
    expect(server.requests.slice(0, 4).map((r) => r.status)).toEqual([429, 503, 200, 200]);
    expect(clock.sleeps).toContain(7000);
  });

  it('stops on a failure it cannot retry past, loses no count, and the next run resumes where it stopped', async () => {
    await sync();
    // Two papers not asked yet, and every count 40 days old; OpenAlex now counts 450 for W101.
    await db.citations.remove([docs[2]!, docs[3]!]);
    clock.advance(40 * DAY_MS);
    server.load(WORKS.map((w) => (w.id.endsWith('W101') ? { ...w, cited_by_count: 450 } : w)));
    server.requests.length = 0;
    // The refresh by work id goes through, then OpenAlex fails for good.
    server.fail(null, ...Array.from({ length: 5 }, () => ({ status: 500, body: 'Internal Server Error' })));
    const failed = await sync({ refresh: true }, { politeness: { backoffMs: 10 } });
    expect(failed.error).toMatch(/OpenAlex did not answer .* after 5 attempts \(last: HTTP 500/);
    expect(failed).toMatchObject({ asked: 2, matched: 2, countsChanged: 1, requests: 6 });
    expect(formatOpenAlexSummary(failed)).toContain('What was stored stays, no count was lost; run the same command again to resume.');
    // What the failed run stored stays, and no count was lost.
    expect(await countOf(0)).toBe(450);
    expect(await countOf(1)).toBe(90210);

    server.requests.length = 0;
    const resumed = await sync({ refresh: true });
    expect(resumed.error).toBeUndefined();
    // Only what was not answered: no second refresh of W101 and W102.
    expect(server.filters.filter((f) => f.startsWith('openalex:'))).toEqual([]);
    expect(server.filters[0]).toBe('doi:10.5555/invented.bad');
    expect(resumed).toMatchObject({ asked: 5, matched: 1 });
    expect(await countOf(2)).toBe(20000);
  });

  it('picks up after an abort exactly where it stopped: no paper asked twice', async () => {
    const stop = new AbortController();
    const first = await sync({ signal: stop.signal, onProgress: (p) => p.asked >= 3 && stop.abort() });
    expect(first.aborted).toBe(true);
    expect(server.filters).toEqual(['doi:10.5555/invented.1|10.48550/arxiv.1706.03762|10.5555/invented.bad']);
    server.requests.length = 0;
    const second = await sync();
    expect(second.aborted).toBe(false);
    // The refused count is asked again (as every run does); the rest only now.
    expect(server.filters.map((f) => f.split(',')[0])).toEqual([
      'doi:10.5555/invented.bad',
      'title.search:graph convolutions for invented node labels',
      'title.search:a paper openalex never heard of',
      'title.search:generative adversarial invented nets',
      'title.search:generative adversarial invented nets',
    ]);
    expect(second).toMatchObject({ asked: 5, matched: 1, ambiguous: 2, unmatched: 1 });
    expect(await countOf(2)).toBe(20000);
  });

  it('refreshes counts older than 30 days by work id, keeps the count there was when the new one is refused, and asks misses again', async () => {
    await sync();
    clock.advance(31 * DAY_MS);
    server.load(WORKS.map((w) => (w.id.endsWith('W101') ? { ...w, cited_by_count: 450 } : w.id.endsWith('W102') ? { ...w, cited_by_count: 1e9 } : w)));
    server.requests.length = 0;
    const refresh = await sync({ refresh: true });
    expect(server.filters[0]).toBe('openalex:W101|W102|W103');
    expect(refresh).toMatchObject({ countsChanged: 1, refused: 2 });
    expect(await countOf(0)).toBe(450);
    expect(await countOf(1)).toBe(90210);
    // The misses (not found, ambiguous) were asked again by title.
    expect(server.filters.filter((f) => f.startsWith('title.search:'))).toHaveLength(3);
    // Fresh counts are not asked again by a refresh the same day.
    server.requests.length = 0;
    await sync({ refresh: true });
    expect(server.filters).toEqual(['openalex:W102', 'doi:10.5555/invented.bad']);
  });
});
