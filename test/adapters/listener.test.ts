/**
 * The process's one listener on its own (no site, no adapter): routes by path and method,
 * mounted handlers swapped in and out, and a handler that throws answered 500 while the listener
 * carries on.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { requestPath, startHttpListener, type HttpListener } from '../../adapters/listener.js';

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
