/**
 * Standing in the engine: a broad query opens with the paper of high standing, while an exact
 * title, a short name, an author's name and rare words still find their paper first, and an
 * unknown count sinks no new paper (sort:new and a digest's "new since" rank by words alone).
 * A segmented index answers a broad query as a full rebuild does.
 */
import { describe, expect, it } from 'vitest';
import { buildSegment } from '../../src/search/index/build.js';
import { IndexView } from '../../src/search/index/view.js';
import { SearchEngine, type EngineOptions } from '../../src/search/engine.js';
import type { IndexRow } from '../../src/store/papers.js';
import { indexRow } from './helpers/indexRow.js';
import { wordSignals } from '../../src/search/broad.js';
import { planWords } from '../../src/search/expand.js';
import { parseQuery } from '../../src/search/query.js';

const TOPICS = ['gnn'];
const options = { generation: 1, taxonomyHash: 'h', topicIds: TOPICS };
const THINGS = ['Molecules', 'Traffic', 'Recommendation', 'Physics', 'Code', 'Proteins', 'Social Networks', 'Meshes', 'Circuits', 'Weather', 'Knowledge Graphs', 'Point Clouds'];
const ADJECTIVES = ['Scalable', 'Robust', 'Expressive', 'Deep', 'Equivariant', 'Dynamic', 'Efficient', 'Explainable', 'Hyperbolic', 'Spectral'];

/** The seminal paper: the words in its abstract, cited 30,000 times since 2017. */
const SEMINAL = 'Semi-Supervised Classification with Graph Convolutional Networks';

/** A field of papers on graph neural networks, with their counts, and a few others. */
function library(counts: boolean): IndexRow[] {
  const rows: IndexRow[] = [];
  const add = (title: string, over: Partial<IndexRow> = {}) => rows.push(indexRow(rows.length + 1, title, { venue: 'NeurIPS', status: 'Poster', ...over }));
  THINGS.forEach((thing, i) => add(`Graph Neural Networks for ${thing}`, { year: 2019 + (i % 6), citedBy: counts ? 5 + i : null }));
  ADJECTIVES.forEach((adjective, i) => add(`${adjective} Graph Neural Networks`, { year: 2018 + (i % 7), citedBy: counts ? 20 + i : null }));
  add(SEMINAL, { year: 2017, abstract: 'We present a scalable approach to semi-supervised learning on graph-structured data, a variant of neural networks that operate on graphs.', citedBy: counts ? 30_000 : null });
  add('Graph Neural Networks for Zebra Stripe Counting', { year: 2023, citedBy: counts ? 1 : null });
  add('GNNZoo: A Library of Graph Neural Networks', { year: 2022, citedBy: counts ? 2 : null });
  add('Message Passing on Graphs', { year: 2021, authors: ['Ada Lovelace'], abstract: 'Neural networks passing messages.', citedBy: counts ? 3 : null });
  add('Expressive Power of Graph Neural Networks', { year: 2020, authors: ['Ada Lovelace'], citedBy: counts ? 4 : null });
  add('Quokka Tessellations of Graph Neural Networks', { year: 2024, abstract: 'Quokka tessellations, at last.', citedBy: counts ? 0 : null });
  // A new paper whose count is not known yet, beside one of the same year and words whose count is.
  add('Graph Neural Networks for Tide Tables', { year: 2025, citedBy: null, firstSeen: '2026-02-01T00:00:00.000Z' });
  add('Graph Neural Networks for Tide Charts', { year: 2025, citedBy: counts ? 2 : null, firstSeen: '2026-02-01T00:00:00.000Z' });
  // A famous paper of another field that mentions the words in passing.
  add('Deep Residual Learning for Image Recognition', { year: 2016, abstract: 'Residual networks are easier to optimize; unlike graph or other neural models, they go deep.', citedBy: counts ? 150_000 : null });
  return rows;
}

const engine = (rows: IndexRow[], over: EngineOptions = {}) => {
  const deps = { resolveTopic: () => ({ id: 'gnn' }), lookupAbstracts: async () => new Map<number, string>() };
  return new SearchEngine(new IndexView(buildSegment(rows, options)), deps, over);
};
const titles = async (e: SearchEngine, q: string, more: Parameters<SearchEngine['search']>[1] = {}) => (await e.search(q, { limit: 10, ...more })).hits.map((h) => h.title);

