/**
 * Which records are one paper, on SQLite and PostgreSQL: a record never merges into a paper
 * whose arXiv id, DOI or OpenReview id of the same kind differs, whatever link or title they
 * share, and a link that papers with different identifiers share identifies none of them. A
 * record none of its identifiers finds is the paper of its title whose year is within one and
 * whose authors agree, whatever its first author, unless several fit alike. Each result says the
 * paper's document number and what the record was kept apart from.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PaperRecord } from '../../src/papers/model.js';
import type { PaperStore, UpsertOptions, UpsertResult } from '../../src/store/papers.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const SHARED_PDF = 'https://openreview.net/attachment/shared-supplement.pdf';

const record = (over: Partial<PaperRecord>): PaperRecord => ({
  title: 'Prototypical Networks for Few-shot Learning',
  authors: ['Jake Snell', 'Kevin Swersky'],
  abstract: '',
  venue: '',
  year: null,
  status: '',
  keywords: [],
  labels: [],
  links: {},
  externalIds: {},
  ...over,
});
const options: UpsertOptions = { source: 'file:mine', classify: () => [], now: new Date('2026-01-01T00:00:00.000Z') };

/** An OpenReview submission whose record gives the pdf link all of them share. */
const submission = (n: number) =>
  record({ title: `Submission ${n} on sparse things`, authors: [`Author ${n}`], venue: 'ICLR', year: 2024, externalIds: { openreview: `Or${n}xQ7` }, links: { pdf: SHARED_PDF } });

async function put(store: PaperStore, records: PaperRecord[]): Promise<UpsertResult[]> {
  return store.write((tx) => tx.upsertBatch(records, options));
}

