/**
 * The OpenReview API v2 client: the shared {@link PoliteClient} (one request at a time, well
 * under OpenReview's published rate limit), logged in with the operator's account when one is
 * configured (OpenReview may refuse anonymous queries with a challenge).
 */
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import { FetchError, PoliteClient, bodyStart, type HttpRequest, type PoliteOptions } from '../http.js';
import { parseNotesPage, type NotesPage } from './notes.js';

/** OpenReview allows about 180 requests a minute for notes; this stays well below. */
export const MIN_REQUEST_INTERVAL_MS = 500;

export interface OpenReviewClientDeps {
  http: HttpRequest;
  clock: Clock;
  log?: Logger;
  /** API v2 base URL, without a trailing slash. */
  apiUrl: string;
  username?: string;
  password?: string;
}

/**
 * @example
 * const client = new OpenReviewClient({ http: fetchHttp(), clock: systemClock, apiUrl: 'https://api2.openreview.net' });
 * const page = await client.notes({ invitation: 'ICLR.cc/2025/Conference/-/Submission', limit: '1000', offset: '0' });
 */
export class OpenReviewClient {
  private readonly polite: PoliteClient;
  private token: Promise<string | undefined> | undefined;

  constructor(
    private readonly deps: OpenReviewClientDeps,
    options: PoliteOptions = {},
  ) {
    this.polite = new PoliteClient({ http: deps.http, clock: deps.clock, ...(deps.log && { log: deps.log }), service: 'OpenReview', explain: explainOpenReviewError }, {
      minIntervalMs: MIN_REQUEST_INTERVAL_MS,
      ...options,
    });
  }

  /** One page of `GET /notes` with these query parameters. */
  async notes(query: Record<string, string>, signal?: AbortSignal): Promise<NotesPage> {
    const headers = await this.authorization(signal);
    const url = `${this.deps.apiUrl}/notes?${new URLSearchParams(query)}`;
    return parseNotesPage(await this.polite.get(url, signal, { headers }));
  }

  /** The submission whose forum id is `id`, or undefined when OpenReview has none (404 or no note). */
  async note(id: string, signal?: AbortSignal): Promise<NotesPage> {
    const headers = await this.authorization(signal);
    const { status, body } = await this.polite.lookup(`${this.deps.apiUrl}/notes?${new URLSearchParams({ id })}`, signal, { headers });
    return status === 404 ? { notes: [], problems: [], size: 0 } : parseNotesPage(body);
  }

  /** `Authorization: Bearer …` after logging in once, when an account is configured. */
  private async authorization(signal: AbortSignal | undefined): Promise<Record<string, string>> {
    const { username, password, apiUrl } = this.deps;
    if (!username || !password) return {};
    this.token ??= this.polite
      .get(`${apiUrl}/login`, signal, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: username, password }) })
      .then((body) => {
        const token = (JSON.parse(body) as { token?: unknown }).token;
        if (typeof token !== 'string') throw new Error('OpenReview answered the login without a token');
        return token;
      })
      .catch((error: unknown) => {
        this.token = undefined;
        if (error instanceof FetchError && (error.status === 400 || error.status === 401 || error.status === 403 || error.status === 404)) {
          throw new FetchError(`OpenReview did not accept OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD: ${error.detail ?? error.message}`, error.url, error.status, error.attempts, error.detail);
        }
        throw error;
      });
    const token = await this.token;
    return token ? { authorization: `Bearer ${token}` } : {};
  }
}

/**
 * OpenReview's explanation of an error from its JSON body, with what to do about a challenge.
 * @example explainOpenReviewError('{"name":"ChallengeRequiredError","message":"Challenge verification required"}')
 * // 'ChallengeRequiredError: Challenge verification required (OpenReview wants a login for this query: set OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD)'
 */
export function explainOpenReviewError(body: string): string | undefined {
  if (!/^\s*\{/.test(body)) return undefined;
  const text = bodyStart(body);
  if (!text) return undefined;
  return /ChallengeRequired|ForbiddenError|must be logged in/i.test(text)
    ? `${text} (OpenReview wants a login for this query: set OPENREVIEW_USERNAME and OPENREVIEW_PASSWORD)`
    : text;
}
