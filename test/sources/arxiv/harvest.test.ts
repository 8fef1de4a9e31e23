/**
 * harvestArxiv end to end: real fetch against a loopback OAI-PMH server answering with the
 * fixture pages, the real store, harvest state and topic classifier, and a fake clock so arXiv's
 * 3-second spacing costs no time.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadTopics } from '../../../src/app.js';
import { fetchHttpGet } from '../../../src/sources/arxiv/client.js';
import { harvestArxiv, harvestKey, type HarvestOptions, type OaiHarvestState } from '../../../src/sources/arxiv/harvest.js';
import { formatHarvestSummary } from '../../../src/sources/arxiv/summary.js';
import { userAgent } from '../../../src/userAgent.js';
import { PaperRecordSchema } from '../../../src/papers/model.js';
import type { Db } from '../../../src/store/sqlite/db.js';
import type { SqliteHarvestStore } from '../../../src/store/sqlite/harvests.js';
import type { SqlitePaperStore } from '../../../src/store/sqlite/papers.js';
import { silentLog } from '../../helpers/corpus.js';
import { memoryStores, putRecords } from '../../helpers/stores.js';
import { FakeClock } from '../helpers/fakeClock.js';
import { fixture } from '../helpers/feedServer.js';
import { Loopback, xml, type KeyOf } from '../helpers/loopback.js';

const { classify } = loadTopics();
let clock: FakeClock;
let server: Loopback;
let db: Db;
let store: SqlitePaperStore;
let harvests: SqliteHarvestStore;

/** OAI requests by what they ask: a set from a day, or a resumption token. */
const oaiKey: KeyOf = (url) => {
  const p = url.searchParams;
  if (p.get('verb') !== 'ListRecords') return `bad verb ${p.get('verb')}`;
  const token = p.get('resumptionToken');
  if (token) return `token=${token}`;
  if (p.get('metadataPrefix') !== 'arXiv') return `bad prefix ${p.get('metadataPrefix')}`;
  return `set=${p.get('set')}&from=${p.get('from')}${p.has('until') ? `&until=${p.get('until')}` : ''}`;
};
const page = (name: string) => xml(fixture(name));
const CS_AND_STAT = {
  'set=cs&from=2024-01-01': page('oai-cs-page1.xml'),
  'token=7004309|4': page('oai-cs-page2.xml'),
  'set=stat&from=2024-01-01': page('oai-stat-page1.xml'),
};
const OPTIONS: HarvestOptions = { from: '2024-01-01', categories: ['cs.LG', 'cs.CL', 'stat.ML'] };

beforeAll(async () => {
  server = await new Loopback({ now: () => clock.now(), sleep: async () => {} }).start();
});
afterAll(() => server.stop());
beforeEach(() => {
  clock = new FakeClock('2024-02-01T10:00:00Z');
  db?.close();
  ({ db, store, harvests } = memoryStores());
});

const harvest = (options: Partial<HarvestOptions> = {}) =>
  harvestArxiv(
    { store, harvests, classify, oaiUrl: `${server.base}/oai`, http: fetchHttpGet({ userAgent: userAgent('lab-admin@example.org') }), clock, log: silentLog },
    { ...OPTIONS, ...options },
  );

/** Stores an arXiv preprint as the daily sync would have. */
async function holdPreprint(id: string, venue = 'arXiv') {
  const record = { title: `Paper ${id}`, authors: ['A. Author'], abstract: '', venue, year: 2023, status: venue === 'arXiv' ? '' : 'Poster', keywords: [], labels: [], links: {}, externalIds: { arxiv: id }, sourceKey: `arxiv:${id}` };
  await putRecords(store, [record], { source: venue === 'arXiv' ? 'arxiv' : 'paperlists:x', classify, now: clock.now() });
}

