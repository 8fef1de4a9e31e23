/**
 * `npm start` as a process (adapters/main.ts), every secret setting set to a marker of its own,
 * and all it writes (stdout and stderr: log lines, replies, the words of a failed start) read for
 * those markers, which must never be there:
 * - a start that serves: Discord and Slack's install flow on loopback fakes at LOG_LEVEL=debug
 *   (where Slack's Web API client logs the bodies it sends, the client secret among them), a
 *   workspace installed, and an interaction discord.js cannot read (an error escaping the
 *   adapter, with its stack);
 * - the terminal looking up papers it lacks from an OpenReview that quotes the login it was sent
 *   back in its refusal, and from an arXiv URL that carries a password;
 * - failed starts: a configuration with problems (every secret setting set at once), a database
 *   that does not answer, and platforms that do not answer.
 * The markers come from the schema's own list of secret settings (SECRET_SETTINGS), so a secret
 * added later is covered here too.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema, SECRET_SETTINGS } from '../../../src/config.js';
import { botScopes } from '../../../adapters/slack/manifest.js';
import { FakeDiscord } from '../discord/fakeDiscord.js';
import { fromFixture } from '../discord/payloads.js';
import { FakeSlack } from '../slack/fakeSlack.js';
import { CLIENT_ID, FakeOAuth } from '../slack/fakeOAuth.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** A marker of its own for `name`: what must never be written (its random part). */
function marker(name: string): { value: string; mark: string } {
  const mark = randomBytes(16).toString('hex');
  return { value: `${name.toLowerCase()}-${mark}`, mark };
}

/** A marker password for a URL, with characters that URL-encoding changes (`@`, `/`, `ö`). */
function urlPassword(): { encoded: string; mark: string } {
  const mark = randomBytes(16).toString('hex');
  return { encoded: encodeURIComponent(`p@ss/wörd-${mark}`), mark };
}

let dataDirs: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'paperscout-secrets-'));
  dataDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  dataDirs = [];
});

interface Run {
  /** Everything written so far, stdout and stderr. */
  output(): string;
  /** Resolves once the output matches `pattern`; fails with the output when the process exits first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Writes a line to its stdin. */
  type(line: string): void;
  /** SIGTERM, then the exit. */
  stop(): Promise<{ code: number | null; signal: string | null }>;
  exited: Promise<{ code: number | null; signal: string | null }>;
}

/** `npm start` with `env` (on top of a test environment with nothing configured). */
function start(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'adapters/main.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_FORMAT: 'json', LOG_LEVEL: 'debug', DIGEST_SCHEDULER: 'off', LOOKUP_UPSTREAM: 'off', WEB: 'off', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let exit: { code: number | null; signal: string | null } | undefined;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  child.stdout.on('data', (c: Buffer) => ((output += c.toString('utf8')), changed()));
  child.stderr.on('data', (c: Buffer) => ((output += c.toString('utf8')), changed()));
  child.stdin.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('close', (code, signal) => {
      exit = { code, signal };
      changed();
      resolve(exit);
    }),
  );
  return {
    output: () => output,
    waitFor: (pattern, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(output)) done();
          else if (exit) done(new Error(`the process exited (${JSON.stringify(exit)}) before ${pattern}: ${output.slice(-3000)}`));
        };
        const timer = setTimeout(() => done(new Error(`no ${pattern} within ${timeoutMs} ms: ${output.slice(-3000)}`)), timeoutMs);
        const done = (err?: Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (err) reject(err);
          else resolve();
        };
        listeners.add(check);
        check();
      }),
    type: (line) => child.stdin.write(`${line}\n`),
    async stop() {
      if (!exit) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
    exited,
  };
}

