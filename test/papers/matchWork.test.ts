/**
 * Which library paper an OpenAlex work is, on SQLite and PostgreSQL (the matcher reads the
 * store's identifiers and title keys): by DOI, by arXiv id both ways, by title only where year
 * and an author agree; never a count on the wrong paper. Hostile and tricky works: the same
 * title in other years, two papers of one title, withdrawn duplicates, a rejection and its
 * acceptance elsewhere, initials, accents, names in either order, Chinese names and titles,
 * identifiers that disagree, front matter, and input that is not a work at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchWorks, workLookups, type WorkKeys, type WorkMatch } from '../../src/papers/matchWork.js';
import type { PaperRecord } from '../../src/papers/model.js';
import type { UpsertOptions } from '../../src/store/papers.js';
import { BACKENDS, type Instance, type TestStore } from '../store/contract/backends.js';

const options: UpsertOptions = { source: 'file:library', classify: () => [], now: new Date('2026-01-01T00:00:00.000Z') };
const base: PaperRecord = { title: '', authors: [], abstract: '', venue: '', year: null, status: '', keywords: [], labels: [], links: {}, externalIds: {} };
const CJK_RUN = '基于深度学习的图像识别方法研究与应用分析及其在医学影像中的实践探索与系统评估';

/** The library: each paper by a short name. */
const LIBRARY: Record<string, Partial<PaperRecord>> = {
  resnet: { sourceKey: 'cvpr2016:1', title: 'Deep Residual Learning for Image Recognition', authors: ['Kaiming He', 'Xiangyu Zhang', 'Shaoqing Ren', 'Jian Sun'], venue: 'CVPR', year: 2016, status: 'Oral' },
  transformer: { title: 'Attention Is All You Need', authors: ['Ashish Vaswani', 'Noam Shazeer'], venue: 'NeurIPS', year: 2017, externalIds: { arxiv: '1706.03762' } },
  bert: { title: 'BERT: Pre-training of Deep Bidirectional Transformers', authors: ['Jacob Devlin'], year: 2019, externalIds: { doi: '10.48550/arxiv.1810.04805' } },
  nature: { title: 'Deep learning', authors: ['Yann LeCun', 'Yoshua Bengio', 'Geoffrey Hinton'], venue: 'Nature', year: 2015, externalIds: { doi: '10.1038/nature14539' } },
  book: { sourceKey: 'mit:dl', title: 'Deep Learning', authors: ['Ian Goodfellow', 'Yoshua Bengio', 'Aaron Courville'], venue: 'MIT Press', year: 2016 },
  imageIclr: { title: 'Image Transformer', authors: ['Ashish Vaswani', 'Niki Parmar'], venue: 'ICLR', year: 2018, status: 'Rejected', externalIds: { openreview: 'r16Vyf-0-' } },
  // Another OpenReview id keeps the two apart in the library (the same title, year and authors would merge them).
  imageIcml: { title: 'Image Transformer', authors: ['Niki Parmar', 'Ashish Vaswani'], venue: 'ICML', year: 2018, status: 'Oral', externalIds: { openreview: 'S1xImgTr2018' } },
  withdrawnA: { title: 'Towards Robust Sequence Labeling', authors: ['Liyuan Liu', 'Jingbo Shang'], venue: 'ICLR', year: 2018, status: 'Withdrawn', externalIds: { openreview: 'SJvq-EcCZ' } },
  withdrawnB: { title: 'Towards robust sequence labeling', authors: ['Jingbo Shang', 'Liyuan Liu'], venue: 'ICLR', year: 2018, status: 'Withdrawn', externalIds: { openreview: 'rkrqgCWMG' } },
  learn2012: { sourceKey: 'book:2012', title: 'Learning to Learn', authors: ['Sebastian Thrun', 'Lorien Pratt'], year: 2012 },
  // (With Thrun first too, the import would have taken it for the 2012 paper: title and first author agree, whatever the year.)
  learn2020: { sourceKey: 'nips2020:9', title: 'Learning to Learn', authors: ['Chelsea Finn', 'Sebastian Thrun'], year: 2020 },
  simclrChen: { sourceKey: 'icml2020:1', title: 'A Simple Framework for Contrastive Learning', authors: ['Ting Chen', 'Simon Kornblith'], year: 2020 },
  simclrSmith: { sourceKey: 'ws2020:7', title: 'A Simple Framework for Contrastive Learning', authors: ['Bob Smith'], year: 2020 },
  rocktaschel: { sourceKey: 'iclr2016:3', title: 'Reasoning about Entailment with Neural Attention', authors: ['Tim Rocktäschel', 'Edward Grefenstette'], year: 2016 },
  zhang: { sourceKey: 'aaai2021:5', title: 'Graph Attention for Traffic Forecasting', authors: ['Zhang Wei', 'Li Xiaoming'], year: 2021 },
  cjkWang: { sourceKey: 'cn:1', title: `${CJK_RUN}一`, authors: ['王芳'], year: 2021 },
  cjkLi: { sourceKey: 'cn:2', title: `${CJK_RUN}二`, authors: ['李强'], year: 2021 },
  preface: { sourceKey: 'acml2011:p', title: 'Preface', authors: ['Chun-Nan Hsu', 'Wee Sun Lee'], year: 2011 },
  anonymous: { title: 'Sparse Mixtures of Attention Heads', authors: ['Anonymous'], venue: 'ICLR', year: 2024, status: 'Under review', externalIds: { openreview: 'AnonXyz01' } },
};

