/**
 * resolveRef: the one way a reference becomes a paper. Held papers come from the store; missing
 * ones from the lookup (arXiv answered by a loopback server, the real store); without a lookup,
 * or for a URL no service can be asked about, the reference is unknown.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadTopics } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { translate } from '../../src/i18n/index.js';
import { resolveRef } from '../../src/papers/resolve.js';
import { UpstreamLookup } from '../../src/sources/lookup.js';
import type { PaperStore } from '../../src/store/papers.js';
import { silentLog, storeOf } from '../helpers/corpus.js';
import { FakeClock } from '../sources/helpers/fakeClock.js';
import { fixture } from '../sources/helpers/feedServer.js';
import { Loopback, xml } from '../sources/helpers/loopback.js';

const { classify } = loadTopics();
let server: Loopback;
let store: PaperStore;

beforeAll(async () => {
  server = await new Loopback().start();
});
afterAll(() => server.stop());
beforeEach(async () => {
  store = await storeOf();
  server.serve({});
});

function lookup(): UpstreamLookup {
  const config = loadConfig({ ARXIV_API_URL: `${server.base}/api/query`, OPENALEX_API_URL: `${server.base}/openalex`, OPENREVIEW_API_URL: `${server.base}/openreview` });
  return new UpstreamLookup({ store, classify, clock: new FakeClock('2025-01-20T12:00:00Z'), log: silentLog, config });
}

describe('resolveRef', () => {
  it('gives a held paper from the store, without asking anyone', async () => {
    const resolved = await resolveRef({ kind: 'arxiv', id: '1706.03762' }, { store, lookup: lookup() });
    expect(resolved).toMatchObject({ kind: 'held', paper: { id: 'arxiv:1706.03762', title: 'Attention Is All You Need' } });
    expect(resolved.kind === 'held' && (await store.papersByDocs([resolved.doc])).get(resolved.doc)?.title).toBe('Attention Is All You Need');
    expect(await resolveRef({ kind: 'url', id: 'proceedings.mlr.press/v97/nope' }, { store })).toEqual({ kind: 'unknown' });
    expect(server.requests).toHaveLength(0);
  });

  it('has a missing paper looked up, fetched and added: held the next time', async () => {
    server.serve({ '/api/query?id_list=2501.01234&max_results=1': xml(fixture('api-id-2501.01234.xml')) });
    const found = await resolveRef({ kind: 'arxiv', id: '2501.01234' }, { store, lookup: lookup() });
    expect(found).toMatchObject({ kind: 'found', added: true, source: 'arXiv', paper: { id: 'arxiv:2501.01234', title: 'Quasicrystalline Tilings Learned by Equivariant Flow Matching' } });
    expect(server.requests).toHaveLength(1);
    expect(await resolveRef({ kind: 'arxiv', id: '2501.01234' }, { store })).toMatchObject({ kind: 'held', paper: { id: 'arxiv:2501.01234' } });
  });

  it('says why the lookup found nothing, and calls a reference unknown when nothing can look it up', async () => {
    const missing = await resolveRef({ kind: 'arxiv', id: '2501.01234' }, { store, lookup: lookup() });
    expect(missing.kind === 'missing' && translate('en', missing.message)).toBe('No paper 2501.01234 found on arXiv. Check the id, or search by its title.');
    expect(await resolveRef({ kind: 'arxiv', id: '2501.01234' }, { store })).toEqual({ kind: 'unknown' });
    // A URL the store does not file is nobody's to fetch: the lookup is not asked.
    const asked = server.requests.length;
    expect(await resolveRef({ kind: 'url', id: 'example.org/paper' }, { store, lookup: lookup() })).toEqual({ kind: 'unknown' });
    expect(server.requests).toHaveLength(asked);
  });
});
