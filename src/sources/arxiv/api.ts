/**
 * Pages of the arXiv API (`export.arxiv.org/api/query`), read so that a page arXiv serves empty
 * by mistake (it does, sporadically) is asked again rather than taken for "nothing more": an
 * empty page counts as the end only when arXiv says the results ended before it.
 */
import type { ArxivClient } from './client.js';
import { parseApiFeed, type ApiPage } from './feed.js';

/** Times an unexpectedly empty page is asked again. */
export const EMPTY_PAGE_RETRIES = 3;

/** arXiv kept answering with an empty page where results were due. */
export class EmptyPageError extends Error {
  override readonly name = 'EmptyPageError';
}

/**
 * Whether an empty page is the real end of the results: arXiv counted results and this page
 * starts at or past their end.
 * @example endsResults({ totalResults: 250, startIndex: 300, entries: [], problems: [] }, 300) // true
 * @example endsResults({ totalResults: 0, startIndex: 0, entries: [], problems: [] }, 0) // false: arXiv's sporadic empty page
 */
export function endsResults(page: ApiPage, start: number): boolean {
  return page.totalResults !== undefined && page.totalResults > 0 && start >= page.totalResults;
}

/**
 * The page at `url` (whose offset is `start`), asked again up to `retries` times with backoff
 * while it comes back empty before the end of the results. Throws an {@link EmptyPageError}
 * when it stays empty, unless `emptyIsAnswer` (an id lookup, where nothing may be the answer).
 * @example const page = await fetchApiPage(client, `${apiUrl}?search_query=cat:cs.LG&start=0&max_results=200`, 0);
 */
export async function fetchApiPage(
  client: ArxivClient,
  url: string,
  start: number,
  options: { signal?: AbortSignal; retries?: number; emptyIsAnswer?: boolean } = {},
): Promise<ApiPage> {
  const retries = options.retries ?? EMPTY_PAGE_RETRIES;
  for (let attempt = 0; ; attempt++) {
    const page = parseApiFeed(await client.get(url, options.signal));
    if (page.entries.length + page.problems.length > 0 || endsResults(page, start)) return page;
    if (attempt >= retries) {
      if (options.emptyIsAnswer) return page;
      throw new EmptyPageError(`the arXiv API answered ${attempt + 1} times with an empty page at offset ${start} (${url}); it is asked again at the next sync`);
    }
    await client.backoff(attempt + 1, options.signal);
  }
}
