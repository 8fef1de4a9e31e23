/**
 * Org-wide installs (Enterprise Grid), through Bolt's real HTTP receiver and InstallProvider
 * against the loopback Slack (fakeOAuth.ts): an org admin installs the app for a whole
 * organization (one token for all its workspaces) and is sent to add it to workspaces. Requests
 * from those workspaces, and digests that start without a request (`digest run-due` included),
 * use the organization's token; a workspace with its own install keeps its own, and keeps going
 * when either install leaves. A workspace taken out of the install (`team_access_revoked`)
 * pauses its digests and loses its data after retention; an uninstall of the whole install does
 * that to every workspace it served, and after a reinstall each resumes as it is used again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlack, type RunningSlack } from '../../../adapters/slack/index.js';
import { openInstallations } from '../../../adapters/slack/installations.js';
import { botScopes } from '../../../adapters/slack/manifest.js';
import { standaloneTokens } from '../../../adapters/slack/oauth.js';
import { SHARE_LABEL } from '../../../adapters/slack/render.js';
import { purgeRemovedWorkspaces } from '../../../adapters/slack/uninstall.js';
import type { SlackConfig } from '../../../src/config.js';
import { runDueDigests } from '../../../src/digest/runner.js';
import { messages } from '../../../src/i18n/index.js';
import type { Subscription } from '../../../src/store/digests.js';
import type { InstallationStore } from '../../../src/store/installations.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { silentLog } from '../../helpers/corpus.js';
import { FakeOAuth } from './fakeOAuth.js';
import { FakeSlack, type Json } from './fakeSlack.js';
import { SIGNING_SECRET, button, clickPayload, fixture, send } from './harness.js';
import { installWith } from './installFlow.js';
import { OAUTH, subscribeIn as subscribeWith, until } from './manyWorkspaces.js';

const FORM = 'application/x-www-form-urlencoded';
const en = messages('en');
/** The organization, two of its workspaces, and a workspace outside it with its own install. */
const [ORG, T7, T8, OWN] = ['E0STAR', 'T0SEVEN', 'T0EIGHT', 'T0OWN'];

let now = new Date('2026-03-02T08:00:00Z');
let app: TestApp;
let fake: FakeSlack;
let oauth: FakeOAuth;
let slack: RunningSlack;
let config: SlackConfig;
let base: string;
let installs: InstallationStore;

beforeAll(async () => {
  app = await createTestApp({ now: () => now });
  fake = await FakeSlack.start();
  oauth = new FakeOAuth(fake, { scopes: botScopes() });
  config = { signingSecret: SIGNING_SECRET, apiUrl: fake.apiUrl, port: 0, oauth: OAUTH };
  slack = await startSlack(app, config);
  base = `http://127.0.0.1:${slack.port}`;
  installs = openInstallations(app, OAUTH);
});
afterAll(async () => {
  await slack?.stop();
  await fake?.close();
  await app?.dispose();
});

/** A signed slash command from a workspace; of the organization unless `own`. */
async function command(team: string, text: string, { own = false } = {}): Promise<string> {
  const responseUrl = fake.responseUrl();
  const org: Record<string, string> = own ? {} : { enterprise_id: ORG, enterprise_name: 'Starship', is_enterprise_install: 'true' };
  const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), team_id: team, channel_id: `C${team}`, user_id: `W${team}A`, command: '/paper', text, response_url: responseUrl, ...org });
  expect((await send(`${base}/slack/events`, body.toString(), FORM)).status).toBe(200);
  return responseUrl;
}

/** An event of the organization's install, as the Events API wraps it. */
async function orgEvent(event: Json, team: string | null = null): Promise<void> {
  const body = {
    token: 'x',
    team_id: team ?? ORG,
    enterprise_id: ORG,
    api_app_id: 'A0PAPERS',
    event,
    type: 'event_callback',
    event_id: `Ev${Math.random().toString(36).slice(2, 10)}`,
    event_time: 1772438400,
    authorizations: [{ enterprise_id: ORG, team_id: team, user_id: `U0BOT${ORG}`, is_bot: true, is_enterprise_install: true }],
  };
  expect((await send(`${base}/slack/events`, JSON.stringify(body), 'application/json')).status).toBe(200);
}

/** An event of a workspace's own install. */
async function teamEvent(team: string, event: Json): Promise<void> {
  const body = { token: 'x', team_id: team, api_app_id: 'A0PAPERS', event, type: 'event_callback', event_id: `Ev${Math.random().toString(36).slice(2, 10)}`, event_time: 1772438400 };
  expect((await send(`${base}/slack/events`, JSON.stringify(body), 'application/json')).status).toBe(200);
}

