/**
 * The service's one HTTP listener outlives its adapters: Slack in HTTP mode is a handler mounted
 * on it, so a Slack request that breaks Bolt, a crash attributed to the Slack adapter, a restart
 * that fails and a platform whose client dies leave /healthz, the site and /slack/events
 * answering. Requests are signed as Slack signs them, at the service's (manual) clock. A request
 * line whose address cannot be read gets the site's 400, logged once at warn.
 */
import { EventEmitter } from 'node:events';
import { HTTPReceiver } from '@slack/bolt';
import pino, { type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { containAdapterFailures } from '../../../adapters/ops/containment.js';
import { createMetrics } from '../../../adapters/ops/metrics.js';
import { startService, type Service } from '../../../adapters/ops/service.js';
import { CONTENT_SECURITY_POLICY } from '../../../adapters/web/site.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FakeDiscord } from '../discord/fakeDiscord.js';
import { messageOf } from '../discord/harness.js';
import { slashCommand as discordCommand } from '../discord/payloads.js';
import { BOT_TOKEN, FakeSlack } from '../slack/fakeSlack.js';
import { MALFORMED_LINES, rawRequest } from '../helpers/rawHttp.js';
import { SIGNING_SECRET, fixture, send, textOf } from '../slack/harness.js';
import { ManualClock } from './helpers/manualClock.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

const FORM = 'application/x-www-form-urlencoded';

let slack: FakeSlack;
let discord: FakeDiscord;
let app: TestApp;
let service: Service;
let clock: ManualClock;
const logs: any[] = [];
/** What the process's uncaughtException and unhandledRejection would be (main.ts wires them the same way). */
const processEvents = new EventEmitter();
const unknownErrors: unknown[] = [];

beforeAll(async () => {
  slack = await FakeSlack.start();
  discord = await FakeDiscord.start();
  const metrics = createMetrics();
  app = await createTestApp({ observer: metrics.observer });
  const log: Logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  // Starts at the real time: every signature below is made at the clock's instant.
  clock = new ManualClock(new Date().toISOString());
  service = await startService({ ...app, log, context: (p, u, e) => app.context(p, u, { ...e, log }) }, metrics, {
    port: 0,
    clock,
    slack: { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: slack.apiUrl, port: 0 },
    discord: { token: discord.token, apiUrl: discord.apiUrl },
  });
  containAdapterFailures({ log, onAdapterCrash: (name, err) => service.supervisor.crashed(name, err), onUnknown: (err) => unknownErrors.push(err) }, processEvents as unknown as NodeJS.Process);
  await vi.waitFor(() => expect(service.supervisor.allConnected).toBe(true), { timeout: 10_000 });
}, 30_000);

afterAll(async () => {
  await service?.shutdown('test over');
  await app?.dispose();
  await slack?.close();
  await discord?.close();
});

const origin = () => `http://127.0.0.1:${service.port}`;
const events = () => `${origin()}/slack/events`;
const sign = () => ({ timestamp: Math.floor(clock.now().getTime() / 1000) });
const stateOf = (adapter: string) => service.snapshot().adapters[adapter];

/** A signed /paper; its answer goes to the returned response_url. */
async function paper(text: string) {
  const responseUrl = slack.responseUrl();
  const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), command: '/paper', text, response_url: responseUrl });
  return { ...(await send(events(), body.toString(), FORM, sign())), responseUrl };
}

/** Health, the site and Slack's route all answer on the one port; Slack as `slackStatus` says. */
async function expectListenerAnswers(slackStatus: 200 | 503): Promise<void> {
  const health = await fetch(`${origin()}/healthz`);
  expect(health.status).toBe(200);
  const site = await fetch(`${origin()}/search?q=attention`);
  expect(site.status).toBe(200);
  expect(await site.text()).toContain('Attention Is All You Need');
  const command = await paper('attention');
  expect(command.status).toBe(slackStatus);
  if (slackStatus === 200) {
    const [post] = await slack.waitForPosts(command.responseUrl);
    expect(textOf(post!)).toContain('Attention Is All You Need');
  } else {
    expect(command.body).toMatch(/connecting to Slack/);
  }
}