describe('harvestArxiv', () => {
  it('decodes LaTeX accents in names and titles (Bal\\\'azs to Balázs, Gr\\"obner to Gröbner)', async () => {
    server.serve(CS_AND_STAT, oaiKey);
    await harvest();
    const paper = (await store.findByRef({ kind: 'arxiv', id: '2401.00001' }))!.paper;
    expect(paper.authors.slice(0, 2)).toEqual(['Csaba Balázs', 'Ana María Ruiz']);
    expect(paper.title).toMatch(/^Gröbner Bases for Sparse Mixture-of-Experts/);
  });

  it('reads every page of each set, keeps the asked categories, stores a cross-list once and removes a deleted preprint', async () => {
    server.serve(CS_AND_STAT, oaiKey);
    await holdPreprint('2312.09999');
    const progress: unknown[] = [];
    const summary = await harvest({ onProgress: (p) => progress.push(p) });
    expect(server.keys).toEqual(['set=cs&from=2024-01-01', 'token=7004309|4', 'set=stat&from=2024-01-01']);
    expect(summary).toMatchObject({ added: 5, updated: 0, unchanged: 0, removed: 1, skipped: 1, failed: [], changed: true, aborted: false });
    expect(summary.sets).toMatchObject([
      { set: 'cs', start: { kind: 'fresh', from: '2024-01-01' }, pages: 2, records: 7, added: 4, outside: 1, deleted: 1, removed: 1, done: true, completeListSize: 7, skipped: [{ page: 2, index: 1, id: '2401.00005', reason: 'no title' }] },
      { set: 'stat', pages: 1, records: 2, added: 1, duplicates: 1, done: true },
    ]);
    expect(await store.count()).toBe(5);
    expect(await store.get('arxiv:2312.09999')).toBeUndefined();
    expect(await store.get('arxiv:2401.00002')).toBeUndefined(); // cs.CV only: not asked for
    const paper = (await store.get('arxiv:2401.00001'))!;
    expect(paper).toMatchObject({ venue: 'arXiv', year: 2023, published: '2023-12-29', labels: ['cs.LG', 'stat.ML'], links: { page: 'https://arxiv.org/abs/2401.00001' } });
    expect(paper.topics).toContain('deep-learning/large-language-models');
    expect(await store.get('arxiv:2401.00003')).toMatchObject({ authors: ['Mei Lin', 'John Smith Jr'], externalIds: { arxiv: '2401.00003', doi: '10.1234/invented.2024.3' } });
    expect(progress).toEqual([
      { set: 'cs', pages: 1, records: 4, completeListSize: 7, datestamp: '2024-01-04' },
      { set: 'cs', pages: 2, records: 7, completeListSize: 7, datestamp: '2024-01-06' },
      { set: 'stat', pages: 1, records: 2, datestamp: '2024-01-05' },
    ]);
    expect((await harvests.get<OaiHarvestState>(harvestKey(OPTIONS, 'cs')))!.state).toMatchObject({ done: true, datestamp: '2024-01-06', pages: 2, records: 7 });
  });

  it('says how many records merged into papers held under another identifier and which were kept apart', async () => {
    server.serve(CS_AND_STAT, oaiKey);
    // The workshop paper 2401.00003 is, by its DOI; an older preprint shares the title and first author of 2401.00001.
    const held = [
      { title: 'Parsing Low-Resource Languages with Cross-Lingual Transfer', authors: ['Mei Lin'], venue: 'Invented Workshop', year: 2024, externalIds: { doi: '10.1234/invented.2024.3' } },
      { title: 'Gröbner Bases for Sparse Mixture-of-Experts Routing in Large Language Models', authors: ['Csaba Balázs'], externalIds: { arxiv: '2312.00042' } },
    ].map((record) => PaperRecordSchema.parse(record));
    await putRecords(store, held, { source: 'paperlists:x', classify, now: clock.now() });
    const summary = await harvest();
    expect(summary).toMatchObject({ added: 4, updated: 1, merged: 1, apart: 1 });
    expect(summary.sets).toMatchObject([{ set: 'cs', merged: 1, apart: 1 }, { set: 'stat', merged: 0, apart: 0 }]);
    const text = formatHarvestSummary(summary).split('\n');
    expect(text[1]).toMatch(/^ {2}set cs, from 2024-01-01: .*, 1 skipped, 1 merged into a paper held under another identifier, 1 kept apart$/);
    expect(text).toContain('Total: 4 added, 1 updated, 0 unchanged, 0 removed, 1 skipped, 1 merged into a paper held under another identifier, 1 kept apart');
    expect(text.at(-1)).toBe('  title:grobner bases for sparse mixture of experts routing in large language models|balazs: 1 record, arXiv 2401.00001 (not arxiv:2312.00042: another arXiv id)');
  });

  it('asks at most once every 3 s with a User-Agent naming Paper Scout and its operator, and the request arXiv documents', async () => {
    server.serve(CS_AND_STAT, oaiKey);
    await harvest();
    const gaps = server.requests.slice(1).map((r, i) => r.at - server.requests[i]!.at);
    expect(gaps.length).toBeGreaterThan(0);
    expect(gaps.every((gap) => gap >= 3000)).toBe(true);
    expect(server.requests[0]!.headers['user-agent']).toBe('PaperScout/0.1 (paper-search bot for research groups; mailto:lab-admin@example.org)');
    expect(Object.fromEntries(server.requests[0]!.url.searchParams)).toEqual({ verb: 'ListRecords', metadataPrefix: 'arXiv', set: 'cs', from: '2024-01-01' });
    expect(Object.fromEntries(server.requests[1]!.url.searchParams)).toEqual({ verb: 'ListRecords', resumptionToken: '7004309|4' });
  });

  it("waits out arXiv's 503 flow control for as long as Retry-After says", async () => {
    server.serve({ ...CS_AND_STAT, 'token=7004309|4': [{ status: 503, headers: { 'retry-after': '20' }, body: 'Retry after 20 seconds' }, page('oai-cs-page2.xml')] }, oaiKey);
    const summary = await harvest({ categories: ['cs.LG'] });
    expect(summary.sets[0]).toMatchObject({ pages: 2, done: true });
    expect(clock.sleeps).toContain(20_000);
    expect(server.keys).toEqual(['set=cs&from=2024-01-01', 'token=7004309|4', 'token=7004309|4']);
  });

  it('resumes at the stored token after a kill between pages, and finishes the list', async () => {
    server.serve(CS_AND_STAT, oaiKey);
    const stop = new AbortController();
    const first = await harvest({ categories: ['cs.LG', 'cs.CL'], signal: stop.signal, onProgress: () => stop.abort() });
    expect(first).toMatchObject({ aborted: true, added: 2 });
    expect(server.keys).toEqual(['set=cs&from=2024-01-01']);
    expect((await harvests.get<OaiHarvestState>(harvestKey({ ...OPTIONS, categories: ['cs.LG', 'cs.CL'] }, 'cs')))!.state).toMatchObject({ token: '7004309|4', pages: 1, datestamp: '2024-01-04', done: false });

    server.serve(CS_AND_STAT, oaiKey);
    const again = await harvest({ categories: ['cs.CL', 'cs.LG'] }); // same command, categories in any order
    expect(server.keys).toEqual(['token=7004309|4']);
    expect(again.sets[0]).toMatchObject({ start: { kind: 'token' }, pages: 1, added: 2, done: true });
    expect(await store.count()).toBe(4);
    expect(formatHarvestSummary(again)).toContain('set cs, resumed at the stored resumption token: 1 page, 3 of 7 records: 2 added');
  });

  it('starts the list again from the last datestamp stored when arXiv refuses the token, never from the beginning', async () => {
    server.serve(CS_AND_STAT, oaiKey);
    const stop = new AbortController();
    await harvest({ categories: ['cs.LG'], signal: stop.signal, onProgress: () => stop.abort() });
    server.serve({ 'token=7004309|4': page('oai-error-bad-token.xml'), 'set=cs&from=2024-01-04': page('oai-cs-page2.xml') }, oaiKey);
    const summary = await harvest({ categories: ['cs.LG'] });
    expect(server.keys).toEqual(['token=7004309|4', 'set=cs&from=2024-01-04']);
    expect(summary.sets[0]).toMatchObject({ restarts: [{ page: 2, from: '2024-01-04', reason: 'The value of the resumptionToken argument is invalid or expired.' }], done: true, added: 2 });
    expect(formatHarvestSummary(summary)).toContain('arXiv refused the resumption token at page 2 (The value of the resumptionToken argument is invalid or expired.): started the list again from 2024-01-04');
  });

  it('harvests a finished command again only from its last datestamp', async () => {
    server.serve(CS_AND_STAT, oaiKey);
    await harvest({ categories: ['cs.LG'] });
    server.serve({ 'set=cs&from=2024-01-06': page('oai-error-no-records.xml') }, oaiKey);
    const again = await harvest({ categories: ['cs.LG'] });
    expect(server.keys).toEqual(['set=cs&from=2024-01-06']);
    expect(again).toMatchObject({ added: 0, failed: [], changed: false });
    expect(again.sets[0]).toMatchObject({ start: { kind: 'datestamp', from: '2024-01-06' }, done: true, pages: 0 });
  });

  it('reports an OAI error by its code and goes on with the other sets', async () => {
    server.serve({ 'set=cs&from=2024-01-01': page('oai-error-bad-argument.xml'), 'set=stat&from=2024-01-01': page('oai-stat-page1.xml') }, oaiKey);
    const summary = await harvest();
    expect(summary.failed).toEqual([{ set: 'cs', reason: "arXiv's OAI-PMH answered error badArgument: Illegal set value: nosuch (set cs, page 1)" }]);
    expect(summary.sets[1]).toMatchObject({ set: 'stat', added: 2, done: true });
    expect(formatHarvestSummary(summary)).toMatch(/1 of 2 sets stopped early\. Run the same command again to resume where it stopped\.$/);
  });

  it('stores a page whole or not at all: a failure part way leaves neither its papers nor a new token', async () => {
    server.serve(CS_AND_STAT, oaiKey);
    const failing = (paper: Parameters<typeof classify>[0]) => {
      if (paper.title.startsWith('Parsing Low-Resource')) throw new Error('classifier broke');
      return classify(paper);
    };
    const summary = await harvestArxiv(
      { store, harvests, classify: failing, oaiUrl: `${server.base}/oai`, http: fetchHttpGet(), clock, log: silentLog },
      { ...OPTIONS, categories: ['cs.LG'] },
    );
    expect(summary.failed).toEqual([{ set: 'cs', reason: 'classifier broke' }]);
    expect(await store.count()).toBe(0);
    expect(await harvests.get(harvestKey({ ...OPTIONS, categories: ['cs.LG'] }, 'cs'))).toBeUndefined();
  });

  it('skips a broken record of a page, naming the page and the record, and stores the rest', async () => {
    server.serve({ ...CS_AND_STAT, 'token=7004309|4': page('oai-cs-page2-broken-record.xml') }, oaiKey);
    const summary = await harvest({ categories: ['cs.LG'] });
    expect(summary.sets[0]!.skipped).toEqual([
      { page: 2, index: 0, id: '2401.00004', reason: expect.stringMatching(/^not well-formed XML/) },
      { page: 2, index: 1, id: '2401.00005', reason: 'no title' },
    ]);
    expect(await store.get('arxiv:2401.00006')).toBeDefined();
    expect(formatHarvestSummary(summary)).toContain('    page 2, record 0 (arXiv 2401.00004) skipped: not well-formed XML');
  });

  it('asks again for a page that came back unreadable, then stops the set where a rerun resumes', async () => {
    const html = { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><head><title>Gateway hiccup</title></head></html>' };
    server.serve({ ...CS_AND_STAT, 'token=7004309|4': [html, page('oai-cs-page2.xml')] }, oaiKey);
    expect((await harvest({ categories: ['cs.LG'] })).sets[0]).toMatchObject({ done: true, pages: 2 });

    db.close();
    ({ db, store, harvests } = memoryStores());
    server.serve({ ...CS_AND_STAT, 'token=7004309|4': html }, oaiKey);
    const summary = await harvest({ categories: ['cs.LG'] });
    expect(server.keys.filter((k) => k.startsWith('token'))).toHaveLength(3);
    expect(summary.failed).toEqual([{ set: 'cs', reason: 'page 2 of set cs: expected an OAI-PMH response, got <html> ("Gateway hiccup"); stopped here (run the same command again to resume)' }]);
    expect(await store.count()).toBe(2);
    expect((await harvests.get<OaiHarvestState>(harvestKey({ ...OPTIONS, categories: ['cs.LG'] }, 'cs')))!.state.token).toBe('7004309|4');
  });

  it('stops rather than loop when arXiv hands back the token it was asked with', async () => {
    const looping = fixture('oai-cs-page2.xml').replace('<resumptionToken cursor="4" completeListSize="7"/>', '<resumptionToken cursor="4" completeListSize="7">7004309|4</resumptionToken>');
    server.serve({ ...CS_AND_STAT, 'token=7004309|4': xml(looping) }, oaiKey);
    const summary = await harvest({ categories: ['cs.LG'] });
    expect(summary.failed[0]!.reason).toMatch(/with the same token again \(set cs, page 2\); stopped so as not to loop$/);
    expect(server.keys).toEqual(['set=cs&from=2024-01-01', 'token=7004309|4']);
  });

  it('retries 500, 502 and 504 with backoff', async () => {
    server.serve({ ...CS_AND_STAT, 'set=cs&from=2024-01-01': [{ status: 500 }, { status: 502 }, { status: 504 }, page('oai-cs-page1.xml')] }, oaiKey);
    const summary = await harvest({ categories: ['cs.LG'] });
    expect(summary.sets[0]).toMatchObject({ done: true });
    expect(clock.sleeps.slice(0, 3)).toEqual([5000, 10_000, 20_000]);
  });
});
