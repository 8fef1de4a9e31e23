/**
 * arxiv-sanity-lite's method as `npm run eval -- --recommend <file> --anchor` runs it
 * (bench/anchor/): the tf-idf features and the linear SVM give what scikit-learn 1.2.1 gives
 * for the settings arxiv-sanity-lite uses (the expected figures below were printed by
 * scikit-learn's TfidfVectorizer and LinearSVC on these documents), the SVM is at the optimum of
 * its objective, and the anchor ranks the pool Paper Scout ranks.
 */
import { describe, expect, it } from 'vitest';
import { ArxivSanityAnchor } from '../../bench/anchor/arxivSanity.js';
import { ARXIV_SANITY_SVM, decision, trainLinearSvc, type LinearModel } from '../../bench/anchor/svm.js';
import { analyze, tfidf, type SparseRows } from '../../bench/anchor/tfidf.js';
import type { IndexRow } from '../../src/store/papers.js';

const DOCS = [
  'Graph neural networks for molecule property prediction. Ada Lovelace Bo Chen',
  'Message passing graph neural networks scale to large graphs. Bo Chen',
  'Graph neural networks and message passing on molecules. Ada Lovelace',
  'Diffusion models generate images from noise. Li Wei',
  'Latent diffusion models for image generation at scale. Li Wei Ann Lee',
  'Score based diffusion models and image generation. Ann Lee',
  'Bandit algorithms for online learning with regret bounds. José Núñez',
  'Contextual bandit algorithms: regret bounds and online learning. José Núñez',
  'Naïve Bayes and the café of über-features: a_b x1 9lives. Marta Kwiatkowska',
  'Reinforcement learning of policies for robots with large graphs of states. Marta Kwiatkowska',
  'Image generation with graph neural networks. Ada Lovelace Li Wei',
  'Online learning of message passing policies. Bo Chen José Núñez',
];

/** Row `r` as term → weight. */
function row(x: SparseRows, r: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (let k = x.indptr[r]!; k < x.indptr[r + 1]!; k++) out[x.vocabulary[x.indices[k]!]!] = x.values[k]!;
  return out;
}

const closeTo = (expected: Record<string, number>) => Object.fromEntries(Object.entries(expected).map(([term, weight]) => [term, expect.closeTo(weight, 6)]));

describe('the tf-idf features (TfidfVectorizer as compute.py sets it)', () => {
  it('reads tokens as scikit-learn does: lowercased, accents stripped, its token pattern, stop words out', () => {
    expect(analyze(DOCS[8]!)).toEqual(['naive', 'bayes', 'cafe', 'uber', 'features', 'a_b', 'x1', 'marta', 'kwiatkowska']);
    // A token glued to a non-ASCII letter is no token at all (Unicode \b), nor is one letter.
    expect(analyze('x中 a Ωmega ﬁne')).toEqual(['fine']);
  });

  it('keeps the terms, and weighs them, as scikit-learn does', () => {
    // max_df 0.5, min_df 2, max_features 29: every term in 2 to 6 documents with 3 or more occurrences.
    const x = tfidf(DOCS, { maxFeatures: 29, minDf: 2, maxDf: 0.5 });
    expect(x.vocabulary).toEqual([
      'ada', 'ada lovelace', 'bo', 'bo chen', 'chen', 'diffusion', 'diffusion models', 'generation', 'graph', 'graph neural',
      'image', 'image generation', 'jose', 'jose nunez', 'learning', 'li', 'li wei', 'lovelace', 'message', 'message passing',
      'models', 'networks', 'neural', 'neural networks', 'nunez', 'online', 'online learning', 'passing', 'wei',
    ]);
    expect(row(x, 0)).toEqual(
      closeTo({ ada: 0.315782, 'ada lovelace': 0.315782, bo: 0.315782, 'bo chen': 0.315782, chen: 0.315782, graph: 0.283439, 'graph neural': 0.283439, lovelace: 0.315782, networks: 0.283439, neural: 0.283439, 'neural networks': 0.283439 }),
    );
    expect(row(x, 8)).toEqual({});
  });

  it('forms bigrams across stop words and weighs repeats sublinearly', () => {
    const x = tfidf(['Score based diffusion models and image generation, diffusion models'], { maxFeatures: 100, minDf: 1, maxDf: 1 });
    expect(row(x, 0)).toEqual(
      closeTo({
        based: 0.238364, 'based diffusion': 0.238364, diffusion: 0.403585, 'diffusion models': 0.403585, generation: 0.238364, 'generation diffusion': 0.238364,
        image: 0.238364, 'image generation': 0.238364, models: 0.403585, 'models image': 0.238364, score: 0.238364, 'score based': 0.238364,
      }),
    );
  });
});

