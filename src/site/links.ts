/**
 * Addresses on the search site (adapters/web): a search, a paper and its citation lists, a topic. The site writes them
 * relative to itself; replies and digests write them under PUBLIC_URL, so a chat reply's "All
 * 1,234 results ↗" and each card's title lead to the site. One module makes both, so a link in
 * a reply always names a page the site serves.
 */

import type { CitationDirection } from '../papers/citationLists.js';

/** The path segment of each citation list's pages under a paper's (`/paper/<id>/cited-by`). */
export const CITATION_PATHS: Readonly<Record<CitationDirection, string>> = { references: 'references', citedBy: 'cited-by' };

export interface SiteLinks {
  /** The site's address (`https://papers.lab.example`), or '' for links relative to the site. */
  readonly base: string;
  /** A search, page `page` from 1 (the first page has no `page`). */
  search(query: string, page?: number): string;
  /** A paper's page. */
  paper(id: string): string;
  /** A paper's references in the library, or the papers citing it, page `page` from 1. */
  citations(id: string, direction: CitationDirection, page?: number): string;
  /** A topic's papers, by topic id (`deep-learning/llm`). */
  topic(id: string): string;
}

/**
 * Links under `base` (no trailing slash; '' for paths relative to the site's root).
 * @example siteLinks('https://papers.lab.example').search('diffusion transformers') // 'https://papers.lab.example/search?q=diffusion+transformers'
 * @example siteLinks('').paper('arxiv:1706.03762') // '/paper/arxiv%3A1706.03762'
 */
export function siteLinks(base: string): SiteLinks {
  return {
    base,
    search: (query, page) => `${base}/search?${new URLSearchParams({ q: query, ...(page !== undefined && page > 1 && { page: String(page) }) }).toString()}`,
    paper: (id) => `${base}/paper/${encodeURIComponent(id)}`,
    citations: (id, direction, page) => `${base}/paper/${encodeURIComponent(id)}/${CITATION_PATHS[direction]}${page !== undefined && page > 1 ? `?page=${page}` : ''}`,
    // A topic id is "area/name": both parts are slugs, kept as two path segments.
    topic: (id) => `${base}/topic/${id.split('/').map(encodeURIComponent).join('/')}`,
  };
}
