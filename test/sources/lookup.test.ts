/**
 * Lookups of papers the library lacks, against loopback servers answering as arXiv's API
 * (Atom), OpenAlex (work JSON) and OpenReview (notes JSON) do, with the real store and a fake
 * clock.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadTopics } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { translate } from '../../src/i18n/index.js';
import { UpstreamLookup, type LookupDeps, type LookupOutcome } from '../../src/sources/lookup.js';
import type { SqlitePaperStore } from '../../src/store/sqlite/papers.js';
import { memoryStores } from '../helpers/stores.js';
import { silentLog } from '../helpers/corpus.js';
import { FakeClock } from './helpers/fakeClock.js';
import { fixture } from './helpers/feedServer.js';
import { Loopback, gate, json, xml } from './helpers/loopback.js';
import { openreviewFixture } from './openreview/helpers.js';

const { classify } = loadTopics();
let server: Loopback;
let store: SqlitePaperStore;
let clock: FakeClock;

const openalexWork = () => readFileSync(fileURLToPath(new URL('../fixtures/openalex/work-10.5555-invented.2024.77.json', import.meta.url)), 'utf8');
const EMPTY = xml(`<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>ArXiv Query: id_list=2501.99999</title><opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:totalResults></feed>`);
const ARXIV = '/api/query?id_list=2501.01234&max_results=1';
const OPENALEX = '/openalex/works/doi:10.5555/invented.2024.77?mailto=lab-admin%40example.org';

beforeAll(async () => {
  server = await new Loopback().start();
});
afterAll(() => server.stop());
beforeEach(() => {
  clock = new FakeClock('2025-01-20T12:00:00Z');
  ({ store } = memoryStores());
});

/** A missing or failed outcome with its message in English words. */
function inWords(outcome: LookupOutcome): unknown {
  return outcome.kind === 'found' ? outcome : { kind: outcome.kind, message: translate('en', outcome.message) };
}

function lookup(overrides: Partial<LookupDeps> = {}) {
  const config = loadConfig({
    ARXIV_API_URL: `${server.base}/api/query`,
    OPENALEX_API_URL: `${server.base}/openalex`,
    OPENREVIEW_API_URL: `${server.base}/openreview`,
    PAPERSCOUT_CONTACT: 'lab-admin@example.org',
  });
  return new UpstreamLookup({ store, classify, clock, log: silentLog, config, ...overrides });
}

