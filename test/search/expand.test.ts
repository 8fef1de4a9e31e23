/**
 * Query planning: the forms a word stands for weigh no more than the word as typed.
 */
import { describe, expect, it } from 'vitest';
import { buildSegment } from '../../src/search/index/build.js';
import { IndexView } from '../../src/search/index/view.js';
import { Field } from '../../src/search/index/types.js';
import { idf } from '../../src/search/bm25.js';
import { planWords } from '../../src/search/expand.js';
import { QueryPlan } from '../../src/search/queryPlan.js';
import { SearchEngine } from '../../src/search/engine.js';
import { msg } from '../../src/i18n/index.js';
import { parseQuery } from '../../src/search/query.js';
import { indexRow } from './helpers/indexRow.js';

describe('planning a word', () => {
  // "learning" in 60 titles, its rare plural "learnings" in one, a completion "learningbased" in
  // one, and the word hyphenated, "learn-ing" (a compound whose joined form is the word), in one.
  const rows = [
    ...Array.from({ length: 60 }, (_, i) => indexRow(i + 1, `Learning to rank ${i}`)),
    indexRow(61, 'Learnings from deployed systems'),
    indexRow(62, 'Learningbased control'),
    ...Array.from({ length: 40 }, (_, i) => indexRow(63 + i, `Graph networks ${i}`)),
    indexRow(103, 'Learn-ing by heart'),
  ];
  const view = new IndexView(buildSegment(rows, { generation: 1, taxonomyHash: 'h', topicIds: [] }));
  const weightOf = (groups: ReturnType<typeof planWords>, word: string) => {
    const v = groups[0]!.variants.find((x) => view.vocab.term(x.term) === word)!;
    return v.weight * idf(view.vocab.df(v.term), view.liveCount);
  };

  it('caps a rare plural, a rare hyphenated spelling, and a completion, at the typed word\'s idf', () => {
    for (const text of ['learning', 'learning ']) {
      const groups = planWords(parseQuery(text), view.vocab, view.liveCount);
      const typed = weightOf(groups, 'learning');
      expect(weightOf(groups, 'learnings'), text).toBeLessThanOrEqual(typed + 1e-12);
      // As the bound of the word's group, an uncapped rare spelling kept a walk from leaving
      // any of the word's abstracts out ("learning" at 1M took 1.7× as long).
      expect(weightOf(groups, '-learning'), text).toBeLessThanOrEqual(typed + 1e-12);
      if (text === 'learning') expect(weightOf(groups, 'learningbased')).toBeLessThanOrEqual(typed + 1e-12);
    }
  });

  it('leaves a common plural of a rarer typed word as it was', () => {
    const more = [...rows, ...Array.from({ length: 30 }, (_, i) => indexRow(200 + i, `Graph transformers ${i}`)), indexRow(300, 'A transformer')];
    const v = new IndexView(buildSegment(more, { generation: 1, taxonomyHash: 'h', topicIds: [] }));
    const groups = planWords(parseQuery('transformer '), v.vocab, v.liveCount);
    const plural = groups[0]!.variants.find((x) => v.vocab.term(x.term) === 'transformers')!;
    // Its own idf is below the typed word's: no cap applies, it keeps the plural's weight (0.9).
    expect(idf(v.vocab.df(plural.term), v.liveCount)).toBeLessThan(idf(v.vocab.df(v.vocab.id('transformer')!), v.liveCount));
    expect(plural.weight).toBe(0.9);
  });
});

describe('planning a query of several words', () => {
  // "learning" in every paper, "graph" in 4 of 100 (above 1%, below 5%), "zebra" in one.
  const rows = Array.from({ length: 100 }, (_, i) =>
    indexRow(i + 1, i < 4 ? `Graph learning ${i}` : i === 4 ? 'Zebra learning' : `Learning to rank ${i}`),
  );
  const view = new IndexView(buildSegment(rows, { generation: 1, taxonomyHash: 'h', topicIds: [] }));
  const abstractsOf = (text: string) => {
    const plan = new QueryPlan(view, planWords(parseQuery(text), view.vocab, view.liveCount), text.split(' ').length);
    const scored = new Map<string, boolean>();
    for (const group of [...plan.required, ...plan.optional]) for (const v of group.variants) scored.set(view.vocab.term(v.term), v.fields.some((f) => f.f === Field.Abstract));
    return scored;
  };

  it('keeps abstracts for every word of a one- or two-word query, whatever else is typed', () => {
    expect(abstractsOf('learning').get('learning')).toBe(true);
    expect(abstractsOf('graph learning').get('learning')).toBe(true);
    // Stopwords, repeats and punctuation are not words of the query.
    for (const text of ['what is learning', 'learning learning learning', 'learning & co', 'graph learning in the'])
      expect(abstractsOf(text).get('learning'), text).toBe(true);
  });

  it('scores a word in more than 5% of papers outside abstracts from three words on', () => {
    const scored = abstractsOf('zebra graph learning');
    expect(scored.get('learning')).toBe(false);
    expect([scored.get('graph'), scored.get('zebra')]).toEqual([true, true]);
  });

  it('in a pasted title (seven words or more), a word in more than 1% of papers too', () => {
    const scored = abstractsOf('zebra graph learning to rank the world');
    expect([scored.get('learning'), scored.get('graph'), scored.get('zebra')]).toEqual([false, false, true]);
  });
});

describe('leaving common words out of abstracts', () => {
  // "attention", "memory", "depth" and "recall" are each in more than 5% of papers, all in
  // abstracts; "attention" is in one title too.
  const rows = Array.from({ length: 100 }, (_, i) =>
    indexRow(i + 1, i === 50 ? 'Attention span' : `Paper ${i}`, i < 10 ? { abstract: 'attention memory depth recall' } : {}),
  );
  const view = new IndexView(buildSegment(rows, { generation: 1, taxonomyHash: 'h', topicIds: [] }));
  const engine = new SearchEngine(view, {
    lookupAbstracts: async () => new Map<number, string>(),
    resolveTopic: (name: string) => ({ error: msg('search.noTopic', { name }) }),
  });

  it('scores them there after all when nothing else has them', async () => {
    const result = await engine.search('memory depth recall');
    expect(result.total).toBe(10);
  });

  it('counts them where they are in the abstract of a paper found otherwise, without scoring them there', async () => {
    // "attention", the rarest, is walked first, in every field: the ten papers with all three
    // words in their abstracts have "memory" and "depth" too, and are the answer, all counted.
    // Those two score nothing there: the ten score alike.
    const result = await engine.search('attention memory depth ');
    expect([result.total, result.partial, result.hits.length]).toEqual([10, false, 10]);
    expect(new Set(result.hits.map((h) => h.score)).size).toBe(1);
    expect(result.hits.map((h) => h.title)).not.toContain('Attention span');
  });
});

