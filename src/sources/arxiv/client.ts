/**
 * The arXiv client: the shared {@link PoliteClient} set to what
 * https://info.arxiv.org/help/api/tou.html asks (one request at a time, at most one every
 * {@link MIN_REQUEST_INTERVAL_MS}), reporting the API's own explanation of an error
 * ("incorrect id format for abc") rather than its markup.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import { PoliteClient, fetchHttp, type HttpRequest, type PoliteOptions } from '../http.js';
import { childText, firstChild, parseXml } from './xml.js';

export { FetchError as ArxivFetchError, parseRetryAfter, type HttpGet, type HttpResponse } from '../http.js';

/** arXiv asks for no more than one request every three seconds. */
export const MIN_REQUEST_INTERVAL_MS = 3000;

export type ArxivClientOptions = PoliteOptions;

/**
 * The default request function for arXiv: fetch with Paper Scout's User-Agent (with the
 * operator's contact when given) and a timeout over the whole exchange.
 * @example const body = await (await fetchHttpGet()('https://rss.arxiv.org/rss/cs.LG', {})).text();
 */
export function fetchHttpGet(options: { userAgent?: string; timeoutMs?: number } = {}): HttpRequest {
  return fetchHttp({ ...options, accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5' });
}

/**
 * Serializes and spaces out requests to arXiv, and retries the ones worth retrying.
 * @example
 * const client = new ArxivClient({ http: fetchHttpGet(), clock: systemClock, log });
 * const xml = await client.get('https://rss.arxiv.org/rss/cs.LG');
 */
export class ArxivClient extends PoliteClient {
  constructor(deps: { http: HttpRequest; clock: Clock; log?: Logger }, options: ArxivClientOptions = {}) {
    super({ ...deps, service: 'arXiv', explain: explainArxivError }, { minIntervalMs: MIN_REQUEST_INTERVAL_MS, ...options });
  }
}

/**
 * What arXiv says went wrong, from an error body: the API's error entry (`<entry><summary>`),
 * or an OAI-PMH `<error code="…">`.
 * @example explainArxivError('<feed><entry><summary>incorrect id format for abc</summary></entry></feed>') // 'incorrect id format for abc'
 */
export function explainArxivError(body: string): string | undefined {
  if (!/^\s*(<\?xml[^>]*>\s*)?</.test(body)) return undefined;
  try {
    const root = parseXml(body);
    const entry = firstChild(root, 'entry');
    const summary = entry && childText(entry, 'summary');
    if (summary) return summary.replace(/\s+/g, ' ');
    const error = firstChild(root, 'error');
    if (error) return `${error.attrs['code'] ?? 'error'}: ${childText(root, 'error') ?? ''}`.trim();
  } catch {
    return undefined;
  }
  return undefined;
}
