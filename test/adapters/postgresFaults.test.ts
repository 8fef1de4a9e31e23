/**
 * `npm start` on PostgreSQL when the database misbehaves, each on a private server this test
 * starts and stops: a DATABASE_URL nobody answers at start (one line naming host and port per
 * attempt, with backoff, then it starts when the server comes up); the server restarted in the
 * middle of a digest (the connection is opened again, every paper arrives once); a schema newer
 * than the code (a clear refusal, no stack trace).
 */
import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/postgres/schema.js';
import { discordPlatform } from '../digest/platforms.js';
import { createTestDatabase, dropTestDatabase, postgresMissing } from '../helpers/postgres.js';
import { freePort, startPostgresCluster, type PostgresCluster } from '../helpers/postgresCluster.js';
import { FakeDiscord } from './discord/fakeDiscord.js';
import { messageOf } from './discord/harness.js';
import { slashCommand } from './discord/payloads.js';
import { llmPapers, seedLibrary, startInstance, storesAt, untilReady, type Instance } from './helpers/instances.js';
import { spawnNpmStart, type SpawnedBot } from './ops/helpers/spawned.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** Whether a log holds a stack trace. */
const hasStack = (text: string) => /\n\s+at .+:\d+:\d+\)?\n/.test(text);

describe.skipIf(postgresMissing)('PostgreSQL faults under npm start', () => {
  it('a DATABASE_URL nobody answers at start: one line per attempt naming host and port, then it starts once the server is up', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const discord = await FakeDiscord.start();
    cleanups.push(() => discord.close());
    const bot: SpawnedBot = spawnNpmStart({
      DATABASE_URL: `postgres://postgres:secret@127.0.0.1:${port}/postgres`,
      DATA_DIR: `/tmp/paperscout-unreachable-${port}`,
      PORT: '0',
      LOG_FORMAT: 'json',
      DISCORD_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiUrl,
      SLACK_BOT_TOKEN: '',
      SLACK_SIGNING_SECRET: '',
    });
    cleanups.push(async () => {
      bot.kill();
      rmSync(`/tmp/paperscout-unreachable-${port}`, { recursive: true, force: true });
    });
    const line = (s: number) => `could not reach PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED); trying again in ${s} s`;
    await bot.waitForLog((l) => l.msg === line(1), 'the first attempt', 30_000);
    await bot.waitForLog((l) => l.msg === line(2), 'the second attempt', 30_000);
    expect(hasStack(bot.stderr)).toBe(false);
    expect(bot.stderr).not.toContain('secret');
    const cluster = await startPostgresCluster({ port });
    cleanups.push(() => cluster.stop());
    await bot.waitForLog((l) => l.msg === 'PostgreSQL reached', 'reached', 30_000);
    const served = await bot.waitForLog((l) => l.msg === 'health, readiness and metrics are served', 'serving', 30_000);
    await untilReady(`http://127.0.0.1:${served.port}`, bot);
    // An empty database: the demo corpus answers.
    const answer = await discord.interact(slashCommand(discord, 'paper', { query: 'attention is all you need' }), 15_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${bot.stderr}`);
    });
    expect(messageOf(answer).content).toMatch(/^\*\*Papers for/);
    expect(hasStack(bot.stderr)).toBe(false);
  });

  it('the server restarted in the middle of a digest: the bot connects again and every paper arrives once', { timeout: 120_000 }, async () => {
    const cluster: PostgresCluster = await startPostgresCluster();
    cleanups.push(() => cluster.stop());
    const url = await cluster.createDatabase('paperscout');
    const platform = await discordPlatform();
    cleanups.push(() => platform.close());
    const papers = llmPapers(300, 20);
    await seedLibrary(url, papers);
    const channel = platform.channel(700);
    const stores = await storesAt(url);
    await stores.digests.subscribe({
      platform: 'discord', workspace: '1190000000000000100', channel, query: 'topic:"deep-learning/large-language-models"', label: 'LLMs',
      time: '00:00', timezone: 'UTC', days: 'daily', count: 20, fill: false, createdBy: 'u', createdAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    });
    await stores.close();
    // The second message's answer waits until the database has gone down and come back.
    let release!: () => void;
    const restarted = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    platform.fault((n) => {
      if (n !== 1) return undefined;
      held();
      return { hold: restarted };
    });
    const instance: Instance = await startInstance({ databaseUrl: url, env: { ...platform.env(), DIGEST_SCHEDULER: 'on' } });
    cleanups.push(() => instance.stop());
    await holding;
    await cluster.kill(); // as a crash: every connection is cut
    await cluster.start();
    release();
    await instance.bot.waitForLog((l) => l.msg === 'digest sent', 'the digest finished', 60_000);
    expect(platform.papersIn(channel).flat().sort()).toEqual(papers.map((p) => p.title).sort());
    expect(platform.papersIn(channel)).toHaveLength(4);
    const logged = instance.bot.lines().map((l) => l.msg);
    expect(logged.some((m) => /PostgreSQL|lost the connection/.test(m))).toBe(true);
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    expect((await check.query("SELECT state, parts_done FROM digest_runs")).rows).toEqual([{ state: 'done', parts_done: 4 }]);
    await check.end();
  });

  it('a schema newer than the code: refuses to start, saying which versions, without a stack trace', { timeout: 60_000 }, async () => {
    const url = await createTestDatabase();
    cleanups.push(() => dropTestDatabase(url));
    await seedLibrary(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('INSERT INTO schema_version (version) VALUES (99)');
    await client.end();
    const discord = await FakeDiscord.start();
    cleanups.push(() => discord.close());
    const bot = spawnNpmStart({ DATABASE_URL: url, DATA_DIR: `/tmp/paperscout-newer-${process.pid}`, PORT: '0', LOG_FORMAT: 'json', DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, SLACK_BOT_TOKEN: '', SLACK_SIGNING_SECRET: '' });
    cleanups.push(async () => {
      bot.kill();
      rmSync(`/tmp/paperscout-newer-${process.pid}`, { recursive: true, force: true });
    });
    const exit = await bot.exited;
    expect(exit.code).toBe(1);
    const target = `${new URL(url).hostname}:${new URL(url).port}${new URL(url).pathname}`;
    expect(bot.stderr).toContain(
      `Paper Scout could not start: The PostgreSQL database at ${target} has schema version 99, newer than this Paper Scout knows (${MIGRATIONS.length}): a newer version has upgraded it. Run that version here too (or point DATABASE_URL at another database).`,
    );
    expect(hasStack(bot.stderr)).toBe(false);
  });
});