const work = (over: Partial<WorkKeys>): WorkKeys => ({ title: '', authors: [], ...over });
/** What each work should match: a paper's name, the names of tied papers, or nothing. */
const CASES: Array<[string, WorkKeys, string | string[] | undefined, string?]> = [
  ['its DOI, in any case and form', work({ doi: 'https://doi.org/10.1038/NATURE14539', title: 'Something else entirely' }), 'nature', 'doi'],
  ['its arXiv DOI, to the paper filed by arXiv id', work({ doi: '10.48550/arXiv.1706.03762', title: 'Attention is all you need' }), 'transformer', 'arxiv'],
  ['its arXiv id, to the paper filed by arXiv DOI', work({ arxiv: '1810.04805v2', title: 'BERT' }), 'bert', 'arxiv'],
  ['a DOI naming one paper and an arXiv id another: ambiguous', work({ doi: '10.1038/nature14539', arxiv: '1706.03762' }), ['nature', 'transformer'], 'ids'],
  ['an arXiv id its title paper does not have: nothing', work({ arxiv: '2001.00001', title: 'Attention Is All You Need', year: 2017, authors: ['Ashish Vaswani'] }), undefined],
  ['a DOI its title paper does not have: nothing', work({ doi: '10.1000/other', title: 'Deep learning', year: 2015, authors: ['Yann LeCun'] }), undefined],
  ['title, year and every author', work({ title: 'Deep residual learning for image recognition', year: 2016, authors: ['Kaiming He', 'Xiangyu Zhang', 'Shaoqing Ren', 'Jian Sun'] }), 'resnet', 'title'],
  ['initials, the year before (a preprint)', work({ title: 'Deep Residual Learning for Image Recognition.', year: 2015, authors: ['K. He', 'J. Sun'] }), 'resnet', 'title'],
  ['the year two before: nothing', work({ title: 'Deep Residual Learning for Image Recognition', year: 2014, authors: ['K. He'] }), undefined],
  ['no year: nothing', work({ title: 'Deep Residual Learning for Image Recognition', authors: ['Kaiming He'] }), undefined],
  ['no author in common: nothing', work({ title: 'Deep Residual Learning for Image Recognition', year: 2016, authors: ['Someone Else'] }), undefined],
  ['a longer title: nothing', work({ title: 'Deep Residual Learning for Image Recognition: Revisited', year: 2016, authors: ['Kaiming He'] }), undefined],
  ['the book, not the article of the same title a year before', work({ title: 'Deep learning', year: 2016, authors: ['Ian Goodfellow', 'Yoshua Bengio', 'Aaron Courville'] }), 'book', 'title'],
  ['the article (by DOI-less title), not the book', work({ title: 'Deep Learning', year: 2015, authors: ['Yann LeCun', 'Yoshua Bengio', 'Geoffrey Hinton'] }), 'nature', 'title'],
  ['the acceptance, not the rejection elsewhere', work({ title: 'Image Transformer', year: 2018, authors: ['Niki Parmar', 'Ashish Vaswani', 'Jakob Uszkoreit'] }), 'imageIcml', 'title'],
  ['withdrawn duplicates: ambiguous', work({ title: 'Towards Robust Sequence Labeling', year: 2018, authors: ['Liyuan Liu', 'Jingbo Shang'] }), ['withdrawnA', 'withdrawnB'], 'title'],
  ['the same title in 2012 and 2020, the work of 2016: nothing', work({ title: 'Learning to Learn', year: 2016, authors: ['Sebastian Thrun'] }), undefined],
  ['the same title in 2012 and 2020, the work of 2019', work({ title: 'Learning to Learn', year: 2019, authors: ['Sebastian Thrun', 'Chelsea Finn'] }), 'learn2020', 'title'],
  ['the article, not the book, for a work that shares only one of three authors with the book', work({ title: 'Deep Learning', year: 2016, authors: ['Yann LeCun', 'Yoshua Bengio', 'Geoffrey Hinton'] }), 'nature', 'title'],
  ['neither, for a work that shares one author of three with each', work({ title: 'Deep Learning', year: 2016, authors: ['Yoshua Bengio', 'Someone Else', 'Another One'] }), undefined],
  ['one title, two papers of one year: the one whose author agrees', work({ title: 'A simple framework for contrastive learning', year: 2020, authors: ['Ting Chen'] }), 'simclrChen', 'title'],
  ['accents folded', work({ title: 'Reasoning About Entailment With Neural Attention', year: 2016, authors: ['Tim Rocktaschel'] }), 'rocktaschel', 'title'],
  ['a Chinese name in the other order', work({ title: 'Graph attention for traffic forecasting', year: 2021, authors: ['Wei Zhang'] }), 'zhang', 'title'],
  ['a CJK title, whole', work({ title: `${CJK_RUN}二`, year: 2021, authors: ['李强'] }), 'cjkLi', 'title'],
  ['a CJK title that differs past 40 characters from the paper its author wrote: nothing', work({ title: `${CJK_RUN}二`, year: 2021, authors: ['王芳'] }), undefined],
  ['a Chinese name in characters against one in letters: nothing', work({ title: `${CJK_RUN}二`, year: 2021, authors: ['Qiang Li'] }), undefined],
  ['front matter: nothing', work({ title: 'Preface', year: 2011, authors: ['Wee Sun Lee'] }), undefined],
  ['a placeholder author: nothing', work({ title: 'Sparse Mixtures of Attention Heads', year: 2024, authors: ['Anonymous'] }), undefined],
  ['a title the library lacks: nothing', work({ title: 'Generative Adversarial Nets', year: 2014, authors: ['Ian Goodfellow'] }), undefined],
  ['not a work at all', { title: 42, authors: 'Kaiming He', doi: 7, year: 'x' } as unknown as WorkKeys, undefined],
];

