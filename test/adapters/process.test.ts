/**
 * `npm start` as a process, with Discord and Slack both connected to loopback fakes: a payload
 * discord.js cannot read (Discord's own documented slash-command example, which lacks fields
 * discord.js expects) must not end the process. The next Discord interaction is answered, and
 * so is Slack. Only a real process shows this: an exception in discord.js's gateway handler is
 * an unhandled rejection, and Node ends a process on one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from './discord/fakeDiscord.js';
import { messageOf } from './discord/harness.js';
import { fromFixture, slashCommand } from './discord/payloads.js';
import { BOT_TOKEN, FakeSlack } from './slack/fakeSlack.js';
import { SIGNING_SECRET, fixture, send } from './slack/harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

let discord: FakeDiscord;
let slack: FakeSlack;
let dataDir: string;
let child: ChildProcess;
let slackUrl: string;
const lines: Array<Record<string, unknown>> = [];
let stderr = '';
let exited: { code: number | null; signal: string | null } | undefined;
/** Emits `change` on every log line and on exit. */
const changes = new EventEmitter();
/** Rejects when the process exits (before the tests end it). */
let exit: Promise<never>;

beforeAll(async () => {
  discord = await FakeDiscord.start();
  slack = await FakeSlack.start();
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-process-'));
  const port = await freePort();
  slackUrl = `http://127.0.0.1:${port}/slack/events`;
  child = spawn(process.execPath, ['--import', 'tsx', join(root, 'adapters/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      DIGEST_SCHEDULER: 'off',
      DISCORD_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The log (JSON lines) goes to stderr; anything else there is kept for the failure message.
  let buffered = '';
  child.stdout!.resume();
  child.stderr!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const line of parts) {
      if (line.startsWith('{"level"')) lines.push(JSON.parse(line) as Record<string, unknown>);
      else stderr += `${line}\n`;
    }
    changes.emit('change');
  });
  exit = new Promise<never>((_, reject) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      changes.emit('change');
      reject(new Error(`the process exited (${JSON.stringify(exited)}): ${stderr.slice(-2000)}`));
    }),
  );
  exit.catch(() => undefined); // observed through whileUp; the tests' own stop is not a failure
  // The platforms connect under a supervisor after the service is up: wait for both.
  await until(
    () => lines.some((l) => l.msg === 'connected to Discord') && lines.some((l) => l.msg === 'Slack adapter connected (HTTP mode)'),
    'both platforms connected',
    30_000,
  );
}, 40_000);

afterAll(async () => {
  if (child && !exited) {
    child.kill('SIGTERM');
    await until(() => exited !== undefined, 'the process to exit', 10_000).catch(() => child.kill('SIGKILL'));
  }
  await discord?.close();
  await slack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start with Discord and Slack', () => {
  it('answers Discord’s documented slash-command example, then the next interaction, and Slack too', async () => {
    const documented = fromFixture(discord, 'docs-chat-input');
    const answer = await whileUp(discord.interact(documented));
    expect(answer.body.type).toBe(4);
    expect(messageOf(answer).embeds[0].title).toBe('1. Attention Is All You Need');

    const next = await whileUp(discord.interact(slashCommand(discord, 'paper', { query: 'learning' })));
    expect(messageOf(next).content).toMatch(/Papers for “learning”/);

    const responseUrl = slack.responseUrl();
    const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), command: '/paper', text: 'diffusion', response_url: responseUrl });
    expect((await send(slackUrl, body.toString(), 'application/x-www-form-urlencoded')).status).toBe(200);
    const [post] = await whileUp(slack.waitForPosts(responseUrl, 1, 10_000));
    expect(post!.text).toContain('Papers for “diffusion”');
    expect(exited).toBeUndefined();
  });

  it('answers an interaction discord.js cannot read at all with an apology, logs it once, and stays up', async () => {
    const unreadable = { ...fromFixture(discord, 'docs-chat-input'), member: undefined };
    const answer = await whileUp(discord.interact(unreadable));
    expect(answer.body).toMatchObject({ type: 4, data: { flags: 64, allowed_mentions: { parse: [] } } });
    expect(answer.body.data.content).toMatch(/^Sorry, something went wrong on our side\. .* reference [0-9a-f]{8}\.$/);
    const reference = /reference ([0-9a-f]{8})/.exec(answer.body.data.content)![1];
    await until(() => lines.some((l) => l.reference === reference), 'the log line');
    const logged = lines.filter((l) => l.reference === reference);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, packet: 'INTERACTION_CREATE', interactionType: 2, interaction: unreadable.id });

    const next = await whileUp(discord.interact(slashCommand(discord, 'help')));
    expect(next.body.type).toBe(4);
    expect(exited).toBeUndefined();
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `promise`, or a failure with the process's last words as soon as the process exits. */
function whileUp<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([promise, exit]);
}

/** Resolves once `done()` holds, checked on every log line; fails at once if the process exits. */
function until(done: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (done()) finish();
      else if (exited) finish(new Error(`the process exited (${JSON.stringify(exited)}) while waiting for ${what}: ${stderr.slice(-2000)}`));
    };
    const timer = setTimeout(() => finish(new Error(`no ${what} within ${timeoutMs} ms; log: ${JSON.stringify(lines.slice(-5))} ${stderr.slice(-2000)}`)), timeoutMs);
    const finish = (err?: Error) => {
      clearTimeout(timer);
      changes.off('change', check);
      if (err) reject(err);
      else resolve();
    };
    changes.on('change', check);
    check();
  });
}