describe('standing in search', () => {
  const withCounts = engine(library(true));
  const byWords = engine(library(true), { standing: false });

  it('opens a broad query with the paper of high standing, and counts every paper of the field', async () => {
    expect((await titles(byWords, 'graph neural networks'))[0]).not.toBe(SEMINAL);
    const result = await withCounts.search('graph neural networks', { limit: 10 });
    expect(result.hits[0]!.title).toBe(SEMINAL);
    expect(result.total).toBe((await byWords.search('graph neural networks', { limit: 10 })).total);
  });

  it('holds back a famous paper that mentions the words in passing', async () => {
    expect(await titles(withCounts, 'graph neural networks', { limit: 50 })).toContain('Deep Residual Learning for Image Recognition');
    expect((await titles(withCounts, 'graph neural networks')).indexOf('Deep Residual Learning for Image Recognition')).toBeLessThan(0);
  });

  it('still puts an exact title, a short name, an author and rare words first', async () => {
    expect((await titles(withCounts, 'Graph Neural Networks for Zebra Stripe Counting'))[0]).toBe('Graph Neural Networks for Zebra Stripe Counting');
    expect((await titles(withCounts, 'GNNZoo'))[0]).toBe('GNNZoo: A Library of Graph Neural Networks');
    expect((await titles(withCounts, 'Ada Lovelace')).sort()).toEqual(['Expressive Power of Graph Neural Networks', 'Message Passing on Graphs']);
    expect((await titles(withCounts, 'quokka tessellations'))[0]).toBe('Quokka Tessellations of Graph Neural Networks');
  });

  it('does not sink a new paper whose count is unknown below a known one of its year', async () => {
    const order = await titles(withCounts, 'graph neural networks', { limit: 50 });
    expect(order.indexOf('Graph Neural Networks for Tide Tables')).toBeLessThan(order.indexOf('Graph Neural Networks for Tide Charts'));
  });

  it('ranks sort:new and a digest’s new papers by their words alone', async () => {
    expect(await titles(withCounts, 'graph neural networks sort:new', { limit: 50 })).toEqual(await titles(byWords, 'graph neural networks sort:new', { limit: 50 }));
    const since = { firstSeenAfter: new Date('2026-01-15T00:00:00Z'), limit: 50 };
    expect((await titles(withCounts, 'graph neural networks', since)).sort()).toEqual(['Graph Neural Networks for Tide Charts', 'Graph Neural Networks for Tide Tables']);
    expect(await titles(withCounts, 'graph neural networks', since)).toEqual(await titles(byWords, 'graph neural networks', since));
  });

  it('weighs age within the field where no count is known', async () => {
    const rows = library(false);
    const words = await titles(engine(rows, { standing: false }), 'graph neural networks');
    const none = await titles(engine(rows), 'graph neural networks');
    // The oldest of the papers with the words in their titles (2018) opens; words alone open with a 2024 one.
    expect(words[0]).toBe('Graph Neural Networks for Proteins');
    expect(none[0]).toBe('Scalable Graph Neural Networks');
  });

  it('answers a broad query over segments as a full rebuild does', async () => {
    const rows = library(true);
    const view = new IndexView(buildSegment(rows.slice(0, 20), options));
    // The rest arrive later, and a paper of the base gets its count: a delta masks its old version.
    const changed = { ...rows[3]!, citedBy: 40_000 };
    view.apply(buildSegment([changed, ...rows.slice(20)].sort((a, b) => a.doc - b.doc), { ...options, generation: 2 }));
    const full = [...rows.slice(0, 3), changed, ...rows.slice(4)];
    const deps = { resolveTopic: () => ({ id: 'gnn' }), lookupAbstracts: async () => new Map<number, string>() };
    const segmented = new SearchEngine(view, deps);
    const rebuilt = engine(full);
    for (const q of ['graph neural networks', 'graph neural networks topic:gnn', 'neural networks']) {
      const a = await segmented.search(q, { limit: 20 });
      const b = await rebuilt.search(q, { limit: 20 });
      expect(a.hits.map((h) => [h.id, h.score])).toEqual(b.hits.map((h) => [h.id, h.score]));
      expect(a.total).toBe(b.total);
    }
    expect((await segmented.search('graph neural networks', { limit: 1 })).hits[0]!.title).toBe(changed.title);
  });
});

describe('wordSignals', () => {
  const rows = [
    ...Array.from({ length: 250 }, (_, i) => indexRow(i + 1, `Offline Reinforcement Learning ${i}`)),
    ...Array.from({ length: 12 }, (_, i) => indexRow(251 + i, `King Lear and Offline Play ${i}`)),
  ];
  const view = new IndexView(buildSegment(rows, options));
  it.each([
    ['offline reinforcement learning', { rare: false, typing: false }],
    ['offline reinforcement learning ', { rare: false, typing: false }],
    ['offline reinforcement lear', { rare: false, typing: true }],
    // Typed out (a space after it): the word "lear" of King Lear, as rare as it is.
    ['offline reinforcement lear ', { rare: false, typing: false }],
    ['offline reinforcement lea', { rare: true, typing: false }],
    ['offline reinforcment learning', { rare: true, typing: false }],
  ])('%j: %j', (text, expected) => {
    const query = parseQuery(text);
    expect(wordSignals(planWords(query, view.vocab, view.liveCount), view, query.lastIsPrefix)).toEqual(expected);
  });
});
