/**
 * The Discord adapter over time: buttons that outlive the process, a core too slow for
 * Discord's 3 s, and failures that are ours. All through discord.js and the loopback Discord.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployCommands } from '../../../adapters/discord/deploy.js';
import { startDiscord } from '../../../adapters/discord/index.js';
import type { App } from '../../../src/app.js';
import type { CommandRegistry } from '../../../src/commands/registry.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FakeDiscord } from './fakeDiscord.js';
import { button, expectWellBehaved, menuValues, messageOf, startBot } from './harness.js';
import { botMessage, buttonClick, menuChoice, slashCommand } from './payloads.js';

describe('buttons after a restart', () => {
  let fake: FakeDiscord;
  let dataDir: string;
  beforeAll(async () => {
    fake = await FakeDiscord.start();
    dataDir = mkdtempSync(join(tmpdir(), 'paperscout-discord-restart-'));
  });
  afterAll(async () => {
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('Next still pages a search made before the bot restarted', async () => {
    const before = await createTestApp({ dataDir });
    const first = await startBot(before, { fake });
    const page = messageOf(await fake.interact(slashCommand(fake, 'paper', { query: 'learning' })));
    const next = button(page, /Next/).custom_id as string;
    const open = menuValues(page)[2]!;
    await first.stop();
    await before.close();
    expect(fake.sessions).toBe(0);

    const after = await createTestApp({ dataDir, empty: true });
    const second = await startBot(after, { fake });
    try {
      expect(fake.sessions).toBe(1);
      const paged = await fake.interact(buttonClick(fake, next, botMessage(fake, page)));
      expect(paged.body.type).toBe(7);
      expect(messageOf(paged).content).toBe('**Papers for “learning”**\n-# 12 papers · page 2 of 3');
      const opened = messageOf(await fake.interact(menuChoice(fake, 'menu', [open], botMessage(fake, page))));
      expect(opened.embeds[0].title).toBe(page.embeds[2].title.replace(/^3\. /, ''));
      expect(button(opened, /Back/).custom_id).toBe(next.replace(/:1$/, ':0'));
      expectWellBehaved(fake);
    } finally {
      await second.stop();
      await after.close();
    }
  });
});

describe('a core slower than Discord allows', () => {
  let app: TestApp;
  let slow: App;
  beforeAll(async () => {
    app = await createTestApp();
    // The real registry, 80 ms late: past the (shortened) defer threshold below.
    const registry = Object.create(app.registry) as CommandRegistry;
    registry.run = async (...args) => (await sleep(80), app.registry.run(...args));
    registry.act = async (...args) => (await sleep(80), app.registry.act(...args));
    slow = { ...app, registry };
  });
  afterAll(() => app?.dispose());

  it('defers a command at once, then edits in the answer', async () => {
    const bot = await startBot(slow, { deferAfterMs: 10 });
    try {
      const payload = slashCommand(bot.fake, 'paper', { query: 'learning' });
      const deferred = await bot.fake.interact(payload);
      expect(deferred.body).toEqual({ type: 5, data: { flags: 0 } });
      const edit = await bot.fake.waitFor((r) => r.token === payload.token && r.kind === 'edit');
      expect(edit.method).toBe('PATCH');
      expect(edit.path).toMatch(/\/messages\/@original$/);
      expect(edit.body.content).toBe('**Papers for “learning”**\n-# 12 papers · page 1 of 3');
      expect(edit.body.embeds).toHaveLength(5);

      const click = buttonClick(bot.fake, button(edit.body, /Next/).custom_id, botMessage(bot.fake, edit.body));
      expect((await bot.fake.interact(click)).body).toEqual({ type: 6 });
      const paged = await bot.fake.waitFor((r) => r.token === click.token && r.kind === 'edit');
      expect(paged.body.content).toContain('page 2 of 3');
      expectWellBehaved(bot.fake);
    } finally {
      await bot.stop();
    }
  });

  it('turns a deferred answer that must be private into a private follow-up', async () => {
    const bot = await startBot(slow, { deferAfterMs: 10 });
    try {
      const payload = slashCommand(bot.fake, 'topic', { name: 'zzqx qqzv' });
      expect((await bot.fake.interact(payload)).body.type).toBe(5);
      const followUp = await bot.fake.waitFor((r) => r.token === payload.token && r.kind === 'followup');
      expect(followUp.body).toMatchObject({ content: expect.stringMatching(/^No topic matches/), flags: 64 });
      expect(bot.fake.requestsFor(payload.token).map((r) => `${r.kind} ${r.method}`)).toEqual(['callback POST', 'delete DELETE', 'followup POST']);
      expectWellBehaved(bot.fake);
    } finally {
      await bot.stop();
    }
  });
});

describe('failures that are ours', () => {
  it('logs the cause under a reference and shows the user an apology with it', async () => {
    const app = await createTestApp();
    const lines: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
    const broken: App = { ...app, log, context: (platform, user, extra) => app.context(platform, user, { ...extra, log }) };
    const bot = await startBot(broken);
    try {
      await app.stores.close(); // every search now fails when it saves its state
      const reply = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'learning' })));
      expect(reply.flags).toBe(64);
      const reference = /reference ([0-9a-f]{8})\.$/.exec(reply.content)?.[1];
      expect(reference).toBeDefined();
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.reference === reference);
      expect(logged).toMatchObject({ msg: 'command failed', platform: 'discord', command: 'paper', err: { message: expect.stringContaining('database connection is not open') } });
      expectWellBehaved(bot.fake);
    } finally {
      await bot.stop();
      await app.dispose();
    }
  });

  it('logs an answer Discord refuses, with its cause', async () => {
    const app = await createTestApp();
    const lines: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
    const bot = await startBot({ ...app, log });
    try {
      bot.fake.failCallbacks = { status: 404, message: 'Unknown interaction', code: 10062 };
      const payload = slashCommand(bot.fake, 'paper', { query: 'learning' });
      await bot.fake.interact(payload);
      // The answer, then the apology: both refused.
      await bot.fake.waitFor((r) => r.token === payload.token && r.kind === 'callback' && r.body.data?.flags === 64);
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'Discord: could not answer an interaction');
      expect(logged).toMatchObject({ interaction: payload.id, reference: expect.stringMatching(/^[0-9a-f]{8}$/), err: { message: 'Unknown interaction', code: 10062 } });
    } finally {
      await bot.stop();
      await app.dispose();
    }
  });

  it('refuses to start with a token Discord rejects, saying what to check', async () => {
    const fake = await FakeDiscord.start();
    const app = await createTestApp();
    try {
      await expect(startDiscord(app, { token: 'not-the-token', apiUrl: fake.apiUrl })).rejects.toThrow(
        /^Discord did not accept DISCORD_TOKEN \(DISCORD_API_URL http:\/\/127\.0\.0\.1:\d+\/api\): An invalid token was provided\. Copy the bot token from the Discord developer portal/,
      );
      expect(fake.sessions).toBe(0);
    } finally {
      await app.dispose();
      await fake.close();
    }
  });
});

describe('start-up', () => {
  it('warns when the commands registered with Discord are not this version’s, until they are deployed', async () => {
    const fake = await FakeDiscord.start();
    const app = await createTestApp();
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    try {
      const first = await startBot({ ...app, log }, { fake });
      await first.stop();
      const warning = lines.map((l) => JSON.parse(l)).find((l) => /deploy:discord/.test(l.msg));
      expect(warning).toMatchObject({ adapter: 'discord', missing: app.registry.commands.map((c) => c.name), changed: [], extra: [] });

      await deployCommands({ token: fake.token, apiUrl: fake.apiUrl }, () => undefined);
      lines.length = 0;
      const second = await startBot({ ...app, log }, { fake });
      await second.stop();
      expect(lines.map((l) => JSON.parse(l).msg)).toEqual([]);
    } finally {
      await app.dispose();
      await fake.close();
    }
  });
});
