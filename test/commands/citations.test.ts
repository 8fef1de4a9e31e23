/**
 * Citation counts in the core's replies, through the real store, library and commands: a card
 * says "cited by 12k" (compact) or, opened, "cited by 12,345", in English and Chinese, and
 * nothing where the count is unknown; the hit JSON names `cited_by` and `openalex` (nulls when
 * unknown).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/i18n/index.js';
import { hitsJson } from '../../src/papers/hitJson.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ZERO_ID, putFixtureCitations } from '../helpers/citations.js';

let app: TestApp;
let docs: Map<string, number>;

beforeAll(async () => {
  app = await createTestApp();
  docs = await putFixtureCitations(app);
});
afterAll(async () => {
  await app.dispose();
});

const doc = (id: string) => docs.get(id)!;

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