describe.each(BACKENDS)('matching OpenAlex works to the library on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let a: Instance;
  const docs = new Map<string, number>();
  beforeAll(async () => {
    store = await backend.create();
    a = await store.instance();
    for (const [name, over] of Object.entries(LIBRARY)) {
      const [result] = await a.papers.write((tx) => tx.upsertBatch([{ ...base, ...over }], options));
      if (!result || !('doc' in result) || result.outcome !== 'added') throw new Error(`${name} was not added as a paper of its own: ${JSON.stringify(result)}`);
      docs.set(name, result.doc);
    }
  });
  afterAll(() => store.dispose());

  const expected = (want: string | string[] | undefined, by?: string): WorkMatch => {
    if (want === undefined) return { kind: 'unmatched' };
    if (Array.isArray(want)) return { kind: 'ambiguous', docs: want.map((n) => docs.get(n)!).sort((x, y) => x - y), by: by as 'ids' | 'title' };
    return { kind: 'matched', doc: docs.get(want)!, id: expect.any(String) as unknown as string, by: by as 'doi' };
  };

  it.each(CASES)('%s', async (_, w, want, by) => {
    expect(await matchWorks([w], a.papers)).toEqual([expected(want, by)]);
  });

  it('matches a whole batch in one read, each work as it would alone', async () => {
    const all = await matchWorks(CASES.map((c) => c[1]), a.papers);
    expect(all).toEqual(CASES.map(([, , want, by]) => expected(want, by)));
    expect(await matchWorks([], a.papers)).toEqual([]);
  });
});

describe('workLookups', () => {
  it('asks for the DOI, the arXiv id both ways, and the title with every word of every name', () => {
    expect(workLookups({ doi: '10.48550/arXiv.1706.03762', title: 'Attention Is All You Need', year: 2017, authors: ['Ashish Vaswani'] })).toEqual([
      'arxiv:1706.03762',
      'doi:10.48550/arxiv.1706.03762',
      'title:attention is all you need|ashish',
      'title:attention is all you need|vaswani',
    ]);
    expect(workLookups({ doi: '10.1038/nature14539', title: 'Preface', authors: ['Ann Lee'] })).toEqual(['doi:10.1038/nature14539']);
  });
});
