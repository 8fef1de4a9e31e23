/**
 * Slack's redeliveries of events through Bolt's HTTP receiver, signed as Slack signs them: each
 * event is answered exactly once whatever the retry reason (or none), link_shared included,
 * after a restart, and with two instances on one DATA_DIR. A redelivery of an event that never
 * arrived the first time is answered.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { Json } from './fakeSlack.js';
import { fixture, startHarness, type SignOptions, type SlackHarness } from './harness.js';

/** Slack's documented retry reasons. */
const REASONS = ['http_timeout', 'http_error', 'connection_failed', 'unknown_error', 'ssl_error', 'too_many_redirects'];

let serial = 0;
/** A mention with its own event id and message ts. */
function mention(): Json {
  const body = fixture('app-mention');
  const n = ++serial;
  const ts = `1760001000.${String(n).padStart(6, '0')}`;
  return { ...body, event_id: `Ev0RETRY${String(n).padStart(4, '0')}`, event: { ...(body.event as Json), text: '<@U0BOT> attention', ts, event_ts: ts } };
}

function retry(num: number, reason?: string): SignOptions {
  return { headers: { 'x-slack-retry-num': String(num), ...(reason && { 'x-slack-retry-reason': reason }) } };
}

/** chat.postMessage answers to the mention `body` seen by `h`'s fake so far. */
function answersTo(h: SlackHarness, body: Json): number {
  return h.fake.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === (body.event as Json).ts).length;
}

/**
 * Sends a fresh mention and waits for its answer: everything sent before it has been handled by
 * then (deliveries are acknowledged and handled in the order they arrive).
 */
async function settle(h: SlackHarness): Promise<void> {
  const sentinel = mention();
  await h.event(sentinel);
  await h.fake.until(() => answersTo(h, sentinel) === 1, 'the sentinel’s answer');
}

describe('one instance', () => {
  let app: TestApp;
  let h: SlackHarness;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    app = await createTestApp();
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    h = await startHarness({ ...app, log });
  });
  afterAll(async () => {
    await h.stop({ fake: true });
    await app.dispose();
  });

  it.each([...REASONS, 'no retry headers'])('answers a mention once when Slack redelivers it (%s)', async (label) => {
    const reason = REASONS.includes(label) ? label : undefined;
    const body = mention();
    expect((await h.event(body)).status).toBe(200);
    await h.fake.until(() => answersTo(h, body) === 1, 'the answer');
    for (const num of [1, 2, 3]) expect((await h.event(body, retry(num, reason))).status).toBe(200);
    if (reason === undefined) expect((await h.event(body)).status).toBe(200); // again, with no retry headers at all
    await settle(h);
    expect(answersTo(h, body)).toBe(1);
  });

  it('logs each dropped redelivery with its reason', () => {
    const dropped = lines.filter((l) => l.msg === 'Slack: dropped a redelivery of an event already taken');
    expect(dropped.length).toBe(REASONS.length * 3 + 4);
    expect(dropped.find((l) => l.retryReason === 'connection_failed')).toMatchObject({ level: 30, event: 'app_mention', retryNum: 1, eventId: expect.stringMatching(/^Ev0RETRY/) });
  });

  it('answers a redelivery whose first delivery never arrived, once', async () => {
    const body = mention();
    await h.event(body, retry(1, 'connection_failed'));
    await h.fake.until(() => answersTo(h, body) === 1, 'the answer');
    await h.event(body, retry(2, 'http_timeout'));
    await settle(h);
    expect(answersTo(h, body)).toBe(1);
  });

  it('unfurls a shared link once when Slack redelivers link_shared', async () => {
    const shared = { ...fixture('link-shared'), event_id: 'Ev0LINKRETRY1' };
    const before = h.fake.callsOf('chat.unfurl').length;
    await h.event(shared);
    await h.fake.waitForCall('chat.unfurl', before);
    await h.event(shared, retry(1, 'http_error'));
    await h.event(shared, retry(2, 'unknown_error'));
    await settle(h);
    expect(h.fake.callsOf('chat.unfurl').length).toBe(before + 1);
  });
});

describe('when the store of event ids fails', () => {
  it('answers the event anyway, and says so in the log', async () => {
    const app = await createTestApp();
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const h = await startHarness({ ...app, log, seenEvents: { firstSighting: () => Promise.reject(new Error('database is locked')) } });
    try {
      const body = mention();
      await h.event(body);
      await h.fake.until(() => answersTo(h, body) === 1, 'the answer');
      expect(lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('Slack: could not record an event id'))).toMatchObject({ level: 40, eventId: body.event_id });
    } finally {
      await h.stop({ fake: true });
      await app.dispose();
    }
  });
});

describe('across processes on one DATA_DIR', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps.slice(1)) await app.close();
    await apps[0]?.dispose();
  });

  it('drops a redelivery that reaches the bot after a restart', async () => {
    const before = await createTestApp();
    apps.push(before);
    const first = await startHarness(before);
    const body = mention();
    await first.event(body);
    await first.fake.until(() => answersTo(first, body) === 1, 'the answer');
    await first.stop();

    const after = await createTestApp({ dataDir: before.dataDir, empty: true });
    apps.push(after);
    const second = await startHarness(after, first.fake);
    try {
      await second.event(body, retry(1, 'connection_failed'));
      await settle(second);
      expect(answersTo(second, body)).toBe(1);
    } finally {
      await second.stop();
    }
  });

  it('answers once when the first delivery reaches one instance and the redelivery another', async () => {
    const a = await createTestApp({ dataDir: apps[0]!.dataDir, empty: true });
    const b = await createTestApp({ dataDir: apps[0]!.dataDir, empty: true });
    apps.push(a, b);
    const ha = await startHarness(a);
    const hb = await startHarness(b, ha.fake);
    try {
      const body = mention();
      await ha.event(body);
      await ha.fake.until(() => answersTo(ha, body) === 1, 'the answer');
      await hb.event(body, retry(1, 'http_timeout'));
      await settle(hb);
      expect(answersTo(hb, body)).toBe(1);
    } finally {
      await hb.stop();
      await ha.stop({ fake: true });
    }
  });
});
