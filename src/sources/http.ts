/**
 * Fetching politely from the services papers come from (arXiv, OpenReview, OpenAlex), written
 * once for all of them: one request at a time with a least interval between requests, retries
 * of what is worth retrying (429 and 503 as the server's Retry-After says, 500/502/504 and
 * network failures with exponential backoff), a User-Agent that names Paper Scout and whoever
 * runs it, and error messages that quote the service's own explanation. The network and the
 * clock come in through {@link HttpRequest} and {@link Clock}, so tests run on loopback or fakes
 * without waiting.
 */
import type { Logger } from 'pino';
import { networkReason } from '../causes.js';
import type { Clock } from '../clock.js';
import { userAgent } from '../userAgent.js';

/** What the clients need of an HTTP response; a fetch `Response` is one. */
export interface HttpResponse {
  status: number;
  statusText?: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  /** The body as a stream, for downloads too big to hold (fetch responses have one). */
  body?: ReadableStream<Uint8Array> | null;
}

export interface HttpRequestInit {
  signal?: AbortSignal;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** One request. Rejects on network failure (the polite client retries those). */
export type HttpRequest = (url: string, init: HttpRequestInit) => Promise<HttpResponse>;
/** The name the arXiv code has always used for {@link HttpRequest}. */
export type HttpGet = HttpRequest;

/**
 * The default {@link HttpRequest}: global fetch with Paper Scout's User-Agent and a timeout over
 * the whole exchange, body included.
 * @example const body = await (await fetchHttp({ userAgent: userAgent('lab@example.org') })('https://rss.arxiv.org/rss/cs.LG', {})).text();
 */
export function fetchHttp(options: { userAgent?: string; timeoutMs?: number; accept?: string } = {}): HttpRequest {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const accept = options.accept ?? 'application/xml, application/json;q=0.9, */*;q=0.5';
  return (url, { signal, method, headers, body }) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    return fetch(url, {
      method: method ?? 'GET',
      headers: { 'user-agent': options.userAgent ?? userAgent(), accept, ...headers },
      ...(body !== undefined && { body }),
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

/** A URL could not be fetched: a status that is not retried, or retries exhausted. */
export class FetchError extends Error {
  override readonly name: string = 'FetchError';
  constructor(
    message: string,
    readonly url: string,
    readonly status: number | undefined,
    readonly attempts: number,
    /** The service's own explanation, when its error body gave one. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

export interface PoliteOptions {
  /** Least time from the end of one request to the start of the next. */
  minIntervalMs?: number;
  /** Attempts per URL before giving up (default 5). */
  maxAttempts?: number;
  /** First wait after a retryable failure without Retry-After; doubled each time (default 5 s). */
  backoffMs?: number;
  /** Longest exponential wait (default 60 s). */
  maxBackoffMs?: number;
  /** A Retry-After longer than this is not waited for: the fetch fails (default 5 min). */
  maxRetryAfterMs?: number;
}

export interface PoliteDeps {
  http: HttpRequest;
  clock: Clock;
  log?: Logger;
  /** The service's name in messages: `arXiv`, `OpenReview`, `OpenAlex`. */
  service: string;
  /** The service's own explanation in an error body, if it has one (else the body's start is quoted). */
  explain?: (body: string, status: number) => string | undefined;
}

/** Statuses worth another try: flow control (429, 503) and passing server trouble (500, 502, 504). */
const RETRYABLE = new Set([429, 500, 502, 503, 504]);

/**
 * Serializes and spaces out requests to one service, and retries the ones worth retrying.
 * @example
 * const client = new PoliteClient({ http: fetchHttp(), clock: systemClock, service: 'arXiv' }, { minIntervalMs: 3000 });
 * const xml = await client.get('https://oaipmh.arxiv.org/oai?verb=Identify');
 */
export class PoliteClient {
  private readonly options: Required<PoliteOptions>;
  private lastRequestEnd: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: PoliteDeps,
    options: PoliteOptions = {},
  ) {
    this.options = {
      minIntervalMs: options.minIntervalMs ?? 0,
      maxAttempts: Math.max(1, options.maxAttempts ?? 5),
      backoffMs: options.backoffMs ?? 5000,
      maxBackoffMs: options.maxBackoffMs ?? 60_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 300_000,
    };
  }

  get service(): string {
    return this.deps.service;
  }

  /**
   * The body of `url`. Calls made while another is running wait their turn. Throws a
   * {@link FetchError}, or the signal's reason once `signal` aborts.
   */
  get(url: string, signal?: AbortSignal, init: Omit<HttpRequestInit, 'signal'> = {}): Promise<string> {
    return this.enqueue(() => this.fetchWithRetries(url, signal, init, true).then((r) => r.body));
  }

  /**
   * Like {@link get}, but resolves to the status and body of a 404 instead of failing, for
   * lookups where "no such paper" is an answer.
   */
  lookup(url: string, signal?: AbortSignal, init: Omit<HttpRequestInit, 'signal'> = {}): Promise<{ status: number; body: string }> {
    return this.enqueue(() => this.fetchWithRetries(url, signal, init, false));
  }

  /** Waits out a backoff of the `attempt`-th retry (1-based) of something the caller retries itself. */
  async backoff(attempt: number, signal?: AbortSignal): Promise<void> {
    await this.deps.clock.sleep(this.backoffMs(attempt), signal);
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private backoffMs(attempt: number): number {
    return Math.min(this.options.backoffMs * 2 ** (attempt - 1), this.options.maxBackoffMs);
  }

  private async fetchWithRetries(url: string, signal: AbortSignal | undefined, init: Omit<HttpRequestInit, 'signal'>, notFoundFails: boolean): Promise<{ status: number; body: string }> {
    const { http, clock, log, service } = this.deps;
    for (let attempt = 1; ; attempt++) {
      await this.waitTurn(signal);
      signal?.throwIfAborted();
      let reason: string;
      let retryAfterMs: number | undefined;
      let status: number | undefined;
      try {
        const response = await http(url, { ...init, ...(signal && { signal }) });
        status = response.status;
        const body = await response.text();
        if ((status >= 200 && status < 300) || (status === 404 && !notFoundFails)) return { status, body };
        reason = `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''}`;
        if (!RETRYABLE.has(status)) {
          const explained = this.deps.explain?.(body, status);
          const detail = explained ?? bodyStart(body);
          throw new FetchError(`${service} answered ${reason} for ${url}${detail ? `: ${detail}` : ''}`, url, status, attempt, explained);
        }
        retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), clock.now());
      } catch (error) {
        if (error instanceof FetchError || signal?.aborted) throw error;
        status = undefined;
        reason = networkReason(error);
      } finally {
        this.lastRequestEnd = clock.now().getTime();
      }
      if (attempt >= this.options.maxAttempts) {
        throw new FetchError(`${service} did not answer ${url} after ${attempt} attempts (last: ${reason})`, url, status, attempt);
      }
      if (retryAfterMs !== undefined && retryAfterMs > this.options.maxRetryAfterMs) {
        const seconds = Math.round(retryAfterMs / 1000);
        throw new FetchError(`${service} answered ${reason} for ${url} and asked to retry in ${seconds} s; try again later`, url, status, attempt);
      }
      const waitMs = retryAfterMs ?? this.backoffMs(attempt);
      log?.warn({ url, attempt, reason, waitMs }, `${service} request failed; retrying`);
      await clock.sleep(waitMs, signal);
    }
  }

  /** Sleeps until the least interval has passed since the last request ended. */
  private async waitTurn(signal: AbortSignal | undefined): Promise<void> {
    if (this.lastRequestEnd === undefined) return;
    const wait = this.lastRequestEnd + this.options.minIntervalMs - this.deps.clock.now().getTime();
    if (wait > 0) await this.deps.clock.sleep(wait, signal);
  }
}

/**
 * The start of an error body for a message: a JSON error's `message`, else the text with any
 * markup removed, at most 160 characters.
 * @example bodyStart('{"name":"NotFoundError","message":"The Note abc was not found"}') // 'NotFoundError: The Note abc was not found'
 */
export function bodyStart(body: string): string {
  const json = jsonMessage(body);
  const text = (json ?? body.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

function jsonMessage(body: string): string | undefined {
  if (!/^\s*\{/.test(body)) return undefined;
  try {
    const value = JSON.parse(body) as { name?: unknown; message?: unknown; error?: unknown };
    const message = typeof value.message === 'string' ? value.message : typeof value.error === 'string' ? value.error : undefined;
    if (message === undefined) return undefined;
    return typeof value.name === 'string' && value.name !== 'Error' ? `${value.name}: ${message}` : message;
  } catch {
    return undefined;
  }
}
