/**
 * Token rotation with many workspaces: a bot token that expires within two hours is refreshed by
 * Bolt's authorize (oauth.v2.access, grant_type=refresh_token, at SLACK_API_URL) before it is
 * used, and the new token and refresh token are stored sealed; the old token is dead at Slack.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSlack, type RunningSlack } from '../../../adapters/slack/index.js';
import { openInstallations } from '../../../adapters/slack/installations.js';
import type { SlackOAuthConfig } from '../../../src/config.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FakeSlack } from './fakeSlack.js';
import { CLIENT_ID, CLIENT_SECRET, FakeOAuth } from './fakeOAuth.js';
import { SIGNING_SECRET, fixture, send } from './harness.js';
import { installVia } from './installFlow.js';

const OAUTH: SlackOAuthConfig = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, stateSecret: 'state-secret-for-the-install-flow', installationKey: 'state-secret-for-the-install-flow', retentionDays: 30 };

let app: TestApp;
let fake: FakeSlack;
let oauth: FakeOAuth;
let slack: RunningSlack;
beforeAll(async () => {
  app = await createTestApp();
  fake = await FakeSlack.start();
  // Tokens live a minute: every use is within two hours of expiry, so every authorize refreshes.
  oauth = new FakeOAuth(fake, { expiresIn: 60 });
  slack = await startSlack(app, { signingSecret: SIGNING_SECRET, apiUrl: fake.apiUrl, port: 0, oauth: OAUTH });
});
afterAll(async () => {
  await slack?.stop();
  await fake?.close();
  await app?.dispose();
});

it('refreshes an expiring token before a request uses it, and keeps the new one', async () => {
  expect(await installVia(`http://127.0.0.1:${slack.port}`, oauth, 'T1')).toBe(200);
  const installs = openInstallations(app, OAUTH);
  const first = await installs.get('T1');
  expect(first).toMatchObject({ botToken: oauth.tokenOf('T1'), refreshToken: expect.stringMatching(/^xoxe-1-T1-/), expiresAt: expect.any(Number) });

  const responseUrl = fake.responseUrl();
  const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), team_id: 'T1', user_id: 'UROT1', command: '/paper', text: 'diffusion', response_url: responseUrl });
  expect((await send(`http://127.0.0.1:${slack.port}/slack/events`, body.toString(), 'application/x-www-form-urlencoded')).status).toBe(200);
  await fake.waitForPosts(responseUrl);

  const refreshes = fake.callsOf('oauth.v2.access').filter((c) => c.args.grant_type === 'refresh_token');
  expect(refreshes.map((c) => c.args.refresh_token)).toEqual([first!.refreshToken]);
  const lookup = fake.callsOf('users.info').find((c) => c.args.user === 'UROT1')!;
  expect(lookup.token).toBe(oauth.tokenOf('T1'));
  expect(lookup.token).not.toBe(first!.botToken);
  expect(fake.botTokens.has(first!.botToken)).toBe(false);
  const stored = await installs.get('T1');
  expect(stored).toMatchObject({ botToken: oauth.tokenOf('T1'), installedAt: first!.installedAt });
  expect(stored!.refreshToken).not.toBe(first!.refreshToken);
});
