/**
 * What reaches Bolt on /slack/events: a signed body Bolt cannot read is refused with 400 instead
 * of reaching it, one over the limit with 413; the rule as a pure function, table-driven and
 * against arbitrary input.
 */
import { parse as parseQuery } from 'node:querystring';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, readSlackBody } from '../../../adapters/slack/verify.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { rawRequest } from '../helpers/rawHttp.js';
import { send, startHarness, type SlackHarness } from './harness.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

const FORM = 'application/x-www-form-urlencoded';
let app: TestApp;
let h: SlackHarness;
const logs: any[] = [];
beforeAll(async () => {
  app = await createTestApp();
  const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  h = await startHarness({ ...app, log });
});
afterAll(async () => {
  await h.stop({ fake: true });
  await app.dispose();
});

describe('bodies Bolt cannot read', () => {
  const signed = (body: string, type: string) => send(h.url, body, type);
  it.each([
    ['JSON null', 'null', 'application/json'],
    ['a JSON array', '[{"type":"event_callback"}]', 'application/json'],
    ['a JSON string', '"event_callback"', 'application/json'],
    ['JSON without a type', '{"event":{}}', 'application/json'],
    ['JSON whose type is not a string', '{"type":null}', 'application/json'],
    ['JSON inherited a type', '{"__proto__":{"type":"event_callback"}}', 'application/json'],
    ['not JSON', '{', 'application/json'],
    ['an empty body', '', 'application/json'],
    ['a payload of null', 'payload=null', FORM],
    ['a payload that is not JSON', 'payload=%7B', FORM],
    ['a payload given twice', `payload=${encodeURIComponent('{"type":"block_actions"}')}&payload=x`, FORM],
    ['a command given twice', 'command=%2Fhelp&command=%2Fpaper&text=', FORM],
    ['a form that is neither', 'text=hello', FORM],
  ])('refuses %s, correctly signed, with 400', async (_, body, type) => {
    const res = await signed(body, type);
    expect(res.status).toBe(400);
  });

  it('answers Slack’s SSL check without a signature, as Bolt did', async () => {
    const res = await fetch(h.url, { method: 'POST', headers: { 'content-type': FORM }, body: 'ssl_check=1&token=x' });
    expect(res.status).toBe(200);
  });

  it('refuses a body over the limit with 413, before reading it when its length says so', async () => {
    const port = Number(new URL(h.url).port);
    const declared = await rawRequest(port, 'POST /slack/events HTTP/1.1', { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 1) });
    expect(declared.status).toBe(413);
    const chunked = await rawRequest(port, 'POST /slack/events HTTP/1.1', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [Buffer.alloc(MAX_BODY_BYTES, 'x'), Buffer.from('x')]);
    expect(chunked.status).toBe(413);
    expect((await h.command('/help', '', {})).status).toBe(200);
  });

  it('answers anything but POST on /slack/events with 405', async () => {
    const res = await fetch(h.url);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('logs refusals at warn, one line a minute for each kind', async () => {
    for (let i = 0; i < 20; i++) await send(h.url, 'null', 'application/json');
    const refusals = logs.filter((l) => /^Slack: refused/.test(l.msg));
    expect(refusals.map((l) => [l.level, l.msg])).toEqual(expect.arrayContaining([[40, 'Slack: refused a signed request whose body cannot be read (400)']]));
    expect(new Set(refusals.map((l) => l.msg)).size).toBe(refusals.length);
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('readSlackBody', () => {
  it.each([
    ['an event', '{"type":"event_callback","event":{}}', 'application/json', 'request'],
    ['url_verification', '{"type":"url_verification","challenge":"c"}', 'application/json', 'request'],
    ['a command', 'command=%2Fpaper&text=a', FORM, 'request'],
    ['an interaction', `payload=${encodeURIComponent('{"type":"block_actions","actions":[]}')}`, FORM, 'request'],
    ['the SSL check', 'ssl_check=1&token=t', FORM, 'ssl-check'],
    ['null', 'null', 'application/json', 'refused'],
    ['a form sent as JSON', 'command=%2Fpaper', 'application/json', 'refused'],
    ['JSON sent as a form', '{"type":"event_callback"}', FORM, 'refused'],
    ['an empty command', 'command=&text=a', FORM, 'refused'],
  ])('%s', (_, body, type, kind) => expect(readSlackBody(Buffer.from(body), type).kind).toBe(kind));

  it('never throws, and passes on only what Bolt reads as an object with a type or a command', () => {
    const bodies = fc.oneof(
      fc.string(),
      fc.json(),
      fc.jsonValue().map((v) => `payload=${encodeURIComponent(JSON.stringify(v))}`),
      fc.dictionary(fc.constantFrom('command', 'payload', 'ssl_check', 'text', '__proto__', 'constructor'), fc.string()).map((d) => new URLSearchParams(d).toString()),
      fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a).toString('latin1')),
    );
    fc.assert(
      fc.property(bodies, fc.constantFrom(FORM, 'application/json', undefined, 'text/plain'), (text, type) => {
        const read = readSlackBody(Buffer.from(text, 'utf8'), type);
        if (read.kind !== 'request') return;
        // What Bolt's parseHTTPRequestBody makes of it: an object whose fields it can read.
        const parsed: any = type === FORM ? parseQuery(text) : JSON.parse(text);
        const body = type === FORM && typeof parsed.payload === 'string' ? JSON.parse(parsed.payload) : parsed;
        expect(typeof body === 'object' && body !== null && !Array.isArray(body)).toBe(true);
        expect(typeof body.type === 'string' || typeof body.command === 'string').toBe(true);
      }),
      { numRuns: 2000, seed: 38 },
    );
  });
});
