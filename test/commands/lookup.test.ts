/**
 * /paper with an id or link the library lacks: the whole core (registry, store, library) over a
 * temporary DATA_DIR, with arXiv, OpenAlex and OpenReview answered by a loopback server.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Block, Reply } from '../../src/reply.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { FakeClock } from '../sources/helpers/fakeClock.js';
import { fixture } from '../sources/helpers/feedServer.js';
import { Loopback, json, xml } from '../sources/helpers/loopback.js';
import { openreviewFixture } from '../sources/openreview/helpers.js';

let server: Loopback;
let app: TestApp | undefined;

beforeAll(async () => {
  server = await new Loopback().start();
});
afterAll(() => server.stop());
afterEach(() => {
  app?.dispose();
  app = undefined;
});

const upstream = () => ({ ARXIV_API_URL: `${server.base}/api/query`, OPENALEX_API_URL: `${server.base}/openalex`, OPENREVIEW_API_URL: `${server.base}/openreview` });
const papers = (reply: Reply) => reply.blocks.flatMap((b: Block) => (b.kind === 'paper' ? [b.paper] : []));
const texts = (reply: Reply) => reply.blocks.flatMap((b: Block) => (b.kind === 'text' || b.kind === 'note' ? [b.text] : []));

describe('/paper naming a paper the library lacks', () => {
  it('fetches it from arXiv, shows it at once from the store, and keeps it for later searches', async () => {
    app = await createTestApp({ env: { ...upstream(), LOOKUP_UPSTREAM: 'on' }, clock: new FakeClock() });
    server.serve({ '/api/query?id_list=2501.01234&max_results=1': xml(fixture('api-id-2501.01234.xml')) });
    const ctx = app.context('terminal', { id: 'u1' });
    const reply = await app.registry.runText(ctx, 'paper', 'https://arxiv.org/abs/2501.01234v2');
    expect(reply.blocks[0]).toEqual({ kind: 'note', text: 'Not in the library yet: fetched from arXiv and added.' });
    expect(papers(reply)[0]).toMatchObject({ id: 'arxiv:2501.01234', title: 'Quasicrystalline Tilings Learned by Equivariant Flow Matching', venue: 'arXiv', year: 2025, abstract: expect.stringContaining('aperiodic tilings') });
    expect(reply.ephemeral).toBeUndefined();

    const again = await app.registry.runText(ctx, 'paper', 'arXiv:2501.01234');
    expect(papers(again)[0]!.id).toBe('arxiv:2501.01234');
    expect(server.requests).toHaveLength(1);

    // The next command caught the index up with the store: the paper is searchable, nothing rebuilt.
    expect(await app.library.checkStore()).toBe(false);
    expect((await app.library.search('quasicrystalline tilings flow matching')).hits[0]?.id).toBe('arxiv:2501.01234');
  });

  it('fetches a DOI from OpenAlex', async () => {
    app = await createTestApp({ env: { ...upstream(), LOOKUP_UPSTREAM: 'on' }, clock: new FakeClock() });
    const work = readFileSync(fileURLToPath(new URL('../fixtures/openalex/work-10.5555-invented.2024.77.json', import.meta.url)), 'utf8');
    server.serve({ '/openalex/works/doi:10.5555/invented.2024.77': json(JSON.parse(work)) });
    const reply = await app.registry.runText(app.context('terminal', { id: 'u1' }), 'paper', 'https://doi.org/10.5555/invented.2024.77');
    expect(texts(reply)[0]).toBe('Not in the library yet: fetched from OpenAlex and added.');
    expect(papers(reply)[0]).toMatchObject({ title: 'Folding Invented Proteins with Graph Neural Networks', venue: 'Journal of Invented Biology' });
  });

  it('fetches an OpenReview forum with its decision, and shows the TL;DR before the abstract', async () => {
    app = await createTestApp({ env: { ...upstream(), LOOKUP_UPSTREAM: 'on' }, clock: new FakeClock() });
    server.serve({ '/openreview/notes?id=Kx7vQ2mN9a': { headers: { 'content-type': 'application/json' }, body: openreviewFixture('note-Kx7vQ2mN9a.json') } });
    const reply = await app.registry.runText(app.context('terminal', { id: 'u1' }), 'paper', 'https://openreview.net/forum?id=Kx7vQ2mN9a&noteId=Kx7vQ2mN9a');
    expect(papers(reply)[0]).toMatchObject({
      venue: 'ICLR',
      year: 2025,
      status: 'Oral',
      abstract: 'TL;DR: Sparse experts follow the same scaling laws as dense models once routing is accounted for.\n\nWe fit scaling laws for sparse mixture-of-experts language models across three orders of magnitude.',
    });
  });

  it('answers privately and clearly when arXiv has no such paper', async () => {
    app = await createTestApp({ env: { ...upstream(), LOOKUP_UPSTREAM: 'on' }, clock: new FakeClock() });
    server.serve({ '/api/query?id_list=2501.99999&max_results=1': xml('<feed xmlns="http://www.w3.org/2005/Atom"><title>ArXiv Query</title></feed>') });
    const reply = await app.registry.runText(app.context('terminal', { id: 'u1' }), 'paper', '2501.99999');
    expect(reply).toMatchObject({ ephemeral: true, fallback: 'No paper 2501.99999 found on arXiv. Check the id, or search by its title.' });
  });

  it('makes no outbound call with LOOKUP_UPSTREAM=off', async () => {
    app = await createTestApp({ env: { ...upstream(), LOOKUP_UPSTREAM: 'off' } });
    server.serve({ '/api/query?id_list=2501.01234&max_results=1': xml(fixture('api-id-2501.01234.xml')) });
    expect(app.lookup).toBeUndefined();
    const reply = await app.registry.runText(app.context('terminal', { id: 'u1' }), 'paper', 'https://arxiv.org/abs/2501.01234');
    expect(texts(reply).join(' ')).toContain('No paper with arXiv id 2501.01234 is in the library yet.');
    expect(server.requests).toHaveLength(0);
  });
});
