/**
 * Fetching from arXiv politely, as https://info.arxiv.org/help/api/tou.html asks: one request at
 * a time and at most one every {@link MIN_REQUEST_INTERVAL_MS}, retries spaced out on 429 and 503
 * (as the server's Retry-After says, else exponentially), and a User-Agent that names us. The
 * network and the clock come in through {@link HttpGet} and {@link Clock}, so tests run on
 * loopback or fakes without waiting.
 */
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';

/** What the client needs of an HTTP response; a fetch `Response` is one. */
export interface HttpResponse {
  status: number;
  statusText?: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** One GET request. Rejects on network failure (the client retries those). */
export type HttpGet = (url: string, options: { signal?: AbortSignal }) => Promise<HttpResponse>;

export const USER_AGENT = 'PaperScout/0.1 (paper-search bot for research groups; daily sync of new arXiv submissions)';
/** arXiv asks for no more than one request every three seconds. */
export const MIN_REQUEST_INTERVAL_MS = 3000;

export interface ArxivClientOptions {
  /** Least time from the end of one request to the start of the next (default 3 s). */
  minIntervalMs?: number;
  /** Attempts per URL before giving up (default 5). */
  maxAttempts?: number;
  /** First wait after a 429/503 without Retry-After; doubled each time (default 5 s). */
  backoffMs?: number;
  /** Longest exponential wait (default 60 s). */
  maxBackoffMs?: number;
  /** A Retry-After longer than this is not waited for: the fetch fails (default 5 min). */
  maxRetryAfterMs?: number;
}

/** A URL could not be fetched: a status that is not retried, or retries exhausted. */
export class ArxivFetchError extends Error {
  override readonly name = 'ArxivFetchError';
  constructor(
    message: string,
    readonly url: string,
    readonly status: number | undefined,
    readonly attempts: number,
  ) {
    super(message);
  }
}

/**
 * The default {@link HttpGet}: global fetch with Paper Scout's User-Agent and a timeout over the
 * whole exchange, body included.
 * @example const body = await (await fetchHttpGet()('https://rss.arxiv.org/rss/cs.LG', {})).text();
 */
export function fetchHttpGet(options: { userAgent?: string; timeoutMs?: number } = {}): HttpGet {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return (url, { signal }) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    return fetch(url, {
      headers: { 'user-agent': options.userAgent ?? USER_AGENT, accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5' },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  };
}

/**
 * Milliseconds a Retry-After header asks for: seconds, or an HTTP date relative to `now`.
 * @example parseRetryAfter('120', new Date()) // 120000
 * @example parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', new Date('2015-10-21T07:27:30Z')) // 30000
 */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/**
 * Serializes and spaces out requests to arXiv, and retries the ones worth retrying.
 * @example
 * const client = new ArxivClient({ http: fetchHttpGet(), clock: systemClock, log });
 * const xml = await client.get('https://rss.arxiv.org/rss/cs.LG');
 */
export class ArxivClient {
  private readonly options: Required<ArxivClientOptions>;
  private lastRequestEnd: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: { http: HttpGet; clock: Clock; log?: Logger },
    options: ArxivClientOptions = {},
  ) {
    this.options = {
      minIntervalMs: options.minIntervalMs ?? MIN_REQUEST_INTERVAL_MS,
      maxAttempts: Math.max(1, options.maxAttempts ?? 5),
      backoffMs: options.backoffMs ?? 5000,
      maxBackoffMs: options.maxBackoffMs ?? 60_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 300_000,
    };
  }

  /**
   * The body of `url`. Calls made while another is running wait their turn. Throws an
   * {@link ArxivFetchError}, or the signal's reason once `signal` aborts.
   */
  get(url: string, signal?: AbortSignal): Promise<string> {
    const run = this.queue.then(() => this.fetchWithRetries(url, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async fetchWithRetries(url: string, signal: AbortSignal | undefined): Promise<string> {
    const { http, clock, log } = this.deps;
    for (let attempt = 1; ; attempt++) {
      await this.waitTurn(signal);
      signal?.throwIfAborted();
      let reason: string;
      let retryAfterMs: number | undefined;
      let status: number | undefined;
      try {
        const response = await http(url, signal ? { signal } : {});
        status = response.status;
        const body = await response.text();
        if (status >= 200 && status < 300) return body;
        reason = `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''}`;
        if (status !== 429 && status !== 503) {
          throw new ArxivFetchError(`arXiv answered ${reason} for ${url}${detail(body)}`, url, status, attempt);
        }
        retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), clock.now());
      } catch (error) {
        if (error instanceof ArxivFetchError || signal?.aborted) throw error;
        status = undefined;
        reason = networkReason(error);
      } finally {
        this.lastRequestEnd = clock.now().getTime();
      }
      if (attempt >= this.options.maxAttempts) {
        throw new ArxivFetchError(`arXiv did not answer ${url} after ${attempt} attempts (last: ${reason})`, url, status, attempt);
      }
      if (retryAfterMs !== undefined && retryAfterMs > this.options.maxRetryAfterMs) {
        const seconds = Math.round(retryAfterMs / 1000);
        throw new ArxivFetchError(`arXiv answered ${reason} for ${url} and asked to retry in ${seconds} s; try again later`, url, status, attempt);
      }
      const waitMs = retryAfterMs ?? Math.min(this.options.backoffMs * 2 ** (attempt - 1), this.options.maxBackoffMs);
      log?.warn({ url, attempt, reason, waitMs }, 'arXiv request failed; retrying');
      await clock.sleep(waitMs, signal);
    }
  }

  /** Sleeps until {@link ArxivClientOptions.minIntervalMs} has passed since the last request ended. */
  private async waitTurn(signal: AbortSignal | undefined): Promise<void> {
    if (this.lastRequestEnd === undefined) return;
    const wait = this.lastRequestEnd + this.options.minIntervalMs - this.deps.clock.now().getTime();
    if (wait > 0) await this.deps.clock.sleep(wait, signal);
  }
}

/** A failed fetch's cause in a few words: `ECONNREFUSED`, `timed out`, … */
function networkReason(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'timed out';
    const code = (error.cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/** The start of an error body, for the message (arXiv's API explains bad queries there). */
function detail(body: string): string {
  const text = body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return text ? `: ${text.length > 160 ? `${text.slice(0, 160)}…` : text}` : '';
}
