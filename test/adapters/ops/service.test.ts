/**
 * The service as `npm start` assembles it, in process, with a manual clock for the supervisor's
 * backoff: health, readiness and metrics over HTTP on the service's listener (with Discord, and
 * beside Slack's /slack/events), platforms that refuse connections at start and come up later,
 * and tokens that are refused for good.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMetrics } from '../../../adapters/ops/metrics.js';
import { startService, type Service } from '../../../adapters/ops/service.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FakeDiscord } from '../discord/fakeDiscord.js';
import { messageOf } from '../discord/harness.js';
import { slashCommand as discordCommand } from '../discord/payloads.js';
import { BOT_TOKEN, FakeSlack } from '../slack/fakeSlack.js';
import { SIGNING_SECRET, fixture, send, textOf } from '../slack/harness.js';
import { LateProxy } from './helpers/lateProxy.js';
import { ManualClock } from './helpers/manualClock.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Running {
  service: Service;
  app: TestApp;
  clock: ManualClock;
  logs: any[];
  get(path: string): Promise<{ status: number; type: string | null; text: string }>;
}

async function run(platforms: Parameters<typeof startService>[2]): Promise<Running> {
  const metrics = createMetrics();
  const app = await createTestApp({ observer: metrics.observer });
  const logs: any[] = [];
  const log: Logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const clock = new ManualClock();
  const service = await startService({ ...app, log, context: (p, u, e) => app.context(p, u, { ...e, log }) }, metrics, { port: 0, clock, ...platforms });
  cleanups.push(() => app.dispose());
  cleanups.push(() => service.shutdown('test over'));
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${service.port}${path}`);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  return { service, app, clock, logs, get };
}

const stateOf = (r: Running, adapter: string) => r.service.snapshot().adapters[adapter]?.state;

describe('with Discord only', () => {
  it('says not ready while Discord is unreachable, then ready once it came up, with metrics of what it did', async () => {
    const discord = await FakeDiscord.start();
    cleanups.push(() => discord.close());
    const proxy = await LateProxy.reserve(); // refuses connections until it is up
    cleanups.push(() => proxy.close());
    const api = `http://127.0.0.1:${proxy.port}/api`;
    const r = await run({ discord: { token: discord.token, apiUrl: api } });

    await vi.waitFor(() => expect(stateOf(r, 'discord')).toBe('waiting'));
    const notReady = await r.get('/readyz');
    expect(notReady.status).toBe(503);
    expect(JSON.parse(notReady.text)).toEqual({ ready: false, reasons: [`discord is waiting: could not reach Discord at ${api} (connect ECONNREFUSED 127.0.0.1:${proxy.port}). Check the network and DISCORD_API_URL.`] });
    const degraded = JSON.parse((await r.get('/healthz')).text);
    expect(degraded).toMatchObject({ status: 'degraded', adapters: { discord: { state: 'waiting', failures: 1, retryAt: '2026-05-01T08:00:01.000Z' } } });
    expect(r.logs.find((l) => l.adapter === 'discord' && l.level === 40)?.msg).toBe(
      `discord: could not reach Discord at ${api} (connect ECONNREFUSED 127.0.0.1:${proxy.port}). Check the network and DISCORD_API_URL. Trying again in 1 s.`,
    );

    // Still down at the next try: the wait grows.
    r.clock.advance(1000);
    await vi.waitFor(() => expect(r.service.snapshot().adapters.discord).toMatchObject({ state: 'waiting', failures: 2 }));
    expect(r.clock.pending).toContain(2000);
    await proxy.up(Number(new URL(discord.apiUrl).port));
    r.clock.advance(2000);
    await vi.waitFor(() => expect(stateOf(r, 'discord')).toBe('connected'));

    expect(await r.get('/readyz')).toMatchObject({ status: 200, text: expect.stringContaining('"ready": true') });
    const health = JSON.parse((await r.get('/healthz')).text);
    expect(health).toMatchObject({
      status: 'ok',
      adapters: { discord: { state: 'connected', failures: 0, restarts: 0 } },
      library: { loaded: true, papers: r.app.library.size, indexGeneration: r.app.library.generation, storeGeneration: r.app.library.generation, demo: false },
      digests: { scheduler: 'on' },
      sync: { scheduled: true, lastSync: null, lastRun: null },
    });
    // The digest pass at start runs once the platforms are up (it polls every 250 ms): by now it
    // may or may not have, and if it has, it found nothing due.
    expect(health.digests.lastRun === null || health.digests.lastRun.summary.due === 0).toBe(true);
    expect(health.adapters.discord.lastError).toBeUndefined();

    const reply = await discord.interact(discordCommand(discord, 'paper', { query: 'attention' }));
    expect(messageOf(reply).content).toMatch(/Papers for “attention”/);
    await discord.interact(discordCommand(discord, 'nosuchcommand', {}));
    const metrics = await r.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.type).toMatch(/^text\/plain/);
    expect(metrics.text).toContain('paperscout_commands_total{platform="discord",command="paper",kind="command",outcome="ok"} 1');
    expect(metrics.text).toContain('paperscout_commands_total{platform="discord",command="unknown",kind="command",outcome="user_error"} 1');
    expect(metrics.text).toMatch(/paperscout_search_duration_seconds_count [1-9]/);
    expect(metrics.text).toContain(`paperscout_index_generation ${r.app.library.generation}`);
    expect(metrics.text).toContain(`paperscout_library_papers ${r.app.library.size}`);
    expect(metrics.text).toContain('paperscout_adapter_up{adapter="discord"} 1');
    expect(metrics.text).toMatch(/paperscout_process_cpu_user_seconds_total \d/);
    expect(metrics.text).toContain('paperscout_digest_posts_total');
    expect(metrics.text).toContain('paperscout_sync_records_total');
    // The search site answers every other path on the same server.
    const site = await r.get('/search?q=attention');
    expect(site).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(site.text).toContain('Attention Is All You Need');
    expect((await r.get('/nothing')).status).toBe(404);

    expect(await r.service.shutdown('test')).toBe(0);
    expect(discord.sessions).toBe(0);
  });
});

describe("beside Slack's /slack/events (HTTP mode)", () => {
  it('serves /healthz, /readyz and /metrics next to /slack/events, and refuses events until Slack is reachable', async () => {
    const slack = await FakeSlack.start();
    cleanups.push(() => slack.close());
    const proxy = await LateProxy.reserve();
    cleanups.push(() => proxy.close());
    const api = `http://127.0.0.1:${proxy.port}/api/`;
    const r = await run({ slack: { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: api, port: 0 } });
    const events = `http://127.0.0.1:${r.service.port}/slack/events`;
    const command = (text: string) => {
      const responseUrl = slack.responseUrl();
      const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), command: '/paper', text, response_url: responseUrl });
      // Stamped at the service's clock, which request stamps are checked against.
      const timestamp = Math.floor(r.clock.now().getTime() / 1000);
      return send(events, body.toString(), 'application/x-www-form-urlencoded', { timestamp }).then((res) => ({ ...res, responseUrl }));
    };

    // The Web API client retries a refused connection twice (about 3 s) before the start fails.
    await vi.waitFor(() => expect(stateOf(r, 'slack')).toBe('waiting'), { timeout: 15_000 });
    expect(r.service.snapshot().adapters.slack?.lastError).toMatch(new RegExp(`^could not reach Slack at ${api.replace(/[./]/g, '\\$&')} \\(.*ECONNREFUSED.*\\)\\. Check the network and SLACK_API_URL\\.$`));
    expect((await r.get('/readyz')).status).toBe(503);
    expect(JSON.parse((await r.get('/healthz')).text).adapters.slack.state).toBe('waiting');
    const early = await command('attention');
    expect(early.status).toBe(503);
    expect(early.body).toMatch(/connecting to Slack/);

    await proxy.up(Number(new URL(slack.origin).port));
    r.clock.advance(1000);
    await vi.waitFor(() => expect(stateOf(r, 'slack')).toBe('connected'));
    expect((await r.get('/readyz')).status).toBe(200);

    const answered = await command('attention');
    expect(answered.status).toBe(200);
    const [post] = await slack.waitForPosts(answered.responseUrl);
    expect(textOf(post!)).toContain('Attention Is All You Need');
    const metrics = await r.get('/metrics');
    expect(metrics.text).toContain('paperscout_commands_total{platform="slack",command="paper",kind="command",outcome="ok"} 1');
    expect(metrics.text).toContain('paperscout_adapter_up{adapter="slack"} 1');
    // The search site shares the listener: every path but /slack/events and the routes above.
    const site = await r.get('/search?q=attention');
    expect(site).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(site.text).toContain('Attention Is All You Need');
    expect(await r.service.shutdown('test')).toBe(0);
  });
});

describe('a port that is taken', () => {
  it.each([
    ['Discord only', {}],
    ['Slack in HTTP mode', { slack: { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: 'http://127.0.0.1:9/api/', port: 0 } }],
  ])('stops the start with a message naming PORT (%s)', async (_, platforms) => {
    const taken = createServer();
    taken.listen(0);
    await once(taken, 'listening');
    cleanups.push(() => taken.close());
    const port = (taken.address() as AddressInfo).port;
    const app = await createTestApp();
    cleanups.push(() => app.dispose());
    const slack = 'slack' in platforms ? { slack: { ...platforms.slack, port } } : {};
    await expect(startService(app, createMetrics(), { discord: undefined, slack: undefined, ...slack, port, clock: new ManualClock() })).rejects.toThrow(
      `Port ${port} is already in use: stop whatever listens there or set PORT to a free port.`,
    );
  });
});

describe('credentials a platform refuses', () => {
  it('are reported once and not retried, while the other platform runs', async () => {
    const slack = await FakeSlack.start();
    cleanups.push(() => slack.close());
    const discord = await FakeDiscord.start();
    cleanups.push(() => discord.close());
    const r = await run({
      slack: { botToken: 'xoxb-revoked', signingSecret: SIGNING_SECRET, apiUrl: slack.apiUrl, port: 0 },
      discord: { token: discord.token, apiUrl: discord.apiUrl },
    });
    await vi.waitFor(() => {
      expect(stateOf(r, 'slack')).toBe('refused');
      expect(stateOf(r, 'discord')).toBe('connected');
    });
    r.clock.advance(3_600_000);
    expect(slack.callsOf('auth.test')).toHaveLength(1);
    const refusals = r.logs.filter((l) => l.adapter === 'slack' && l.level >= 40);
    expect(refusals.map((l) => l.msg)).toEqual([
      `slack will not start: Slack did not accept SLACK_BOT_TOKEN at ${slack.apiUrl} (SLACK_API_URL): An API error occurred: invalid_auth. Copy the Bot User OAuth Token (xoxb-…) from your app's OAuth & Permissions page.`,
    ]);
    expect(JSON.parse((await r.get('/readyz')).text).reasons).toEqual([expect.stringMatching(/^slack is refused: Slack did not accept SLACK_BOT_TOKEN/)]);
    const reply = await discord.interact(discordCommand(discord, 'paper', { query: 'attention' }));
    expect(messageOf(reply).content).toMatch(/Papers for “attention”/);
  });

  it('end the process when every platform refused (no platform could start)', async () => {
    const slack = await FakeSlack.start();
    cleanups.push(() => slack.close());
    const discord = await FakeDiscord.start();
    cleanups.push(() => discord.close());
    const fatal = vi.fn();
    const r = await run({
      slack: { botToken: 'xoxb-revoked', signingSecret: SIGNING_SECRET, apiUrl: slack.apiUrl, port: 0 },
      discord: { token: 'not-the-token', apiUrl: discord.apiUrl },
      onFatal: fatal,
    });
    await vi.waitFor(() => expect(fatal).toHaveBeenCalledWith(1));
    expect(r.logs.find((l) => l.level === 60)).toMatchObject({
      msg: expect.stringMatching(/^No platform could start/),
      errors: { slack: expect.stringMatching(/^Slack did not accept SLACK_BOT_TOKEN/), discord: expect.stringMatching(/^Discord did not accept DISCORD_TOKEN/) },
    });
  });
});
