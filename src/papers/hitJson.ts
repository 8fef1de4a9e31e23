/**
 * Search hits as JSON, the one shape `paperscout search --json` prints and the site's
 * `/api/search` answers with: id, title, authors, venue, year, status, score, topic ids and the
 * landing page. Field names and meanings are the same in every language.
 */
import type { SearchHit } from '../search/engine.js';
import type { PaperStore } from '../store/papers.js';
import { paperLinks } from './cards.js';
import type { Paper } from './model.js';

export interface HitJson {
  id: string;
  title: string;
  authors: string[];
  venue: string;
  year: number | null;
  status: string;
  /** The hit's score, to three decimals. */
  score: number;
  /** Topic ids (`deep-learning/llm`). */
  topics: string[];
  /** The paper's landing page, or null. */
  url: string | null;
}

/**
 * The hits as JSON, their papers read in one go (a hit whose paper is gone keeps its id and title).
 * @example await hitsJson(app.library, result.hits)
 */
export async function hitsJson(papers: Pick<PaperStore, 'papersByDocs'>, hits: readonly SearchHit[]): Promise<HitJson[]> {
  const found = await papers.papersByDocs(hits.map((h) => h.storeDoc));
  return hits.map((hit) => hitJson(hit, found.get(hit.storeDoc)));
}

function hitJson(hit: SearchHit, paper: Paper | undefined): HitJson {
  return {
    id: hit.id,
    title: hit.title,
    authors: paper?.authors ?? [],
    venue: paper?.venue ?? '',
    year: paper?.year ?? null,
    status: paper?.status ?? '',
    score: Math.round(hit.score * 1000) / 1000,
    topics: paper?.topics ?? [],
    url: (paper && paperLinks(paper)[0]?.url) ?? null,
  };
}
