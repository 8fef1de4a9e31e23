/**
 * The Slack adapter's figures: the loopback round trip of a signed /paper (request sent → the
 * response_url post received, through Bolt's HTTP receiver, the core and the renderer), and a
 * burst of 100 commands at once (every one must be acked inside Slack's 3 s). The adapter, the
 * fake Slack and the client share one process, as a small deployment shares one machine.
 *
 * bench/run.ts calls {@link benchSlack} with the app it has open; on its own:
 *   tsx bench/slack.ts --data-dir DIR     (an ingested DATA_DIR)
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { App } from '../src/app.js';
import { openApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startHarness, type SlackHarness } from '../test/adapters/slack/harness.js';
import { KEYWORD_QUERIES } from './queries.js';
import { fmtMs, percentile } from './stats.js';

/** Slack's deadline for acknowledging a request. */
const ACK_DEADLINE_MS = 3000;
const BURST = 100;
const WARM_UP = 20;

/**
 * Runs the Slack measurements on `app` and returns the report lines.
 * @example (await benchSlack(app)).forEach((line) => console.log(line));
 */
export async function benchSlack(app: App): Promise<string[]> {
  const queries = await benchQueries(app);
  const h = await startHarness(app);
  try {
    for (const q of queries.slice(0, WARM_UP)) await roundTrip(h, q);
    const times: number[] = [];
    for (const q of queries) times.push((await roundTrip(h, q)).total);

    const burstQueries = Array.from({ length: BURST }, (_, i) => queries[(i * 7) % queries.length]!);
    const started = performance.now();
    const burst = await Promise.all(burstQueries.map((q) => roundTrip(h, q)));
    const allAnswered = performance.now() - started;
    const acks = burst.map((b) => b.ack);
    const late = burst.filter((b) => b.status !== 200 || b.ack > ACK_DEADLINE_MS).length;

    return [
      `Slack /paper round trip, loopback (signed request → response_url post; ${queries.length} queries on ${app.library.size.toLocaleString('en-US')} papers): ` +
        `p50 ${fmtMs(percentile(times, 0.5))} / p99 ${fmtMs(percentile(times, 0.99))} / max ${fmtMs(Math.max(...times))}   goal p99 ≤ 50 ms`,
      `Slack burst of ${BURST} /paper at once: ack p50 ${fmtMs(percentile(acks, 0.5))} / max ${fmtMs(Math.max(...acks))}, ` +
        `${late} not acked (200) within ${ACK_DEADLINE_MS / 1000} s; all ${BURST} answered in ${fmtMs(allAnswered)}   goal: every one acked inside 3 s`,
    ];
  } finally {
    await h.stop({ fake: true });
  }
}

async function roundTrip(h: SlackHarness, query: string): Promise<{ status: number; ack: number; total: number }> {
  const res = await h.command('/paper', query);
  if (res.status !== 200) return { status: res.status, ack: res.ms, total: Number.NaN };
  await h.fake.waitForPosts(res.responseUrl, 1, 30_000);
  const post = h.fake.posts.find((p) => p.url === res.responseUrl)!;
  return { status: res.status, ack: res.ms, total: post.at - res.sentAt };
}

/**
 * At least 200 varied queries: keyword queries, titles and author names of papers spread
 * through the library, and filtered queries.
 */
async function benchQueries(app: App): Promise<string[]> {
  const titles: string[] = [];
  const authors: string[] = [];
  const size = app.library.size;
  const step = Math.max(1, Math.floor(size / 90));
  for (let doc = 1; doc <= size * 2 && titles.length < 80; doc += step) {
    const paper = await app.library.paperByDoc(doc);
    if (!paper) continue;
    titles.push(paper.title);
    if (paper.authors[0] && authors.length < 40) authors.push(paper.authors[0]);
  }
  const filtered = KEYWORD_QUERIES.slice(0, 30).map((q, i) => [`${q} year:>=2020`, `${q} venue:icml`, `author:"${authors[i % Math.max(1, authors.length)] ?? 'Bengio'}" ${q}`][i % 3]!);
  return [...KEYWORD_QUERIES, ...titles, ...authors, ...filtered];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
  const config = loadConfig({ ...process.env, DATA_DIR: values['data-dir'] ?? process.env.DATA_DIR ?? './data', LOOKUP_UPSTREAM: 'off' });
  const app = await openApp(config, createLogger({ logLevel: 'warn', logFormat: 'json' }), { demoWhenEmpty: false });
  try {
    for (const line of await benchSlack(app)) process.stdout.write(`${line}\n`);
  } finally {
    await app.close();
  }
}
