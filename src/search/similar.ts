/**
 * "More like this": the papers most like a given one, found by a search for its most telling
 * words. No vectors: the paper's words are weighed by tf-idf (title words most, then keywords,
 * then the abstract), words too common to tell papers apart are dropped, and the best few are
 * searched in every field, so papers that share more of them rank higher.
 */
import type { Paper } from '../papers/model.js';
import type { PaperStore, StoredPaper } from '../store/papers.js';
import { STOPWORDS, tokenize } from '../text.js';
import type { LiveIndex } from './liveIndex.js';

/** Words a "similar papers" query is made of. */
const SIMILAR_QUERY_WORDS = 8;
/** Words in more than this share of papers say nothing about similarity. */
const SIMILAR_MAX_SHARE = 0.05;

/**
 * Up to `count` papers like `paper` (never itself), best first; none while there is no index.
 * @example (await similarPapers(index, store, paper, 5)).map((p) => p.paper.title)
 */
export async function similarPapers(
  index: Pick<LiveIndex, 'ready' | 'size' | 'documentFrequency' | 'search'>,
  store: Pick<PaperStore, 'papersByDocs'>,
  paper: Paper,
  count: number,
): Promise<StoredPaper[]> {
  if (!index.ready) return [];
  const words = telltaleWords(paper, index);
  if (words.length === 0) return [];
  // A trailing space: the last word is complete, not a prefix.
  const result = await index.search(`${words.join(' ')} `, { limit: count + 1, everyField: true });
  const hits = result.hits.filter((h) => h.id !== paper.id).slice(0, count);
  const papers = await store.papersByDocs(hits.map((h) => h.storeDoc));
  return hits.flatMap((h) => {
    const p = papers.get(h.storeDoc);
    return p ? [{ doc: h.storeDoc, paper: p }] : [];
  });
}

/** The paper's most telling words by tf-idf (title words count most), most telling first. */
function telltaleWords(paper: Paper, index: Pick<LiveIndex, 'size' | 'documentFrequency'>): string[] {
  const weights = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const w of tokenize(text)) if (!STOPWORDS.has(w) && w.length > 2 && !/^\d+$/.test(w)) weights.set(w, (weights.get(w) ?? 0) + weight);
  };
  add(paper.title, 3);
  add(paper.keywords.join(' '), 2);
  add(paper.abstract, 1);
  const size = index.size;
  const maxDf = Math.max(2, size * SIMILAR_MAX_SHARE);
  return [...weights]
    .map(([w, weight]) => ({ w, df: index.documentFrequency(w), weight }))
    .filter((x) => x.df > 1 && x.df <= maxDf)
    .map((x) => ({ w: x.w, score: x.weight * Math.log(size / x.df) }))
    .sort((a, b) => b.score - a.score || (a.w < b.w ? -1 : 1))
    .slice(0, SIMILAR_QUERY_WORDS)
    .map((x) => x.w);
}