/** Fails naming each marker `text` holds. */
function expectNone(text: string, marks: Record<string, string>): void {
  const leaked = Object.entries(marks).filter(([, mark]) => text.includes(mark)).map(([name]) => name);
  expect(leaked, `secrets in the output:\n${text.split('\n').filter((l) => Object.values(marks).some((m) => l.includes(m))).slice(0, 5).join('\n')}`).toEqual([]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** An OpenReview that refuses every login, quoting back what it was sent (as a careless service might). */
async function quotingOpenReview(): Promise<{ url: string; logins: () => number; close(): Promise<void> }> {
  let logins = 0;
  const server: Server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url?.startsWith('/login')) logins++;
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'ForbiddenError', message: `Invalid credentials: ${body}` }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    logins: () => logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('no secret setting reaches what npm start writes', () => {
  let discord: FakeDiscord;
  let slack: FakeSlack;
  beforeAll(async () => {
    discord = await FakeDiscord.start();
    slack = await FakeSlack.start();
  });
  afterAll(async () => {
    await discord?.close();
    await slack?.close();
  });

  it('in a start that serves Discord and the Slack install flow at debug, through an install and an error escaping discord.js', async () => {
    const secrets = { SLACK_CLIENT_SECRET: marker('SLACK_CLIENT_SECRET'), SLACK_STATE_SECRET: marker('SLACK_STATE_SECRET'), INSTALLATION_KEY: marker('INSTALLATION_KEY'), SLACK_SIGNING_SECRET: marker('SLACK_SIGNING_SECRET'), OPENREVIEW_PASSWORD: marker('OPENREVIEW_PASSWORD') };
    const oauth = new FakeOAuth(slack, { scopes: botScopes(), clientSecret: secrets.SLACK_CLIENT_SECRET.value });
    const port = await freePort();
    const run = start({
      DATA_DIR: newDataDir(),
      PORT: String(port),
      DISCORD_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
      SLACK_API_URL: slack.apiUrl,
      SLACK_CLIENT_ID: CLIENT_ID,
      OPENREVIEW_USERNAME: 'scout@lab.example',
      ...Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, v.value])),
    });
    try {
      await run.waitFor(/connected to Discord/);
      await run.waitFor(/Slack adapter connected \(HTTP mode\)/);
      const base = `http://127.0.0.1:${port}`;
      const page = await fetch(`${base}/slack/install`);
      const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
      const state = /state=([^&"]+)/.exec((await page.text()).replaceAll('&amp;', '&'))![1]!;
      const installed = await fetch(`${base}/slack/oauth_redirect?${new URLSearchParams({ code: oauth.approve('T1'), state: decodeURIComponent(state) })}`, { headers: { cookie } });
      expect(installed.status).toBe(200);
      await run.waitFor(/Slack: app installed in a workspace/);
      // What Slack's client logs at debug: the exchange's request body went through the log.
      expect(run.output()).toMatch(/oauth\.v2\.access/);

      const unreadable = { ...fromFixture(discord, 'docs-chat-input'), member: undefined };
      await discord.interact(unreadable);
      await run.waitFor(/"level":50[^\n]*INTERACTION_CREATE/);
    } finally {
      await run.stop();
    }
    expectNone(run.output(), { DISCORD_TOKEN: discord.token.split('.').at(-1)!, ...Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, v.mark])) });
  }, 90_000);

  it('in the terminal, looking papers up from services that quote credentials back or carry them in a URL', async () => {
    const openreview = await quotingOpenReview();
    const password = marker('OPENREVIEW_PASSWORD');
    const arxiv = urlPassword();
    const run = start({
      DATA_DIR: newDataDir(),
      LOOKUP_UPSTREAM: 'on',
      OPENREVIEW_API_URL: openreview.url,
      OPENREVIEW_USERNAME: 'scout@lab.example',
      OPENREVIEW_PASSWORD: password.value,
      ARXIV_API_URL: `http://scout:${arxiv.encoded}@127.0.0.1:9/api/query`,
    });
    try {
      await run.waitFor(/starting the terminal adapter/);
      run.type('/paper https://openreview.net/forum?id=Zx7Gk2aQpP');
      run.type('/paper arxiv:2401.01234');
      run.type('/help');
      await run.waitFor(/\/paper: Search papers/);
      await run.waitFor(/lookup of a missing paper failed[\s\S]*lookup of a missing paper failed/);
      expect(openreview.logins()).toBeGreaterThan(0);
    } finally {
      await run.stop();
      await openreview.close();
    }
    expectNone(run.output(), { OPENREVIEW_PASSWORD: password.mark, ARXIV_API_URL: arxiv.mark });
  }, 90_000);

  it('in a failed start: a configuration with problems, with every secret setting and URL password set', async () => {
    const marks: Record<string, string> = {};
    const env: Record<string, string> = { DATA_DIR: newDataDir(), PORT: 'not-a-port', SLACK_CLIENT_ID: CLIENT_ID };
    for (const key of SECRET_SETTINGS) {
      const m = marker(key);
      env[key] = m.value;
      marks[key] = m.mark;
    }
    for (const key of Object.keys(ConfigSchema.shape).filter((k) => k.endsWith('_URL') && k !== 'PUBLIC_URL')) {
      const pw = urlPassword();
      env[key] = `${key === 'DATABASE_URL' ? 'postgres' : 'http'}://scout:${pw.encoded}@127.0.0.1:9/`;
      marks[key] = pw.mark;
    }
    const run = start(env);
    const { code } = await run.exited;
    expect(code).toBe(2);
    expect(run.output()).toMatch(/Configuration has \d+ problem/);
    expectNone(run.output(), marks);
  }, 60_000);

  it('in a failed start: a database that does not answer', async () => {
    const db = urlPassword();
    const token = marker('DISCORD_TOKEN');
    const port = await freePort();
    const run = start({ DATA_DIR: newDataDir(), DISCORD_TOKEN: token.value, DATABASE_URL: `postgres://scout:${db.encoded}@127.0.0.1:${port}/paperscout` });
    try {
      await run.waitFor(new RegExp(`127\\.0\\.0\\.1:${port}/paperscout[\\s\\S]*127\\.0\\.0\\.1:${port}/paperscout`));
    } finally {
      await run.stop();
    }
    expectNone(run.output(), { DATABASE_URL: db.mark, DISCORD_TOKEN: token.mark });
  }, 60_000);

  it('in a failed start: platforms that do not answer', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const secrets = { DISCORD_TOKEN: marker('DISCORD_TOKEN'), SLACK_BOT_TOKEN: marker('SLACK_BOT_TOKEN'), SLACK_APP_TOKEN: marker('SLACK_APP_TOKEN') };
    const run = start({
      DATA_DIR: newDataDir(),
      PORT: '0',
      DISCORD_TOKEN: secrets.DISCORD_TOKEN.value,
      DISCORD_API_URL: `${down}/api`,
      SLACK_BOT_TOKEN: `xoxb-${secrets.SLACK_BOT_TOKEN.value}`,
      SLACK_APP_TOKEN: `xapp-${secrets.SLACK_APP_TOKEN.value}`,
      SLACK_API_URL: `${down}/api/`,
    });
    try {
      await run.waitFor(/discord[\s\S]*(ECONNREFUSED|refused|failed)[\s\S]*/i);
      await run.waitFor(/slack[\s\S]*(ECONNREFUSED|refused|failed)/i);
    } finally {
      await run.stop();
    }
    expectNone(run.output(), Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, v.mark])));
  }, 60_000);
});
