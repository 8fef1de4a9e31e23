/**
 * Several real `npm start` on one PostgreSQL (the test run's private server), each with a DATA_DIR
 * of its own, against the loopback Discord and Slack fakes: digests are posted once per due slot
 * however many instances run the scheduler, and finished by another instance when the one holding
 * the lease is killed; any instance answers any Slack request; a paper imported by a third process
 * is found on every instance (by catching up, never rebuilding); each Discord shard's servers are
 * answered by the instance running it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSnapshotInfo } from '../../src/search/index/format.js';
import { createTestDatabase, dropTestDatabase, postgresMissing } from '../helpers/postgres.js';
import { discordPlatform, type TestPlatform } from '../digest/platforms.js';
import { FakeDiscord, shardOf } from './discord/fakeDiscord.js';
import { messageOf } from './discord/harness.js';
import { slashCommand } from './discord/payloads.js';
import { commandsAnswered, llmPapers, seedLibrary, startInstance, storesAt, type Instance } from './helpers/instances.js';
import { ROOT } from './ops/helpers/spawned.js';
import { FakeSlack } from './slack/fakeSlack.js';
import { button, clickPayload, fixture, send, textOf } from './slack/harness.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

const run = promisify(execFile);
const FORM = 'application/x-www-form-urlencoded';

let url: string;
const running: Instance[] = [];
const closers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  url = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((i) => i.stop()));
  for (const close of closers.splice(0).reverse()) await close();
  await dropTestDatabase(url);
});

async function instances(n: number, options: Parameters<typeof startInstance>[0] | ((i: number) => Parameters<typeof startInstance>[0])): Promise<Instance[]> {
  const started = await Promise.all(Array.from({ length: n }, (_, i) => startInstance(typeof options === 'function' ? options(i) : options)));
  running.push(...started);
  return started;
}

/** A /paper from Slack to one instance; resolves the message it answered with. */
async function slackPaper(slack: FakeSlack, instance: Instance, query: string): Promise<any> {
  const responseUrl = slack.responseUrl();
  const body = new URLSearchParams({ ...fixture<Record<string, string>>('slash-command'), command: '/paper', text: query, response_url: responseUrl });
  expect((await send(instance.events, body.toString(), FORM)).status).toBe(200);
  return (await slack.waitForPosts(responseUrl, 1, 15_000))[0];
}

/** A subscription of a Discord channel to the language-model topic, due today at 00:00 UTC. */
async function subscribe(channels: readonly string[], count: number): Promise<void> {
  const stores = await storesAt(url);
  try {
    for (const channel of channels) {
      await stores.digests.subscribe({
        platform: 'discord',
        workspace: '1190000000000000100',
        channel,
        query: 'topic:"deep-learning/large-language-models"',
        label: 'Deep Learning · Large Language Models',
        time: '00:00',
        timezone: 'UTC',
        days: 'daily',
        count,
        fill: false,
        createdBy: 'u',
        createdAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      });
    }
  } finally {
    await stores.close();
  }
}

