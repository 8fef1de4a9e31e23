/**
 * OpenAlex's API as citations use it, over the shared polite client (`../http.ts`: one request
 * at a time, at least {@link OPENALEX_MIN_INTERVAL_MS} apart, so never more than 10 a second;
 * 429 and 503 retried as Retry-After says, 5xx with backoff). Every request names who runs it,
 * as OpenAlex's polite pool asks: `mailto=` in the query and in the User-Agent.
 *
 * Requests: lists of works, `GET /works?filter=<key>:<a>|<b>|…&select=…&per-page=50&cursor=*`
 * (up to {@link OPENALEX_BATCH} values OR-ed in one filter, only the fields citations read), the
 * next pages by `cursor` when a filter matches more works than a page holds; and single works,
 * `GET /works/doi:<doi>`, for a DOI a filter cannot carry (one with `,` or `|`). A body that is
 * not OpenAlex's JSON is asked for again, twice, before the request fails.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import { PoliteClient, type HttpRequest, type PoliteOptions } from '../http.js';
import { parseCitedWork, parseWorksPage, type CitedWork } from './citedWork.js';
import { OpenAlexError } from './work.js';

/** Values OR-ed in one filter, and works a page holds: OpenAlex allows 100 of each; 50 keep URLs short. */
export const OPENALEX_BATCH = 50;
/** Least time between requests: at most 10 a second, as OpenAlex's polite pool asks. */
export const OPENALEX_MIN_INTERVAL_MS = 100;
/** The fields citations read (`select` takes root fields only). */
export const CITATION_FIELDS = ['id', 'doi', 'display_name', 'publication_year', 'authorships', 'cited_by_count', 'referenced_works', 'locations'] as const;
/** Pages followed for one filter: 50 values rarely match more than 50 works (a DOI OpenAlex holds twice). */
const MAX_PAGES = 4;
/** Re-requests of a body that came back unreadable before the request fails. */
const BODY_RETRIES = 2;

export interface OpenAlexClientDeps {
  http: HttpRequest;
  clock: Clock;
  log: Logger;
  /** OPENALEX_API_URL, without a trailing slash. */
  apiUrl: string;
  /** OPENALEX_MAILTO: the polite pool's address (the User-Agent is `http`'s to send). */
  mailto?: string;
}

/** What a list query asks: a filter (`key:value,…`) or a search, and how many works a page holds. */
export interface ListQuery {
  filter?: string;
  search?: string;
  perPage: number;
  /** Follow `next_cursor` while the query matches more works than were read (default: one page). */
  allPages?: boolean;
}

/** The works a query gave, and the results that were not works. */
export interface ListResult {
  works: CitedWork[];
  problems: string[];
}

/**
 * @example
 * const client = new OpenAlexClient({ http: fetchHttp({ userAgent }), clock: systemClock, log, apiUrl: 'https://api.openalex.org', mailto: 'lab@example.org' });
 * const { works } = await client.list({ filter: 'doi:10.1038/nature14539|10.48550/arxiv.1706.03762', perPage: 50, allPages: true });
 */
export class OpenAlexClient {
  private readonly polite: PoliteClient;
  private sent = 0;

  constructor(
    private readonly deps: OpenAlexClientDeps,
    politeness: PoliteOptions = {},
  ) {
    const counted: HttpRequest = (url, init) => {
      this.sent++;
      return deps.http(url, init);
    };
    this.polite = new PoliteClient(
      { http: counted, clock: deps.clock, log: deps.log, service: 'OpenAlex', explain: explainError },
      { minIntervalMs: OPENALEX_MIN_INTERVAL_MS, ...politeness },
    );
  }

  /** HTTP requests sent so far, retries included. */
  get requests(): number {
    return this.sent;
  }

  /** The works a filter or search matches: its first page, or with `allPages` up to {@link MAX_PAGES} pages. */
  async list(query: ListQuery, signal?: AbortSignal): Promise<ListResult> {
    const result: ListResult = { works: [], problems: [] };
    let cursor = '*';
    for (let page = 1; page <= MAX_PAGES; page++) {
      const params: Record<string, string> = { select: CITATION_FIELDS.join(','), 'per-page': String(query.perPage) };
      if (query.filter) params['filter'] = query.filter;
      if (query.search) params['search'] = query.search;
      if (query.allPages) params['cursor'] = cursor;
      const parsed = await this.readable(this.url('/works', params), signal, parseWorksPage);
      result.works.push(...parsed.works);
      result.problems.push(...parsed.problems.map((p) => `result ${p.index}: ${p.reason}`));
      const read = result.works.length + result.problems.length;
      if (!query.allPages || !parsed.nextCursor || parsed.works.length === 0 || (parsed.total !== undefined && read >= parsed.total)) break;
      cursor = parsed.nextCursor;
    }
    return result;
  }

  /** One work by its key (`doi:10.1/x`, `W2741809807`), or undefined when OpenAlex has none. */
  async work(key: string, signal?: AbortSignal): Promise<CitedWork | undefined> {
    const path = `/works/${key.split('/').map(encodeURIComponent).join('/')}`;
    const url = this.url(path, { select: CITATION_FIELDS.join(',') });
    for (let attempt = 0; ; attempt++) {
      const { status, body } = await this.polite.lookup(url, signal);
      if (status === 404) return undefined;
      try {
        return parseCitedWork(body);
      } catch (error) {
        await this.unreadable(error, attempt, url, signal);
      }
    }
  }

  private url(path: string, params: Record<string, string>): string {
    const query = new URLSearchParams(params);
    if (this.deps.mailto) query.set('mailto', this.deps.mailto);
    return `${this.deps.apiUrl}${path}?${query}`;
  }

  /** The body of `url` as `parse` reads it, asked for again (after a backoff) while it is unreadable. */
  private async readable<T>(url: string, signal: AbortSignal | undefined, parse: (body: string) => T): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const body = await this.polite.get(url, signal);
      try {
        return parse(body);
      } catch (error) {
        await this.unreadable(error, attempt, url, signal);
      }
    }
  }

  private async unreadable(error: unknown, attempt: number, url: string, signal: AbortSignal | undefined): Promise<void> {
    if (!(error instanceof OpenAlexError)) throw error;
    if (attempt >= BODY_RETRIES) throw new OpenAlexError(`${error.message} (${url}, ${attempt + 1} times)`);
    this.deps.log.warn({ url, attempt: attempt + 1, reason: error.message }, 'OpenAlex answered a body that is not its JSON; asking again');
    await this.polite.backoff(attempt + 1, signal);
  }
}

/** OpenAlex's own explanation in an error body: `{"error": "…", "message": "…"}`. */
function explainError(body: string): string | undefined {
  try {
    const value = JSON.parse(body) as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    const { error, message } = value as { error?: unknown; message?: unknown };
    const parts = [error, message].filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.slice(0, 300));
    return parts.length > 0 ? parts.join(': ') : undefined;
  } catch {
    return undefined;
  }
}
