/**
 * The HarvestStore contract on SQLite and PostgreSQL, and the paper store's writes that go with
 * a harvest's pages: a page's state commits with its papers or not at all, and a paper a source
 * withdrew is removed with its identifiers under the write's generation.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PaperRecord } from '../../src/papers/model.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const NOW = new Date('2026-01-01T00:00:00.000Z');
const preprint = (arxiv: string): PaperRecord => ({
  title: `Paper ${arxiv}`,
  authors: ['A. Author'],
  abstract: '',
  venue: 'arXiv',
  year: 2024,
  status: '',
  keywords: [],
  labels: [],
  links: { page: `https://arxiv.org/abs/${arxiv}` },
  externalIds: { arxiv },
});
const options = { source: 'arxiv', classify: () => [], now: NOW };

describe.each(BACKENDS)('HarvestStore on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let a: Instance;
  let b: Instance;
  beforeEach(async () => {
    store = await backend.create();
    a = await store.instance();
    b = await store.instance();
  });
  afterEach(() => store.dispose());

  it('keeps JSON state per key, listed by source, oldest update first', async () => {
    expect(await a.harvests.get('arxiv-oai:cs')).toBeUndefined();
    await a.harvests.put('openreview:ICLR.cc/2025/Conference', 'openreview', { lastSync: '2026-01-01' }, new Date('2026-01-02T00:00:00Z'));
    await a.harvests.put('arxiv-oai:cs', 'arxiv-oai', { token: 'x|1', pages: 1 }, new Date('2026-01-01T00:00:00Z'));
    await a.harvests.put('arxiv-oai:cs', 'arxiv-oai', { token: 'x|2', pages: 2 }, new Date('2026-01-03T00:00:00Z'));
    // Another instance sees the same state (a backfill resumes on another machine).
    expect(await b.harvests.get('arxiv-oai:cs')).toEqual({ key: 'arxiv-oai:cs', source: 'arxiv-oai', state: { token: 'x|2', pages: 2 }, updatedAt: '2026-01-03T00:00:00.000Z' });
    expect((await b.harvests.list()).map((h) => h.key)).toEqual(['openreview:ICLR.cc/2025/Conference', 'arxiv-oai:cs']);
    expect((await b.harvests.list('openreview')).map((h) => h.state)).toEqual([{ lastSync: '2026-01-01' }]);
    await b.harvests.delete('arxiv-oai:cs');
    expect(await a.harvests.get('arxiv-oai:cs')).toBeUndefined();
  });

  it("writes a page's state with its papers: both land, or neither does", async () => {
    await expect(
      a.papers.write(async (tx) => {
        await tx.upsertBatch([preprint('2401.00001')], options);
        await tx.putHarvest('arxiv-oai:cs', 'arxiv-oai', { token: 'x|1' }, NOW);
        throw new Error('killed between the page and the commit');
      }),
    ).rejects.toThrow('killed');
    expect(await a.papers.count()).toBe(0);
    expect(await a.harvests.get('arxiv-oai:cs')).toBeUndefined();
    await a.papers.write(async (tx) => {
      await tx.upsertBatch([preprint('2401.00001')], options);
      await tx.putHarvest('arxiv-oai:cs', 'arxiv-oai', { token: 'x|1' }, NOW);
    });
    expect(await b.papers.count()).toBe(1);
    expect((await b.harvests.get('arxiv-oai:cs'))?.state).toEqual({ token: 'x|1' });
  });

  it('removes a withdrawn paper and its identifiers under a generation of its own', async () => {
    await a.papers.write((tx) => tx.upsertBatch([preprint('2401.00001'), preprint('2401.00002')], options));
    const generation = await a.papers.generation();
    const byPage = { kind: 'url', id: 'arxiv.org/abs/2401.00001' } as const;
    expect((await b.papers.findByRef(byPage))?.paper.id).toBe('arxiv:2401.00001');
    const removed = await a.papers.write(async (tx) => [await tx.remove('arxiv:2401.00001'), await tx.remove('arxiv:2401.09999')]);
    expect(removed).toEqual([true, false]);
    expect(await a.papers.generation()).toBe(generation + 1);
    expect(await b.papers.get('arxiv:2401.00001')).toBeUndefined();
    expect(await b.papers.findByRef(byPage)).toBeUndefined();
    expect(await b.papers.count()).toBe(1);
    // Its identifiers are free again: the same paper comes back as a new one.
    expect(await a.papers.write((tx) => tx.upsertBatch([preprint('2401.00001')], options))).toEqual([{ outcome: 'added', id: 'arxiv:2401.00001', doc: expect.any(Number) }]);
    // Removing nothing is no write of papers.
    await a.papers.write((tx) => tx.remove('arxiv:2401.09999'));
    expect(await a.papers.generation()).toBe(generation + 2);
  });

  it("frees the identifiers a merged record gave a removed paper: the record comes back as a paper of its own", async () => {
    // A venue's listing of the preprint (same title and first author) merges into it, filing its source key there.
    const listing = (title: string): PaperRecord => ({ ...preprint('2401.00001'), title, venue: 'ICML', status: 'Poster', links: {}, externalIds: {}, sourceKey: 'icml2024:77' });
    await a.papers.write((tx) => tx.upsertBatch([preprint('2401.00001')], options));
    const listed = { ...options, source: 'paperlists:icml2024' };
    expect(await a.papers.write((tx) => tx.upsertBatch([listing('Paper 2401.00001')], listed))).toEqual([{ outcome: 'updated', id: 'arxiv:2401.00001', doc: expect.any(Number) }]);
    await a.papers.write((tx) => tx.remove('arxiv:2401.00001'));
    expect(await b.papers.count()).toBe(0);
    expect(await a.papers.write((tx) => tx.upsertBatch([listing('Paper 2401.00001')], listed))).toEqual([{ outcome: 'added', id: 'icml2024:77', doc: expect.any(Number) }]);
    // The source key is the new paper's now: the listing's next version updates it.
    expect(await a.papers.write((tx) => tx.upsertBatch([listing('Paper 2401.00001, revised')], listed))).toEqual([{ outcome: 'updated', id: 'icml2024:77', doc: expect.any(Number) }]);
    expect((await b.papers.get('icml2024:77'))?.title).toBe('Paper 2401.00001, revised');
  });
});
