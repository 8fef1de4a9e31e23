/**
 * Citation counts and in-library citation lists in the core's replies, through the real store,
 * library and commands: a card says "cited by 12k" (compact) or, opened, "cited by 12,345", in
 * English and Chinese, and nothing where the count is unknown; the hit JSON names `cited_by` and
 * `openalex` (nulls when unknown); an opened paper lists its references and the papers citing
 * it that the library holds, five each, most cited first with their counts, the menu opening
 * each, and a link to all of them on the site when there are more (and PUBLIC_URL names one);
 * a paper with none shows no such heading.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showPaper } from '../../src/commands/results.js';
import { messages } from '../../src/i18n/index.js';
import { hitsJson } from '../../src/papers/hitJson.js';
import type { Block, ListItem, Reply } from '../../src/reply.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { HOSTILE_ID, ZERO_ID, putFixtureCitations } from '../helpers/citations.js';

const SITE = 'https://papers.lab.example';
const HOSTILE_TITLE = '@everyone <b>Markdown</b> **bold** `code` <@123> <!channel> &amp; [link](http://evil.example)';
let app: TestApp;
let plain: TestApp;
let docs: Map<string, number>;

beforeAll(async () => {
  [app, plain] = await Promise.all([createTestApp({ env: { PUBLIC_URL: SITE } }), createTestApp()]);
  docs = await putFixtureCitations(app);
  await putFixtureCitations(plain);
});
afterAll(async () => {
  await Promise.all([app.dispose(), plain.dispose()]);
});

const doc = (id: string) => docs.get(id)!;
const lists = (reply: Reply) => reply.blocks.filter((b): b is Extract<Block, { kind: 'list' }> => b.kind === 'list');
const open = async (id: string, locale = 'en', on = app) => showPaper(on.context('discord', { id: 'u1' }, { locale }), (await on.library.findById(id))!.doc);

describe('counts on cards', () => {
  it('shows a count compact on a result card and exact on an opened paper, in English and Chinese', async () => {
    const paper = (await app.library.paperByDoc(doc('arxiv:1512.03385')))!;
    expect(paper.citations).toMatchObject({ count: 201234, openalex: 'W2194775991' });
    const card = (options: Parameters<TestApp['library']['card']>[2]) => app.library.card(paper, doc('arxiv:1512.03385'), options).citedBy;
    expect(card({})).toEqual({ count: 201234, text: 'cited by 201k' });
    expect(card({ detail: true })).toEqual({ count: 201234, text: 'cited by 201,234' });
    expect(card({ messages: messages('zh-CN') })).toEqual({ count: 201234, text: '被引 20万' });
    expect(card({ detail: true, messages: messages('zh-CN') })).toEqual({ count: 201234, text: '被引 201,234 次' });
  });

  it('says nothing where the count is unknown, and "cited by 0" only where OpenAlex said 0', async () => {
    const unknown = (await app.library.findById('arxiv:2304.02643'))!;
    expect(unknown.paper.citations).toBeUndefined();
    expect(app.library.card(unknown.paper, unknown.doc, { detail: true })).not.toHaveProperty('citedBy');
    const zero = (await app.library.findById(ZERO_ID))!;
    expect(app.library.card(zero.paper, zero.doc).citedBy).toEqual({ count: 0, text: 'cited by 0' });
  });

  it('puts the count and the OpenAlex work in the hit JSON, nulls where unknown', async () => {
    const first = async (query: string) => (await hitsJson(app.library, (await app.library.search(query, { limit: 1 })).hits))[0];
    expect(await first('attention is all you need')).toMatchObject({ id: 'arxiv:1706.03762', cited_by: 123456, openalex: 'W2963403868' });
    expect(await first('bertscore')).toMatchObject({ id: 'openreview:SkeHuCVFDr', cited_by: 3000, openalex: 'W2995435108' });
    expect(await first('segment anything')).toMatchObject({ id: 'arxiv:2304.02643', cited_by: null, openalex: null });
  });
});

describe('an opened paper', () => {
  it('lists its references and the papers citing it in the library, most cited first, with counts and a link to all of them', async () => {
    const reply = await open('arxiv:1706.03762');
    const [references, citing, similar] = lists(reply);
    const item = (id: string, detail: string): ListItem => ({ text: titleOf(id), detail, action: `paper:open:${doc(id)}`, url: `${SITE}/paper/${encodeURIComponent(id)}` });
    expect(references).toEqual({
      kind: 'list',
      heading: 'References in the library (6)',
      items: [
        item('arxiv:1512.03385', 'CVPR 2016 · cited by 201k'),
        item('arxiv:1412.6980', 'ICLR 2015 · cited by 170k'),
        item('arxiv:1409.0473', 'ICLR 2015 · cited by 38k'),
        expect.objectContaining({ text: 'A Neural Probabilistic Language Model', detail: 'JMLR 2003 · cited by 12k' }),
        expect.objectContaining({ text: 'Learning Deep Architectures for AI', detail: 'FTML 2009 · cited by 9k' }),
        { text: 'All 6 references in the library ↗', url: `${SITE}/paper/arxiv%3A1706.03762/references` },
      ],
    });
    expect(citing!.heading).toBe('Cited by, in the library (7)');
    expect(citing!.items.map((i) => [i.text, i.detail])).toEqual([
      [titleOf('arxiv:1810.04805'), 'NAACL 2019 · cited by 95k'],
      [HOSTILE_TITLE, 'HOSTILE 2024 · cited by 50k'],
      [titleOf('arxiv:2005.14165'), 'NeurIPS 2020 · cited by 35k'],
      [titleOf('arxiv:1710.10903'), 'ICLR 2018 · cited by 11k'],
      [titleOf('arxiv:2203.02155'), 'NeurIPS 2022 · cited by 9k'],
      ['All 7 papers in the library citing it ↗', undefined],
    ]);
    expect(citing!.items.at(-1)!.url).toBe(`${SITE}/paper/arxiv%3A1706.03762/cited-by`);
    expect(similar!.heading).toBe('Similar papers');
    // The card says the count exactly; the menu opens every paper listed, once, in the lists' order.
    expect(reply.blocks[0]).toMatchObject({ kind: 'paper', paper: { citedBy: { count: 123456, text: 'cited by 123,456' } } });
    const listed = [...references!.items, ...citing!.items, ...similar!.items].flatMap((i) => (i.action ? [i.action] : []));
    expect(reply.menu!.placeholder).toBe('Open a paper…');
    expect(reply.menu!.choices.map((c) => c.action)).toEqual([...new Set(listed)]);
  });

  it('writes the lists in Chinese, counts as Chinese readers write them', async () => {
    const [references, citing] = lists(await open('arxiv:1706.03762', 'zh-CN'));
    expect(references!.heading).toBe('库中的参考文献（6 篇）');
    expect(references!.items[0]!.detail).toBe('CVPR 2016 · 被引 20万');
    expect(references!.items.at(-1)!.text).toBe('库中全部 6 篇参考文献 ↗');
    expect(citing!.heading).toBe('库中引用本文的论文（7 篇）');
    expect(citing!.items[0]!.detail).toBe('NAACL 2019 · 被引 9.5万');
  });

  it('shows no link to the site without PUBLIC_URL, nor when every paper of a list is shown', async () => {
    const [references, citing] = lists(await open('arxiv:1706.03762', 'en', plain));
    // Without a site, a title leads to the paper's landing page.
    expect(references!.items[0]!.url).toBe('https://arxiv.org/abs/1512.03385');
    expect(references!.items).toHaveLength(5);
    expect(citing!.items).toHaveLength(5);
    const bert = lists(await open('arxiv:1810.04805'));
    expect(bert.map((l) => [l.heading, l.items.length])).toEqual([
      ['References in the library (1)', 1],
      ['Cited by, in the library (2)', 2],
      ['Similar papers', expect.any(Number)],
    ]);
  });

  it('shows no heading for a list with nothing in it, and the similar papers menu as before', async () => {
    const reply = await open('arxiv:1512.03385');
    expect(lists(reply).map((l) => l.heading)).toEqual(['Cited by, in the library (1)', 'Similar papers']);
    const none = await open('arxiv:2304.02643');
    expect(lists(none).map((l) => l.heading)).toEqual(['Similar papers']);
    expect(none.menu!.placeholder).toBe('Open a similar paper…');
    expect(JSON.stringify(none)).not.toMatch(/cited by|in the library/i);
  });
});

function titleOf(id: string): string {
  return {
    'arxiv:1512.03385': 'Deep Residual Learning for Image Recognition',
    'arxiv:1412.6980': 'Adam: A Method for Stochastic Optimization',
    'arxiv:1409.0473': 'Neural Machine Translation by Jointly Learning to Align and Translate',
    'arxiv:1810.04805': 'BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding',
    'arxiv:2005.14165': 'Language Models are Few-Shot Learners',
    'arxiv:1710.10903': 'Graph Attention Networks',
    'arxiv:2203.02155': 'Training Language Models to Follow Instructions with Human Feedback',
    [HOSTILE_ID]: HOSTILE_TITLE,
  }[id]!;
}
