/**
 * The service with Slack in many workspaces: /healthz says how many workspaces have the app
 * installed, and /metrics counts installs, uninstalls and requests refused for want of an
 * installation. The search site shares the port (WEB=on): the install pages still reach Bolt.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createMetrics } from '../../../adapters/ops/metrics.js';
import { startService, type Service } from '../../../adapters/ops/service.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FakeSlack } from '../slack/fakeSlack.js';
import { CLIENT_ID, CLIENT_SECRET, FakeOAuth } from '../slack/fakeOAuth.js';
import { SIGNING_SECRET, fixture, send } from '../slack/harness.js';
import { installVia } from '../slack/installFlow.js';
import { ManualClock } from './helpers/manualClock.js';

let app: TestApp;
let fake: FakeSlack;
let oauth: FakeOAuth;
let service: Service;
let base: string;
const clock = new ManualClock();
/** Stamped at the service's clock, which request stamps are checked against. */
const stamp = () => ({ timestamp: Math.floor(clock.now().getTime() / 1000) });
beforeAll(async () => {
  app = await createTestApp();
  fake = await FakeSlack.start();
  oauth = new FakeOAuth(fake);
  const secret = 'state-secret-for-the-install-flow';
  service = await startService(app, createMetrics(), {
    port: 0,
    clock,
    slack: { signingSecret: SIGNING_SECRET, apiUrl: fake.apiUrl, port: 0, oauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, stateSecret: secret, installationKey: secret, retentionDays: 30 } },
  });
  base = `http://127.0.0.1:${service.port}`;
});
afterAll(async () => {
  await service?.shutdown('test over');
  await fake?.close();
  await app?.dispose();
});

const get = async (path: string) => (await fetch(`${base}${path}`)).text();
const counter = (text: string, event: string) => Number(new RegExp(`paperscout_slack_installation_events_total\\{event="${event}"\\} (\\d+)`).exec(text)?.[1] ?? 0);

it('reports installed workspaces on /healthz and counts installs, uninstalls and refusals on /metrics', async () => {
  await vi.waitFor(() => expect(service.snapshot().adapters.slack?.state).toBe('connected'));
  expect(JSON.parse(await get('/healthz')).installations).toBe(0);
  expect(await installVia(base, oauth, 'T1')).toBe(200);
  expect(await installVia(base, oauth, 'T2')).toBe(200);
  await vi.waitFor(async () => expect(JSON.parse(await get('/healthz')).installations).toBe(2));

  const responseUrl = fake.responseUrl();
  const command = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), team_id: 'T3', response_url: responseUrl });
  expect((await send(`${base}/slack/events`, command.toString(), 'application/x-www-form-urlencoded', stamp())).status).toBe(200);
  await fake.waitForPosts(responseUrl);

  const uninstall = { token: 'x', team_id: 'T2', api_app_id: 'A0PAPERS', event: { type: 'app_uninstalled' }, type: 'event_callback', event_id: 'EvUNINSTALL2', event_time: 1772438400 };
  expect((await send(`${base}/slack/events`, JSON.stringify(uninstall), 'application/json', stamp())).status).toBe(200);
  await vi.waitFor(async () => expect(JSON.parse(await get('/healthz')).installations).toBe(1));

  const metrics = await get('/metrics');
  expect([counter(metrics, 'install'), counter(metrics, 'uninstall'), counter(metrics, 'authorize_failure')]).toEqual([2, 1, 1]);
});
