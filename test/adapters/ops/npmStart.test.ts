/**
 * `npm start` as a supervisor runs it: spawned, signalled through the npm process only, against
 * loopback fakes of Slack (HTTP mode) and Discord. What must hold: the bot gets the signal,
 * stops taking requests, finishes the one under way, checkpoints SQLite, exits 0, and leaves no
 * process behind; a second signal ends it at once; a crash inside discord.js restarts Discord
 * while Slack keeps answering; a signed Slack request Bolt cannot read gets 400 and leaves the
 * port answering; no secret reaches the log.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeDiscord } from '../discord/fakeDiscord.js';
import { messageOf } from '../discord/harness.js';
import { slashCommand as discordCommand } from '../discord/payloads.js';
import { BOT_TOKEN, FakeSlack } from '../slack/fakeSlack.js';
import { SIGNING_SECRET, fixture, send } from '../slack/harness.js';
import { HoldingServer } from './helpers/holdingServer.js';
import { DUPLICATE_SIGNAL_MS } from '../../../adapters/ops/signals.js';
import { alive, descendants, spawnNpmStart, type SpawnedBot, type SpawnOptions } from './helpers/spawned.js';

const FORM = 'application/x-www-form-urlencoded';

let dataDir: string;
let slack: FakeSlack;
let hooks: HoldingServer;
let bot: SpawnedBot | undefined;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-npm-start-'));
  slack = await FakeSlack.start();
  hooks = await HoldingServer.start();
});

afterEach(async () => {
  bot?.kill();
  bot = undefined;
  await hooks.close();
  await slack.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** npm start with Slack in HTTP mode on a free port; resolves once Slack is connected. */
async function startWithSlack(extra: Record<string, string> = {}, options: SpawnOptions = {}): Promise<{ bot: SpawnedBot; events: string }> {
  const started = spawnNpmStart(
    {
      DATA_DIR: dataDir,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'debug',
      ...extra,
    },
    options,
  );
  bot = started;
  const { port } = await started.waitForLog((l) => l.msg === 'Slack adapter listening (HTTP mode)', 'Slack listening');
  await started.waitForLog((l) => l.msg === 'Slack adapter connected (HTTP mode)', 'Slack connected');
  return { bot: started, events: `http://127.0.0.1:${port}/slack/events` };
}

/** A signed /paper whose answer goes to `responseUrl`. */
function paper(events: string, text: string, responseUrl: string) {
  const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), command: '/paper', text, response_url: responseUrl });
  return send(events, body.toString(), FORM);
}

