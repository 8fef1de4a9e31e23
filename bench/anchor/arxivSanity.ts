/**
 * arxiv-sanity-lite's recommendations (karpathy/arxiv-sanity-lite), the anchor the recommender
 * is measured against (`npm run eval -- --recommend <file> --anchor`): tf-idf features of every
 * paper's title, abstract and author names (compute.py; see tfidf.ts), and per profile a linear
 * SVM with the seeds as positives and every other paper as negatives (serve.py's `svm_rank`;
 * see svm.ts), ranking by its decision function. The papers it may recommend are the ones
 * Paper Scout may for the same request, so that the two rank the same pool: the profile's year,
 * not a seed nor another record with a seed's title, not rejected, withdrawn or undecided.
 */
import { recordStanding, STANDING_RECEIVED } from '../../src/search/rerank.js';
import type { IndexRow } from '../../src/store/papers.js';
import { normalizeTitle } from '../../src/text.js';
import { ARXIV_SANITY_SVM, decision, trainLinearSvc, type SvmOptions } from './svm.js';
import { ARXIV_SANITY_TFIDF, tfidf, type SparseRows, type TfidfOptions } from './tfidf.js';

interface Paper {
  id: string;
  title: string;
  /** The title's comparison form. */
  key: string;
  year: number;
  received: boolean;
}

export interface AnchorAnswer {
  /** Titles, best first. */
  titles: string[];
  /** The SVM's passes, and whether it met its tolerance. */
  iterations: number;
  converged: boolean;
}

export class ArxivSanityAnchor {
  private constructor(
    private readonly papers: Paper[],
    private readonly rowOf: Map<string, number>,
    readonly features: SparseRows,
    private readonly svm: SvmOptions,
  ) {}

  /** The features of every paper of `rows` (the whole library, as arxiv-sanity-lite fits on its whole database). */
  static async build(rows: AsyncIterable<IndexRow>, options: { tfidf?: TfidfOptions; svm?: SvmOptions } = {}): Promise<ArxivSanityAnchor> {
    const papers: Paper[] = [];
    const texts: string[] = [];
    for await (const row of rows) {
      papers.push({ id: row.id, title: row.title, key: normalizeTitle(row.title), year: row.year ?? 0, received: recordStanding(row.status, row.authors) >= STANDING_RECEIVED });
      // compute.py: ' '.join([title, summary, ' '.join(author names)])
      texts.push([row.title, row.abstract, row.authors.join(' ')].join(' '));
    }
    const rowOf = new Map(papers.map((p, i) => [p.id, i]));
    return new ArxivSanityAnchor(papers, rowOf, tfidf(texts, options.tfidf ?? ARXIV_SANITY_TFIDF), options.svm ?? ARXIV_SANITY_SVM);
  }

  /** The `limit` papers of `year` most like the seeds (ids; unknown ones are left out). */
  recommend(seeds: readonly string[], year: number, limit: number): AnchorAnswer {
    const positive = new Uint8Array(this.papers.length);
    for (const id of seeds) {
      const row = this.rowOf.get(id);
      if (row !== undefined) positive[row] = 1;
    }
    if (!positive.includes(1)) return { titles: [], iterations: 0, converged: true };
    const model = trainLinearSvc(this.features, positive, this.svm);
    const seedTitles = new Set(this.papers.filter((_, row) => positive[row]).map((p) => p.key));
    const scored: Array<{ row: number; score: number }> = [];
    this.papers.forEach((paper, row) => {
      if (paper.year !== year || !paper.received || positive[row] || seedTitles.has(paper.key)) return;
      scored.push({ row, score: decision(this.features, model, row) });
    });
    scored.sort((a, b) => b.score - a.score || a.row - b.row);
    return { titles: scored.slice(0, limit).map((s) => this.papers[s.row]!.title), iterations: model.iterations, converged: model.converged };
  }
}
