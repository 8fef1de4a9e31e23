/**
 * The tf-idf features of arxiv-sanity-lite (its compute.py): scikit-learn's `TfidfVectorizer`
 * with `strip_accents='unicode'`, `lowercase=True`, `stop_words='english'`,
 * `token_pattern=r'(?u)\b[a-zA-Z_][a-zA-Z0-9_]+\b'`, `ngram_range=(1, 2)`, `min_df=5`,
 * `max_df=0.1`, `max_features=20000`, `sublinear_tf=True`, `smooth_idf=True`, `norm='l2'`,
 * fitted on every document and applied to each. Done as scikit-learn does it: stop words are
 * dropped before bigrams are formed (a bigram may span one); the df bounds are applied first,
 * then the `maxFeatures` terms with the most occurrences in the corpus are kept (ties, which
 * scikit-learn leaves to an unstable sort, go to the term first in alphabetical order); idf is
 * ln((1 + n) / (1 + df)) + 1; a document's weights are (1 + ln tf) × idf, scaled to unit length.
 *
 * Sparse throughout, so that 95k abstracts fit: tokens are numbered, a bigram is the pair of
 * its tokens' numbers, and bigrams are counted by sorting their keys rather than in a map.
 */
import { ENGLISH_STOP_WORDS } from './stopWords.js';

export interface TfidfOptions {
  /** Most features kept (`max_features`). */
  maxFeatures: number;
  /** Fewest documents a term must be in (`min_df`, a count). */
  minDf: number;
  /** Largest share of documents a term may be in (`max_df`, a proportion). */
  maxDf: number;
}

/** arxiv-sanity-lite's defaults (compute.py's `--num`, `--min_df`, `--max_df`). */
export const ARXIV_SANITY_TFIDF: TfidfOptions = { maxFeatures: 20_000, minDf: 5, maxDf: 0.1 };

/** Rows of unit-length tf-idf vectors, compressed sparse rows (column indices ascending in each). */
export interface SparseRows {
  rows: number;
  /** Row r's entries are [indptr[r], indptr[r + 1]). */
  indptr: Int32Array;
  indices: Int32Array;
  values: Float32Array;
  /** Each column's term (a word, or two joined by a space). */
  vocabulary: string[];
}

/** scikit-learn's `token_pattern` with `(?u)`: a `\b` of Unicode word characters around ASCII tokens. */
const TOKEN = /(?<![\p{L}\p{N}_])[a-zA-Z_][a-zA-Z0-9_]+(?![\p{L}\p{N}_])/gu;
const COMBINING = /\p{M}/gu;

/**
 * A document's tokens as the vectorizer's analyzer reads them, stop words out: lowercased,
 * accents stripped (NFKD, combining marks dropped), scikit-learn's token pattern.
 * @example analyze('Attention Is All You Need') // ['attention', 'need']
 */
export function analyze(text: string): string[] {
  const lowered = text.toLowerCase().normalize('NFKD').replace(COMBINING, '');
  return (lowered.match(TOKEN) ?? []).filter((token) => !ENGLISH_STOP_WORDS.has(token));
}

/**
 * The tf-idf matrix of `docs`, fitted on them.
 * @example tfidf(['graph networks', …], ARXIV_SANITY_TFIDF).vocabulary
 */
