/**
 * Promises seen from outside (issue 28), over small libraries written here: a paper is found by
 * the rare compounds of its abstract; a paper holding every word ranks before one holding some,
 * wherever the words are; the total is one number, never below what is listed; a famous title
 * typed with a typo in a short word is that title; a withdrawn or anonymous record goes after
 * the papers that match alike.
 */
import { describe, expect, it } from 'vitest';
import { msg } from '../../src/i18n/index.js';
import { buildSegment } from '../../src/search/index/build.js';
import { IndexView } from '../../src/search/index/view.js';
import { SearchEngine } from '../../src/search/engine.js';
import type { IndexRow } from '../../src/store/papers.js';
import { tokenize } from '../../src/text.js';
import { compoundTerm } from '../../src/search/compounds.js';
import { indexRow } from './helpers/indexRow.js';

function engineOf(rows: IndexRow[]): SearchEngine {
  const view = new IndexView(buildSegment(rows, { generation: 1, taxonomyHash: 'h', topicIds: [] }));
  return new SearchEngine(view, {
    lookupAbstracts: async () => new Map<number, string>(),
    resolveTopic: (name: string) => ({ error: msg('search.noTopic', { name }) }),
  });
}

const titlesOf = async (engine: SearchEngine, q: string, limit = 10) => (await engine.search(q, { limit })).hits.map((h) => h.title);

describe('hyphenated compounds', () => {
  // "domain", "level", "many", "one", "knowledge" and "transfer" are each in far more than 5% of
  // the papers, many of them in titles; one paper's abstract has the compounds.
  const common = ['Domain level knowledge', 'Many transfer one', 'Knowledge transfer at one level', 'One domain many levels', 'Transfer knowledge across many domains'];
  const rows = [
    ...Array.from({ length: 60 }, (_, i) =>
      indexRow(i + 1, `${common[i % common.length]} ${i}`, { abstract: 'We transfer knowledge from one domain to many, at the level of each.' }),
    ),
    indexRow(61, 'Mutual transfer for reading comprehension', { abstract: 'Our framework runs multiple many-to-one transfers, with domain-level knowledge-transfer between sources.' }),
    indexRow(62, 'Multi-agent path finding', { abstract: 'Agents plan paths.' }),
  ];
  const engine = engineOf(rows);

  it('finds the paper whose abstract has the rare compounds pasted', async () => {
    expect((await titlesOf(engine, 'domain-level many-to-one knowledge-transfer'))[0]).toBe('Mutual transfer for reading comprehension');
    expect((await titlesOf(engine, 'domain-level many-to-one knowledge-transfer '))[0]).toBe('Mutual transfer for reading comprehension');
  });

  it('files a compound\'s joined form, so that the glued spelling finds the hyphenated one', async () => {
    expect(await titlesOf(engine, 'multiagent ')).toEqual(['Multi-agent path finding']);
    expect(engine.documentFrequency(compoundTerm('manytoone'))).toBe(1);
    expect(engine.documentFrequency('manytoone')).toBe(0);
    // Its words are still words of their own, and count toward no field's length.
    expect(await titlesOf(engine, 'agent path ')).toEqual(['Multi-agent path finding']);
  });
});

describe('papers holding every word of a query', () => {
  // "learning", "models" and "video" in most abstracts; "diffusion" in a few titles. The video
  // diffusion papers say "generation" only in their abstracts; the others have it in the title.
  const rows = [
    ...Array.from({ length: 40 }, (_, i) => indexRow(i + 1, `Learning to rank ${i}`, { abstract: 'Models of learning, generation and video.' })),
    indexRow(41, 'Video diffusion models', { abstract: 'We speed up generation of video.' }),
    indexRow(42, 'Diffusion models with context guidance for video', { abstract: 'Generation of long clips.' }),
    indexRow(43, 'Depth diffusion models for scene generation', { abstract: 'Text-driven scenes.' }),
    indexRow(44, 'Diffusion models for generation of images', { abstract: 'Images, faces and shapes.' }),
  ];
  const engine = engineOf(rows);

  it('count the words they hold only in abstracts a common word is left out of', async () => {
    // "generation" and "models" are common: not scored in abstracts, but a paper that has them
    // there has them. The two video papers match every word; the others match some.
    const result = await engine.search('diffusion models for video generation', { limit: 10 });
    expect(result.hits.map((h) => h.title)).toEqual(['Video diffusion models', 'Diffusion models with context guidance for video']);
    expect([result.total, result.partial]).toEqual([2, false]);
  });
});

