/**
 * Pruning is exact: the pruned walk answers every query exactly as the walk that scores every
 * posting (same papers, same order, same scores, same totals), over random libraries with a
 * realistic skew of word frequencies, split into a base and delta segments with masked papers,
 * walked in small blocks so that thresholds set in early. And a document scored on its own
 * from the forward index gets exactly what the walk gave it.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { msg } from '../../src/i18n/index.js';
import { buildSegment } from '../../src/search/index/build.js';
import { IndexView } from '../../src/search/index/view.js';
import { SearchEngine } from '../../src/search/engine.js';
import { planWords } from '../../src/search/expand.js';
import { parseQuery } from '../../src/search/query.js';
import { Pruner } from '../../src/search/prune.js';
import { Scorer } from '../../src/search/scorer.js';
import { QueryPlan, coverageOf } from '../../src/search/queryPlan.js';
import { anyFullMatch } from '../../src/search/fullMatch.js';
import type { IndexRow } from '../../src/store/papers.js';

/** Words by falling frequency (the first ones in most papers, as "learning" is). */
const WORDS = [
  'learning', 'model', 'models', 'neural', 'data', 'network', 'networks', 'deep', 'graph', 'robust', 'attention',
  'diffusion', 'language', 'large', 'policy', 'reinforcement', 'learned', 'learner', 'modeling', 'modelling',
  'transformer', 'transformers', 'kernel', 'bandit', 'bandits', 'causal', 'segmentation', 'segmentaton', 'quantum',
  'zebra', 'lemma', 'level', 'lens', 'manipulation', 'rope', 'descriptors', 'synthetic', 'depth', 'he', 'so',
];
const NAMES = ['Ann Lee', 'Bo Chen', 'Yoshua Bengio', 'Quoc V Le', 'Li Wei', 'Wei He', 'An So', 'Marta Kwiatkowska'];
const TOPICS = ['t1', 't2'];

/** A word drawn with Zipf-like odds from a seeded generator. */
function zipf(next: () => number): string {
  const u = next();
  return WORDS[Math.min(WORDS.length - 1, Math.floor(WORDS.length * u * u * u))]!;
}

/** `hyphens`: words of titles and abstracts joined by a hyphen one time in five ("graph-learning"). */
function rowsOf(seed: number, count: number, firstDoc: number, hyphens = false): IndexRow[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const words = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(next() * (max - min + 1)) }, (_, i) => (i > 0 ? (hyphens && next() < 0.2 ? '-' : ' ') : '') + zipf(next)).join('');
  return Array.from({ length: count }, (_, i) => ({
    doc: firstDoc + i,
    id: `p${firstDoc + i}`,
    title: words(1, 8),
    authors: Array.from({ length: 1 + Math.floor(next() * 3) }, () => NAMES[Math.floor(next() * NAMES.length)]!),
    abstract: words(0, 30),
    keywords: next() < 0.3 ? [zipf(next)] : [],
    venue: next() < 0.5 ? 'ICML' : 'arXiv',
    year: 2015 + Math.floor(next() * 10),
    status: '',
    topics: [TOPICS[Math.floor(next() * 2)]!],
    firstSeen: new Date(Date.UTC(2026, 0, 1 + (i % 300))).toISOString(),
    citedBy: null,
  }));
}

const options = { generation: 1, taxonomyHash: 'h', topicIds: TOPICS };

/** A base of `count` papers and two deltas: new papers, and new versions of some old ones. */
function libraryOf(seed: number, count: number, hyphens = false): IndexView {
  const rows = rowsOf(seed, count, 1, hyphens);
  const view = new IndexView(buildSegment(rows, options));
  view.apply(buildSegment(rowsOf(seed + 1, Math.floor(count / 10), count + 1, hyphens), { ...options, generation: 2 }));
  const updated = rowsOf(seed + 2, Math.floor(count / 20), 1, hyphens).map((r, i) => ({ ...r, doc: 1 + i * 17, id: `p${1 + i * 17}` }));
  view.apply(buildSegment(updated, { ...options, generation: 3 }), [5, 9]);
  return view;
}

function engines(view: IndexView) {
  const deps = {
    lookupAbstracts: async () => new Map<number, string>(),
    resolveTopic: (name: string) => (TOPICS.includes(name) ? { id: name } : { error: msg('search.noTopic', { name }) }),
  };
  return { pruned: new SearchEngine(view, deps, { blockSize: 64 }), exhaustive: new SearchEngine(view, deps, { exhaustive: true, blockSize: 64 }) };
}

const queryArb = fc.oneof(
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' ')),
  fc.array(fc.constantFrom(...WORDS), { minLength: 7, maxLength: 10 }).map((w) => w.join(' ')),
  fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS), fc.integer({ min: 1, max: 4 })).map(([a, b, n]) => `${a} ${b.slice(0, n)}`),
  fc.constantFrom('Quoc V Le', 'Wei He learning', 'An So model', 'lerning modle', 'segmentaton robust', 'le', 'mo', 'learning year:2018..2020', 'model topic:t1', 'sort:new deep learning', 'graph -learning', 'author:"Ann Lee" model', 'deep learning venue:icml'),
);

