/**
 * What reaches Bolt on /slack/events: requests signed as Slack signs them, checked against an
 * injected clock far from the machine's (so no check on the real time can pass for it), for
 * commands, interactions and events alike: at most five minutes either side of now, whole
 * seconds only; a body Bolt cannot read is refused with 400 instead of reaching it; the rules as
 * pure functions, table-driven and against arbitrary input.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { parse as parseQuery } from 'node:querystring';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, MAX_SKEW_SECONDS, readSlackBody, signatureProblem } from '../../../adapters/slack/verify.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { rawRequest } from '../helpers/rawHttp.js';
import type { Json } from './fakeSlack.js';
import { SIGNING_SECRET, button, clickPayload, fixture, send, startHarness, type SignOptions, type SlackHarness } from './harness.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

const FORM = 'application/x-www-form-urlencoded';
/** The adapter's clock: years from the machine's. */
const NOW_MS = Date.parse('2031-06-01T12:00:00Z');
const NOW = NOW_MS / 1000;

let app: TestApp;
let h: SlackHarness;
/** A results message's Next button, to click. */
let next: Json;
const logs: any[] = [];
beforeAll(async () => {
  app = await createTestApp();
  const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  h = await startHarness({ ...app, log }, undefined, { clock: { now: () => new Date(NOW_MS) } });
  const results = await h.command('/paper', 'learning', {}, { timestamp: NOW });
  next = button((await h.fake.waitForPosts(results.responseUrl))[0]!, 'Next ▶');
});
afterAll(async () => {
  await h.stop({ fake: true });
  await app.dispose();
});

/** A command, a click and an event, each signed with `sign`: their HTTP statuses, and what answered the command and the click. */
async function everyKind(sign: SignOptions) {
  const command = await h.command('/help', '', {}, sign);
  const click = await h.action(clickPayload(next), sign);
  const mention = fixture('app-mention');
  const event = await h.event({ ...mention, event_id: `Ev${randomUUID()}` }, sign);
  return { statuses: [command.status, click.status, event.status], responseUrls: [command.responseUrl, click.responseUrl] };
}

describe('the age of a request, by the adapter’s clock', () => {
  it.each([
    ['now', NOW],
    [`${MAX_SKEW_SECONDS - 1} s ago`, NOW - MAX_SKEW_SECONDS + 1],
    [`${MAX_SKEW_SECONDS - 1} s ahead`, NOW + MAX_SKEW_SECONDS - 1],
  ])('takes a request stamped %s', async (_, timestamp) => {
    const mentions = h.fake.callsOf('chat.postMessage').length;
    const { statuses, responseUrls } = await everyKind({ timestamp });
    expect(statuses).toEqual([200, 200, 200]);
    for (const url of responseUrls) await h.fake.waitForPosts(url);
    await h.fake.waitForCall('chat.postMessage', mentions);
  });

  it.each([
    [`${MAX_SKEW_SECONDS + 1} s ago`, NOW - MAX_SKEW_SECONDS - 1],
    [`${MAX_SKEW_SECONDS + 1} s ahead`, NOW + MAX_SKEW_SECONDS + 1],
    ['an hour ahead', NOW + 3600],
    ['at the machine’s time', Math.floor(Date.now() / 1000)],
    ['with a fraction', `${NOW}.5`],
    ['with a sign', `+${NOW}`],
    ['as an exponent', `${NOW / 1e9}e9`],
    ['padded with spaces', ` ${NOW}`],
    ['in hexadecimal', `0x${NOW.toString(16)}`],
    ['empty', ''],
  ])('refuses one stamped %s with 401, and runs nothing', async (_, timestamp) => {
    const { statuses, responseUrls } = await everyKind({ timestamp });
    expect(statuses).toEqual([401, 401, 401]);
    // A request sent after them is answered; nothing of theirs was.
    const mentions = h.fake.callsOf('chat.postMessage').length;
    const { responseUrls: after } = await everyKind({ timestamp: NOW });
    for (const url of after) await h.fake.waitForPosts(url);
    await h.fake.waitForCall('chat.postMessage', mentions);
    expect(h.fake.callsOf('chat.postMessage').length).toBe(mentions + 1);
    for (const url of responseUrls) expect(h.fake.postsTo(url)).toEqual([]);
  });
});

