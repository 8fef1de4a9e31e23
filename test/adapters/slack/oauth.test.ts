/**
 * Many workspaces: the OAuth install flow through Bolt's real HTTP receiver and InstallProvider,
 * against a loopback Slack (fakeOAuth.ts) that exchanges codes for per-workspace bot tokens and
 * accepts a Web API call only with a token it issued. Two workspaces install; each one's
 * commands, buttons, /library (lists and exports) and digests go with its own token and see only
 * its own data; a third that never installed is told so; install links that expired, were
 * forged or replayed install nothing; an uninstall pauses one workspace's digests and leaves the
 * other's alone, and its data goes after the retention period.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlack, type RunningSlack } from '../../../adapters/slack/index.js';
import { openInstallations } from '../../../adapters/slack/installations.js';
import { botScopes } from '../../../adapters/slack/manifest.js';
import { purgeRemovedWorkspaces, type InstallationEvent } from '../../../adapters/slack/uninstall.js';
import type { SlackConfig } from '../../../src/config.js';
import { runDueDigests } from '../../../src/digest/runner.js';
import { messages } from '../../../src/i18n/index.js';
import type { Subscription } from '../../../src/store/digests.js';
import type { InstallationStore } from '../../../src/store/installations.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { silentLog } from '../../helpers/corpus.js';
import { FakeSlack, type Json } from './fakeSlack.js';
import { CLIENT_ID, FakeOAuth } from './fakeOAuth.js';
import { SIGNING_SECRET, button, clickPayload, fixture, send, textOf } from './harness.js';
import { SHARE_LABEL } from '../../../adapters/slack/render.js';
import { OAUTH, subscribeIn as subscribeWith, until } from './manyWorkspaces.js';

const FORM = 'application/x-www-form-urlencoded';
const en = messages('en');

let now = new Date('2026-03-02T08:00:00Z');
let app: TestApp;
let fake: FakeSlack;
let oauth: FakeOAuth;
let slack: RunningSlack;
let base: string;
let installs: InstallationStore;
const events: InstallationEvent[] = [];

beforeAll(async () => {
  app = await createTestApp({ now: () => now });
  fake = await FakeSlack.start();
  oauth = new FakeOAuth(fake, { scopes: botScopes() });
  const config: SlackConfig = { signingSecret: SIGNING_SECRET, apiUrl: fake.apiUrl, port: 0, oauth: OAUTH };
  slack = await startSlack(app, config, { onInstallation: (e) => events.push(e) });
  base = `http://127.0.0.1:${slack.port}`;
  installs = openInstallations(app, OAUTH);
});
afterAll(async () => {
  await slack?.stop();
  await fake?.close();
  await app?.dispose();
});

interface InstallLink {
  cookie: string;
  state: string;
  authorize: URL;
  html: string;
}

/** Opens /slack/install as a browser would: the page, its Add to Slack link, the state cookie. */
async function openInstallPage(language = 'en-US,en;q=0.9'): Promise<InstallLink> {
  const res = await fetch(`${base}/slack/install`, { headers: { 'accept-language': language } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const html = await res.text();
  const href = /href="(https:\/\/slack\.com\/oauth\/v2\/authorize[^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
  const authorize = new URL(href);
  return { cookie, state: authorize.searchParams.get('state')!, authorize, html };
}

/** Slack sends the browser back with `code` and `state`. */
async function redirect(query: Record<string, string>, cookie: string | undefined, language = 'en'): Promise<{ status: number; html: string }> {
  const res = await fetch(`${base}/slack/oauth_redirect?${new URLSearchParams(query)}`, { headers: { 'accept-language': language, ...(cookie && { cookie }) }, redirect: 'manual' });
  return { status: res.status, html: await res.text() };
}

/** The whole flow for `team`: the install page, approval in Slack, the redirect. */
async function install(team: string): Promise<{ status: number; html: string }> {
  const link = await openInstallPage();
  return redirect({ code: oauth.approve(team), state: link.state }, link.cookie);
}

/** A signed slash command from `team`; returns the ack and its response_url. */
async function command(team: string, user: string, command: string, text: string, channel = `C${team}`): Promise<{ status: number; responseUrl: string }> {
  const responseUrl = fake.responseUrl();
  const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), team_id: team, channel_id: channel, user_id: user, command, text, response_url: responseUrl });
  const res = await send(`${base}/slack/events`, body.toString(), FORM);
  return { status: res.status, responseUrl };
}