/** The pruned engine answers `q` exactly as the exhaustive one: papers, scores, total and partial. */
async function expectSameAnswers(pruned: SearchEngine, exhaustive: SearchEngine, q: string): Promise<void> {
  const a = await pruned.search(q, { limit: 200 });
  const b = await exhaustive.search(q, { limit: 200 });
  expect(a.hits.map((h) => [h.id, h.score]), q).toEqual(b.hits.map((h) => [h.id, h.score]));
  expect([a.total, a.partial], q).toEqual([b.total, b.partial]);
}

const scorerOf = (e: SearchEngine) => (e as unknown as { scorer: Scorer }).scorer;

describe('pruning', () => {
  it('answers exactly as scoring every posting', async () => {
    const view = libraryOf(7, 1500);
    const { pruned, exhaustive } = engines(view);
    await fc.assert(
      fc.asyncProperty(queryArb, async (q) => {
        const a = await pruned.search(q, { limit: 200 });
        for (const group of scorerOf(pruned).plan?.required ?? []) for (const v of group.variants) expect(Number.isFinite(v.bound), q).toBe(true);
        const b = await exhaustive.search(q, { limit: 200 });
        expect(a.hits.map((h) => [h.id, h.score]), q).toEqual(b.hits.map((h) => [h.id, h.score]));
        expect([a.total, a.partial], q).toEqual([b.total, b.partial]);
        expect(pruned.suggest(q, 10), q).toEqual(exhaustive.suggest(q, 10));
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('answers exactly with compounds, and common words left out of abstracts but counted there', async () => {
    // Compounds of the library typed as such ("graph-learning"), and queries of three words or
    // more whose common words' abstracts only count toward coverage: of the papers that have
    // every word before, or, where none has them all, of every paper found.
    const view = libraryOf(13, 1500, true);
    const { pruned, exhaustive } = engines(view);
    const joined = fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.boolean()), { minLength: 2, maxLength: 6 }).map((w) => w.map(([x, h], i) => (i > 0 ? (h ? '-' : ' ') : '') + x).join(''));
    let covering = 0;
    let coverAll = 0;
    let compounds = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(joined, queryArb), async (q) => {
        await expectSameAnswers(pruned, exhaustive, q);
        const plan = scorerOf(pruned).plan;
        if (plan?.required.some((g) => g.covering)) covering++;
        if (plan?.coverAll) coverAll++;
        if (plan?.optional.some((g) => g.compound)) compounds++;
        const scorer = scorerOf(exhaustive);
        for (let i = 0; i < scorer.touchedCount; i++) expect(scorer.evaluate(scorer.touched[i]!), q).toEqual({ score: scorer.scores[i], cov: scorer.covs[i] });
      }),
      { numRuns: 300, seed: 17 },
    );
    expect(covering).toBeGreaterThan(50);
    // (No paper matching every word: abstracts counted for every paper found.)
    expect(coverAll).toBeGreaterThan(5);
    expect(compounds).toBeGreaterThan(50);
  });

  it('prunes: the common words of a long query are not walked for every paper', async () => {
    const view = libraryOf(3, 3000);
    const { pruned, exhaustive } = engines(view);
    // Both answer the same; the pruned walk leaves most papers out of its candidates.
    const q = 'zebra learning';
    expect((await pruned.search(q, { limit: 200 })).hits).toEqual((await exhaustive.search(q, { limit: 200 })).hits);
    expect(scorerOf(pruned).touchedCount).toBeLessThan(scorerOf(exhaustive).touchedCount / 2);
  });

  it('counts, without scoring, the papers where a one-word query matches only in weak fields', async () => {
    // Once the threshold is above what the abstract (and keywords) alone can give, papers with
    // "learning" only there are counted, not scored: the same answer, totals included, filtered
    // or not, with masked papers among them.
    const view = libraryOf(5, 3000);
    const { pruned, exhaustive } = engines(view);
    for (const q of ['learning', 'model', 'learning year:2018..2020', 'learning venue:icml', 'network topic:t2']) {
      await expectSameAnswers(pruned, exhaustive, q);
      if (!q.includes(':')) expect(scorerOf(pruned).touchedCount, q).toBeLessThan(scorerOf(exhaustive).touchedCount / 2);
    }
  });

  it('counts, without scoring, the papers where the first of several words is only in weak fields', async () => {
    // Once the other words' walks are restricted and the threshold is above what the first word
    // in abstracts (and keywords) can give with the others at their best, papers with it only
    // there are counted where they have every other word, not scored: the same answer and totals.
    const view = libraryOf(5, 3000);
    const { pruned, exhaustive } = engines(view);
    for (const q of ['neural learning', 'network model', 'deep model year:2018..2020', 'deep model venue:icml', 'graph learning topic:t1']) {
      await expectSameAnswers(pruned, exhaustive, q);
      expect(scorerOf(pruned).unlisted.admitted, q).toBeGreaterThan(0);
      if (!q.includes(':')) expect(scorerOf(pruned).touchedCount, q).toBeLessThan(scorerOf(exhaustive).touchedCount / 2);
    }
  });

  it('skips, in a later word\'s weak fields, the papers that word would be the first to reach there alone', async () => {
    // Such a paper lacks the first word (no word before found it), so it is no full match, and
    // with every later word at its best it stays below the threshold: the same answers, totals
    // included, whether or not the walk later finds it through another word.
    const view = libraryOf(5, 3000);
    const { pruned, exhaustive } = engines(view);
    const weakAt = vi.spyOn(Pruner.prototype, 'weakFieldsAt');
    try {
      for (const q of ['quantum kernel learning', 'causal bandit policy learning', 'rope manipulation synthetic depth learning model data', 'kernel bandits model year:2018..2020', 'segmentation depth model venue:icml']) {
        weakAt.mockClear();
        await expectSameAnswers(pruned, exhaustive, q);
        expect(weakAt.mock.results.some((r) => r.value !== 0), q).toBe(true);
      }
    } finally {
      weakAt.mockRestore();
    }
  });

  it('bounds long lists by their best posting in every field, the unnormalized first-author one too', async () => {
    // Lists past 512 postings get their bound from one pass, kept: here every field's, with the
    // first author field's length normalization at 0.
    const rows = rowsOf(9, 1200, 1).map((r, i) => ({ ...r, authors: i % 2 ? ['Ann Lee', 'Bo Chen'] : ['Ann Lee'] }));
    const view = new IndexView(buildSegment(rows, options));
    const { pruned, exhaustive } = engines(view);
    const check = async () => {
      for (const q of ['Ann Lee', 'lee learning', 'learning model', 'Ann Lee deep learning']) {
        const a = await pruned.search(q, { limit: 200 });
        for (const group of scorerOf(pruned).plan!.required) for (const v of group.variants) expect(Number.isFinite(v.bound), q).toBe(true);
        expect(a.hits.map((h) => [h.id, h.score]), q).toEqual((await exhaustive.search(q, { limit: 200 })).hits.map((h) => [h.id, h.score]));
      }
    };
    await check();
    // Papers with long abstracts and titles raise the mean lengths: the bounds kept from before
    // must still hold.
    const long = rowsOf(10, 600, 1201).map((r) => ({ ...r, title: `${r.title} ${r.title} ${r.title}`, abstract: Array(6).fill(r.abstract).join(' ') }));
    view.apply(buildSegment(long, { ...options, generation: 2 }));
    await check();
  });

  it('knows before the walk whether a paper has every word, as the walk finds, and walks once where none has', async () => {
    // Where none has, common words' abstracts count for every paper found: the walk must know
    // from its start, or walk twice. What is known before is what the walk finds, filtered or
    // not; past its budget the look gives up (and the walk finds out).
    const view = libraryOf(13, 1500, true);
    const scorer = new Scorer(view, 64);
    const admitsArb = fc.constantFrom(undefined, (d: number) => d % 3 === 0, (d: number) => d % 50 === 1);
    let none = 0;
    fc.assert(
      fc.property(queryArb, admitsArb, (q, admits) => {
        const groups = planWords(parseQuery(q), view.vocab, view.liveCount);
        const typedWords = q.split(' ').length;
        scorer.scoreGroups(groups, { typedWords, exhaustive: true });
        const plan = scorer.plan!;
        if (!plan.covering) return;
        let full = false;
        for (let i = 0; i < scorer.touchedCount; i++) full ||= coverageOf(scorer.covs[i]!) === plan.required.length && (!admits || admits(scorer.touched[i]!));
        const fresh = new QueryPlan(view, groups, typedWords);
        expect(anyFullMatch(fresh.required, view.dead, admits, Infinity), q).toBe(full);
        expect([undefined, full], q).toContain(anyFullMatch(new QueryPlan(view, groups, typedWords).required, view.dead, admits, 3));
        if (!full) none++;
      }),
      { numRuns: 300, seed: 23 },
    );
    expect(none).toBeGreaterThan(5);
    const { pruned, exhaustive } = engines(view);
    const walks = vi.spyOn(Scorer.prototype, 'scoreGroups');
    try {
      const q = 'learning large zebra deep segmentaton quantum learner';
      await expectSameAnswers(pruned, exhaustive, q);
      walks.mockClear();
      expect((await pruned.search(q, { limit: 200 })).partial).toBe(true);
      expect(walks).toHaveBeenCalledTimes(1);
    } finally {
      walks.mockRestore();
    }
  });

  it('scores a document on its own exactly as the walk does', () => {
    const view = libraryOf(5, 800);
    const scorer = new Scorer(view, 64);
    fc.assert(
      fc.property(queryArb, (q) => {
        const query = parseQuery(q);
        const groups = planWords(query, view.vocab, view.liveCount);
        scorer.scoreGroups(groups, { typedWords: q.split(' ').length, exhaustive: true });
        for (let i = 0; i < scorer.touchedCount; i++) {
          expect(scorer.evaluate(scorer.touched[i]!), q).toEqual({ score: scorer.scores[i], cov: scorer.covs[i] });
        }
      }),
      { numRuns: 100, seed: 5 },
    );
  });
});
