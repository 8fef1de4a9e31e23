/**
 * The PaperStore contract on SQLite and PostgreSQL: the same paper from two sources is one
 * record, a venue takes a preprint over and an acceptance a rejection, re-importing changes
 * nothing; papers are found by any identifier; every write that changes papers is one
 * generation, and the rows of a generation are what an index following the store reads.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PaperRecord } from '../../src/papers/model.js';
import { TEXT_VERSION_KEY, type PaperStore, type UpsertOptions } from '../../src/store/papers.js';
import { TEXT_VERSION } from '../../src/text.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const record = (over: Partial<PaperRecord>): PaperRecord => ({
  title: 'Prototypical Networks for Few-shot Learning',
  authors: ['Jake Snell', 'Kevin Swersky', 'Richard Zemel'],
  abstract: 'Prototypes in an embedding space.',
  venue: '',
  year: null,
  status: '',
  keywords: [],
  labels: [],
  links: {},
  externalIds: {},
  ...over,
});
const options = (source: string, classify: UpsertOptions['classify'] = () => []): UpsertOptions => ({ source, classify, now: new Date('2026-01-01T00:00:00.000Z') });

async function put(store: PaperStore, r: PaperRecord, source: string) {
  const [result] = await store.write((tx) => tx.upsertBatch([r], options(source)));
  return result!;
}

/** `n` distinct arXiv papers numbered from `from`. */
const papers = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => record({ title: `Paper number ${from + i} on sparse attention`, authors: [`Author ${from + i}`], externalIds: { arxiv: `2601.${String(10000 + from + i)}` } }));