const subscribeIn = (team: string): Promise<Subscription> => subscribeWith(app.digests, team, `W${team}A`);
const digestOf = async (team: string) => (await app.digests.all()).find((s) => s.workspace === team);
const runDue = (at: string) => runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders: { slack: slack.sender! }, log: silentLog }, new Date(at));
const listOf = (team: string) => ({ platform: 'slack', team, kind: 'member' as const, id: `W${team}A` });

describe('an org-wide install', () => {
  it('installs for the whole organization and sends the admin to add it to workspaces', async () => {
    const installed = await installWith(base, oauth.approveOrg(ORG, 'W0ADMIN', 'Starship'), 'zh-CN');
    expect(installed.status).toBe(200);
    const zh = messages('zh-CN');
    expect(installed.html).toContain(zh.t('slack.installed.orgBody', { org: 'Starship' }));
    expect(installed.html).toContain(`href="https://app.slack.com/manage/${ORG}/integrations/profile/A0PAPERS/workspaces/add"`);
    expect(await installs.get(ORG)).toMatchObject({ key: ORG, enterpriseId: ORG, enterpriseInstall: true, botToken: oauth.tokenOf(ORG), installer: 'W0ADMIN' });
    expect((await installs.get(ORG))?.teamId).toBeUndefined();
    expect(await installs.teamsOf(ORG)).toEqual([]);
    expect((await installWith(base, oauth.approve(OWN))).status).toBe(200);
  });

  it("answers a workspace of the organization with the organization's token, and remembers the workspace", async () => {
    const calls = fake.calls.length;
    const [post] = await fake.waitForPosts(await command(T7, 'diffusion'));
    expect(post!.text).toContain('Papers for “diffusion”');
    const used = fake.calls.slice(calls).filter((c) => c.token !== undefined);
    expect(used.length).toBeGreaterThan(0);
    expect(new Set(used.map((c) => oauth.teamOf(c.token)))).toEqual(new Set([ORG]));
    expect(await installs.teamsOf(ORG)).toEqual([T7]);

    // A button in an org-wide install's message names no team, only the member's.
    const shares = fake.callsOf('chat.postMessage').length;
    const click = {
      ...clickPayload(button(post!, SHARE_LABEL), { user: `W${T7}A` }),
      team: null,
      enterprise: { id: ORG, name: 'Starship' },
      is_enterprise_install: true,
      user: { id: `W${T7}A`, username: 'ada', name: 'ada', team_id: T7 },
      channel: { id: `C${T7}`, name: 'general' },
      response_url: fake.responseUrl(),
    };
    expect((await send(`${base}/slack/events`, `payload=${encodeURIComponent(JSON.stringify(click))}`, FORM)).status).toBe(200);
    const shared = await fake.waitForCall('chat.postMessage', shares);
    expect([shared.args.channel, oauth.teamOf(shared.token)]).toEqual([`C${T7}`, ORG]);
  });

  it("learns the workspaces an admin adds it to, and sends their digests with the organization's token", async () => {
    await orgEvent({ type: 'team_access_granted', team_ids: [T8], event_ts: '1772438400.000100' });
    await until(async () => (await installs.teamsOf(ORG)).includes(T8), 'workspace added');
    for (const team of [T7, T8, OWN]) await subscribeIn(team);
    const posts = fake.callsOf('chat.postMessage').length;
    expect(await runDue('2026-03-02T09:00:00Z')).toMatchObject({ sent: 3 });
    const sent = fake.callsOf('chat.postMessage').slice(posts);
    expect(sent.map((c) => [c.args.channel, oauth.teamOf(c.token)]).sort()).toEqual([
      [`C${T8}`, ORG],
      [`C${OWN}`, OWN],
      [`C${T7}`, ORG],
    ]);
    // `digest run-due` in a process of its own finds the same tokens.
    const tokenFor = standaloneTokens(app, { ...config, oauth: OAUTH }, silentLog);
    expect(await tokenFor(T8)).toBe(oauth.tokenOf(ORG));
    expect(await tokenFor(OWN)).toBe(oauth.tokenOf(OWN));
    await expect(tokenFor('T0ELSEWHERE')).rejects.toThrow(/not installed in workspace T0ELSEWHERE/);
  });

  it('takes a workspace out when an admin removes it: digests paused, data deleted after retention, the rest untouched', async () => {
    const removedAt = now;
    await orgEvent({ type: 'team_access_revoked', team_ids: [T8], event_ts: '1772438400.000200' });
    await until(async () => (await digestOf(T8))?.status === 'paused', 'digest paused');
    expect(await digestOf(T8)).toMatchObject({ pausedReason: JSON.stringify({ key: 'digest.pausedUninstalled' }) });
    expect(await digestOf(T7)).toMatchObject({ status: 'active' });
    expect(await installs.teamsOf(ORG)).toEqual([T7]);
    const tokenFor = standaloneTokens(app, { ...config, oauth: OAUTH }, silentLog);
    await expect(tokenFor(T8)).rejects.toThrow(/not installed/);

    for (const team of [T7, T8]) await app.stores.readingLists.toggle(listOf(team), 'arxiv:1706.03762', { id: `W${team}A` }, removedAt);
    expect(await purgeRemovedWorkspaces(app, installs, new Date(removedAt.getTime() + 29 * 86_400_000), 30)).toEqual([]);
    expect(await purgeRemovedWorkspaces(app, installs, new Date(removedAt.getTime() + 31 * 86_400_000), 30)).toEqual([T8]);
    expect(await digestOf(T8)).toBeUndefined();
    expect(await app.stores.readingLists.paperIds(listOf(T8))).toEqual([]);
    expect(await app.stores.readingLists.paperIds(listOf(T7))).toEqual(['arxiv:1706.03762']);
    expect(await digestOf(T7)).toMatchObject({ status: 'active' });
  });

  it('keeps a workspace that has its own install and is in the organization going when either leaves', async () => {
    await orgEvent({ type: 'team_access_granted', team_ids: [OWN], event_ts: '1772438400.000300' });
    await until(async () => (await installs.teamsOf(ORG)).includes(OWN), 'workspace added');
    const tokenFor = standaloneTokens(app, { ...config, oauth: OAUTH }, silentLog);
    expect(await tokenFor(OWN)).toBe(oauth.tokenOf(OWN));

    const removedAt = now;
    await teamEvent(OWN, { type: 'app_uninstalled' });
    await until(async () => (await installs.get(OWN)) === undefined, 'removal of the own install');
    expect(await digestOf(OWN)).toMatchObject({ status: 'active' });
    expect(await tokenFor(OWN)).toBe(oauth.tokenOf(ORG));
    expect(await purgeRemovedWorkspaces(app, installs, new Date(removedAt.getTime() + 31 * 86_400_000), 30)).toEqual([OWN]);
    expect(await digestOf(OWN)).toMatchObject({ status: 'active' });

    now = new Date(now.getTime() + 60_000);
    expect((await installWith(base, oauth.approve(OWN))).status).toBe(200);
    expect(await tokenFor(OWN)).toBe(oauth.tokenOf(OWN));
  });

  it("pauses its workspaces' digests when the whole install goes, resumes each as it is used again, and deletes them after retention", async () => {
    now = new Date(now.getTime() + 60_000);
    await orgEvent({ type: 'app_uninstalled' });
    await until(async () => (await installs.get(ORG)) === undefined, 'removal of the org-wide install');
    expect(await digestOf(T7)).toMatchObject({ status: 'paused', pausedReason: JSON.stringify({ key: 'digest.pausedUninstalled' }) });
    // Its own install still serves the workspace that had both.
    expect(await digestOf(OWN)).toMatchObject({ status: 'active' });
    expect((await fake.waitForPosts(await command(T7, 'diffusion')))[0]!.text).toBe(en.t('slack.notInstalled'));

    // Reinstalled, it is in no workspace until one is added again or used.
    now = new Date(now.getTime() + 60_000);
    expect((await installWith(base, oauth.approveOrg(ORG, 'W0ADMIN', 'Starship'))).status).toBe(200);
    expect(await digestOf(T7)).toMatchObject({ status: 'paused' });
    expect((await fake.waitForPosts(await command(T7, 'diffusion')))[0]!.text).toContain('Papers for “diffusion”');
    await until(async () => (await digestOf(T7))?.status === 'active', 'digest resumed');

    now = new Date(now.getTime() + 60_000);
    const removedAt = now;
    await orgEvent({ type: 'tokens_revoked', tokens: { bot: [`U0BOT${ORG}`] } });
    await until(async () => (await installs.get(ORG)) === undefined, 'removal of the org-wide install');
    expect(await purgeRemovedWorkspaces(app, installs, new Date(removedAt.getTime() + 31 * 86_400_000), 30)).toEqual([OWN, T7, ORG]);
    expect(await digestOf(T7)).toBeUndefined();
    expect(await app.stores.readingLists.paperIds(listOf(T7))).toEqual([]);
    expect(await installs.teamsOf(ORG)).toEqual([]);
    expect(await digestOf(OWN)).toMatchObject({ status: 'active' });
    expect(await installs.get(OWN)).toMatchObject({ botToken: oauth.tokenOf(OWN) });
  });
});
