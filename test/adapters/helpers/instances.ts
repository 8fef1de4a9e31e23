/**
 * Instances of the bot on one PostgreSQL, for the process tests: a library written into the
 * database as `paperscout ingest` would write it, and `npm start` spawned with DATABASE_URL, a
 * DATA_DIR of its own and the loopback Discord and Slack fakes, waited on until it is ready.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTopics } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { ingestPaths } from '../../../src/ingest/ingest.js';
import type { PaperRecord } from '../../../src/papers/model.js';
import { openStores, type Stores } from '../../../src/store/open.js';
import { FIXTURE_PAPERS, silentLog } from '../../helpers/corpus.js';
import { SIGNING_SECRET } from '../slack/harness.js';
import { BOT_TOKEN } from '../slack/fakeSlack.js';
import { spawnNpmStart, type SpawnedBot } from '../ops/helpers/spawned.js';

/** Opens the stores of the database at `url` in this process (closing is the caller's). */
export function storesAt(url: string): Promise<Stores> {
  return openStores(loadConfig({ DATABASE_URL: url, DATA_DIR: tmpdir() }), { log: silentLog, patience: 5000 });
}

/** Writes the fixture papers and `extra` records into the database, as an import would. */
export async function seedLibrary(url: string, extra: readonly PaperRecord[] = [], now = new Date()): Promise<void> {
  const stores = await storesAt(url);
  try {
    const { classify } = loadTopics();
    await ingestPaths([FIXTURE_PAPERS], { store: stores.papers, classify, now: () => now });
    if (extra.length > 0) await stores.papers.write((tx) => tx.upsertBatch(extra, { source: 'arxiv', classify, now }));
  } finally {
    await stores.close();
  }
}

/**
 * `count` language-model papers from `from` on (they classify as Deep Learning · Large Language
 * Models; their titles are what test/digest/platforms.ts reads back from posted digests).
 */
export function llmPapers(from: number, count: number): PaperRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    title: `Scaling Large Language Models, Part ${from + i}`,
    authors: [`Author ${from + i}`],
    abstract: 'Large language models (LLMs) are instruction tuned; we study large language models at scale.',
    venue: 'arXiv',
    year: 2026,
    status: '',
    keywords: ['large language models'],
    labels: ['cs.CL'],
    links: {},
    externalIds: { arxiv: `2604.${String(20000 + from + i)}` },
  }));
}

export interface Instance {
  bot: SpawnedBot;
  dataDir: string;
  /** Where Slack's requests go (and /healthz, /readyz, /metrics). */
  origin: string;
  events: string;
  /** Stops it with SIGTERM and waits for it to exit; deletes its DATA_DIR. */
  stop(): Promise<void>;
}

export interface InstanceOptions {
  databaseUrl: string;
  /** The fakes' settings: DISCORD_TOKEN and DISCORD_API_URL, SLACK_API_URL… */
  env?: Record<string, string>;
  /** Slack in HTTP mode against this Web API (on by default in the tests that use it). */
  slackApiUrl?: string;
  /** Wait until /readyz says ready (default true). */
  waitReady?: boolean;
}

/** Spawns `npm start` as one instance, with its own DATA_DIR; resolves once it is ready. */
export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'paperscout-instance-'));
  const bot = spawnNpmStart({
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    DISCORD_TOKEN: '',
    DISCORD_API_URL: '',
    DISCORD_SHARD_COUNT: '',
    DISCORD_SHARDS: '',
    SLACK_APP_TOKEN: '',
    ...(options.slackApiUrl ? { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET, SLACK_API_URL: options.slackApiUrl } : { SLACK_BOT_TOKEN: '', SLACK_SIGNING_SECRET: '' }),
    ...options.env,
  });
  const stop = async () => {
    if (bot.npm.exitCode === null && bot.npm.signalCode === null) {
      process.kill(bot.pid, 'SIGTERM');
      await bot.exited;
    }
    bot.kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const served = await bot.waitForLog((l) => l.msg === 'health, readiness and metrics are served', 'its port', 60_000);
    const origin = `http://127.0.0.1:${served.port}`;
    if (options.waitReady !== false) await untilReady(origin, bot);
    return { bot, dataDir, origin, events: `${origin}/slack/events`, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Polls /readyz until it answers 200 (the index is loaded and every platform connected). */
export async function untilReady(origin: string, bot: SpawnedBot, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${origin}/readyz`).catch(() => undefined);
    if (res?.status === 200) return;
    if (Date.now() > deadline) throw new Error(`not ready within ${timeoutMs} ms (${res ? await res.text() : 'no answer'}); log:\n${bot.stderr}`);
    if (bot.npm.exitCode !== null) throw new Error(`npm start exited; log:\n${bot.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How many commands an instance answered on a platform (from its /metrics). */
export async function commandsAnswered(instance: Pick<Instance, 'origin'>, platform: string): Promise<number> {
  const text = await (await fetch(`${instance.origin}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('paperscout_commands_total{') && line.includes(`platform="${platform}"`)) total += Number(line.split(' ').at(-1));
  }
  return total;
}
