/**
 * Slack for many workspaces (issue 33's bar): 100 workspaces installed through the real install
 * flow (the install page, approval in the loopback Slack, /slack/oauth_redirect), then signed
 * requests at 10 a second for 20 s, spread over the workspaces: /paper slash commands, and every
 * fifth a button press (Next, or a paper opened from the menu) on an answer that workspace had. Bolt
 * authorizes each one from the installation store (a read and an unseal), and every Web API call
 * goes with the workspace's own token, which the loopback Slack checks. Measured per request:
 * the ack (the HTTP answer Slack waits 3 s for) and the response_url post (what the member
 * sees). The adapter, the fake Slack and the client share one process.
 *
 * bench/run.ts calls {@link benchSlackWorkspaces} with the app it has open; on its own:
 *   tsx bench/slackWorkspaces.ts                  (the demo library, in a temporary DATA_DIR)
 *   tsx bench/slackWorkspaces.ts --data-dir DIR   (an ingested DATA_DIR; the installations are removed afterwards)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startSlack } from '../adapters/slack/index.js';
import { openInstallations } from '../adapters/slack/installations.js';
import { botScopes } from '../adapters/slack/manifest.js';
import { openApp, type App } from '../src/app.js';
import { loadConfig, type SlackOAuthConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { FakeSlack, type Json } from '../test/adapters/slack/fakeSlack.js';
import { CLIENT_ID, CLIENT_SECRET, FakeOAuth } from '../test/adapters/slack/fakeOAuth.js';
import { SIGNING_SECRET, clickPayload, elementsOf, fixture, send } from '../test/adapters/slack/harness.js';
import { installVia } from '../test/adapters/slack/installFlow.js';
import { KEYWORD_QUERIES } from './queries.js';
import { fmtMs, percentile } from './stats.js';

const OAUTH: SlackOAuthConfig = {
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  stateSecret: 'bench-state-secret-for-the-install-flow',
  installationKey: 'bench-installation-key-of-at-least-32-characters',
  retentionDays: 30,
};
const FORM = 'application/x-www-form-urlencoded';
/** The bar for the p99, ack and response_url post alike. */
const GOAL_P99_MS = 100;
/** Members per workspace who send the commands. */
const MEMBERS = 5;
/** Every this many requests, a button press instead of a command. */
const PRESS_EVERY = 5;

export interface WorkspacesOptions {
  workspaces?: number;
  /** Requests a second. */
  rate?: number;
  seconds?: number;
}

interface Sample {
  kind: 'command' | 'press';
  status: number;
  ack: number;
  /** Sent → the response_url post; NaN when none came. */
  answer: number;
}

/**
 * Installs `workspaces` workspaces and sends `rate` requests a second over them for `seconds`;
 * returns the report lines.
 * @example (await benchSlackWorkspaces(app)).forEach((line) => console.log(line));
 */