async function uninstallEvent(team: string, type: 'app_uninstalled' | 'tokens_revoked'): Promise<void> {
  const event = type === 'app_uninstalled' ? { type } : { type, tokens: { bot: [`U0BOT${team}`] } };
  const body = { token: 'x', team_id: team, api_app_id: 'A0PAPERS', event, type: 'event_callback', event_id: `Ev${Math.random().toString(36).slice(2, 10)}`, event_time: 1772438400 };
  const res = await send(`${base}/slack/events`, JSON.stringify(body), 'application/json');
  expect(res.status).toBe(200);
}

const subscribeIn = (team: string): Promise<Subscription> => subscribeWith(app.digests, team, `U${team}A`);

describe('the install flow', () => {
  it('shows an Add to Slack page with the manifest scopes, in the visitor language', async () => {
    const link = await openInstallPage();
    expect(link.html).toContain(en.t('slack.install.button'));
    expect(link.authorize.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(link.authorize.searchParams.get('scope')).toBe(botScopes().join(','));
    expect(link.cookie).toBe(`slack-app-oauth-state=${link.state}`);
    const zh = await openInstallPage('fr-FR, zh-TW;q=0.8, en;q=0.5');
    expect(zh.html).toContain('<html lang="zh-CN">');
    expect(zh.html).toContain(messages('zh-CN').t('slack.install.button'));
  });

  it('installs two workspaces, each with its own token, and says where to go next', async () => {
    const one = await install('T1');
    expect(one.status).toBe(200);
    expect(one.html).toContain(en.t('slack.installed.body', { team: 'Workspace T1' }));
    expect(one.html).toContain('/paper');
    expect(one.html).toContain('/digest subscribe');
    expect((await install('T2')).status).toBe(200);
    expect((await installs.get('T1'))?.botToken).toBe(oauth.tokenOf('T1'));
    expect((await installs.get('T2'))?.botToken).toBe(oauth.tokenOf('T2'));
    expect(oauth.tokenOf('T1')).not.toBe(oauth.tokenOf('T2'));
    expect(await installs.get('T2')).toMatchObject({ teamId: 'T2', installer: 'U0ADMINT2', botUserId: 'U0BOTT2', scopes: botScopes(), enterpriseInstall: false });
    expect(events.filter((e) => e === 'install')).toHaveLength(2);
  });

  it('refuses a forged state, a state from another browser, and an expired one, with a clear page', async () => {
    const exchanged = oauth.exchanged.length;
    const link = await openInstallPage();
    const forged = `${link.state.slice(0, -3)}AAA`;
    const refusals = [
      await redirect({ code: oauth.approve('T9'), state: forged }, `slack-app-oauth-state=${forged}`),
      await redirect({ code: oauth.approve('T9'), state: link.state }, undefined),
    ];
    const old = await openInstallPage();
    now = new Date(now.getTime() + 11 * 60_000);
    refusals.push(await redirect({ code: oauth.approve('T9'), state: old.state }, old.cookie, 'zh-CN'));
    for (const r of refusals.slice(0, 2)) expect(r).toMatchObject({ status: 400, html: expect.stringContaining(en.t('slack.installFailed.state')) });
    expect(refusals[2]).toMatchObject({ status: 400, html: expect.stringContaining(messages('zh-CN').t('slack.installFailed.state')) });
    expect(oauth.exchanged.length).toBe(exchanged);
    expect(await installs.get('T9')).toBeUndefined();
  });

  it('installs nothing twice from a replayed link, nor from a code used again', async () => {
    const link = await openInstallPage();
    const code = oauth.approve('T4');
    const query = { code, state: link.state };
    expect((await redirect(query, link.cookie)).status).toBe(200);
    const token = oauth.tokenOf('T4');
    const replay = await redirect(query, link.cookie);
    expect(replay).toMatchObject({ status: 400, html: expect.stringContaining(en.t('slack.installFailed.state')) });
    const fresh = await openInstallPage();
    const reused = await redirect({ code, state: fresh.state }, fresh.cookie);
    expect(reused).toMatchObject({ status: 400, html: expect.stringContaining(en.t('slack.installFailed.code')) });
    expect(oauth.exchanged.filter((c) => c === code)).toHaveLength(1);
    expect(oauth.tokenOf('T4')).toBe(token);
    expect((await installs.get('T4'))?.botToken).toBe(token);
  });

  it('says so when the installer cancels in Slack', async () => {
    const link = await openInstallPage();
    const cancelled = await redirect({ error: 'access_denied', state: link.state }, link.cookie);
    expect(cancelled).toMatchObject({ status: 200, html: expect.stringContaining(en.t('slack.installFailed.cancelled')) });
  });
});

describe('each workspace with its own token', () => {
  it("answers each workspace's /paper with that workspace's token", async () => {
    for (const team of ['T1', 'T2']) {
      const res = await command(team, `U${team}A`, '/paper', 'diffusion');
      expect(res.status).toBe(200);
      const [post] = await fake.waitForPosts(res.responseUrl);
      expect(post!.text).toContain('Papers for “diffusion”');
      const lookups = fake.callsOf('users.info').filter((c) => c.args.user === `U${team}A`);
      expect(lookups.length).toBeGreaterThan(0);
      expect(lookups.map((c) => oauth.teamOf(c.token))).toEqual(lookups.map(() => team));
    }
  });

  it("shares a result in a workspace's channel with that workspace's token", async () => {
    const res = await command('T2', 'UT2A', '/paper', 'diffusion');
    const [post] = await fake.waitForPosts(res.responseUrl);
    const shares = fake.callsOf('chat.postMessage').length;
    const payload = clickPayload(button(post!, SHARE_LABEL), { user: 'UT2A' });
    const click = { ...payload, team: { id: 'T2', domain: 't2' }, user: { id: 'UT2A', username: 'bob', name: 'bob', team_id: 'T2' }, channel: { id: 'CT2', name: 'general' }, response_url: fake.responseUrl() };
    const ack = await send(`${base}/slack/events`, `payload=${encodeURIComponent(JSON.stringify(click))}`, FORM);
    expect(ack.status).toBe(200);
    const shared = await fake.waitForCall('chat.postMessage', shares);
    expect(shared.args.channel).toBe('CT2');
    expect(oauth.teamOf(shared.token)).toBe('T2');
  });

  it("sends each workspace's digest with its own token, to its own channel", async () => {
    await subscribeIn('T1');
    await subscribeIn('T2');
    const posts = fake.callsOf('chat.postMessage').length;
    const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders: { slack: slack.sender! }, log: silentLog }, new Date('2026-03-02T09:00:00Z'));
    expect(summary).toMatchObject({ sent: 2 });
    const sent = fake.callsOf('chat.postMessage').slice(posts);
    expect(sent.map((c) => [c.args.channel, oauth.teamOf(c.token)]).sort()).toEqual([
      ['CT1', 'T1'],
      ['CT2', 'T2'],
    ]);
  });

  it("unfurls a paper link shared in a workspace with that workspace's token", async () => {
    const unfurls = fake.callsOf('chat.unfurl').length;
    const body = fixture('link-shared');
    const event = { ...body, team_id: 'T2', event_id: 'EvLINKT2', event: { ...(body.event as Json), user: 'UT2B', channel: 'CT2' }, authorizations: [{ enterprise_id: null, team_id: 'T2', user_id: 'U0BOTT2', is_bot: true, is_enterprise_install: false }] };
    expect((await send(`${base}/slack/events`, JSON.stringify(event), 'application/json')).status).toBe(200);
    const unfurl = await fake.waitForCall('chat.unfurl', unfurls);
    expect(oauth.teamOf(unfurl.token)).toBe('T2');
    expect(JSON.stringify(unfurl.args.unfurls)).toContain('Attention Is All You Need');
  });

  it("keeps each workspace's /library apart: the same member and channel ids see only their workspace's lists", async () => {
    // Slack ids are not unique across workspaces (an Enterprise Grid member is one W… id in all of them).
    const [user, channel] = ['W0SAME', 'C0SAME'];
    const library = async (team: string, text: string) => {
      const res = await command(team, user, '/library', text, channel);
      expect(res.status).toBe(200);
      return (await fake.waitForPosts(res.responseUrl))[0]!;
    };
    const calls = fake.calls.length;
    const found = await command('T1', user, '/paper', 'diffusion', channel);
    const [card] = await fake.waitForPosts(found.responseUrl);
    const save = button(card!, en.t('library.save'));
    const doc = Number(/(\d+)$/.exec(String(save.value))![1]);
    const saved = (await app.library.paperByDoc(doc))!;
    const payload = clickPayload(save, { user });
    const click = { ...payload, team: { id: 'T1', domain: 't1' }, user: { id: user, username: 'sam', name: 'sam', team_id: 'T1' }, channel: { id: channel, name: 'general' }, response_url: fake.responseUrl() };
    expect((await send(`${base}/slack/events`, `payload=${encodeURIComponent(JSON.stringify(click))}`, FORM)).status).toBe(200);
    expect((await fake.waitForPosts(click.response_url))[0]!.text).toBe(en.t('library.saved', { count: 1 }));
    expect((await library('T1', 'add paper:https://arxiv.org/abs/1706.03762')).text).toContain('Attention Is All You Need');

    expect(textOf(await library('T1', 'mine'))).toContain(saved.title);
    expect(textOf(await library('T1', 'channel'))).toContain('Attention Is All You Need');
    expect((await library('T2', 'mine')).text).toBe(en.t('library.mine.empty'));
    expect((await library('T2', 'channel')).text).toBe(en.t('library.channel.empty').replace('<', '&lt;').replace('>', '&gt;'));
    expect((await library('T2', 'export format:bibtex')).text).toBe(en.t('library.mine.empty'));
    expect(fake.files().filter((f) => f.shared.channel === fake.dmWith(user))).toEqual([]);

    const exported = await library('T1', 'export format:bibtex');
    expect(textOf(exported)).toContain(en.t('slack.fileInDm'));
    const [file] = fake.files().filter((f) => f.shared.channel === fake.dmWith(user));
    expect(file).toMatchObject({ filename: 'paperscout-library.bib' });
    // The member's one saved paper, not the channel's.
    expect(file!.content!.match(/^@\w+\{/gm)).toHaveLength(1);
    expect(file!.content).not.toContain('Attention Is All You Need');
    const sent = fake.calls.slice(calls);
    const upload = sent.filter((c) => ['conversations.open', 'files.getUploadURLExternal', 'files.completeUploadExternal'].includes(c.method));
    expect(upload.map((c) => c.method)).toEqual(['conversations.open', 'files.getUploadURLExternal', 'files.completeUploadExternal']);
    for (const c of upload) expect(oauth.teamOf(c.token)).toBe('T1');
  });

  it('asks each workspace who a member is: an admin in one is no admin in another', async () => {
    const [admin, other, channel] = ['W0ADMIN', 'W0OTHER', 'C0SAME'];
    fake.answer('users.info', (args, token) => ({ ok: true, user: { id: args.user, name: String(args.user).toLowerCase(), is_admin: args.user === admin && oauth.teamOf(token) === 'T1' } }));
    const calls = fake.calls.length;
    await fake.waitForPosts((await command('T1', admin, '/paper', 'diffusion', channel)).responseUrl);
    await fake.waitForPosts((await command('T2', other, '/library', 'add paper:https://arxiv.org/abs/1706.03762', channel)).responseUrl);
    const removal = await command('T2', admin, '/library', 'remove paper:https://arxiv.org/abs/1706.03762 scope:channel', channel);
    expect((await fake.waitForPosts(removal.responseUrl))[0]!.text).toBe(en.t('library.removeNotYours', { name: 'w0other' }));
    expect(await app.stores.readingLists.paperIds({ platform: 'slack', team: 'T2', kind: 'channel', id: channel })).toEqual(['arxiv:1706.03762']);
    const lookups = fake.calls.slice(calls).filter((c) => c.method === 'users.info' && c.args.user === admin);
    expect(lookups.map((c) => oauth.teamOf(c.token))).toEqual(['T1', 'T2']);
  });

  it("does not hold one workspace's digest back when another's token stops working", async () => {
    const [t1] = (await app.digests.all()).filter((s) => s.workspace === 'T1');
    const [t2] = (await app.digests.all()).filter((s) => s.workspace === 'T2');
    const revoked = oauth.tokenOf('T2')!;
    fake.botTokens.delete(revoked);
    const posts = fake.callsOf('chat.postMessage').length;
    await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders: { slack: slack.sender! }, log: silentLog }, new Date('2026-03-03T09:00:00Z'));
    const sent = fake.callsOf('chat.postMessage').slice(posts);
    expect(sent.filter((c) => c.args.channel === 'CT1').map((c) => oauth.teamOf(c.token))).toEqual(['T1']);
    expect(sent.filter((c) => c.args.channel === 'CT2').map((c) => c.token)).toEqual([revoked]);
    expect((await app.digests.get(t1!.id))?.lastSlot).toBe('2026-03-03T09:00:00.000Z');
    expect((await app.digests.get(t2!.id))?.lastSlot).toBe('2026-03-02T09:00:00.000Z');
    fake.botTokens.add(revoked);
  });

  it('tells a workspace that never installed the app so, and calls Slack with no token for it', async () => {
    const calls = fake.calls.length;
    const failures = events.filter((e) => e === 'authorize_failure').length;
    const res = await command('T3', 'UT3A', '/paper', 'diffusion');
    expect(res.status).toBe(200);
    const [post] = await fake.waitForPosts(res.responseUrl);
    expect(post).toMatchObject({ response_type: 'ephemeral', text: en.t('slack.notInstalled') });
    expect(fake.calls.slice(calls)).toEqual([]);
    expect(events.filter((e) => e === 'authorize_failure')).toHaveLength(failures + 1);
    // The others carry on.
    const other = await command('T1', 'UT1A', '/paper', 'diffusion');
    expect((await fake.waitForPosts(other.responseUrl))[0]!.text).toContain('Papers for “diffusion”');
  });

  it('does not tell a workspace it is not installed when its installation cannot be read', async () => {
    const t2 = (await app.stores.installationRows.read('T2'))!;
    // T2's sealed tokens under T5's key: they do not open there (as after a change of INSTALLATION_KEY).
    await app.stores.installationRows.upsert({ ...t2, key: 'T5', team_id: 'T5' });
    const failures = events.filter((e) => e === 'authorize_failure').length;
    const refused = await command('T5', 'UT5A', '/paper', 'diffusion');
    expect(refused.status).toBe(200);
    const other = await command('T1', 'UT1A', '/paper', 'diffusion');
    await fake.waitForPosts(other.responseUrl);
    await until(() => events.filter((e) => e === 'authorize_failure').length === failures + 1, 'authorize failure');
    expect(fake.postsTo(refused.responseUrl)).toEqual([]);
    await installs.remove('T5', now);
    expect(await installs.forget('T5', new Date(now.getTime() + 1))).toBe(true);
  });
});

