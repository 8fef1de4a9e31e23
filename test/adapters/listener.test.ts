/**
 * The process's one listener on its own (no site, no adapter): routes by path and method,
 * mounted handlers swapped in and out, a request line whose address cannot be read answered 400
 * and logged at most once a minute, and a handler that throws answered 500 while the listener
 * carries on.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { requestPath, startHttpListener, type HttpListener } from '../../adapters/listener.js';
import { LOG_INTERVAL_MS } from '../../src/logThrottle.js';
import { MALFORMED_LINES, rawRequest } from './helpers/rawHttp.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

let listener: HttpListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

async function start() {
  const lines: any[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  let now = 1_000_000;
  listener = await startHttpListener(0, {
    log,
    now: () => now,
    routes: [{ path: '/healthz', method: 'GET', handler: (_req, res) => void res.end('ok') }],
  });
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${listener!.port}${path}`);
    return { status: res.status, text: await res.text() };
  };
  return { listener, lines, get, advance: (ms: number) => (now += ms) };
}

describe('requestPath', () => {
  it.each([
    ['/search?q=a', '/search'],
    ['*', '/*'],
    ['http://example.com/slack/events?x', '/slack/events'],
    ['http://a:99999/', undefined],
    ['http://999.999.999.999/', undefined],
    ['http://[::1/', undefined],
    ['ws://a:70000/x', undefined],
  ])('%s → %s', (url, path) => expect(requestPath(url)).toBe(path));
});

describe('the listener', () => {
  it('serves its routes, and what is mounted until it is unmounted', async () => {
    const l = await start();
    expect(await l.get('/healthz')).toEqual({ status: 200, text: 'ok' });
    expect((await l.get('/slack/events')).status).toBe(404);
    const unmount = l.listener.mount(['/slack/events'], (_req, res) => void res.end('first'));
    expect(() => l.listener.mount(['/slack/events'], (_req, res) => void res.end('twice'))).toThrow('listener: /slack/events is mounted already');
    expect(await l.get('/slack/events')).toEqual({ status: 200, text: 'first' });
    unmount();
    expect((await l.get('/slack/events')).status).toBe(404);
  });

  it('answers 400 to a request line whose address cannot be read, logging one line a minute with the count left out', async () => {
    const l = await start();
    for (const line of MALFORMED_LINES) {
      const answer = await rawRequest(l.listener.port, line);
      expect(answer.status, line).toBe(400);
      expect(answer.body).toBe('Bad request: the address in the request line cannot be read.\n');
    }
    expect(l.lines.map((x) => [x.level, x.msg, x.url, x.suppressed])).toEqual([[40, 'refused a request whose address cannot be read (400)', 'http://a:99999/', undefined]]);
    l.advance(LOG_INTERVAL_MS);
    await rawRequest(l.listener.port, `GET http://a:99999/${'x'.repeat(500)} HTTP/1.1`);
    expect(l.lines).toHaveLength(2);
    expect(l.lines[1]).toMatchObject({ level: 40, suppressed: 3, url: `http://a:99999/${'x'.repeat(80 - 15)}…` });
    expect(await l.get('/healthz')).toEqual({ status: 200, text: 'ok' });
  });

  it('answers 500 when a handler throws, and carries on', async () => {
    const l = await start();
    l.listener.mount(['/boom'], () => {
      throw new Error('a bug in a handler');
    });
    expect((await l.get('/boom')).status).toBe(500);
    expect(l.lines).toEqual([expect.objectContaining({ level: 50, msg: 'a request handler failed; the listener carries on', path: '/boom' })]);
    expect(await l.get('/healthz')).toEqual({ status: 200, text: 'ok' });
  });
});
