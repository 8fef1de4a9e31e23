/**
 * Turning token rotation on after workspaces installed (`paperscout slack rotate-tokens`): each
 * installation's token that does not expire is exchanged with `oauth.v2.exchange` at the loopback
 * Slack (fakeOAuth.ts) for an expiring one and a refresh token, stored sealed as the install flow
 * stores them, and used from then on; one Slack refuses keeps its token and is named, and a
 * second run finds nothing left to exchange.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runSlackCommand } from '../../../adapters/cli/slack.js';
import { startSlack, type RunningSlack } from '../../../adapters/slack/index.js';
import { openInstallations } from '../../../adapters/slack/installations.js';
import { botScopes } from '../../../adapters/slack/manifest.js';
import { UserError } from '../../../src/errors.js';
import { messages } from '../../../src/i18n/index.js';
import type { InstallationStore } from '../../../src/store/installations.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { CLIENT_ID, CLIENT_SECRET, FakeOAuth } from './fakeOAuth.js';
import { FakeSlack } from './fakeSlack.js';
import { SIGNING_SECRET, fixture, send } from './harness.js';
import { installVia } from './installFlow.js';

const en = messages('en');
let app: TestApp;
let fake: FakeSlack;
let oauth: FakeOAuth;
let slack: RunningSlack;
let installs: InstallationStore;

beforeAll(async () => {
  fake = await FakeSlack.start();
  oauth = new FakeOAuth(fake, { scopes: botScopes() });
  // The real clock: Bolt's authorize checks a token's expiry against it.
  app = await createTestApp({
    env: { SLACK_CLIENT_ID: CLIENT_ID, SLACK_CLIENT_SECRET: CLIENT_SECRET, SLACK_STATE_SECRET: 'state-secret-for-the-install-flow', SLACK_SIGNING_SECRET: SIGNING_SECRET, SLACK_API_URL: fake.apiUrl, PORT: '0' },
  });
  slack = await startSlack(app, app.config.slack!);
  for (const team of ['T1', 'T2']) expect(await installVia(`http://127.0.0.1:${slack.port}`, oauth, team)).toBe(200);
  installs = openInstallations(app, app.config.slack!.oauth!);
});
afterAll(async () => {
  await slack?.stop();
  await fake?.close();
  await app?.dispose();
});

/** `paperscout slack …` in this process: its exit code, stdout and stderr. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await runSlackCommand(app, args, en);
    return { code, out: out.mock.calls.map((c) => String(c[0])).join(''), err: err.mock.calls.map((c) => String(c[0])).join('') };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('paperscout slack rotate-tokens', () => {
  it('exchanges each token for a rotating one, keeps the one Slack refuses, and uses the new ones', async () => {
    const before = oauth.tokenOf('T1')!;
    expect((await installs.get('T1'))?.refreshToken).toBeUndefined();
    oauth.revoke('T2');

    const started = Math.floor(Date.now() / 1000);
    const run = await cli('rotate-tokens');
    expect(run).toEqual({
      code: 1,
      out: `${en.t('cli.slack.rotated', { exchanged: 1, rotating: 0, failed: 1 })}\n`,
      err: `${en.t('cli.slack.exchangeFailed', { key: 'T2', error: 'invalid_auth' })}\n`,
    });
    const t1 = (await installs.get('T1'))!;
    expect(t1.botToken).toBe(oauth.tokenOf('T1'));
    expect(t1.botToken).not.toBe(before);
    expect(t1).toMatchObject({ refreshToken: expect.stringMatching(/^xoxe-1-T1-/), scopes: botScopes(), installer: 'U0ADMINT1' });
    expect(t1.expiresAt).toBeGreaterThanOrEqual(started + 43_200);
    expect(t1.expiresAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 43_200);
    expect(fake.botTokens.has(before)).toBe(false);
    expect((await installs.get('T2'))?.refreshToken).toBeUndefined();

    // The bot answers with the new token.
    const responseUrl = fake.responseUrl();
    const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), team_id: 'T1', user_id: 'UT1A', text: 'diffusion', response_url: responseUrl });
    const calls = fake.calls.length;
    expect((await send(`http://127.0.0.1:${slack.port}/slack/events`, body.toString(), 'application/x-www-form-urlencoded')).status).toBe(200);
    expect((await fake.waitForPosts(responseUrl))[0]!.text).toContain('Papers for “diffusion”');
    expect(fake.calls.slice(calls).filter((c) => c.token !== undefined).map((c) => c.token)).toContain(t1.botToken);

    const again = await cli('rotate-tokens');
    expect(again.out).toBe(`${en.t('cli.slack.rotated', { exchanged: 0, rotating: 1, failed: 1 })}\n`);
    expect((await installs.get('T1'))?.botToken).toBe(t1.botToken);
  });

  it('says how to use it', async () => {
    await expect(cli('rotate')).rejects.toThrow(new UserError('cli.slack.usage'));
  });
});
