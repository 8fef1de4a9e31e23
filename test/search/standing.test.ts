import { describe, expect, it } from 'vitest';
import { BLEND, blendOrder, isBroad, phraseInside, stems, type BreadthSignals, type BroadCandidate } from '../../src/search/broad.js';
import { MAX_CITED_BY } from '../../src/store/citations.js';
import { TRACK_PRIOR, Track, UNKNOWN_CITED, citedByColumn, paperStanding, trackOf, typicalCitations } from '../../src/search/standing.js';

describe('trackOf', () => {
  it.each([
    ['Oral', ['Ann Lee'], Track.Oral],
    ['Outstanding Paper Award', ['Ann Lee'], Track.Oral],
    ['Spotlight', ['Ann Lee'], Track.Spotlight],
    ['Poster', ['Ann Lee'], Track.Main],
    ['Long', ['Ann Lee'], Track.Main],
    ['Technical Paper', ['Ann Lee'], Track.Main],
    ['', ['Ann Lee'], Track.Main],
    ['Findings', ['Ann Lee'], Track.Secondary],
    ['Short', ['Ann Lee'], Track.Secondary],
    ['System Demonstrations', ['Ann Lee'], Track.Secondary],
    ['Industry', ['Ann Lee'], Track.Secondary],
    ['Workshop', ['Ann Lee'], Track.Workshop],
    ['Oral Workshop', ['Ann Lee'], Track.Workshop],
    ['Under review', ['Ann Lee'], Track.Undecided],
    ['Rejected', ['Ann Lee'], Track.Rejected],
    ['Desk Rejected', ['Ann Lee'], Track.Record],
    ['Withdrawn', ['Ann Lee'], Track.Record],
    ['Poster', ['Anonymous', 'anonymous'], Track.Record],
  ] as const)('%s by %j is %i', (status, authors, track) => {
    expect(trackOf(status, authors)).toBe(track);
  });
});

describe('citedByColumn', () => {
  it.each([
    [0, 0],
    [1234, 1234],
    [MAX_CITED_BY, MAX_CITED_BY],
    [MAX_CITED_BY + 1, UNKNOWN_CITED],
    [-1, UNKNOWN_CITED],
    [2.5, UNKNOWN_CITED],
    [Number.NaN, UNKNOWN_CITED],
    [Number.POSITIVE_INFINITY, UNKNOWN_CITED],
    [null, UNKNOWN_CITED],
    [undefined, UNKNOWN_CITED],
  ])('keeps %s as %s', (count, column) => {
    expect(citedByColumn(count)).toBe(column);
  });
});

describe('paperStanding', () => {
  it('is the log of citations per year where the count is known, the age prior and track where not', () => {
    const table = [
      [30_000, 2015, Track.Main],
      [20, 2020, Track.Main],
      [0, 2024, Track.Main],
      [5, 2024, Track.Oral],
      [UNKNOWN_CITED, 2024, Track.Main],
      [UNKNOWN_CITED, 2024, Track.Oral],
      [UNKNOWN_CITED, 2024, Track.Rejected],
      [UNKNOWN_CITED, 2009, Track.Main],
      [UNKNOWN_CITED, 0, Track.Workshop],
      [1_000, 2015, Track.Record],
    ].map(([cited, year, track]) => paperStanding(cited!, year!, track as Track, 2024).toFixed(3));
    expect(table).toEqual(['8.007', '1.609', '0.000', '1.792', '1.946', '2.446', '0.946', '1.159', '0.717', '-6.000']);
  });

  it('never puts a new paper of unknown count below a known typical one of its year', () => {
    for (let age = 0; age <= 30; age++) {
      const typical = Math.round(typicalCitations(age));
      expect(paperStanding(UNKNOWN_CITED, 2024 - age, Track.Main, 2024)).toBeCloseTo(paperStanding(typical, 2024 - age, Track.Main, 2024), 1);
    }
  });

  it('orders tracks from oral to withdrawn', () => {
    const order = [Track.Oral, Track.Spotlight, Track.Main, Track.Secondary, Track.Undecided, Track.Workshop, Track.Rejected, Track.Record];
    const priors = order.map((t) => TRACK_PRIOR[t]);
    expect([...priors].sort((a, b) => b - a)).toEqual(priors);
  });
});

describe('isBroad', () => {
  const broad: BreadthSignals = { words: 2, fullCount: 1603, author: false, rare: false, typing: false, phraseTitles: 8 };
  it.each<[string, Partial<BreadthSignals>, boolean]>([
    ['a field\'s name', {}, true],
    ['few matches', { fullCount: 19 }, false],
    ['an author', { author: true }, false],
    ['a corrected word', { rare: true }, false],
    ['a word being typed', { typing: true }, false],
    ['a title fragment (no title holds it inside)', { phraseTitles: 7 }, false],
    ['a pasted title', { words: 9 }, false],
    ['no words', { words: 0 }, false],
  ])('%s: %s', (_, over, expected) => {
    expect(isBroad({ ...broad, ...over })).toBe(expected);
  });
});

