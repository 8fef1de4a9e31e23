/**
 * `digest run-due` with many workspaces: a process that posts without serving (adapters/senders.ts)
 * finds each subscription's workspace token in the installation store, as `npm start` does.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSlack, type RunningSlack } from '../../../adapters/slack/index.js';
import { createSenders } from '../../../adapters/senders.js';
import { runDueDigests } from '../../../src/digest/runner.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { silentLog } from '../../helpers/corpus.js';
import { FakeSlack } from './fakeSlack.js';
import { CLIENT_ID, CLIENT_SECRET, FakeOAuth } from './fakeOAuth.js';
import { SIGNING_SECRET } from './harness.js';
import { installVia } from './installFlow.js';

let app: TestApp;
let fake: FakeSlack;
let oauth: FakeOAuth;
let slack: RunningSlack;
beforeAll(async () => {
  fake = await FakeSlack.start();
  oauth = new FakeOAuth(fake);
  const env = { SLACK_CLIENT_ID: CLIENT_ID, SLACK_CLIENT_SECRET: CLIENT_SECRET, SLACK_STATE_SECRET: 'state-secret-for-the-install-flow', SLACK_SIGNING_SECRET: SIGNING_SECRET, SLACK_API_URL: fake.apiUrl, PORT: '0' };
  app = await createTestApp({ env });
  slack = await startSlack(app, app.config.slack!);
});
afterAll(async () => {
  await slack?.stop();
  await fake?.close();
  await app?.dispose();
});

it("posts each subscription's digest with its workspace's token, and nothing for a workspace without one", async () => {
  for (const team of ['T1', 'T2']) {
    expect(await installVia(`http://127.0.0.1:${slack.port}`, oauth, team)).toBe(200);
    await app.digests.subscribe({ platform: 'slack', workspace: team, channel: `C${team}`, query: 'diffusion', label: 'diffusion', time: '09:00', timezone: 'UTC', days: 'daily', count: 3, fill: true, createdBy: `U${team}`, createdAt: '2026-03-01T00:00:00.000Z', locale: 'en' });
  }
  await app.digests.subscribe({ platform: 'slack', workspace: 'T3', channel: 'CT3', query: 'diffusion', label: 'diffusion', time: '09:00', timezone: 'UTC', days: 'daily', count: 3, fill: true, createdBy: 'UT3', createdAt: '2026-03-01T00:00:00.000Z', locale: 'en' });
  const senders = createSenders(app);
  const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders, log: silentLog }, new Date('2026-03-02T09:00:00Z'));
  expect(summary).toMatchObject({ sent: 2 });
  const posts = fake.callsOf('chat.postMessage');
  expect(posts.map((c) => [c.args.channel, oauth.teamOf(c.token)]).sort()).toEqual([
    ['CT1', 'T1'],
    ['CT2', 'T2'],
  ]);
});