describe('SIGTERM to the npm process', () => {
  it('finishes the request under way, takes no new one, checkpoints SQLite, exits 0 and leaves no process behind', async () => {
    const { bot, events } = await startWithSlack();
    expect((await fetch(events.replace('/slack/events', '/readyz'))).status).toBe(200);

    const ack = await paper(events, 'attention', hooks.url('/answer/1'));
    expect(ack.status).toBe(200);
    const answer = await hooks.next(); // the bot's answer is on its way, held here
    const tree = descendants(bot.pid);
    expect(tree.length).toBeGreaterThan(0);

    process.kill(bot.pid, 'SIGTERM');
    await bot.waitForLog((l) => /^shutting down/.test(l.msg), 'shutting down');
    // No new work: the listener is closed.
    await expect(paper(events, 'transformers', hooks.url('/answer/2'))).rejects.toThrow();

    expect(answer.reset).toBe(false);
    answer.release();
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(answer.reset).toBe(false);
    expect(JSON.parse(answer.body).blocks.length).toBeGreaterThan(0);
    for (const pid of [bot.pid, ...tree]) expect(alive(pid), `process ${pid}`).toBe(false);

    // Checkpointed: the write-ahead log is folded back into the database and truncated.
    const wal = join(dataDir, 'paperscout.db-wal');
    expect(statSync(wal, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    expect(bot.lines().map((l) => l.msg), bot.stderr).toContain('stopped');
    // No secret in a log written at debug level.
    expect(bot.stderr).not.toContain(BOT_TOKEN);
    expect(bot.stderr).not.toContain(SIGNING_SECRET);
  });

  it('exits at once on a second signal a moment later, still leaving no process behind', async () => {
    const { bot, events } = await startWithSlack();
    await paper(events, 'attention', hooks.url('/answer/1'));
    const answer = await hooks.next(); // keeps the shutdown waiting
    const tree = descendants(bot.pid);

    process.kill(bot.pid, 'SIGTERM');
    const first = performance.now();
    await bot.waitForLog((l) => /^shutting down/.test(l.msg), 'shutting down');
    await sleep(first + DUPLICATE_SIGNAL_MS + 100 - performance.now());
    process.kill(bot.pid, 'SIGTERM');
    const exit = await bot.exited;
    expect(exit.code).toBe(143);
    expect(bot.lines().map((l) => l.msg)).toContain('second signal: exiting at once');
    expect(bot.lines().map((l) => l.msg)).not.toContain('stopped');
    for (const pid of [bot.pid, ...tree]) expect(alive(pid), `process ${pid}`).toBe(false);
    answer.release();
  });

  it('SIGINT stops it the same way', async () => {
    const { bot } = await startWithSlack();
    process.kill(bot.pid, 'SIGINT');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(bot.lines().find((l) => /^shutting down/.test(l.msg))).toMatchObject({ reason: 'SIGINT' });
  });
});

describe('a stop request sent to the whole process group (Ctrl-C, systemctl stop, kill -TERM -<pgid>)', () => {
  // npm and the bot both get it, and npm passes its copy on: the bot sees the signal twice.
  it.each(['SIGTERM', 'SIGINT'] as const)('%s: drains the request under way once, and exits 0', async (signal) => {
    const { bot, events } = await startWithSlack({}, { group: true });
    await paper(events, 'attention', hooks.url('/answer/1'));
    const answer = await hooks.next(); // keeps the drain waiting
    const tree = descendants(bot.pid);

    bot.signalGroup(signal);
    await bot.waitForLog((l) => /^shutting down/.test(l.msg), 'shutting down');
    await sleep(DUPLICATE_SIGNAL_MS + 100); // both copies have long arrived: still draining
    expect(bot.lines().map((l) => l.msg)).not.toContain('second signal: exiting at once');
    expect(answer.reset).toBe(false);
    answer.release();
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    expect(JSON.parse(answer.body).blocks.length).toBeGreaterThan(0);
    const messages = bot.lines().map((l) => l.msg);
    expect(messages.filter((m) => /^shutting down/.test(m))).toHaveLength(1);
    expect(messages).toContain('stopped');
    expect(messages).not.toContain('second signal: exiting at once');
    for (const pid of [bot.pid, ...tree]) expect(alive(pid), `process ${pid}`).toBe(false);
  });

  it('a second request to the group a moment later exits at once', async () => {
    const { bot, events } = await startWithSlack({}, { group: true });
    await paper(events, 'attention', hooks.url('/answer/1'));
    const answer = await hooks.next();
    bot.signalGroup('SIGTERM');
    const first = performance.now();
    await bot.waitForLog((l) => /^shutting down/.test(l.msg), 'shutting down');
    await sleep(first + DUPLICATE_SIGNAL_MS + 100 - performance.now());
    bot.signalGroup('SIGTERM');
    expect((await bot.exited).code).toBe(143);
    expect(bot.lines().map((l) => l.msg)).toContain('second signal: exiting at once');
    answer.release();
  });

  it('the terminal adapter stops with exit 0', async () => {
    const started = spawnNpmStart({ DATA_DIR: dataDir, LOG_FORMAT: 'json' }, { group: true });
    bot = started;
    await started.waitForLog((l) => /starting the terminal adapter/.test(l.msg), 'terminal');
    started.signalGroup('SIGTERM');
    expect(await started.exited).toEqual({ code: 0, signal: null });
  });
});

describe('the terminal adapter', () => {
  it('answers from a pipe, and stops with exit 0 on SIGTERM while waiting for input', async () => {
    const started = spawnNpmStart({ DATA_DIR: dataDir, LOG_FORMAT: 'json' });
    bot = started;
    await started.waitForLog((l) => /starting the terminal adapter/.test(l.msg), 'terminal');
    started.npm.stdin!.write('/paper attention\n');
    await vi.waitFor(() => expect(started.stdout).toContain('Attention Is All You Need'), { timeout: 10_000 });
    const tree = descendants(started.pid);
    process.kill(started.pid, 'SIGTERM');
    expect(await started.exited).toEqual({ code: 0, signal: null });
    for (const pid of [started.pid, ...tree]) expect(alive(pid), `process ${pid}`).toBe(false);
  });
});

describe('a signed Slack request whose body is null', () => {
  it('gets 400, restarts nothing, and the port keeps answering: Slack, the site and /healthz', async () => {
    const { bot, events } = await startWithSlack({ LOG_LEVEL: 'info' });
    const origin = events.replace('/slack/events', '');
    const refused = await send(events, 'null', 'application/json');
    expect(refused.status).toBe(400);
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${origin}/search?q=attention`)).text()).toContain('Attention Is All You Need');
    await paper(events, 'attention', hooks.url('/answer/1'));
    const answer = await hooks.next();
    answer.release();
    expect(JSON.parse(answer.body).blocks.length).toBeGreaterThan(0);
    expect(bot.lines().filter((l) => l.level >= 50)).toEqual([]);
    process.kill(bot.pid, 'SIGTERM');
    expect((await bot.exited).code).toBe(0);
  });
});

describe('a platform client that fails', () => {
  let discord: FakeDiscord;
  beforeEach(async () => {
    discord = await FakeDiscord.start();
  });
  afterEach(() => discord.close());

  it('is restarted when its gateway client throws outside the packet guard, while Slack keeps answering', async () => {
    const { bot, events } = await startWithSlack({ DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, LOG_LEVEL: 'info' });
    await bot.waitForLog((l) => l.msg === 'connected to Discord', 'Discord connected');
    expect(discord.identifies).toHaveLength(1);

    // A packet discord.js cannot read is dropped by the guard in front of it: no restart needed.
    discord.dispatch('CHANNEL_CREATE', null);
    await bot.waitForLog((l) => /could not read a gateway packet/.test(String(l.msg)), 'the dropped packet');

    // A malformed READY breaks the gateway client itself (@discordjs/ws), where nothing of ours can catch it.
    discord.dispatch('READY', null);
    const crash = await bot.waitForLog((l) => l.adapter === 'discord' && /failed; restarting it/.test(l.msg), 'discord restarted');
    expect(crash.err.message).toMatch(/Cannot read properties of null/);

    // Slack never went down…
    await paper(events, 'attention', hooks.url('/answer/1'));
    const answer = await hooks.next();
    answer.release();
    expect(JSON.parse(answer.body).blocks.length).toBeGreaterThan(0);
    // …and Discord is back, with a new session, answering.
    await bot.waitForLog(() => bot.lines().filter((l) => l.msg === 'connected to Discord').length === 2, 'Discord reconnected', 20_000);
    expect(discord.identifies).toHaveLength(2);
    const reply = await discord.interact(discordCommand(discord, 'paper', { query: 'attention' }));
    expect(messageOf(reply).content).toMatch(/Papers for “attention”/);

    process.kill(bot.pid, 'SIGTERM');
    expect((await bot.exited).code).toBe(0);
  });
});
