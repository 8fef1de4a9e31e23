/**
 * Another process holds the database's write lock (issue 12: 20 s froze the whole bot). The
 * serving bot, through the real Discord and Slack adapters, must still answer searches and
 * paging, keep the new searches' button state in memory until the lock is free, then write it,
 * and say so when a command needed a write it could not make.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openApp, type App } from '../../src/app.js';
import { messages } from '../../src/i18n/index.js';

const BUSY_MESSAGE = messages('en').t('error.busy');
const PAGING_UNAVAILABLE = messages('en').t('paper.pagingUnavailable');
import { openDatabase } from '../../src/store/sqlite/db.js';
import { sqliteStateStore } from '../../src/store/sqlite/states.js';
import { createTestApp } from '../helpers/app.js';
import { holdWriteLock } from './helpers/holdWriteLock.js';
import { FIXTURE_PAPERS, silentLog } from '../helpers/corpus.js';
import { button as discordButton, messageOf, startBot, type Bot } from '../adapters/discord/harness.js';
import { botMessage, buttonClick, slashCommand } from '../adapters/discord/payloads.js';
import { button, clickPayload, startHarness, textOf, type SlackHarness } from '../adapters/slack/harness.js';
import type { Json } from '../adapters/slack/fakeSlack.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** A member's permissions with Manage Channels (1 << 4), which /digest subscribe asks for on Discord. */
const MANAGER = String(2248473465835073n | 16n);

/** The state id in a button's action handle (`paper:page:<id>:<page>`). */
const stateIdOf = (handle: string): string => /paper:page:(\w+):/.exec(handle)![1]!;

let dataDir: string;
let app: App;
let h: SlackHarness;
let bot: Bot;
let lock: { release(): Promise<void> } | undefined;

beforeEach(async () => {
  // Built (and its index saved) once as the CLI would, then opened as `npm start` serving users.
  const built = await createTestApp();
  await built.close();
  dataDir = built.dataDir;
  app = await openApp(built.config, silentLog, { serving: true });
  h = await startHarness(app);
  bot = await startBot(app);
});
afterEach(async () => {
  await lock?.release();
  lock = undefined;
  await bot.stop();
  await h.stop({ fake: true });
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function slackPaper(query: string): Promise<Json> {
  const res = await h.command('/paper', query);
  expect(res.status).toBe(200);
  return (await h.fake.waitForPosts(res.responseUrl))[0]!;
}

async function slackClick(element: Json): Promise<Json> {
  const res = await h.action(clickPayload(element));
  expect(res.status).toBe(200);
  return (await h.fake.waitForPosts(res.responseUrl))[0]!;
}

describe('while another process holds the write lock', () => {
  it('searches and paging answer on both platforms, and the new buttons’ state is written once the lock is free', async () => {
    const before = await slackPaper('learning');
    lock = await holdWriteLock(app.config.dbPath);

    // Slack: a new search has its Prev/Next, and they work; so do the buttons of an older one.
    // (Nine papers of the fixture have "models": two pages.)
    const first = await slackPaper('models');
    expect(textOf(first)).toContain('page 1 of 2');
    const second = await slackClick(button(first, 'Next ▶'));
    expect(textOf(second)).toContain('page 2 of 2');
    expect(textOf(await slackClick(button(before, 'Next ▶')))).toContain('page 2 of');

    // Discord: the same through discord.js.
    const page = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'learning' })));
    expect(page.content).toBe('**Papers for “learning”**\n-# 12 papers · page 1 of 3');
    const next = await bot.fake.interact(buttonClick(bot.fake, discordButton(page, /Next/).custom_id, botMessage(bot.fake, page)));
    expect(messageOf(next).content).toBe('**Papers for “learning”**\n-# 12 papers · page 2 of 3');

    // The two searches' state waits in memory; retrying does not wait for the lock, nor does housekeeping.
    expect(await app.states.purge(new Date())).toBeUndefined();
    const ids = [stateIdOf(button(first, 'Next ▶').value), stateIdOf(discordButton(page, /Next/).custom_id)];
    expect(app.states.pendingCount).toBe(2);
    expect(await app.states.flush()).toBe(2);

    // A command that must write says that it could not, and that nothing changed.
    const subscribe = await bot.fake.interact(slashCommand(bot.fake, 'digest', { topic: 'llm' }, { subcommand: 'subscribe', permissions: MANAGER }));
    expect(messageOf(subscribe).content).toBe(BUSY_MESSAGE);
    expect(await app.digests.active()).toEqual([]);

    await lock.release();
    expect(await app.states.flush()).toBe(0);
    const reader = new Database(app.config.dbPath, { readonly: true });
    try {
      const saved = reader.prepare('SELECT id FROM interaction_state WHERE id IN (?, ?)').all(...ids);
      expect(saved.map((r: any) => r.id).sort()).toEqual([...ids].sort());
    } finally {
      reader.close();
    }
    const again = await bot.fake.interact(slashCommand(bot.fake, 'digest', { topic: 'llm' }, { subcommand: 'subscribe', permissions: MANAGER }));
    expect(messageOf(again).content).toMatch(/^Subscribed: /);
  });

  it('the CLI, which may wait 5 s for the lock, then says in one line what happened and what to do', async () => {
    lock = await holdWriteLock(app.config.dbPath);
    const cli = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../adapters/cli/cli.ts', import.meta.url)), 'ingest', FIXTURE_PAPERS], {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    cli.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const [code] = await once(cli, 'exit');
    expect(code).toBe(1);
    expect(err.trim()).toBe(
      "Another process held the library's write lock for more than 5 s (an import, a re-index, a sqlite3 shell left in a transaction). " +
        'What was written before stays; run the command again once that process is done.',
    );
  });

  it('past the in-memory limit a search answers without Prev/Next and says why', async () => {
    const db = openDatabase(app.config.dbPath, { busyTimeoutMs: 50 });
    const states = sqliteStateStore(db, { maxPending: 1 });
    const ctx = () => app.context('slack', { id: 'U1' }, { states });
    lock = await holdWriteLock(app.config.dbPath);
    const queued = await app.registry.run(ctx(), 'paper', { query: 'learning' });
    expect(queued.buttons?.[0]?.map((b) => b.label)).toEqual(['◀ Prev', 'Next ▶']);
    const degraded = await app.registry.run(ctx(), 'paper', { query: 'learning' });
    expect(degraded.buttons).toBeUndefined();
    expect(degraded.blocks).toContainEqual({ kind: 'note', text: PAGING_UNAVAILABLE });
    expect(degraded.menu?.choices.every((c) => /^paper:open:\d+$/.test(c.action))).toBe(true);
    await lock.release();
    expect(await states.flush()).toBe(0);
    expect((await app.registry.run(ctx(), 'paper', { query: 'learning' })).buttons).toBeDefined();
    db.close();
  });
});