export function tfidf(docs: readonly string[], options: TfidfOptions): SparseRows {
  const n = docs.length;
  // Tokens, numbered in order of first sight, each document's run in one array.
  const numbers = new Map<string, number>();
  const words: string[] = [];
  let tokens = new Int32Array(1 << 20);
  const starts = new Int32Array(n + 1);
  let used = 0;
  for (let d = 0; d < n; d++) {
    for (const token of analyze(docs[d]!)) {
      let t = numbers.get(token);
      if (t === undefined) {
        t = words.length;
        numbers.set(token, t);
        words.push(token);
      }
      if (used === tokens.length) {
        const grown = new Int32Array(tokens.length * 2);
        grown.set(tokens);
        tokens = grown;
      }
      tokens[used++] = t;
    }
    starts[d + 1] = used;
  }
  const u = words.length;

  // Unigram counts: occurrences in the corpus, and documents.
  const unigramTf = new Float64Array(u);
  const unigramDf = new Int32Array(u);
  const lastDoc = new Int32Array(u).fill(-1);
  for (let d = 0; d < n; d++) {
    for (let i = starts[d]!; i < starts[d + 1]!; i++) {
      const t = tokens[i]!;
      unigramTf[t]!++;
      if (lastDoc[t] !== d) {
        lastDoc[t] = d;
        unigramDf[t]!++;
      }
    }
  }

  // Bigrams whose words are both in minDf documents (no other can be), as keys a·u + b:
  // every occurrence for the corpus counts, each document's distinct ones for df.
  const maxDocs = Math.floor(options.maxDf * n);
  const frequent = (t: number) => unigramDf[t]! >= options.minDf;
  const occurrences: number[] = [];
  const distinct: number[] = [];
  const inDoc: number[] = [];
  for (let d = 0; d < n; d++) {
    inDoc.length = 0;
    for (let i = starts[d]! + 1; i < starts[d + 1]!; i++) {
      const a = tokens[i - 1]!;
      const b = tokens[i]!;
      if (frequent(a) && frequent(b)) inDoc.push(a * u + b);
    }
    inDoc.sort((x, y) => x - y);
    for (let k = 0; k < inDoc.length; k++) {
      occurrences.push(inDoc[k]!);
      if (k === 0 || inDoc[k] !== inDoc[k - 1]) distinct.push(inDoc[k]!);
    }
  }
  // Every key of `occurrences` is in `distinct` (once a document), so their runs line up.
  const byOccurrence = Float64Array.from(occurrences).sort();
  const byDocument = Float64Array.from(distinct).sort();

  // Candidates within the df bounds, then the maxFeatures most frequent.
  interface Term {
    term: string;
    tf: number;
    df: number;
    /** Token number (unigram) or bigram key. */
    key: number;
    bigram: boolean;
  }
  const candidates: Term[] = [];
  for (let t = 0; t < u; t++) {
    const df = unigramDf[t]!;
    if (df >= options.minDf && df <= maxDocs) candidates.push({ term: words[t]!, tf: unigramTf[t]!, df, key: t, bigram: false });
  }
  for (let i = 0, j = 0; i < byDocument.length; ) {
    const key = byDocument[i]!;
    let df = 0;
    for (; i < byDocument.length && byDocument[i] === key; i++) df++;
    let tf = 0;
    for (; j < byOccurrence.length && byOccurrence[j] === key; j++) tf++;
    if (df < options.minDf || df > maxDocs) continue;
    const a = Math.floor(key / u);
    candidates.push({ term: `${words[a]} ${words[key - a * u]}`, tf, df, key, bigram: true });
  }
  candidates.sort((x, y) => y.tf - x.tf || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0));
  const kept = candidates.slice(0, options.maxFeatures).sort((x, y) => (x.term < y.term ? -1 : x.term > y.term ? 1 : 0));

  const unigramColumn = new Int32Array(u).fill(-1);
  const bigramColumn = new Map<number, number>();
  const idf = new Float64Array(kept.length);
  kept.forEach((term, column) => {
    if (term.bigram) bigramColumn.set(term.key, column);
    else unigramColumn[term.key] = column;
    idf[column] = Math.log((1 + n) / (1 + term.df)) + 1;
  });

  // Each document's vector: counts, (1 + ln tf) × idf, unit length.
  const indptr = new Int32Array(n + 1);
  const indices: number[] = [];
  const values: number[] = [];
  const counts = new Float64Array(kept.length);
  const touched: number[] = [];
  const count = (column: number) => {
    if (column < 0) return;
    if (counts[column] === 0) touched.push(column);
    counts[column]!++;
  };
  for (let d = 0; d < n; d++) {
    touched.length = 0;
    for (let i = starts[d]!; i < starts[d + 1]!; i++) {
      count(unigramColumn[tokens[i]!]!);
      if (i > starts[d]!) count(bigramColumn.get(tokens[i - 1]! * u + tokens[i]!) ?? -1);
    }
    touched.sort((x, y) => x - y);
    let norm = 0;
    for (const column of touched) {
      const weight = (1 + Math.log(counts[column]!)) * idf[column]!;
      counts[column] = weight;
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    for (const column of touched) {
      indices.push(column);
      values.push(counts[column]! / norm);
      counts[column] = 0;
    }
    indptr[d + 1] = indices.length;
  }
  return { rows: n, indptr, indices: Int32Array.from(indices), values: Float32Array.from(values), vocabulary: kept.map((t) => t.term) };
}