/** An error thrown by Bolt's own code, as containment sees one escape. */
function boltError(): Error {
  try {
    new HTTPReceiver({ signingSecret: '' });
  } catch (err) {
    return err as Error;
  }
  throw new Error('Bolt did not throw');
}

describe('a Slack request Bolt cannot read', () => {
  it.each([
    ['JSON null', 'null', 'application/json'],
    ['a form whose payload is null', 'payload=null', FORM],
  ])('%s, correctly signed, gets 400 and takes nothing down', async (_, body, type) => {
    const res = await send(events(), body, type, sign());
    expect(res.status).toBe(400);
    expect(stateOf('slack')).toMatchObject({ state: 'connected', restarts: 0 });
    await expectListenerAnswers(200);
  });
});

describe('the listener, after each way the supervisor sees an adapter fail', () => {
  it('answers after a crash attributed to the Slack adapter, and Slack answers again once restarted', async () => {
    const restarts = stateOf('slack')!.restarts;
    processEvents.emit('unhandledRejection', boltError());
    await vi.waitFor(() => expect(stateOf('slack')).toMatchObject({ state: 'waiting', restarts: restarts + 1 }));
    await expectListenerAnswers(503);
    clock.advance(60_000);
    await vi.waitFor(() => expect(stateOf('slack')?.state).toBe('connected'));
    await expectListenerAnswers(200);
    expect(unknownErrors).toEqual([]);
  });

  it('answers while a restart of the Slack adapter fails, and after it succeeds', async () => {
    let failing = true;
    slack.fail('auth.test', 'fatal_error', () => failing);
    const failures = stateOf('slack')!.failures;
    processEvents.emit('uncaughtException', boltError());
    await vi.waitFor(() => expect(stateOf('slack')?.state).toBe('waiting'));
    clock.advance(60_000);
    await vi.waitFor(() => expect(stateOf('slack')).toMatchObject({ state: 'waiting', failures: failures + 1, lastError: expect.stringMatching(/fatal_error/) }));
    await expectListenerAnswers(503);
    failing = false;
    clock.advance(60_000);
    await vi.waitFor(() => expect(stateOf('slack')?.state).toBe('connected'));
    await expectListenerAnswers(200);
  });

  it('answers when another platform’s client dies (its `down` resolves) and is restarted', async () => {
    const restarts = stateOf('discord')!.restarts;
    discord.closeSessions(4004);
    await vi.waitFor(() => expect(stateOf('discord')).toMatchObject({ state: 'waiting', restarts: restarts + 1 }));
    await expectListenerAnswers(200);
    clock.advance(60_000);
    await vi.waitFor(() => expect(stateOf('discord')?.state).toBe('connected'), { timeout: 10_000 });
    const reply = await discord.interact(discordCommand(discord, 'paper', { query: 'attention' }));
    expect(messageOf(reply).content).toMatch(/Papers for “attention”/);
    await expectListenerAnswers(200);
  });
});

describe('a request line whose address cannot be read', () => {
  it('gets the site’s own 400, with its headers, logged once at warn with the address escaped and cut', async () => {
    const before = logs.length;
    const long = `GET http://a:99999/${'x'.repeat(500)} HTTP/1.1`;
    for (const line of [...MALFORMED_LINES, long]) {
      const answer = await rawRequest(service.port, line);
      expect(answer.status, line).toBe(400);
      expect(answer.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.body).toBe('The address of this request cannot be read. Check the link, or start again from the home page.\n');
    }
    // Slack's route is no different: the address is read before anything is routed.
    expect((await rawRequest(service.port, 'POST http://a:99999/slack/events HTTP/1.1', { 'content-length': '0' })).status).toBe(400);
    const lines = logs.slice(before);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    const refused = lines.filter((l) => /cannot be read/.test(l.msg));
    expect(refused).toEqual([expect.objectContaining({ level: 40, method: 'GET', url: 'http://a:99999/' })]);
    await expectListenerAnswers(200);
  });
});
