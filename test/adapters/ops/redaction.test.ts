/**
 * Secrets in logs: tokens, the signing secret, Socket Mode ticket URLs and interaction tokens
 * never reach a log line, whether they travel in fields, in messages, in error messages or
 * through Bolt's logger; and Socket Mode logs its connection states.
 */
import { once } from 'node:events';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer } from 'ws';
import { startSlack } from '../../../adapters/slack/index.js';
import { boltLogger } from '../../../adapters/slack/logger.js';
import { secretValues } from '../../../src/config.js';
import { REDACTED, createLogger, scrubSecrets } from '../../../src/logger.js';
import { createTestApp } from '../../helpers/app.js';
import { APP_TOKEN, BOT_TOKEN, FakeSlack } from '../slack/fakeSlack.js';

const SIGNING_SECRET = 'f00dfacecafe1234abcd5678deadbeef';
const DISCORD_TOKEN = 'MTE5MDAwMDAwMDAwMDAwMDAwMQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB';
const TICKET_URL = 'wss://wss-primary.slack.com/link/?ticket=8f1c2d3e-aaaa-bbbb-cccc-0123456789ab&app_id=A0PAPERSCOUT';

/** A logger as `npm start` creates it, writing into an array. */
function capture(format: 'json' | 'pretty', level: 'debug' | 'info' = 'debug') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const log = createLogger(
    { logLevel: level, logFormat: format, secrets: secretValues({ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET, DISCORD_TOKEN }) },
    stream as unknown as NodeJS.WriteStream,
  );
  return { log, lines, text: () => lines.join('\n') };
}

const SECRETS = [BOT_TOKEN, APP_TOKEN, SIGNING_SECRET, DISCORD_TOKEN, '8f1c2d3e-aaaa-bbbb-cccc-0123456789ab', 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5'];

function leakEverything(log: ReturnType<typeof capture>['log']): void {
  log.info({ token: BOT_TOKEN, config: { slack: { signingSecret: SIGNING_SECRET, appToken: APP_TOKEN } } }, 'starting');
  log.debug({ headers: { authorization: `Bearer ${BOT_TOKEN}` } }, 'http request');
  log.error({ err: new Error(`WebSocket error: could not connect to ${TICKET_URL}`) }, 'Socket Mode failed');
  log.warn(`DiscordAPIError[10062]: Unknown interaction at POST http://127.0.0.1/api/v10/interactions/1190000000000000001/aW50ZXJhY3Rpb246MTIzNDU2Nzg5/callback`);
  log.info(`login with ${DISCORD_TOKEN} (Bot ${DISCORD_TOKEN})`);
  log.info({ response_url: 'https://hooks.slack.com/commands/T0LAB/123/abc' }, 'command');
}

describe('log lines', () => {
  it.each(['json', 'pretty'] as const)('carry no secret in %s, wherever it was', (format) => {
    const out = capture(format);
    leakEverything(out.log);
    for (const secret of SECRETS) expect(out.text()).not.toContain(secret);
    expect(out.text()).not.toContain('hooks.slack.com/commands/T0LAB');
    expect(out.text()).toContain(REDACTED);
    // What is not secret stays readable.
    expect(out.text()).toContain('app_id=A0PAPERSCOUT');
    expect(out.text()).toContain('Unknown interaction');
  });

  it('scrub secrets by shape in any text', () => {
    expect(scrubSecrets(`GET ${TICKET_URL}`)).toBe(`GET wss://wss-primary.slack.com/link/?ticket=${REDACTED}&app_id=A0PAPERSCOUT`);
    expect(scrubSecrets('token xoxb-1234-5678-abcdEFGH and xapp-1-A0-99-ff')).toBe(`token xox…-${REDACTED} and xapp-${REDACTED}`);
    expect(scrubSecrets('Authorization: Bot abc.def.ghijklmnop')).toBe(`Authorization: Bot ${REDACTED}`);
    expect(scrubSecrets('a custom s3cr3t-value here', ['s3cr3t-value'])).toBe(`a custom ${REDACTED} here`);
  });

  it("carry no secret through Bolt's logger either", () => {
    const out = capture('json');
    const bolt = boltLogger(out.log);
    bolt.debug('Received a message on the WebSocket:', { url: TICKET_URL, token: BOT_TOKEN });
    bolt.error(new Error(`Failed to retrieve a new WSS URL (error: fetch ${TICKET_URL} with ${APP_TOKEN})`));
    for (const secret of SECRETS) expect(out.text()).not.toContain(secret);
    expect(out.lines).toHaveLength(2);
  });
});

describe('Socket Mode', () => {
  const closers: Array<() => unknown> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('logs its connection states, reconnects by itself after a drop, and never logs the ticket', async () => {
    const app = await createTestApp();
    closers.push(() => app.dispose());
    const fake = await FakeSlack.start();
    closers.push(() => fake.close());
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(wss, 'listening');
    closers.push(() => {
      for (const c of wss.clients) c.terminate();
      wss.close();
    });
    let tickets = 0;
    fake.answer('apps.connections.open', () => ({ ok: true, url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/link/?ticket=8f1c2d3e-aaaa-bbbb-cccc-0123456789ab&n=${++tickets}` }));
    wss.on('connection', (ws) => ws.send(JSON.stringify({ type: 'hello', num_connections: 1, debug_info: { host: 'fake' }, connection_info: { app_id: 'A0PAPERSCOUT' } })));
    const out = capture('json');
    const slack = await startSlack({ ...app, log: out.log }, { botToken: BOT_TOKEN, appToken: APP_TOKEN, apiUrl: fake.apiUrl, port: 0 });
    closers.push(() => slack.stop());
    const states = () => out.lines.map((l) => JSON.parse(l) as { msg: string; state?: string }).flatMap((l) => (l.state ? [l.state] : []));
    expect(states()).toEqual(['connecting', 'connected']);
    expect(slack.state?.()).toBe('connected');

    // Slack drops the connection (as it does for refreshes): the client reconnects by itself.
    for (const c of wss.clients) c.terminate();
    await vi.waitFor(() => expect(states().slice(2)).toContain('reconnecting'), { timeout: 15_000 });
    await vi.waitFor(() => expect(states().at(-1)).toBe('connected'), { timeout: 15_000 });
    expect(slack.state?.()).toBe('connected');
    expect(tickets).toBe(2);
    for (const secret of SECRETS) expect(out.text()).not.toContain(secret);
  });
});