describe.each(BACKENDS)('PaperStore on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let a: Instance;
  beforeEach(async () => {
    store = await backend.create();
    a = await store.instance();
  });
  afterEach(() => store.dispose());

  it('lets a venue record take over an arXiv preprint, and stays put on re-ingest', async () => {
    const preprint = record({ venue: 'arXiv', year: 2017, externalIds: { arxiv: '1703.05175' } });
    const venue = record({ venue: 'NeurIPS', year: 2017, status: 'Poster', sourceKey: 'nips2017:1' });
    expect(await put(a.papers, preprint, 'arxiv')).toMatchObject({ outcome: 'added' });
    expect(await put(a.papers, venue, 'paperlists:nips2017')).toEqual({ outcome: 'updated', id: 'arxiv:1703.05175', doc: await a.papers.docOf('arxiv:1703.05175') });
    expect(await a.papers.get('arxiv:1703.05175')).toMatchObject({ venue: 'NeurIPS', status: 'Poster', firstSeen: '2026-01-01T00:00:00.000Z' });
    expect(await put(a.papers, preprint, 'arxiv')).toMatchObject({ outcome: 'unchanged' });
    expect(await put(a.papers, venue, 'paperlists:nips2017')).toMatchObject({ outcome: 'unchanged' });
    expect(await a.papers.count()).toBe(1);
  });

  it('lets an acceptance supersede a rejection elsewhere, in either order', async () => {
    for (const order of [0, 1]) {
      const rejected = record({ title: `Twice ${order}`, venue: 'ICLR', year: 2017, status: 'Reject', externalIds: { openreview: `B1-Hhnslg${order}` } });
      const accepted = record({ title: `Twice ${order}`, venue: 'NeurIPS', year: 2017, status: 'Poster', sourceKey: `nips2017:${order}` });
      const [x, y] = order === 0 ? [rejected, accepted] : [accepted, rejected];
      await put(a.papers, x, `src${x.venue}`);
      await put(a.papers, y, `src${y.venue}`);
      await put(a.papers, x, `src${x.venue}`);
      expect(await put(a.papers, y, `src${y.venue}`)).toMatchObject({ outcome: 'unchanged' });
      const found = (await a.papers.findByRef({ kind: 'openreview', id: `B1-Hhnslg${order}` }))!;
      expect(found.paper).toMatchObject({ venue: 'NeurIPS', status: 'Poster' });
    }
    expect(await a.papers.count()).toBe(2);
  });

  it("keeps a decision with its venue: another venue's rejection neither takes a paper over nor becomes its status", async () => {
    await put(a.papers, record({ venue: 'arXiv', year: 2024, externalIds: { arxiv: '2401.00007' } }), 'arxiv');
    const rejected = record({ venue: 'ICLR', year: 2025, status: 'Reject', externalIds: { arxiv: '2401.00007', openreview: 'Pz1xC4vB5n' } });
    expect(await put(a.papers, rejected, 'openreview')).toEqual({ outcome: 'updated', id: 'arxiv:2401.00007', doc: await a.papers.docOf('arxiv:2401.00007') });
    // The identifiers are united; the preprint stays a preprint, without the rejection.
    expect(await a.papers.get('arxiv:2401.00007')).toMatchObject({ venue: 'arXiv', status: '', externalIds: { arxiv: '2401.00007', openreview: 'Pz1xC4vB5n' } });
    // A decision of the paper's own venue (by its key: "iclr" is ICLR) fills an empty status.
    await put(a.papers, record({ title: 'Own venue', venue: 'ICLR', year: 2025, sourceKey: 'iclr2025:9' }), 'paperlists:iclr2025');
    await put(a.papers, record({ title: 'Own venue', venue: 'iclr', year: 2025, status: 'Poster', externalIds: { openreview: 'Own9' } }), 'openreview');
    expect((await a.papers.get('iclr2025:9'))!.status).toBe('Poster');
    expect(await a.papers.statusCounts()).toEqual([
      ['', 1],
      ['Poster', 1],
    ]);
  });

  it("keeps the authors' TL;DR, and a paper without one keeps the content hash it had before TL;DRs", async () => {
    const base = record({ externalIds: { openreview: 'Kx7vQ2mN9a' } });
    await put(a.papers, base, 'openreview');
    const generation = await a.papers.generation();
    expect(await put(a.papers, base, 'openreview')).toMatchObject({ outcome: 'unchanged' });
    expect(await put(a.papers, { ...base, tldr: 'Prototypes, briefly.' }, 'openreview')).toMatchObject({ outcome: 'updated' });
    expect(await a.papers.get('openreview:Kx7vQ2mN9a')).toMatchObject({ tldr: 'Prototypes, briefly.' });
    expect(await a.papers.generation()).toBe(generation + 1);
    // A record without one fills no gap and changes nothing.
    expect(await put(a.papers, base, 'paperlists:x')).toMatchObject({ outcome: 'unchanged' });
  });

  it('decodes LaTeX left in stored text by an older version, once, under one generation', async () => {
    // A library of the previous normalization: text as a source gave it, no text_version stamp.
    await put(a.papers, record({ title: 'Gr\\"obner Bases for Koll\\\'ar-Type Bounds', authors: ['Mirela Ko\\v{s}ir'], externalIds: { arxiv: '2401.00001' } }), 'arxiv');
    await put(a.papers, record({ title: 'A Plain Paper', authors: ['Ann Lee'], externalIds: { arxiv: '2401.00002' } }), 'arxiv');
    const generation = await a.papers.generation();
    const classified: string[] = [];
    const upgrade = await a.papers.upgradeText((paper) => (classified.push(paper.title), ['algebra']));
    expect(upgrade).toEqual({ from: 1, to: TEXT_VERSION, papers: 2, decoded: 1, aliases: 0, shared: 0 });
    expect(classified).toEqual(['Gröbner Bases for Kollár-Type Bounds']);
    expect(await a.papers.get('arxiv:2401.00001')).toMatchObject({ title: 'Gröbner Bases for Kollár-Type Bounds', authors: ['Mirela Košir'], topics: ['algebra'] });
    expect(await a.papers.generation()).toBe(generation + 1);
    expect((await a.papers.rowsChanged(generation, generation + 1, 0, 10)).map((r) => r.id)).toEqual(['arxiv:2401.00001']);
    // Found by the decoded title, as a new record would look for it.
    expect((await a.papers.findByTitle('Gröbner Bases for Kollár-Type Bounds', 'Mirela Košir'))?.id).toBe('arxiv:2401.00001');
    expect(await a.papers.getMeta(TEXT_VERSION_KEY)).toBe(String(TEXT_VERSION));
    expect(await a.papers.upgradeText(() => [])).toBeUndefined();
    expect(await a.papers.generation()).toBe(generation + 1);
  });

  it.each(['1', '2'])('files a paper whose title holds a compatibility character under the key text normalization 3 gives it (a library of %s)', async (version) => {
    // Normalizations 1 and 2 read "ℒ1" as "1" (the "L" it decomposes to was dropped), 3 as "l1":
    // the library holds the old key, which refolding cannot turn into the new one.
    await put(a.papers, record({ title: 'ℒ1 Adaptive Control of Parallel Manipulators', authors: ['Ann Lee'], externalIds: { arxiv: '2401.00003' } }), 'arxiv');
    await put(a.papers, record({ title: 'A Plain Paper', authors: ['Bo Chen'], externalIds: { arxiv: '2401.00004' } }), 'arxiv');
    await a.renameAlias('title:l1 adaptive control of parallel manipulators|lee', 'title:1 adaptive control of parallel manipulators|lee');
    await a.papers.setMeta(TEXT_VERSION_KEY, version);
    expect(await a.papers.findByTitle('L1 Adaptive Control of Parallel Manipulators', 'Ann Lee')).toBeUndefined();
    const generation = await a.papers.generation();
    expect(await a.papers.upgradeText(() => [])).toEqual({ from: Number(version), to: TEXT_VERSION, papers: 2, decoded: 0, aliases: 1, shared: 0 });
    // A record spelling it in ASCII finds the paper; the old key, which another title reads as now, is gone.
    expect((await a.papers.findByTitle('L1 Adaptive Control of Parallel Manipulators', 'Ann Lee'))?.id).toBe('arxiv:2401.00003');
    expect(await a.papers.findByTitle('1 Adaptive Control of Parallel Manipulators', 'Ann Lee')).toBeUndefined();
    expect((await a.papers.findByTitle('A Plain Paper', 'Bo Chen'))?.id).toBe('arxiv:2401.00004');
    expect(await a.papers.generation()).toBe(generation);
    expect(await a.papers.upgradeText(() => [])).toBeUndefined();
  });

  it('files every new key after every old one goes, where the new key of one paper was the old key of another', async () => {
    // Normalization 2 read "1 Adaptive Control™ →" as "1 adaptive controlTM", 3 reads it as
    // "1 adaptive control": what 2 made of "ℒ1 Adaptive Control". The first paper is first in the store.
    await put(a.papers, record({ title: '1 Adaptive Control™ →', authors: ['Ann Lee'], externalIds: { arxiv: '2401.00001' } }), 'arxiv');
    await put(a.papers, record({ title: 'ℒ1 Adaptive Control', authors: ['Ann Lee'], externalIds: { arxiv: '2401.00002' } }), 'arxiv');
    await a.renameAlias('title:1 adaptive control|lee', 'title:1 adaptive controlTM|lee');
    await a.renameAlias('title:l1 adaptive control|lee', 'title:1 adaptive control|lee');
    await a.papers.setMeta(TEXT_VERSION_KEY, '2');
    expect(await a.papers.upgradeText(() => [])).toMatchObject({ aliases: 2, shared: 0 });
    expect((await a.papers.findByTitle('1 Adaptive Control™ →', 'Ann Lee'))?.id).toBe('arxiv:2401.00001');
    expect((await a.papers.findByTitle('L1 Adaptive Control', 'Ann Lee'))?.id).toBe('arxiv:2401.00002');
  });

  it('stamps a new, empty library with the current text normalization and leaves a newer one alone', async () => {
    expect(await a.papers.upgradeText(() => [])).toBeUndefined();
    expect(await a.papers.getMeta(TEXT_VERSION_KEY)).toBe(String(TEXT_VERSION));
    await a.papers.setMeta(TEXT_VERSION_KEY, String(TEXT_VERSION + 1));
    await put(a.papers, record({ title: 'Gr\\"obner', externalIds: { arxiv: '2401.00001' } }), 'arxiv');
    expect(await a.papers.upgradeText(() => [])).toBeUndefined();
    expect((await a.papers.get('arxiv:2401.00001'))!.title).toBe('Gr\\"obner');
  });

  it('finds a paper by any of its identifiers and links, and by title and first author', async () => {
    await put(a.papers, record({ externalIds: { arxiv: '1703.05175', doi: '10.5555/1' }, links: { page: 'https://Example.org/papers/proto/' } }), 's');
    for (const ref of [
      { kind: 'arxiv', id: '1703.05175' },
      { kind: 'doi', id: '10.5555/1' },
      { kind: 'url', id: 'example.org/papers/proto' },
    ] as const) {
      expect((await a.papers.findByRef(ref))?.paper.id).toBe('arxiv:1703.05175');
    }
    expect(await a.papers.findByRef({ kind: 'arxiv', id: '9999.99999' })).toBeUndefined();
    expect((await a.papers.findByTitle('prototypical networks for few shot learning', 'J. Snell'))?.id).toBe('arxiv:1703.05175');
    expect(await a.papers.findByTitle('prototypical networks', 'J. Snell')).toBeUndefined();
    const doc = (await a.papers.docOf('arxiv:1703.05175'))!;
    expect((await a.papers.findByRef({ kind: 'doi', id: '10.5555/1' }))?.doc).toBe(doc);
    expect([...(await a.papers.papersByDocs([doc, doc + 100])).keys()]).toEqual([doc]);
    expect((await a.papers.papersByIds(['arxiv:1703.05175', 'nope'])).get('arxiv:1703.05175')).toMatchObject({ doc, paper: { title: 'Prototypical Networks for Few-shot Learning' } });
    expect(await a.papers.abstractsOf([doc])).toEqual(new Map([[doc, 'Prototypes in an embedding space.']]));
    expect(await a.papers.docsOf(['nope', 'arxiv:1703.05175'])).toEqual(new Map([['arxiv:1703.05175', doc]]));
    expect(await a.papers.docsOf([])).toEqual(new Map());
    expect(await a.papers.papersByDocs([])).toEqual(new Map());
  });

  it('a later record of a batch sees an earlier one; a record that only derives a taken id is refused', async () => {
    const results = await a.papers.write((tx) =>
      tx.upsertBatch(
        [
          record({ venue: 'arXiv', year: 2017, externalIds: { arxiv: '1703.05175' } }),
          record({ venue: 'NeurIPS', year: 2017, status: 'Poster', keywords: ['few-shot'], sourceKey: 'nips2017:1' }),
          record({ title: '???', authors: [] }),
          record({ title: '???', authors: [] }),
        ],
        options('mixed'),
      ),
    );
    expect(results.slice(0, 3)).toMatchObject([{ outcome: 'added', id: 'arxiv:1703.05175' }, { outcome: 'updated', id: 'arxiv:1703.05175' }, { outcome: 'added', id: expect.stringMatching(/^t:/) }]);
    expect(results[3]).toEqual({ refused: expect.stringMatching(/^another paper already has the id t:[0-9a-f]+/) });
    expect(await a.papers.count()).toBe(2);
  });

  it('each write that changes papers is one generation; its rows are what an index at the generation before lacks', async () => {
    expect(await a.papers.generation()).toBe(0);
    await a.papers.write((tx) => tx.upsertBatch(papers(0, 5), options('s')));
    expect(await a.papers.generation()).toBe(1);
    await a.papers.write((tx) => tx.upsertBatch(papers(0, 5), options('s')));
    expect(await a.papers.generation()).toBe(1); // nothing changed
    await a.papers.write((tx) => tx.upsertBatch([...papers(3, 1).map((p) => ({ ...p, abstract: 'Changed.' })), ...papers(5, 2)], options('s')));
    expect(await a.papers.generation()).toBe(2);
    const changed = await a.papers.rowsChanged(1, 2, 0, 10);
    expect(changed.map((r) => r.title)).toEqual(['Paper number 3 on sparse attention', 'Paper number 5 on sparse attention', 'Paper number 6 on sparse attention']);
    expect(changed[0]).toMatchObject({ abstract: 'Changed.', authors: ['Author 3'], keywords: [], topics: [], year: null, firstSeen: '2026-01-01T00:00:00.000Z' });
    expect((await a.papers.rowsChanged(1, 2, changed[0]!.doc, 1)).map((r) => r.doc)).toEqual([changed[1]!.doc]);
    expect(await a.papers.rowsChanged(2, 2, 0, 10)).toEqual([]);
    const all: number[] = [];
    for await (const row of a.papers.rowsForIndex()) all.push(row.doc);
    expect(all).toHaveLength(7);
    expect([...all].sort((x, y) => x - y)).toEqual(all);
  });

  it('a write that throws leaves nothing behind, not even a generation', async () => {
    await expect(
      a.papers.write(async (tx) => {
        await tx.upsertBatch(papers(0, 3), options('s'));
        await tx.setMeta('k', 'v');
        throw new Error('the source went away');
      }),
    ).rejects.toThrow('the source went away');
    expect(await a.papers.count()).toBe(0);
    expect(await a.papers.generation()).toBe(0);
    expect(await a.papers.getMeta('k')).toBeUndefined();
    // The writer sees its own writes before they commit.
    await a.papers.write(async (tx) => {
      await tx.upsertBatch(papers(0, 1), options('s'));
      expect((await tx.findByRef({ kind: 'arxiv', id: '2601.10000' }))?.title).toBe('Paper number 0 on sparse attention');
      await tx.setMeta('k', 'v');
    });
    expect(await a.papers.getMeta('k')).toBe('v');
    await a.papers.setMeta('k', 'w');
    expect(await a.papers.getMeta('k')).toBe('w');
  });

  it('recomputes topics when the taxonomy changed, under one generation', async () => {
    await a.papers.write((tx) => tx.upsertBatch(papers(0, 4), options('s')));
    const attention = (p: { title: string }) => (/[02] on/.test(p.title) ? ['attention'] : []);
    expect(await a.papers.reclassify(attention)).toBe(2);
    expect(await a.papers.generation()).toBe(2);
    expect((await a.papers.get('arxiv:2601.10002'))!.topics).toEqual(['attention']);
    expect((await a.papers.rowsChanged(1, 2, 0, 10)).map((r) => r.id)).toEqual(['arxiv:2601.10000', 'arxiv:2601.10002']);
    expect(await a.papers.reclassify(attention)).toBe(0);
    expect(await a.papers.generation()).toBe(2);
  });

  it('writers at once (two instances where they can be in one process): every paper lands, one generation each, none lost', async () => {
    const b = backend.noConcurrentInstances === undefined ? await store.instance() : a;
    await Promise.all([
      ...[0, 1, 2].map((n) => a.papers.write((tx) => tx.upsertBatch(papers(n * 20, 20), options('a')))),
      ...[3, 4, 5].map((n) => b.papers.write((tx) => tx.upsertBatch(papers(n * 20, 20), options('b')))),
      // The same new papers from both at once: one paper each.
      a.papers.write((tx) => tx.upsertBatch(papers(500, 10), options('s'))),
      b.papers.write((tx) => tx.upsertBatch(papers(500, 10), options('s'))),
    ]);
    expect(await b.papers.count()).toBe(130);
    expect(await a.papers.generation()).toBe(7);
    const seen = new Set<number>();
    for (let gen = 1; gen <= 7; gen++) for (const row of await a.papers.rowsChanged(gen - 1, gen, 0, 100)) seen.add(row.doc);
    expect(seen.size).toBe(130);
  });
});