describe('phraseInside', () => {
  it.each([
    [['face', 'recognition'], 'Deep Face Recognition', true],
    [['face', 'recognition'], 'Face Recognition with Kernels', false],
    [['face', 'recognition'], 'Recognition of a Face', false],
    [['graph', 'neural', 'networks'], 'Bayesian Graph Neural Network', true],
    [['learning', 'to', 'rank'], 'Active Learning to Rank', true],
    [['image', 'captioning'], '', false],
  ])('%j in %j: %s', (words, title, expected) => {
    expect(phraseInside(words, title)).toBe(expected);
  });
});

describe('stems', () => {
  it.each([
    ['captioning', ['caption', 'captione']],
    ['mapping', ['mapp', 'mappe', 'map']],
    ['encoding', ['encod', 'encode']],
    ['learning', ['learn', 'learne']],
    ['ring', []],
    ['caption', []],
  ])('%s → %j', (word, expected) => {
    expect(stems(word)).toEqual(expected);
  });
});

describe('blendOrder', () => {
  const candidate = (doc: number, base: number, over: Partial<BroadCandidate> = {}): BroadCandidate => ({
    doc,
    base,
    titleKind: undefined,
    tier: 0,
    coverage: 2,
    compounds: 0,
    inTitle: 1,
    record: 1,
    score: base,
    year: 2020,
    key: doc,
    blend: 0,
    ...over,
  });

  it('puts a typed title first, then words and standing blended, a passing mention held back', () => {
    const standing = [1.5, 1.5, 8, 8, 1.5, 1.5];
    const candidates = [
      candidate(0, 40, { titleKind: 'prefix', tier: 20_400 }), // begins with the query: a bonus, not a tier
      candidate(1, 30),
      candidate(2, 12), // cited 3,000 times a year, the words in its abstract
      candidate(3, 4), // as cited, the words in passing
      candidate(4, 10, { titleKind: 'exact', tier: 40_000 }), // the title typed whole
      candidate(5, 5, { coverage: 1 }), // lacks a word: its words score 40, scaled by (1/2)³
    ];
    const order = blendOrder(candidates, 2, 10, (d) => standing[d]!, () => true);
    expect(order.map((c) => [c.doc, c.tier, Number(c.blend!.toFixed(3))])).toEqual([
      [4, 40_000, 3.803],
      [2, 0, 10.485],
      [0, 0, 5.689],
      [1, 0, 4.901],
      [3, 0, 4.586],
      [5, 0, 4.189],
    ]);
    // The passing mention (words 4 of the best 40, under BLEND.relevant) gets standing in part only.
    expect(order.find((c) => c.doc === 3)!.blend).toBeCloseTo(Math.log(4) + (4 / 40 / BLEND.relevant) * 8, 9);
  });

  it('weighs age only for unknown counts, and keeps the best ones asked for', () => {
    const years = [2024, 2010, 2015, 2024];
    const candidates = years.map((year, doc) => candidate(doc, 20, { year }));
    const order = blendOrder(candidates, 2, 2, () => 1.5, () => false);
    expect(order.map((c) => c.doc)).toEqual([1, 2]);
    const known = blendOrder(years.map((year, doc) => candidate(doc, 20, { year })), 2, 4, () => 1.5, () => true);
    expect(known.map((c) => c.doc)).toEqual([0, 3, 2, 1]);
  });
});

describe('the index', () => {
  it('keeps each row’s citation count (unknown where none or refused) and track', async () => {
    const { buildSegment } = await import('../../src/search/index/build.js');
    const { indexRow } = await import('./helpers/indexRow.js');
    const rows = [
      indexRow(1, 'A', { citedBy: 1234, status: 'Oral' }),
      indexRow(2, 'B', { citedBy: null, status: 'Findings' }),
      indexRow(3, 'C', { status: 'Rejected' }),
      indexRow(4, 'D', { citedBy: -5, status: 'Poster', authors: ['Anonymous'] }),
    ];
    const segment = buildSegment(rows, { generation: 1, taxonomyHash: 'h', topicIds: [] });
    expect(Array.from(segment.citedBy)).toEqual([1234, UNKNOWN_CITED, UNKNOWN_CITED, UNKNOWN_CITED]);
    expect(Array.from(segment.track)).toEqual([Track.Oral, Track.Secondary, Track.Rejected, Track.Record]);
  });
});