describe('the SVM (LinearSVC as serve.py sets it)', () => {
  const x = tfidf(DOCS, { maxFeatures: 29, minDf: 2, maxDf: 0.5 });
  const positive = Uint8Array.from(DOCS, (_, i) => (i < 3 ? 1 : 0));
  const model = trainLinearSvc(x, positive, ARXIV_SANITY_SVM);

  it('gives the decision function scikit-learn gives', () => {
    const scores = DOCS.map((_, i) => decision(x, model, i));
    const sklearn = [0.071585, 0.071489, 0.071585, -0.03975, -0.046718, -0.03975, -0.045167, -0.045167, -0.005535, -0.031421, 0.02384, 0.00085];
    expect(scores).toEqual(sklearn.map((s) => expect.closeTo(s, 5)));
    expect(model.converged).toBe(true);
  });

  it('is at the optimum of ½‖w‖² + Σ Cᵢ max(0, 1 − yᵢ(w·xᵢ + b))², balanced Cᵢ', () => {
    expect(maxGradient(x, positive, model)).toBeLessThan(1e-5);
    // Not at it when stopped early: the check can fail.
    expect(maxGradient(x, positive, trainLinearSvc(x, positive, { ...ARXIV_SANITY_SVM, maxIter: 1 }))).toBeGreaterThan(1e-3);
  });

  it('needs both classes', () => {
    expect(() => trainLinearSvc(x, new Uint8Array(DOCS.length), ARXIV_SANITY_SVM)).toThrow('an SVM needs both classes: 0 positive rows of 12');
  });
});

/** The largest component of the primal objective's gradient at the model. */
function maxGradient(x: SparseRows, positive: Uint8Array, model: LinearModel): number {
  const n = x.rows;
  const count = positive.reduce((a, b) => a + b, 0);
  const gradient = Float64Array.from(model.w);
  let gradientBias = model.bias;
  for (let i = 0; i < n; i++) {
    const y = positive[i] ? 1 : -1;
    const c = ARXIV_SANITY_SVM.C * (n / (2 * (positive[i] ? count : n - count)));
    const slack = Math.max(0, 1 - y * decision(x, model, i));
    for (let k = x.indptr[i]!; k < x.indptr[i + 1]!; k++) gradient[x.indices[k]!]! -= 2 * c * slack * y * x.values[k]!;
    gradientBias -= 2 * c * slack * y;
  }
  return Math.max(Math.abs(gradientBias), ...gradient.map(Math.abs));
}

describe('the anchor', () => {
  const paper = (id: string, title: string, year: number, extra: Partial<IndexRow> = {}): IndexRow => ({
    doc: 0, id, title, year, authors: ['Ann Lee'], abstract: '', keywords: [], venue: 'ICML', status: 'Poster', topics: [], firstSeen: '2026-01-01T00:00:00Z', citedBy: null, ...extra,
  });
  const rows = [
    paper('s1', 'Graph neural networks for molecules', 2020),
    paper('s2', 'Message passing graph neural networks', 2020),
    paper('d1', 'Diffusion models for images', 2020, { authors: ['Li Wei'] }),
    paper('b1', 'Bandit algorithms and regret', 2020, { authors: ['Bo Chen'] }),
    paper('t1', 'Graph neural networks for proteins', 2021),
    paper('t2', 'Diffusion models for audio', 2021, { authors: ['Li Wei'] }),
    paper('t3', 'Bandits with graph feedback', 2021, { authors: ['Bo Chen'] }),
    paper('r1', 'Graph neural networks for molecules and proteins', 2021, { status: 'Reject' }),
    paper('c1', 'Graph Neural Networks for Molecules', 2021),
    paper('o1', 'Graph neural networks for materials', 2019),
  ];
  async function* stream() {
    yield* rows;
  }

  it('ranks the year’s received papers by the SVM, leaving out seeds, their titles and rejected papers', async () => {
    const anchor = await ArxivSanityAnchor.build(stream(), { tfidf: { maxFeatures: 100, minDf: 1, maxDf: 0.9 } });
    const answer = anchor.recommend(['s1', 's2', 'unknown'], 2021, 2);
    expect(answer.titles).toEqual(['Graph neural networks for proteins', 'Bandits with graph feedback']);
    expect(answer.converged).toBe(true);
    expect(anchor.recommend(['unknown'], 2021, 2).titles).toEqual([]);
  });
});
