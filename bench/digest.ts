/**
 * `digest run-due` for 1,000 subscriptions (and 1,000 ranked by a channel's library) over the benchmark library: the work Paper Scout does
 * (choose papers, ledger, render, record) with a sender that accepts at once, so the figure
 * excludes the platforms' own rate limits (their clients pace real posts).
 */
import { join } from 'node:path';
import pino from 'pino';
import type { App } from '../src/app.js';
import { runDueDigests } from '../src/digest/runner.js';
import type { DigestSender } from '../src/digest/sender.js';
import { libraryQuery } from '../src/digest/source.js';
import { openDatabase } from '../src/store/sqlite/db.js';
import { KEYWORD_QUERIES } from './queries.js';

const CREATED = '2026-01-01T00:00:00.000Z';
/** When the passes run: the first digest of every subscription made at CREATED. */
const FIRST_PASS = new Date('2026-01-02T12:00:00Z');
/** Papers new to a daily digest: about a day of arXiv's computer science. */
const DAILY_NEW = 1000;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'];
const platformOf = (i: number): 'discord' | 'slack' => (i % 2 === 0 ? 'discord' : 'slack');

/** The `i`th benchmark subscription: daily at 09:00 in one of four zones, 5 papers, filled. */
async function subscribe(app: App, i: number, channel: string, query: string, label: string, createdAt = CREATED): Promise<void> {
  await app.digests.subscribe({
    platform: platformOf(i),
    workspace: 'bench',
    channel,
    query,
    label,
    time: '09:00',
    timezone: ZONES[i % ZONES.length]!,
    days: 'daily',
    count: 5,
    fill: true,
    createdBy: 'bench',
    createdAt,
  });
}

/** Runs every digest due `at` once with senders that accept at once; wall and CPU seconds, digests and messages. */
async function runCounted(app: App, at = FIRST_PASS): Promise<{ seconds: number; cpuSeconds: number; sent: number; posts: number }> {
  let posts = 0;
  const sender = (platform: 'discord' | 'slack'): DigestSender => ({
    platform,
    duplicateWindowMs: platform === 'discord' ? 120_000 : 0,
    post: async () => {
      posts++;
    },
    find: async () => false,
  });
  const deps = {
    digests: app.digests,
    library: app.library,
    states: app.states,
    readingLists: app.stores.readingLists,
    senders: { discord: sender('discord'), slack: sender('slack') },
    log: pino({ level: 'silent' }),
  };
  const started = performance.now();
  // CPU time too: on a shared machine the wall time says as much about the neighbours.
  const cpuBefore = process.cpuUsage();
  const summary = await runDueDigests(deps, at);
  const cpu = process.cpuUsage(cpuBefore);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, sent: summary.sent, posts };
}

export async function benchDigest(app: App, subscriptions = 1000): Promise<string[]> {
  const topics = app.taxonomy.topics;
  for (let i = 0; i < subscriptions; i++) {
    const topic = topics[i % topics.length]!;
    await subscribe(app, i, `bench-${i}`, `topic:"${topic.id}"`, topic.label);
  }
  const run = await runCounted(app);
  return [
    `digest run-due, ${subscriptions.toLocaleString('en-US')} subscriptions: ${run.seconds.toFixed(2)} s (${run.sent} digests, ${run.posts} messages) — goal ≤ 10 s`,
  ];
}

/**
 * `digest run-due` for 1,000 `source:library` subscriptions: each channel's reading list is the
 * top 20 of a keyword query (a third of them within a topic), so each digest builds a profile
 * of 20 papers and ranks the papers new since the last digest by it. Twice: at the first digest,
 * when every paper is new (the worst case), and on a later day, when the newest
 * {@link DAILY_NEW} are.
 */
export async function benchLibraryDigest(app: App, subscriptions = 1000): Promise<string[]> {
  const first = await libraryPass(app, subscriptions, 'bench-library', CREATED, FIRST_PASS);
  const since = arrivalOfNewest(app, DAILY_NEW);
  const daily = since && (await libraryPass(app, subscriptions, 'bench-library-daily', since, new Date(Date.parse(since) + 2 * 86_400_000)));
  const line = (run: typeof first, what: string) =>
    `digest run-due, ${subscriptions.toLocaleString('en-US')} source:library subscriptions, ${what}: ${run.seconds.toFixed(2)} s (${run.cpuSeconds.toFixed(2)} s CPU; ${run.sent} digests, ${run.posts} messages) — goal ≤ 15 s`;
  return [line(first, 'every paper new'), ...(daily ? [line(daily, `the newest ${DAILY_NEW.toLocaleString('en-US')} papers new`)] : [])];
}

/** Subscribes `subscriptions` channels made at `createdAt`, runs the pass due `at`, and unsubscribes them again. */
async function libraryPass(app: App, subscriptions: number, prefix: string, createdAt: string, at: Date): ReturnType<typeof runCounted> {
  const topics = app.taxonomy.topics;
  const lists = app.stores.readingLists;
  const profiles: string[][] = [];
  for (const query of KEYWORD_QUERIES) profiles.push((await app.library.search(query, { limit: 20 })).hits.map((h) => h.id));
  const listedAt = new Date(Date.parse(createdAt) - 86_400_000);
  for (let i = 0; i < subscriptions; i++) {
    const channel = `${prefix}-${i}`;
    for (const id of profiles[i % profiles.length]!) await lists.add({ platform: platformOf(i), team: 'bench', kind: 'channel', id: channel }, id, { id: 'bench' }, listedAt);
    const topic = i % 3 === 0 ? topics[i % topics.length] : undefined;
    await subscribe(app, i, channel, libraryQuery(topic ? `topic:"${topic.id}"` : ''), topic?.label ?? '', createdAt);
  }
  const run = await runCounted(app, at);
  for (const sub of await app.digests.all()) if (sub.channel.startsWith(`${prefix}-`)) await app.digests.unsubscribe(sub.id);
  return run;
}

/** When the newest `count` papers of the SQLite library arrived (undefined for a smaller library, or PostgreSQL). */
function arrivalOfNewest(app: App, count: number): string | undefined {
  if (app.config.database || app.demo) return undefined;
  const db = openDatabase(join(app.config.dataDir, 'paperscout.db'), { readOnly: true });
  try {
    return db.prepare<[number], { first_seen: string }>('SELECT first_seen FROM papers ORDER BY first_seen DESC LIMIT 1 OFFSET ?').get(count)?.first_seen;
  } finally {
    db.close();
  }
}