describe('bodies Bolt cannot read', () => {
  const signed = (body: string, type: string) => send(h.url, body, type, { timestamp: NOW });
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

  /** A payload as Slack sends it for `type`, with `change` made to it (a key set to undefined is left out). */
  const interaction = (type: string, change: Json): Json => {
    const base: Json = { type, team: { id: 'T0LAB', domain: 'lab' }, user: { id: 'U0ALICE', team_id: 'T0LAB' }, api_app_id: 'A0PAPERSCOUT', trigger_id: '1.2.3' };
    const kinds: Record<string, Json> = {
      view_submission: { view: { id: 'V1', callback_id: 'x', state: { values: {} } } },
      shortcut: { callback_id: 'x' },
      message_action: { callback_id: 'x', channel: { id: 'C0GENERAL' }, message: { ts: '1.2', text: 'x' } },
      block_suggestion: { action_id: 'a', block_id: 'b', value: 'x', channel: { id: 'C0GENERAL' } },
    };
    return JSON.parse(JSON.stringify({ ...base, ...kinds[type], ...change })) as Json;
  };
  const mention = (change: Json): Json => {
    const event = fixture<Json>('app-mention');
    return { ...event, event_id: `Ev${randomUUID()}`, event: JSON.parse(JSON.stringify({ ...event.event, ...change })) as Json };
  };
  it.each([
    ['a click from a team but no user', () => ({ kind: 'action', body: { ...clickPayload(next), user: undefined } })],
    ['a click whose channel is null', () => ({ kind: 'action', body: { ...clickPayload(next), channel: null } })],
    ['a view submission from no user', () => ({ kind: 'action', body: interaction('view_submission', { user: undefined }) })],
    ['a shortcut from no user', () => ({ kind: 'action', body: interaction('shortcut', { user: undefined }) })],
    ['a message action whose channel is null', () => ({ kind: 'action', body: interaction('message_action', { channel: null }) })],
    ['an options request whose channel is null', () => ({ kind: 'action', body: interaction('block_suggestion', { channel: null }) })],
    ['a mention whose user is null', () => ({ kind: 'event', body: mention({ user: null }) })],
    ['a mention whose channel is null', () => ({ kind: 'event', body: mention({ channel: null }) })],
    ['a mention with neither user nor channel, whose channel is a number', () => ({ kind: 'event', body: mention({ user: undefined, channel: 7 }) })],
    ['an event whose subteam is null', () => ({ kind: 'event', body: { ...mention({}), event: { type: 'subteam_created', subteam: null, event_ts: '1.2' } } })],
  ] as Array<[string, () => { kind: 'action' | 'event'; body: Json }]>)('refuses %s, correctly signed, with 400 before Bolt reads it', async (_, make) => {
    const before = logs.length;
    const { kind, body } = make();
    const res = kind === 'action' ? await h.action(body, { timestamp: NOW }) : await h.event(body, { timestamp: NOW });
    expect(res.status).toBe(400);
    expect(logs.slice(before).filter((l) => l.level >= 50)).toEqual([]);
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
    expect((await h.command('/help', '', {}, { timestamp: NOW })).status).toBe(200);
  });

  it('answers anything but POST on /slack/events with 405', async () => {
    const res = await fetch(h.url);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('logs refusals at warn, one line a minute for each kind (its clock stands still here)', async () => {
    for (let i = 0; i < 20; i++) {
      await send(h.url, 'null', 'application/json', { timestamp: NOW + 3600 });
      await send(h.url, 'null', 'application/json', { timestamp: NOW });
    }
    const refusals = logs.filter((l) => /^Slack: refused/.test(l.msg));
    expect(refusals.map((l) => [l.level, l.msg])).toEqual(
      expect.arrayContaining([
        [40, 'Slack: refused a request that is not signed as Slack signs them (401)'],
        [40, 'Slack: refused a signed request whose body cannot be read (400)'],
      ]),
    );
    expect(new Set(refusals.map((l) => l.msg)).size).toBe(refusals.length);
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('signatureProblem', () => {
  const body = Buffer.from('token=x&command=%2Fpaper&text=a%20%C3%A9');
  const sign = (timestamp: string, text: Buffer = body, secret = SIGNING_SECRET) => `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(text).digest('hex')}`;
  const check = (timestamp: unknown, signature: unknown, secret = SIGNING_SECRET) => signatureProblem({ secret, timestamp, signature, body, nowMs: NOW_MS });
  const ts = String(NOW);

  it.each([
    ['Slack’s', ts, sign(ts), undefined],
    ['five minutes old', String(NOW - 300), sign(String(NOW - 300)), undefined],
    ['five minutes ahead', String(NOW + 300), sign(String(NOW + 300)), undefined],
    ['older', String(NOW - 301), sign(String(NOW - 301)), 'the request is more than five minutes old'],
    ['further ahead', String(NOW + 301), sign(String(NOW + 301)), 'the request is stamped more than five minutes ahead'],
    ['fractional', `${ts}.0`, sign(`${ts}.0`), 'X-Slack-Request-Timestamp is not whole seconds'],
    ['a number, not a header', NOW, sign(ts), 'X-Slack-Request-Timestamp or X-Slack-Signature is missing'],
    ['repeated headers', [ts, ts], sign(ts), 'X-Slack-Request-Timestamp or X-Slack-Signature is missing'],
    ['absent', undefined, sign(ts), 'X-Slack-Request-Timestamp or X-Slack-Signature is missing'],
    ['another version', ts, sign(ts).replace('v0=', 'v1='), 'X-Slack-Signature is not a v0 signature'],
    ['uppercase hex', ts, sign(ts).toUpperCase().replace('V0=', 'v0='), 'X-Slack-Signature is not a v0 signature'],
    ['cut short', ts, sign(ts).slice(0, -2), 'X-Slack-Signature is not a v0 signature'],
    ['another secret', ts, sign(ts, body, 'another-secret'), 'the signature does not match'],
    ['another body', ts, sign(ts, Buffer.from('token=x&command=%2Fpaper&text=b')), 'the signature does not match'],
  ])('%s', (_, timestamp, signature, problem) => expect(check(timestamp, signature)).toBe(problem));

  it('refuses everything without a signing secret (anyone can sign with an empty key)', () => {
    expect(check(ts, sign(ts, body, ''), '')).toBe('no signing secret is configured');
  });
});

describe('readSlackBody', () => {
  it.each([
    ['an event', '{"type":"event_callback","event":{"type":"app_mention"}}', 'application/json', 'request'],
    ['url_verification', '{"type":"url_verification","challenge":"c"}', 'application/json', 'request'],
    ['a command', 'command=%2Fpaper&text=a', FORM, 'request'],
    ['an interaction', `payload=${encodeURIComponent('{"type":"block_actions","actions":[{"action_id":"a"}],"user":{"id":"U1"}}')}`, FORM, 'request'],
    ['a click without actions', `payload=${encodeURIComponent('{"type":"block_actions","user":{"id":"U1"}}')}`, FORM, 'refused'],
    ['a click with actions null', `payload=${encodeURIComponent('{"type":"block_actions","actions":null,"user":{"id":"U1"}}')}`, FORM, 'refused'],
    ['a click with no action', `payload=${encodeURIComponent('{"type":"block_actions","actions":[],"user":{"id":"U1"}}')}`, FORM, 'refused'],
    ['a click whose action is null', `payload=${encodeURIComponent('{"type":"block_actions","actions":[null],"user":{"id":"U1"}}')}`, FORM, 'refused'],
    ['a click from no user or team', `payload=${encodeURIComponent('{"type":"block_actions","actions":[{}],"user":null}')}`, FORM, 'refused'],
    ['a view submission without its view', `payload=${encodeURIComponent('{"type":"view_submission","view":null,"user":{"id":"U1"}}')}`, FORM, 'refused'],
    ['an event that is a string', '{"type":"event_callback","event":"x"}', 'application/json', 'refused'],
    ['an event whose item is a string', '{"type":"event_callback","event":{"type":"reaction_added","item":"x"}}', 'application/json', 'refused'],
    ['authorizations holding null', '{"type":"event_callback","event":{"type":"app_mention"},"authorizations":[null]}', 'application/json', 'refused'],
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