describe('UpstreamLookup', () => {
  it('fetches an arXiv paper the library lacks, adds it, and finds it in the library the next time', async () => {
    server.serve({ [ARXIV]: xml(fixture('api-id-2501.01234.xml')) });
    const found = await lookup().find({ kind: 'arxiv', id: '2501.01234' });
    expect(found).toMatchObject({ kind: 'found', added: true, source: 'arXiv', paper: { id: 'arxiv:2501.01234', title: 'Quasicrystalline Tilings Learned by Equivariant Flow Matching', authors: ['Ingrid Valdés', 'Kofi Mensah'], venue: 'arXiv', year: 2025, labels: ['cs.LG', 'math-ph'] } });
    expect(await store.get('arxiv:2501.01234')).toBeDefined();
    expect(server.requests[0]!.headers['user-agent']).toContain('mailto:lab-admin@example.org');
    const again = await lookup().find({ kind: 'arxiv', id: '2501.01234' });
    expect(again).toMatchObject({ kind: 'found', added: false });
    expect(server.requests).toHaveLength(1);
  });

  it('says arXiv has no such paper after asking again once (arXiv serves empty pages by mistake), and remembers it', async () => {
    server.serve({ '/api/query?id_list=2501.99999&max_results=1': EMPTY });
    const service = lookup();
    expect(inWords(await service.find({ kind: 'arxiv', id: '2501.99999' }))).toEqual({ kind: 'missing', message: 'No paper 2501.99999 found on arXiv. Check the id, or search by its title.' });
    expect(server.requests).toHaveLength(2);
    expect(await service.find({ kind: 'arxiv', id: '2501.99999' })).toMatchObject({ kind: 'missing' });
    expect(server.requests).toHaveLength(2);
    clock.advance(11 * 60_000);
    await service.find({ kind: 'arxiv', id: '2501.99999' });
    expect(server.requests).toHaveLength(4);
  });

  it('takes a 404 from arXiv for "not found on arXiv"', async () => {
    server.serve({});
    expect(inWords(await lookup().find({ kind: 'arxiv', id: '2501.01234' }))).toEqual({ kind: 'missing', message: 'No paper 2501.01234 found on arXiv. Check the id, or search by its title.' });
  });

  it("quotes arXiv's own explanation when it refuses an id", async () => {
    const refusal = `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_9999.1</id><title>Error</title><summary>incorrect id format for 9999.1</summary></entry></feed>`;
    server.serve({ '/api/query?id_list=9999.1&max_results=1': xml(refusal, 400) });
    expect(inWords(await lookup().find({ kind: 'arxiv', id: '9999.1' }))).toEqual({ kind: 'missing', message: 'arXiv does not take "9999.1" as an arXiv id: incorrect id format for 9999.1' });
  });

  it('fetches a DOI from OpenAlex with the contact as mailto, rebuilding the abstract from its inverted index', async () => {
    server.serve({ [OPENALEX]: json(JSON.parse(openalexWork())) });
    const found = await lookup().find({ kind: 'doi', id: '10.5555/invented.2024.77' });
    expect(found).toMatchObject({
      kind: 'found',
      source: 'OpenAlex',
      paper: {
        title: 'Folding Invented Proteins with Graph Neural Networks',
        authors: ['Aino Virtanen', 'Rahul Iyer'],
        abstract: 'Graph neural networks predict the folding of invented proteins from their contact graphs and the folding of real ones from their sequences',
        venue: 'Journal of Invented Biology',
        year: 2024,
        published: '2024-03-14',
        keywords: ['Protein folding', 'Graph neural network'],
        externalIds: { doi: '10.5555/invented.2024.77', arxiv: '2312.05555' },
      },
    });
    expect(await store.findByRef({ kind: 'doi', id: '10.5555/invented.2024.77' })).toBeDefined();
  });

  it('says OpenAlex has no such DOI on a 404', async () => {
    server.serve({});
    expect(inWords(await lookup().find({ kind: 'doi', id: '10.5555/nothing' }))).toEqual({ kind: 'missing', message: 'No work with the DOI 10.5555/nothing found on OpenAlex. Check the DOI, or search by its title.' });
  });

  it('fetches an OpenReview forum with its decision', async () => {
    server.serve({ '/openreview/notes?id=Kx7vQ2mN9a': { headers: { 'content-type': 'application/json' }, body: openreviewFixture('note-Kx7vQ2mN9a.json') } });
    expect(await lookup().find({ kind: 'openreview', id: 'Kx7vQ2mN9a' })).toMatchObject({ kind: 'found', source: 'OpenReview', paper: { id: 'openreview:Kx7vQ2mN9a', venue: 'ICLR', year: 2025, status: 'Oral' } });
    server.serve({ '/openreview/notes?id=Nothing123': json({ notes: [], count: 0 }) });
    expect(inWords(await lookup().find({ kind: 'openreview', id: 'Nothing123' }))).toMatchObject({ kind: 'missing', message: expect.stringContaining('No public submission Nothing123 found on OpenReview') });
  });

  it('gives up at its deadline with a clear message, and adds nothing', async () => {
    const held = gate();
    server.serve({ [ARXIV]: { ...xml(fixture('api-id-2501.01234.xml')), hold: held.hold } });
    const outcome = await lookup({ timeoutMs: 50 }).find({ kind: 'arxiv', id: '2501.01234' });
    held.release();
    expect(inWords(outcome)).toEqual({ kind: 'failed', message: 'Could not find arXiv 2501.01234 on arXiv: it did not answer within 0.05 s. Try again in a minute.' });
    expect(await store.count()).toBe(0);
  });

  it('retries a 503 once, and reports a service that stays down without remembering it as missing', async () => {
    server.serve({ [ARXIV]: [{ status: 503 }, xml(fixture('api-id-2501.01234.xml'))] });
    expect(await lookup().find({ kind: 'arxiv', id: '2501.01234' })).toMatchObject({ kind: 'found' });
    ({ store } = memoryStores());
    server.serve({ [ARXIV]: { status: 502 } });
    const service = lookup();
    expect(inWords(await service.find({ kind: 'arxiv', id: '2501.01234' }))).toEqual({ kind: 'failed', message: 'Could not fetch arXiv 2501.01234 from arXiv (HTTP 502). Try again later.' });
    server.serve({ [ARXIV]: xml(fixture('api-id-2501.01234.xml')) });
    expect(await service.find({ kind: 'arxiv', id: '2501.01234' })).toMatchObject({ kind: 'found' });
  });

  it('shares one fetch between lookups of the same paper made at once', async () => {
    server.serve({ [ARXIV]: xml(fixture('api-id-2501.01234.xml')) });
    const service = lookup();
    const [a, b] = await Promise.all([service.find({ kind: 'arxiv', id: '2501.01234' }), service.find({ kind: 'arxiv', id: '2501.01234' })]);
    expect(a).toEqual(b);
    expect(server.requests).toHaveLength(1);
  });
});