describe('uninstall', () => {
  it("pauses one workspace's digests, leaves the other alone, and resumes them on a reinstall", async () => {
    await uninstallEvent('T1', 'app_uninstalled');
    await until(async () => (await installs.get('T1')) === undefined, 'removal of T1');
    const [t1] = (await app.digests.all()).filter((s) => s.workspace === 'T1');
    const [t2] = (await app.digests.all()).filter((s) => s.workspace === 'T2');
    expect(t1).toMatchObject({ status: 'paused', pausedReason: JSON.stringify({ key: 'digest.pausedUninstalled' }) });
    expect(t2).toMatchObject({ status: 'active' });
    expect((await installs.get('T2'))?.botToken).toBe(oauth.tokenOf('T2'));
    const refused = await command('T1', 'UT1A', '/paper', 'diffusion');
    expect((await fake.waitForPosts(refused.responseUrl))[0]!.text).toBe(en.t('slack.notInstalled'));
    expect(events).toContain('uninstall');

    expect((await install('T1')).status).toBe(200);
    expect((await app.digests.get(t1!.id))?.status).toBe('active');
  });

  it("deletes a removed workspace's data after the retention period, and only its", async () => {
    const removedAt = now;
    await uninstallEvent('T1', 'tokens_revoked');
    await until(async () => (await installs.get('T1')) === undefined, 'removal of T1');
    const lists = app.stores.readingLists;
    const listOf = (team: string) => ({ platform: 'slack', team, kind: 'member' as const, id: `U${team}` });
    const memberOf = (team: string) => ({ platform: 'slack', team, user: `U${team}` });
    for (const team of ['T1', 'T2']) {
      await lists.toggle(listOf(team), 'arxiv:1706.03762', { id: `U${team}` }, removedAt);
      await app.stores.ratings.rate(memberOf(team), 'arxiv:1706.03762', 1, removedAt);
    }
    expect(await purgeRemovedWorkspaces(app, installs, new Date(removedAt.getTime() + 29 * 86_400_000), 30)).toEqual([]);
    expect((await app.digests.all()).filter((s) => s.workspace === 'T1')).toHaveLength(1);
    expect(await lists.paperIds(listOf('T1'))).toEqual(['arxiv:1706.03762']);
    expect(await purgeRemovedWorkspaces(app, installs, new Date(removedAt.getTime() + 31 * 86_400_000), 30)).toEqual(['T1']);
    expect((await app.digests.all()).map((s: Json) => s.workspace)).toEqual(['T2']);
    expect(await lists.paperIds(listOf('T1'))).toEqual([]);
    expect(await lists.paperIds(listOf('T2'))).toEqual(['arxiv:1706.03762']);
    expect(await app.stores.ratings.counts(memberOf('T1'))).toEqual({ up: 0, down: 0 });
    expect(await app.stores.ratings.counts(memberOf('T2'))).toEqual({ up: 1, down: 0 });
    expect(await installs.removedBefore(new Date(removedAt.getTime() + 31 * 86_400_000))).toEqual([]);
    expect(await installs.get('T2')).toBeDefined();
  });
});
