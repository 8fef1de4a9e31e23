/**
 * A whole-query identifier or link names its paper: answered from the store around the engine,
 * which itself is pure text search.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/i18n/index.js';
import type { SearchEngine } from '../../src/search/engine.js';
import { searchWithRefs } from '../../src/search/refs.js';
import type { PaperStore } from '../../src/store/papers.js';
import { engineOf, storeOf } from '../helpers/corpus.js';

/** A result's notes in English. */
const notes = (result: { notes: Parameters<typeof translate>[1][] }) => result.notes.map((n) => translate('en', n));

let store: PaperStore;
let engine: SearchEngine;
const search = (q: string, limit = 10) => searchWithRefs(engine, store, q, { limit });
const titles = async (q: string, limit = 10) => (await search(q, limit)).hits.map((h) => h.title);

beforeAll(async () => {
  store = await storeOf();
  engine = (await engineOf(store)).engine;
});

describe('identifiers and links', () => {
  it.each([
    ['https://arxiv.org/abs/1706.03762', 'Attention Is All You Need'],
    ['https://arxiv.org/pdf/1706.03762v5.pdf', 'Attention Is All You Need'],
    ['arXiv:1706.03762', 'Attention Is All You Need'],
    ['1706.03762v2', 'Attention Is All You Need'],
    ['https://doi.org/10.1109/CVPR.2016.90', 'Deep Residual Learning for Image Recognition'],
    ['10.1109/cvpr.2016.90', 'Deep Residual Learning for Image Recognition'],
    ['https://openreview.net/forum?id=SkeHuCVFDr', 'BERTScore: Evaluating Text Generation with BERT'],
    ['https://openreview.net/pdf?id=SkeHuCVFDr', 'BERTScore: Evaluating Text Generation with BERT'],
  ])('%s', async (input, title) => {
    expect(await titles(input)).toEqual([title]);
  });

  it('says so when the identifier is not in the library', async () => {
    const result = await search('https://arxiv.org/abs/2999.00001');
    expect(result.hits).toEqual([]);
    expect(notes(result).join(' ')).toMatch(/No paper with arXiv id 2999.00001/);
  });

  it('reads the paper from the store, which may be newer than the index', async () => {
    const own = await storeOf();
    const { engine: older } = await engineOf(own);
    await own.write((tx) =>
      tx.upsertBatch(
        [{ title: 'Quokka Retrieval Beyond the Index', authors: ['Ann Lee'], abstract: 'Quokkas.', venue: 'arXiv', year: 2026, status: '', keywords: [], labels: [], links: {}, externalIds: { arxiv: '2611.00042' } }],
        { source: 'arxiv', classify: () => [], now: new Date('2026-11-30T00:00:00Z') },
      ),
    );
    const result = await searchWithRefs(older, own, 'arXiv:2611.00042');
    expect(result.hits.map((h) => h.title)).toEqual(['Quokka Retrieval Beyond the Index']);
    expect(result.ref).toEqual({ kind: 'arxiv', id: '2611.00042' });
    expect((await older.search('quokka retrieval')).hits).toEqual([]);
  });

  it('leaves any other query to the engine, which reads an identifier as words', async () => {
    expect(await search('attention is all you need')).toEqual(await engine.search('attention is all you need', { limit: 10 }));
    expect((await engine.search('arXiv:1706.03762')).ref).toBeUndefined();
  });
});