describe('the total', () => {
  // Every "reinforcement learning" paper is in the list; many more have "learning" only.
  const rows = [
    ...Array.from({ length: 14 }, (_, i) => indexRow(i + 1, `Reinforcement learning for task ${i}`)),
    ...Array.from({ length: 34 }, (_, i) => indexRow(100 + i, `Learning representations ${i}`, { abstract: 'learning learning' })),
    indexRow(200, 'Offline policies', { abstract: 'A reinforcement learning method.' }),
  ];
  const engine = engineOf(rows);
  /** Papers holding every word of `q`, counted by hand. */
  const holding = (q: string) => rows.filter((r) => tokenize(q).every((w) => tokenize(`${r.title} ${r.abstract}`).includes(w))).length;

  it('is one number whatever the limit, the papers holding every word, never below the list', async () => {
    for (const q of ['reinforcement learning', 'reinforcement learning ', 'learning', 'learning representations', 'reinforcement learning offline']) {
      const counts = [];
      for (const limit of [5, 20, 200]) {
        const result = await engine.search(q, { limit });
        expect(result.total, `${q} ${limit}`).toBeGreaterThanOrEqual(result.hits.length);
        counts.push(result.total);
      }
      expect(new Set(counts).size, q).toBe(1);
      if (holding(q) > 0) expect(counts[0], q).toBe(holding(q));
    }
    // Nothing holds every word: the papers holding the most are listed, and counted.
    const partial = await engine.search('reinforcement learning offline zebra', { limit: 200 });
    expect([partial.partial, partial.total]).toEqual([true, partial.hits.length]);
  });
});

describe('a famous title typed from memory', () => {
  const rows = [
    indexRow(1, 'Attention is All you Need', { authors: ['Ashish Vaswani'], abstract: 'The dominant sequence transduction models are based on recurrent networks.' }),
    indexRow(2, 'Precision long-stroke motion systems', { authors: ['Yazan M. Al-Rawashdeh'], abstract: 'What is needed for attention to detail in stages is a need for care.' }),
    indexRow(3, 'Sparse attention needs less memory', { authors: ['Al Smith'], abstract: 'Attention is what we need.' }),
    ...Array.from({ length: 20 }, (_, i) => indexRow(10 + i, `Attention heads ${i}`)),
  ];
  const engine = engineOf(rows);

  it('is that title, whatever its short words look like', async () => {
    expect((await titlesOf(engine, 'atention is al you need'))[0]).toBe('Attention is All you Need');
    expect((await titlesOf(engine, 'attention is al you need '))[0]).toBe('Attention is All you Need');
  });

  it('but not when the short word differs by a digit', async () => {
    const versions = engineOf([indexRow(1, 'L1 adaptive control design'), indexRow(2, 'L2 adaptive control design')]);
    expect(await titlesOf(versions, 'L1 adaptive control design')).toEqual(['L1 adaptive control design']);
  });
});

describe('withdrawn and anonymous records', () => {
  // The same match (every word in the title); the records are newer and their titles shorter,
  // which alone would put them first.
  const rows = [
    indexRow(1, 'Reinforcement learning for robotics: an overview', { year: 2018, status: 'Oral' }),
    indexRow(2, 'Reinforcement learning for robotics', { year: 2019, status: 'Withdrawn', authors: ['Jane Roe'] }),
    indexRow(3, 'Reinforcement learning for robotics', { year: 2020, status: 'Poster', authors: ['Anonymous'] }),
    indexRow(4, 'Reinforcement learning in robotics, a survey of methods', { year: 2017, status: 'Poster' }),
    indexRow(5, 'Robotics', { year: 2021, status: 'Poster', abstract: 'reinforcement learning' }),
  ];
  const engine = engineOf(rows);

  it('go after the papers that match alike, before those that match less', async () => {
    expect(await titlesOf(engine, 'reinforcement learning robotics ')).toEqual([
      'Reinforcement learning for robotics: an overview',
      'Reinforcement learning in robotics, a survey of methods',
      'Reinforcement learning for robotics',
      'Reinforcement learning for robotics',
      'Robotics',
    ]);
  });
});
