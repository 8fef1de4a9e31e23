import { describe, expect, it } from 'vitest';
import { ArxivClient, ArxivFetchError, parseRetryAfter, type HttpGet, type HttpResponse } from '../../../src/sources/arxiv/client.js';
import { FakeClock } from '../helpers/fakeClock.js';

type Step = { status: number; body?: string; headers?: Record<string, string> } | Error;

/** An HttpGet answering from a script, one step per call (the last repeating), recording when each call came. */
function scriptedHttp(clock: FakeClock, steps: Step[]) {
  const calls: Array<{ url: string; at: number }> = [];
  const http: HttpGet = async (url) => {
    calls.push({ url, at: clock.now().getTime() });
    const step = steps.length > 1 ? steps.shift()! : steps[0]!;
    if (step instanceof Error) throw step;
    const headers = new Headers(step.headers ?? {});
    const response: HttpResponse = { status: step.status, headers, text: async () => step.body ?? '' };
    return response;
  };
  return { http, calls };
}

const T0 = Date.parse('2025-04-14T06:30:00Z');

describe('ArxivClient', () => {
  it('spaces requests at least 3 s apart, the first one without waiting', async () => {
    const clock = new FakeClock();
    const { http, calls } = scriptedHttp(clock, [{ status: 200, body: 'ok' }]);
    const client = new ArxivClient({ http, clock });
    expect(await client.get('http://x/1')).toBe('ok');
    clock.advance(1000); // some work between requests counts towards the interval
    await client.get('http://x/2');
    clock.advance(5000);
    await client.get('http://x/3');
    expect(calls.map((c) => c.at - T0)).toEqual([0, 3000, 8000]);
    expect(clock.sleeps).toEqual([2000]);
  });

  it('serializes concurrent calls and spaces them too', async () => {
    const clock = new FakeClock();
    const { http, calls } = scriptedHttp(clock, [{ status: 200, body: 'ok' }]);
    const client = new ArxivClient({ http, clock });
    await Promise.all([client.get('http://x/a'), client.get('http://x/b'), client.get('http://x/c')]);
    expect(calls.map((c) => [c.url, c.at - T0])).toEqual([
      ['http://x/a', 0],
      ['http://x/b', 3000],
      ['http://x/c', 6000],
    ]);
  });

  it('retries a 503 after 5 s and then succeeds', async () => {
    const clock = new FakeClock();
    const { http, calls } = scriptedHttp(clock, [{ status: 503 }, { status: 200, body: 'feed' }]);
    expect(await new ArxivClient({ http, clock }).get('http://x/feed')).toBe('feed');
    expect(calls.map((c) => c.at - T0)).toEqual([0, 5000]);
    expect(clock.sleeps).toEqual([5000]);
  });

  it('honours Retry-After in seconds and as an HTTP date on 429, never closer than 3 s', async () => {
    const clock = new FakeClock();
    const inTwentySeconds = new Date(T0 + 12_000 + 20_000).toUTCString();
    const { http, calls } = scriptedHttp(clock, [
      { status: 429, headers: { 'retry-after': '12' } },
      { status: 429, headers: { 'retry-after': inTwentySeconds } },
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 200, body: 'ok' },
    ]);
    expect(await new ArxivClient({ http, clock }).get('http://x/')).toBe('ok');
    expect(calls.map((c) => c.at - T0)).toEqual([0, 12_000, 32_000, 35_000]);
    expect(clock.sleeps).toEqual([12_000, 20_000, 0, 3000]);
  });

  it('backs off exponentially without Retry-After, up to the cap', async () => {
    const clock = new FakeClock();
    const { http } = scriptedHttp(clock, [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 200, body: 'ok' }]);
    const client = new ArxivClient({ http, clock }, { maxAttempts: 6, maxBackoffMs: 30_000 });
    expect(await client.get('http://x/')).toBe('ok');
    expect(clock.sleeps).toEqual([5000, 10_000, 20_000, 30_000, 30_000]);
  });

  it('gives up after 5 attempts with a message naming the URL and the last answer', async () => {
    const clock = new FakeClock();
    const { http, calls } = scriptedHttp(clock, [{ status: 503 }]);
    const error = await new ArxivClient({ http, clock }).get('http://x/feed').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArxivFetchError);
    expect(error).toMatchObject({ status: 503, attempts: 5, message: 'arXiv did not answer http://x/feed after 5 attempts (last: HTTP 503)' });
    expect(calls).toHaveLength(5);
    expect(clock.sleeps).toEqual([5000, 10_000, 20_000, 40_000]);
  });

  it('retries network errors like a 503', async () => {
    const clock = new FakeClock();
    const reset = new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    const { http, calls } = scriptedHttp(clock, [reset, { status: 200, body: 'ok' }]);
    expect(await new ArxivClient({ http, clock }).get('http://x/')).toBe('ok');
    expect(calls).toHaveLength(2);
    const { http: down } = scriptedHttp(clock, [reset]);
    await expect(new ArxivClient({ http: down, clock }).get('http://x/')).rejects.toThrow('(last: fetch failed (ECONNRESET))');
  });

  it('fails at once on other statuses, with the start of the body', async () => {
    const clock = new FakeClock();
    const { http, calls } = scriptedHttp(clock, [{ status: 400, body: '<feed><entry><summary>malformed query</summary></entry></feed>' }]);
    const error = await new ArxivClient({ http, clock }).get('http://x/api').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'FetchError', status: 400, attempts: 1, message: 'arXiv answered HTTP 400 for http://x/api: malformed query' });
    expect(calls).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('does not wait out a Retry-After longer than it is willing to', async () => {
    const clock = new FakeClock();
    const { http, calls } = scriptedHttp(clock, [{ status: 503, headers: { 'retry-after': '3600' } }]);
    await expect(new ArxivClient({ http, clock }).get('http://x/')).rejects.toThrow('asked to retry in 3600 s; try again later');
    expect(calls).toHaveLength(1);
  });

  it('stops when its signal aborts: before a request, or during a backoff wait', async () => {
    const clock = new FakeClock();
    const { http, calls } = scriptedHttp(clock, [{ status: 503 }]);
    const client = new ArxivClient({ http, clock });
    await expect(client.get('http://x/', AbortSignal.abort(new Error('stopped early')))).rejects.toThrow('stopped early');
    expect(calls).toHaveLength(0);
    const controller = new AbortController();
    const abortAfterFirst: HttpGet = async (url, options) => {
      const response = await http(url, options);
      controller.abort(new Error('shutting down'));
      return response;
    };
    await expect(new ArxivClient({ http: abortAfterFirst, clock }).get('http://x/', controller.signal)).rejects.toThrow('shutting down');
    expect(calls).toHaveLength(1);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2015-10-21T07:27:30Z');
  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Wed, 21 Oct 2015 07:28:00 GMT', 30_000],
    ['Wed, 21 Oct 2015 07:00:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j → %j ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