export async function benchSlackWorkspaces(app: App, { workspaces = 100, rate = 10, seconds = 20 }: WorkspacesOptions = {}): Promise<string[]> {
  const fake = await FakeSlack.start();
  const oauth = new FakeOAuth(fake, { scopes: botScopes() });
  const slack = await startSlack(app, { signingSecret: SIGNING_SECRET, apiUrl: fake.apiUrl, port: 0, oauth: OAUTH });
  const base = `http://127.0.0.1:${slack.port}`;
  const teams = Array.from({ length: workspaces }, (_, i) => `T0BENCH${String(i).padStart(3, '0')}`);
  const installs = openInstallations(app, OAUTH);
  try {
    const installMs: number[] = [];
    for (const team of teams) {
      const started = performance.now();
      const status = await installVia(base, oauth, team);
      if (status !== 200) throw new Error(`installing ${team} answered ${status}`);
      installMs.push(performance.now() - started);
    }
    /** The last /paper answer each workspace had, for its button presses. */
    const answers = new Map<string, Json>();
    const command = async (i: number): Promise<Sample> => {
      const team = teams[(i * 37) % teams.length]!;
      const user = `U0${team.slice(1)}M${i % MEMBERS}`;
      const responseUrl = fake.responseUrl();
      const query = KEYWORD_QUERIES[i % KEYWORD_QUERIES.length]!;
      const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), team_id: team, team_domain: team.toLowerCase(), channel_id: `C${team}`, user_id: user, command: '/paper', text: query, response_url: responseUrl });
      const res = await send(`${base}/slack/events`, body.toString(), FORM);
      const post = await answered(fake, responseUrl);
      if (post) answers.set(team, post.body);
      return { kind: 'command', status: res.status, ack: res.ms, answer: post ? post.at - res.sentAt : Number.NaN };
    };
    const press = async (i: number): Promise<Sample> => {
      const team = [...answers.keys()][i % answers.size]!;
      const elements = elementsOf(answers.get(team)!);
      const next = elements.find((e) => e.type === 'button' && /^paper:page:\w+:1$/.test(String(e.value)));
      const open = elements.find((e) => e.type === 'static_select' && Array.isArray(e.options) && e.options.length > 0);
      const user = `U0${team.slice(1)}M${i % MEMBERS}`;
      const click = next ? clickPayload(next, { user }) : open ? clickPayload(open, { user, selected: open.options[0] }) : undefined;
      if (!click) return command(i);
      const responseUrl = fake.responseUrl();
      const payload = { ...click, team: { id: team, domain: team.toLowerCase() }, user: { id: user, username: 'member', name: 'member', team_id: team }, channel: { id: `C${team}`, name: 'general' }, response_url: responseUrl };
      const res = await send(`${base}/slack/events`, `payload=${encodeURIComponent(JSON.stringify(payload))}`, FORM);
      const post = await answered(fake, responseUrl);
      return { kind: 'press', status: res.status, ack: res.ms, answer: post ? post.at - res.sentAt : Number.NaN };
    };
    const request = (i: number) => (i % PRESS_EVERY === PRESS_EVERY - 1 && answers.size > 0 ? press(i) : command(i));

    // Warm-up, untimed: each member's first lookup (users.info) and the code paths.
    for (let i = 0; i < 20; i++) await request(i);
    const calls = fake.calls.length;
    const total = rate * seconds;
    const started = performance.now();
    const pending: Array<Promise<Sample>> = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      pending.push(request(i + 20));
    }
    const samples = await Promise.all(pending);
    const wall = (performance.now() - started) / 1000;

    const acks = samples.map((s) => s.ack);
    const posts = samples.map((s) => s.answer).filter((ms) => !Number.isNaN(ms));
    const failed = samples.filter((s) => s.status !== 200 || Number.isNaN(s.answer)).length;
    // The loopback Slack refuses a token it did not issue: every call must have carried a workspace's own.
    const refused = fake.calls.slice(calls).filter((c) => oauth.teamOf(c.token) === undefined).length;
    const presses = samples.filter((s) => s.kind === 'press').length;
    const spread = `${samples.length} requests (${samples.length - presses} /paper, ${presses} button presses) at ${rate}/s for ${wall.toFixed(1)} s over ${workspaces} workspaces`;
    return [
      `Slack, ${workspaces} workspaces installed through the install flow (install page → approval → oauth_redirect): install p50 ${fmtMs(percentile(installMs, 0.5))} / max ${fmtMs(Math.max(...installMs))}`,
      `Slack, many workspaces: ${spread}; ${app.library.size.toLocaleString('en-US')} papers`,
      `  ack p50 ${fmtMs(percentile(acks, 0.5))} / p99 ${fmtMs(percentile(acks, 0.99))} / max ${fmtMs(Math.max(...acks))}; ` +
        `response_url post p50 ${fmtMs(percentile(posts, 0.5))} / p99 ${fmtMs(percentile(posts, 0.99))} / max ${fmtMs(Math.max(...posts))}; ` +
        `${failed} failed, ${refused} Web API calls without a workspace's token   goal p99 ≤ ${GOAL_P99_MS} ms`,
    ];
  } finally {
    await slack.stop();
    await fake.close();
    // The bench's installations go again: a DATA_DIR given to the bench keeps none of them.
    const gone = new Date(Date.now() + 60_000);
    for (const team of teams) {
      await installs.remove(team, new Date());
      await installs.forget(team, gone);
    }
  }
}

/** The first post to `url`, or undefined when none comes within 30 s. */
async function answered(fake: FakeSlack, url: string): Promise<{ body: Json; at: number } | undefined> {
  try {
    await fake.waitForPosts(url, 1, 30_000);
  } catch {
    return undefined;
  }
  return fake.posts.find((p) => p.url === url);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, workspaces: { type: 'string' }, rate: { type: 'string' }, seconds: { type: 'string' } } });
  const ownDir = values['data-dir'] === undefined && process.env.DATA_DIR === undefined;
  const dataDir = values['data-dir'] ?? process.env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'paperscout-bench-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOOKUP_UPSTREAM: 'off' });
  const app = await openApp(config, createLogger({ logLevel: 'warn', logFormat: 'json' }), { demoWhenEmpty: ownDir });
  try {
    const options = {
      ...(values.workspaces && { workspaces: Number(values.workspaces) }),
      ...(values.rate && { rate: Number(values.rate) }),
      ...(values.seconds && { seconds: Number(values.seconds) }),
    };
    for (const line of await benchSlackWorkspaces(app, options)) process.stdout.write(`${line}\n`);
  } finally {
    await app.close();
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
