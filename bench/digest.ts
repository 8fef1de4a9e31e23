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

export async function benchDigest(app: App, subscriptions = 1000): Promise<string[]> {
  const topics = app.taxonomy.topics;
  const created = '2026-01-01T00:00:00.000Z';
  {
    for (let i = 0; i < subscriptions; i++) {
      const topic = topics[i % topics.length]!;
      await app.digests.subscribe({
        platform: i % 2 === 0 ? 'discord' : 'slack',
        workspace: 'bench',
        channel: `bench-${i}`,
        query: `topic:"${topic.id}"`,
        label: topic.label,
        time: '09:00',
        timezone: ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'][i % 4]!,
        days: 'daily',
        count: 5,
        fill: true,
        createdBy: 'bench',
        createdAt: created,
      });
    }
  }
  let posts = 0;
  const sender = (platform: 'discord' | 'slack'): DigestSender => ({
    platform,
    duplicateWindowMs: platform === 'discord' ? 120_000 : 0,
    post: async () => {
      posts++;
    },
    find: async () => false,
  });
  const deps = { digests: app.digests, library: app.library, states: app.states, senders: { discord: sender('discord'), slack: sender('slack') }, log: pino({ level: 'silent' }) };
  const started = performance.now();
  const summary = await runDueDigests(deps, new Date('2026-01-02T12:00:00Z'));
  const seconds = (performance.now() - started) / 1000;
  return [
    `digest run-due, ${subscriptions.toLocaleString('en-US')} subscriptions: ${seconds.toFixed(2)} s (${summary.sent} digests, ${posts} messages) — goal ≤ 10 s`,
  ];
}

/**
 * `digest run-due` for 1,000 `source:library` subscriptions: each channel's reading list is the
 * top 20 of a keyword query (a third of them within a topic), so each digest builds a profile
 * of 20 papers and ranks the papers new since the last digest by it.
 */
export async function benchLibraryDigest(app: App, subscriptions = 1000): Promise<string[]> {
  const topics = app.taxonomy.topics;
  const created = '2026-01-01T00:00:00.000Z';
  const lists = app.stores.readingLists;
  const profiles: string[][] = [];
  for (const query of KEYWORD_QUERIES) profiles.push((await app.library.search(query, { limit: 20 })).hits.map((h) => h.id));
  for (let i = 0; i < subscriptions; i++) {
    const channel = `bench-library-${i}`;
    const platform = i % 2 === 0 ? 'discord' : 'slack';
    const at = new Date(Date.parse(created) - 86_400_000);
    for (const id of profiles[i % profiles.length]!) await lists.add({ platform, team: 'bench', kind: 'channel', id: channel }, id, { id: 'bench' }, at);
    const topic = i % 3 === 0 ? topics[i % topics.length] : undefined;
    await app.digests.subscribe({
      platform,
      workspace: 'bench',
      channel,
      query: libraryQuery(topic ? `topic:"${topic.id}"` : ''),
      label: topic?.label ?? '',
      time: '09:00',
      timezone: ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'][i % 4]!,
      days: 'daily',
      count: 5,
      fill: true,
      createdBy: 'bench',
      createdAt: created,
    });
  }
  let posts = 0;
  const sender = (platform: 'discord' | 'slack'): DigestSender => ({
    platform,
    duplicateWindowMs: platform === 'discord' ? 120_000 : 0,
    post: async () => {
      posts++;
    },
    find: async () => false,
  });
  const deps = { digests: app.digests, library: app.library, states: app.states, readingLists: lists, senders: { discord: sender('discord'), slack: sender('slack') }, log: pino({ level: 'silent' }) };
  const started = performance.now();
  // CPU time too: on a shared machine the wall time says as much about the neighbours.
  const cpuBefore = process.cpuUsage();
  const summary = await runDueDigests(deps, new Date('2026-01-02T12:00:00Z'));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return [
    `digest run-due, ${subscriptions.toLocaleString('en-US')} source:library subscriptions: ${seconds.toFixed(2)} s (${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU; ${summary.sent} digests, ${posts} messages) — goal ≤ 15 s`,
  ];
}