describe.each(BACKENDS)('paper identity on $name', (backend) => {
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

  it.each([
    ['in one batch', (records: PaperRecord[]) => [records]],
    ['one batch each', (records: PaperRecord[]) => records.map((r) => [r])],
  ])('keeps submissions with different OpenReview ids apart though they share a pdf link (%s)', async (_, batches) => {
    const results: UpsertResult[] = [];
    for (const batch of batches([0, 1, 2].map(submission))) results.push(...(await put(a.papers, batch)));
    expect(results).toEqual([
      { outcome: 'added', id: 'openreview:Or0xQ7', doc: await a.papers.docOf('openreview:Or0xQ7') },
      {
        outcome: 'added',
        id: 'openreview:Or1xQ7',
        doc: await a.papers.docOf('openreview:Or1xQ7'),
        apart: { alias: 'url:openreview.net/attachment/shared-supplement.pdf', paper: 'openreview:Or0xQ7', differs: 'openreview' },
      },
      // By then the link is known to be shared: it names no paper.
      { outcome: 'added', id: 'openreview:Or2xQ7', doc: await a.papers.docOf('openreview:Or2xQ7'), apart: { alias: 'url:openreview.net/attachment/shared-supplement.pdf' } },
    ]);
    expect(await a.papers.count()).toBe(3);
    expect(await a.papers.findByRef({ kind: 'url', id: 'openreview.net/attachment/shared-supplement.pdf' })).toBeUndefined();
    // Read again, each finds its own paper by its OpenReview id, and nothing is reported.
    const again = await put(a.papers, [0, 1, 2, 3].map(submission));
    expect(again.map((r) => ('outcome' in r ? [r.outcome, r.apart] : r))).toEqual([
      ['unchanged', undefined],
      ['unchanged', undefined],
      ['unchanged', undefined],
      ['added', { alias: 'url:openreview.net/attachment/shared-supplement.pdf' }],
    ]);
    expect((await a.papers.get('openreview:Or1xQ7'))!.links).toEqual({ pdf: SHARED_PDF });
  });

  it('keeps a record apart from a paper of the same title whose arXiv id differs, and merges one without', async () => {
    const [first] = await put(a.papers, [record({ title: 'Withdrawn', authors: ['Withdrawn'], externalIds: { arxiv: '1801.00001' } })]);
    const [other, plain] = await put(a.papers, [
      record({ title: 'withdrawn', authors: ['Withdrawn'], externalIds: { arxiv: '1801.00002' } }),
      record({ title: 'Withdrawn.', authors: ['Withdrawn'], abstract: 'Filled in.' }),
    ]);
    expect(first).toMatchObject({ outcome: 'added', id: 'arxiv:1801.00001' });
    expect(other).toMatchObject({ outcome: 'added', id: 'arxiv:1801.00002', apart: { alias: 'title:withdrawn|withdrawn', paper: 'arxiv:1801.00001', differs: 'arxiv' } });
    // Without an arXiv id of its own, nothing tells it from the first paper of that title.
    expect(plain).toEqual({ outcome: 'updated', id: 'arxiv:1801.00001', doc: (first as { doc: number }).doc });
    expect((await a.papers.get('arxiv:1801.00002'))!.abstract).toBe('');
  });

  it('keeps records apart that share only a venue page and have other titles; the page then names none of them', async () => {
    const talk = (n: number, over: Partial<PaperRecord> = {}) =>
      record({ title: `Talk ${n} on kernels`, authors: [`Speaker ${n}`], links: { page: 'https://neurips.cc/Conferences/2023' }, ...over });
    const results = await put(a.papers, [talk(0), talk(1), talk(2, { externalIds: { doi: '10.5555/talk.2' } })]);
    expect(results.map((r) => 'outcome' in r && [r.outcome, r.apart])).toEqual([
      ['added', undefined],
      ['added', { alias: 'url:neurips.cc/Conferences/2023', paper: expect.stringMatching(/^t:/), differs: 'title' }],
      ['added', { alias: 'url:neurips.cc/Conferences/2023' }],
    ]);
    expect(await a.papers.count()).toBe(3);
    expect(await a.papers.findByRef({ kind: 'url', id: 'neurips.cc/Conferences/2023' })).toBeUndefined();
  });

  it('merges through a link a record whose other identifiers are of other kinds, the first author aside', async () => {
    const [preprint] = await put(a.papers, [
      record({ venue: 'arXiv', authors: ['Anonymous'], externalIds: { arxiv: '1703.05175' }, links: { page: 'https://arxiv.org/abs/1703.05175' } }),
    ]);
    // Same title, another first author (the preprint was anonymous), a DOI: the link is its.
    const [venue] = await put(a.papers, [record({ venue: 'NeurIPS', externalIds: { doi: '10.5555/proto' }, links: { page: 'https://arxiv.org/abs/1703.05175/' } })]);
    expect(venue).toEqual({ outcome: 'updated', id: 'arxiv:1703.05175', doc: (preprint as { doc: number }).doc });
    expect((await a.papers.get('arxiv:1703.05175'))!.externalIds).toEqual({ arxiv: '1703.05175', doi: '10.5555/proto' });
    expect((await a.papers.findByRef({ kind: 'url', id: 'arxiv.org/abs/1703.05175' }))?.paper.id).toBe('arxiv:1703.05175');
  });

  it('files a record\'s OpenReview id under its own paper where a previous version filed it under another it merged with', async () => {
    // A library of the previous version merged submission 1 into submission 0 through their pdf
    // link, filing its OpenReview id there: here, submission 0 holding "openreview:Or1xQ7".
    await put(a.papers, [record({ ...submission(0), links: {} })]);
    await a.renameAlias('openreview:Or0xQ7', 'openreview:Or1xQ7');
    expect((await a.papers.findByRef({ kind: 'openreview', id: 'Or1xQ7' }))?.paper.id).toBe('openreview:Or0xQ7');
    const [again] = await put(a.papers, [submission(1)]);
    expect(again).toMatchObject({ outcome: 'added', id: 'openreview:Or1xQ7', apart: { alias: 'openreview:Or1xQ7', paper: 'openreview:Or0xQ7', differs: 'openreview' } });
    expect((await a.papers.findByRef({ kind: 'openreview', id: 'Or1xQ7' }))?.paper.id).toBe('openreview:Or1xQ7');
    expect(await put(a.papers, [submission(1)])).toMatchObject([{ outcome: 'unchanged', id: 'openreview:Or1xQ7' }]);
  });

  it('gives every result the document number of its paper, new ones and those merged into them in the batch included', async () => {
    const results = await put(a.papers, [
      record({ externalIds: { arxiv: '1703.05175' } }),
      record({ title: 'Another paper', authors: ['Ann Lee'] }),
      record({ venue: 'NeurIPS', status: 'Poster', externalIds: { arxiv: '1703.05175' } }),
    ]);
    const docs = [await a.papers.docOf('arxiv:1703.05175'), await a.papers.docOf((results[1] as { id: string }).id)];
    expect(results.map((r) => 'doc' in r && r.doc)).toEqual([docs[0], docs[1], docs[0]]);
    expect(new Set(docs).size).toBe(2);
  });

  it('takes a record for the paper of its title whose year is within one and whose authors agree, whoever is first, in one batch or two', async () => {
    const iclr = record({ title: 'Image Transformer', authors: ['Ashish Vaswani', 'Niki Parmar'], venue: 'ICLR', year: 2018, status: 'Rejected', externalIds: { openreview: 'r16Vyf-0-' } });
    const icml = record({ sourceKey: 'icml2018:2430', title: 'Image transformer', authors: ['Niki Parmar', 'Ashish Vaswani', 'Jakob Uszkoreit'], venue: 'ICML', year: 2018, status: 'Oral' });
    const preprint = record({ title: 'Image Transformer.', authors: ['N. Parmar', 'A. Vaswani', 'J. Uszkoreit'], venue: 'arXiv', year: 2017, externalIds: { arxiv: '1802.05751' } });
    expect(await put(a.papers, [iclr])).toMatchObject([{ outcome: 'added', id: 'openreview:r16Vyf-0-' }]);
    const fromVenues = { ...options, source: 'paperlists:icml2018' };
    expect(await a.papers.write((tx) => tx.upsertBatch([icml, preprint], fromVenues))).toMatchObject([
      { outcome: 'updated', id: 'openreview:r16Vyf-0-' },
      { outcome: 'updated', id: 'openreview:r16Vyf-0-' },
    ]);
    expect(await a.papers.count()).toBe(1);
    const paper = (await a.papers.get('openreview:r16Vyf-0-'))!;
    expect(paper).toMatchObject({ venue: 'ICML', status: 'Oral', externalIds: { openreview: 'r16Vyf-0-', arxiv: '1802.05751' } });
    // Read again, each finds the paper by its own identifiers and changes nothing.
    expect(await put(a.papers, [iclr])).toMatchObject([{ outcome: 'unchanged' }]);
    expect((await a.papers.write((tx) => tx.upsertBatch([icml, preprint], fromVenues))).map((r) => 'outcome' in r && r.outcome)).toEqual(['unchanged', 'unchanged']);
  });

  it('keeps apart records of one title that are other papers: another year, too few authors in common, another id, ties', async () => {
    const results = await put(a.papers, [
      // The Nature article and the book: one year apart, one author of three in common.
      record({ title: 'Deep learning', authors: ['Yann LeCun', 'Yoshua Bengio', 'Geoffrey Hinton'], venue: 'Nature', year: 2015, externalIds: { doi: '10.1038/nature14539' } }),
      record({ sourceKey: 'mit:dl', title: 'Deep Learning', authors: ['Ian Goodfellow', 'Yoshua Bengio', 'Aaron Courville'], year: 2016 }),
      // The same authors two years apart, or with no year said.
      record({ sourceKey: 'a:1', title: 'Learning to Learn Quickly', authors: ['Ann Lee', 'Bo Chen'], year: 2018 }),
      record({ sourceKey: 'a:2', title: 'Learning to Learn Quickly', authors: ['Bo Chen', 'Ann Lee'], year: 2020 }),
      record({ sourceKey: 'a:3', title: 'Learning to Learn Quickly', authors: ['Cara Diaz', 'Bo Chen', 'Ann Lee'], year: null }),
      // Front matter by the same editors.
      record({ sourceKey: 'acml2011:p', title: 'Preface', authors: ['Chun-Nan Hsu', 'Wee Sun Lee'], year: 2011 }),
      record({ sourceKey: 'acml2012:p', title: 'Preface', authors: ['Wee Sun Lee', 'Chun-Nan Hsu'], year: 2011 }),
      // Withdrawn twins (other OpenReview ids), and a record that fits both equally: none of them.
      record({ title: 'Towards Robust Sequence Labeling', authors: ['Liyuan Liu', 'Jingbo Shang'], venue: 'ICLR', year: 2018, status: 'Withdrawn', externalIds: { openreview: 'SJvq-EcCZ' } }),
      record({ title: 'Towards robust sequence labeling', authors: ['Jingbo Shang', 'Liyuan Liu'], venue: 'ICLR', year: 2018, status: 'Withdrawn', externalIds: { openreview: 'rkrqgCWMG' } }),
      record({ sourceKey: 'ws2018:4', title: 'Towards Robust Sequence Labeling', authors: ['Xiang Ren', 'Liyuan Liu', 'Jingbo Shang'], year: 2018, status: 'Withdrawn' }),
    ]);
    expect(results.map((r) => 'outcome' in r && r.outcome)).toEqual(Array(10).fill('added'));
    expect(await a.papers.count()).toBe(10);
  });
});
