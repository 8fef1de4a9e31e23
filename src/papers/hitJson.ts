/**
 * Search hits as JSON, the one shape `paperscout search --json` prints and the site's
 * `/api/search` answers with (and every command-line list of papers: library, recommend): id, title, authors, venue, year, status, score, topic ids, the
 * landing page, and OpenAlex's citation count and work id (null where the paper has not been
 * matched to a work). Related work (`related --json`, `/api/related`) adds the snippet, as plain
 * text. Field names and meanings are the same in every language.
 */
import type { SearchHit, SearchResult } from '../search/engine.js';
import { segmentsToText } from '../search/snippet.js';
import type { PaperStore } from '../store/papers.js';
import { abstractSnippet, paperLinks } from './cards.js';
import type { Paper } from './model.js';

export interface HitJson {
  id: string;
  title: string;
  authors: string[];
  venue: string;
  year: number | null;
  status: string;
  /** The hit's score, to three decimals (null where papers are listed, not ranked: a library). */
  score: number | null;
  /** Topic ids (`deep-learning/llm`). */
  topics: string[];
  /** The paper's landing page, or null. */
  url: string | null;
  /** How many works cite it, as OpenAlex counted when it was fetched; null where unknown (not 0). */
  cited_by: number | null;
  /** The OpenAlex work it was matched to (`W2741809807`), or null. */
  openalex: string | null;
}

/**
 * The hits as JSON, their papers read in one go (a hit whose paper is gone keeps its id and title).
 * @example await hitsJson(app.library, result.hits)
 */
export async function hitsJson(papers: Pick<PaperStore, 'papersByDocs'>, hits: readonly SearchHit[]): Promise<HitJson[]> {
  const found = await papers.papersByDocs(hits.map((h) => h.storeDoc));
  return hits.map((hit) => hitJson(hit, found.get(hit.storeDoc)));
}

/** A hit of related work as JSON: a search hit's fields and the abstract's sentence closest to the text. */
export interface RelatedHitJson extends HitJson {
  /** The sentence of the abstract closest to the text, as plain text ('' without an abstract). */
  snippet: string;
}

/**
 * A result's hits as JSON with their snippets (the sentence closest to the text, for related
 * work; the passage around the matched words otherwise), their papers read in one go.
 * @example await snippetHitsJson(app.library, await app.library.related(abstract))
 */
export async function snippetHitsJson(papers: Pick<PaperStore, 'papersByDocs'>, result: Pick<SearchResult, 'hits' | 'words' | 'meaning'>): Promise<RelatedHitJson[]> {
  const found = await papers.papersByDocs(result.hits.map((h) => h.storeDoc));
  return result.hits.map((hit) => {
    const paper = found.get(hit.storeDoc);
    const snippet = paper?.abstract ? segmentsToText(abstractSnippet(paper.abstract, { words: result.words, ...(result.meaning && { meaning: result.meaning }) })) : '';
    return { ...hitJson(hit, paper), snippet };
  });
}

/**
 * One hit as JSON, or a listed paper (no score) with the same fields.
 * @example hitJson({ id: paper.id, title: paper.title }, paper).score // null
 */
export function hitJson(hit: Pick<SearchHit, 'id' | 'title'> & { score?: number }, paper: Paper | undefined): HitJson {
  return {
    id: hit.id,
    title: hit.title,
    authors: paper?.authors ?? [],
    venue: paper?.venue ?? '',
    year: paper?.year ?? null,
    status: paper?.status ?? '',
    score: hit.score === undefined ? null : Math.round(hit.score * 1000) / 1000,
    topics: paper?.topics ?? [],
    url: (paper && paperLinks(paper)[0]?.url) ?? null,
    ...citationJson(paper),
  };
}

/**
 * A paper's citation count and OpenAlex work as `--json` and `/api/search` name them (nulls where unknown).
 * @example citationJson(paper) // { cited_by: 12345, openalex: 'W2741809807' }
 */
export function citationJson(paper: Pick<Paper, 'citations'> | undefined): Pick<HitJson, 'cited_by' | 'openalex'> {
  return { cited_by: paper?.citations?.count ?? null, openalex: paper?.citations?.openalex ?? null };
}