/** Resolves once every instance has finished a digest pass (its /healthz has a last run). */
async function afterDigestPasses(list: readonly Instance[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const instance of list) {
    for (;;) {
      const health = (await (await fetch(`${instance.origin}/healthz`)).json()) as { digests: { lastRun?: unknown } };
      if (health.digests.lastRun) break;
      if (Date.now() > deadline) throw new Error(`no digest pass within ${timeoutMs} ms; log:\n${instance.bot.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describe.skipIf(postgresMissing)('several npm start on one PostgreSQL', () => {
  it('three instances running the scheduler post each due digest once', { timeout: 120_000 }, async () => {
    const platform: TestPlatform = await discordPlatform();
    closers.push(() => platform.close());
    const papers = llmPapers(0, 10);
    await seedLibrary(url, papers);
    const channels = Array.from({ length: 6 }, (_, i) => platform.channel(400 + i));
    await subscribe(channels, 10);
    const three = await instances(3, { databaseUrl: url, env: { ...platform.env(), DIGEST_SCHEDULER: 'on' } });
    await afterDigestPasses(three);
    const titles = papers.map((p) => p.title).sort();
    for (const channel of channels) expect(platform.papersIn(channel).flat().sort(), channel).toEqual(titles);
    expect(platform.postCount()).toBe(channels.length * 2); // ten papers: two messages of five each
  });

  it('kill -9 of the instance holding a digest’s lease: another finishes it, nothing is posted twice', { timeout: 120_000 }, async () => {
    const platform = await discordPlatform();
    closers.push(() => platform.close());
    const papers = llmPapers(100, 20);
    await seedLibrary(url, papers);
    const channel = platform.channel(500);
    await subscribe([channel], 20);
    // The second message is taken by Discord, but its answer never comes back: the sender hangs.
    let posted!: () => void;
    const secondPost = new Promise<void>((resolve) => (posted = resolve));
    platform.fault((n) => {
      if (n !== 1) return undefined;
      posted();
      return { hold: new Promise(() => undefined) };
    });
    const [holder] = await instances(1, { databaseUrl: url, env: { ...platform.env(), DIGEST_SCHEDULER: 'on' } });
    await secondPost;
    holder!.bot.kill(); // SIGKILL, the whole tree
    await holder!.bot.exited;
    platform.fault(undefined);
    const stores = await storesAt(url);
    closers.push(() => stores.close());
    const [left] = await stores.digests.openRuns(1);
    expect(left).toMatchObject({ partsDone: 1, inFlight: true, leaseOwner: expect.stringContaining(':') });
    // The dead instance's lease runs out (90 s; fast-forwarded here), and another instance starts.
    const db = (await import('pg')).default;
    const client = new db.Client({ connectionString: url });
    await client.connect();
    await client.query("UPDATE digest_runs SET lease_until = now() - interval '1 second'");
    await client.end();
    const [other] = await instances(1, { databaseUrl: url, env: { ...platform.env(), DIGEST_SCHEDULER: 'on' } });
    await afterDigestPasses([other!]);
    const received = platform.papersIn(channel);
    expect(received).toHaveLength(4);
    expect(received.flat().sort()).toEqual(papers.map((p) => p.title).sort());
    expect((await stores.digests.run(1, left!.slot))!.state).toBe('done');
  });

  it('Slack behind a load balancer: a Next button pressed on instance B for a search made on instance A; an event redelivered to B answered once', { timeout: 120_000 }, async () => {
    await seedLibrary(url);
    const slack = await FakeSlack.start();
    closers.push(() => slack.close());
    const [a, b] = await instances(2, { databaseUrl: url, slackApiUrl: slack.apiUrl });
    const first = await slackPaper(slack, a!, 'learning');
    expect(textOf(first)).toContain('page 1 of 3');
    const responseUrl = slack.responseUrl();
    const click = { ...clickPayload(button(first, 'Next ▶')), response_url: responseUrl };
    expect((await send(b!.events, `payload=${encodeURIComponent(JSON.stringify(click))}`, FORM)).status).toBe(200);
    const second = (await slack.waitForPosts(responseUrl, 1, 15_000))[0]!;
    expect(textOf(second)).toContain('page 2 of 3');
    expect(await commandsAnswered(a!, 'slack')).toBe(1);
    expect(await commandsAnswered(b!, 'slack')).toBe(1);

    // An event Slack redelivers to the other instance is answered once.
    const mention = fixture<Record<string, any>>('app-mention');
    const ts = '1760009000.000100';
    const event = { ...mention, event_id: 'Ev0INSTANCES1', event: { ...mention.event, text: '<@U0BOT> attention', ts, event_ts: ts } };
    expect((await send(a!.events, JSON.stringify(event), 'application/json')).status).toBe(200);
    const retried = { headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } };
    expect((await send(b!.events, JSON.stringify(event), 'application/json', retried)).status).toBe(200);
    const answers = () => slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === ts).length;
    await slack.until(() => answers() === 1, 'the answer to the mention');
    // Another mention, to B, answered after the retry was: the retry was dropped, not pending.
    const later = { ...event, event_id: 'Ev0INSTANCES2', event: { ...event.event, ts: '1760009000.000200', event_ts: '1760009000.000200' } };
    await send(b!.events, JSON.stringify(later), 'application/json');
    await slack.until(() => slack.callsOf('chat.postMessage').some((c) => c.args.thread_ts === '1760009000.000200'), 'the second answer');
    expect(answers()).toBe(1);
  });

  it('a paper imported by a third process (its own DATA_DIR) is found on both instances within 15 s', { timeout: 120_000 }, async () => {
    await seedLibrary(url);
    const slack = await FakeSlack.start();
    closers.push(() => slack.close());
    const both = await instances(2, { databaseUrl: url, slackApiUrl: slack.apiUrl });
    // Each instance built its own snapshot at start; the import must not make either rebuild it.
    const snapshots = both.map((i) => readSnapshotInfo(join(i.dataDir, 'index.bin')));
    expect(snapshots.every((info) => info !== undefined)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'paperscout-importer-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'new.jsonl');
    writeFileSync(file, `${JSON.stringify({ title: 'Quokka Alignment for Marsupial Language Models', authors: ['Ann Lee'], abstract: 'Quokkas.', year: 2026, arxiv: '2611.99999' })}\n`);
    await run(process.execPath, [join(ROOT, 'dist/adapters/cli/cli.js'), 'ingest', file], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' },
    });
    const imported = Date.now();
    for (const instance of both) {
      for (;;) {
        const answer = await slackPaper(slack, instance, 'quokka alignment');
        if (textOf(answer).includes('Quokka Alignment for Marsupial Language Models')) break;
        expect(Date.now() - imported, `not found on ${instance.origin} within 15 s`).toBeLessThan(15_000);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    // Found by catching up (a small delta segment in memory), not by rebuilding: the snapshots are as they were.
    expect(both.map((i) => readSnapshotInfo(join(i.dataDir, 'index.bin')))).toEqual(snapshots);
  });

  it('Discord shards: each shard’s server is answered by the instance that runs it', { timeout: 120_000 }, async () => {
    await seedLibrary(url);
    const discord = await FakeDiscord.start();
    closers.push(() => discord.close());
    const env = (shard: number) => ({ DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, DISCORD_SHARD_COUNT: '2', DISCORD_SHARDS: String(shard) });
    const pair = await instances(2, (i) => ({ databaseUrl: url, env: env(i) }));
    expect(discord.identifies.map((i) => i.shard).sort()).toEqual([
      [0, 2],
      [1, 2],
    ]);
    for (const shard of [0, 1, 1]) {
      let guild = 1190000000000000100n;
      while (shardOf(String(guild), 2) !== shard) guild += 1n << 22n;
      const payload = slashCommand(discord, 'paper', { query: 'learning' });
      Object.assign(payload, { guild_id: String(guild), guild: { ...payload.guild, id: String(guild) }, channel: { ...payload.channel, guild_id: String(guild) } });
      expect(messageOf(await discord.interact(payload, 15_000)).content).toMatch(/^\*\*Papers for “learning”\*\*/);
    }
    // Which instance ran which shard is theirs to decide (each identified as one); each answered its own.
    const answered = await Promise.all(pair.map((i) => commandsAnswered(i, 'discord')));
    const shardOfInstance = await Promise.all(pair.map(async (i) => ((await i.bot.waitForLog((l) => l.msg === 'connected to Discord', 'connected')).shards as number[])[0]!));
    expect(answered).toEqual(shardOfInstance.map((s) => (s === 0 ? 1 : 2)));
  });
});
