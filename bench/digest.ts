/**
 * `digest run-due` for 1,000 subscriptions (and 1,000 ranked by a channel's library) over the benchmark library: the work Paper Scout does
 * (choose papers, ledger, render, record) with a sender that accepts at once, so the figure
 * excludes the platforms' own rate limits (their clients pace real posts).
 */
import pino from 'pino';
import type { App } from '../src/app.js';
import { runDueDigests } from '../src/digest/runner.js';
import type { DigestSender } from '../src/digest/sender.js';
import { libraryQuery } from '../src/digest/source.js';
import { KEYWORD_QUERIES } from './queries.js';

const CREATED = '2026-01-01T00:00:00.000Z';
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'];
const platformOf = (i: number): 'discord' | 'slack' => (i % 2 === 0 ? 'discord' : 'slack');

/** The `i`th benchmark subscription: daily at 09:00 in one of four zones, 5 papers, filled. */
async function subscribe(app: App, i: number, channel: string, query: string, label: string): Promise<void> {
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
    createdAt: CREATED,
  });
}

/** Runs every due digest once with senders that accept at once; wall and CPU seconds, digests and messages. */
async function runCounted(app: App): Promise<{ seconds: number; cpuSeconds: number; sent: number; posts: number }> {
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
  const summary = await runDueDigests(deps, new Date('2026-01-02T12:00:00Z'));
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
 * of 20 papers and ranks the papers new since the last digest by it.
 */
export async function benchLibraryDigest(app: App, subscriptions = 1000): Promise<string[]> {
  const topics = app.taxonomy.topics;
  const lists = app.stores.readingLists;
  const profiles: string[][] = [];
  for (const query of KEYWORD_QUERIES) profiles.push((await app.library.search(query, { limit: 20 })).hits.map((h) => h.id));
  const at = new Date(Date.parse(CREATED) - 86_400_000);
  for (let i = 0; i < subscriptions; i++) {
    const channel = `bench-library-${i}`;
    for (const id of profiles[i % profiles.length]!) await lists.add({ platform: platformOf(i), team: 'bench', kind: 'channel', id: channel }, id, { id: 'bench' }, at);
    const topic = i % 3 === 0 ? topics[i % topics.length] : undefined;
    await subscribe(app, i, channel, libraryQuery(topic ? `topic:"${topic.id}"` : ''), topic?.label ?? '');
  }
  const run = await runCounted(app);
  return [
    `digest run-due, ${subscriptions.toLocaleString('en-US')} source:library subscriptions: ${run.seconds.toFixed(2)} s (${run.cpuSeconds.toFixed(2)} s CPU; ${run.sent} digests, ${run.posts} messages) — goal ≤ 15 s`,
  ];
}
