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
import { BLEND, wordSignals } from '../../src/search/broad.js';
import { mentionStanding } from '../../src/search/librarySignals.js';
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

  it('takes a description of three words or more that no title holds as broad', async () => {
    const rows = library(true);
    for (let i = 0; i < 22; i++) rows.push(indexRow(rows.length + 1, `Chemistry Study ${i}`, { year: 2018 + (i % 6), abstract: 'Message passing over small molecules.', citedBy: 3 + i }));
    const seminal = 'Neural Networks for Quantum Chemistry';
    rows.push(indexRow(rows.length + 1, seminal, { year: 2017, abstract: 'A framework of message passing for learning on molecules, with long abstracts that dilute the words of the query.', citedBy: 20_000 }));
    expect((await titles(engine(rows, { standing: false }), 'message passing molecules'))[0]).not.toBe(seminal);
    expect((await titles(engine(rows), 'message passing molecules'))[0]).toBe(seminal);
    // Compounds are pasted from one paper: such a query is never a description.
    expect((await titles(engine(rows), 'message-passing molecules small'))[0]).not.toBe(seminal);
  });

  it('weighs how many later abstracts name a paper where no count is known', async () => {
    const rows = library(false);
    const zoom = 'Zoom: Graph Neural Networks That Zoom';
    rows.push(indexRow(rows.length + 1, zoom, { year: 2018, status: 'Poster' }));
    // Later papers of another field name it.
    for (let i = 0; i < 20; i++) rows.push(indexRow(rows.length + 1, `Pelican Migration Study ${i}`, { year: 2019 + (i % 5), abstract: 'We extend Zoom to birds.' }));
    const open = async (list: IndexRow[]) => (await titles(engine(list), 'graph neural networks'))[0];
    expect(await open(rows)).toBe(zoom);
    const weight = BLEND.mention;
    BLEND.mention = 0;
    try {
      expect(await open(rows)).not.toBe(zoom);
    } finally {
      BLEND.mention = weight;
    }
    // A word in use before the paper names no paper.
    const older = Array.from({ length: 3 }, (_, i) => indexRow(rows.length + 1 + i, `Camera Optics ${i}`, { year: 2010, abstract: 'A zoom lens.' }));
    expect(await open([...rows, ...older])).not.toBe(zoom);
  });

  it('weighs a paper\'s most prolific author where no count is known', async () => {
    const rows = library(false);
    const peers = ['Graph Neural Networks for Llamas', 'Graph Neural Networks for Alpacas'];
    // Two papers of the field's oldest year, the later stored by an author of many papers in the library.
    rows.push(indexRow(rows.length + 1, peers[1]!, { year: 2015, authors: ['Solo Writer'] }));
    rows.push(indexRow(rows.length + 1, peers[0]!, { year: 2015, authors: ['Grace Hopper'] }));
    for (let i = 0; i < 30; i++) rows.push(indexRow(rows.length + 1, `Compilers, Part ${i}`, { year: 2000 + (i % 20), authors: ['Grace Hopper'] }));
    const order = async () => (await titles(engine(rows), 'graph neural networks', { limit: 50 })).filter((t) => peers.includes(t));
    expect(await order()).toEqual(peers);
    const weight = BLEND.authors;
    BLEND.authors = 0;
    try {
      // Words and age alone: a tie, broken by store document.
      expect(await order()).toEqual([...peers].reverse());
    } finally {
      BLEND.authors = weight;
    }
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

describe('mentionStanding', () => {
  const years = (...y: number[]) => Float64Array.from(y).sort();
  it.each([
    // Named by 15 abstracts of its year or later, its own among them: ln 15.
    [2015, years(...Array.from({ length: 15 }, (_, i) => 2015 + (i % 5))), years(2015), 1, Math.log(15)],
    // Its only mention is its own abstract.
    [2015, years(2015), years(2015), 1, 0],
    // A word in use before: abstracts two years older.
    [2015, years(2010, 2011, 2015, 2016, 2017), years(2015), 1, 0],
    // A title two years older holds the name.
    [2015, years(2016, 2017, 2018), years(2012, 2015), 1, 0],
    // A name four papers go by is shared by them.
    [2015, years(...Array.from({ length: 13 }, () => 2016)), years(2015), 4, Math.log1p(9 / 4)],
  ])('%i', (year, abstracts, titles, owners, expected) => {
    expect(mentionStanding(year, abstracts, titles, owners)).toBeCloseTo(expected, 10);
  });
});
