/**
 * The Discord adapter's figures: time from dispatching INTERACTION_CREATE on a loopback gateway
 * to receiving discord.js's interaction callback, through the real client, for /paper,
 * autocomplete and the Next button; then a burst of 100 /paper interactions at once.
 *
 * `npm run bench` calls {@link benchDiscord} with the library it has opened. Standalone:
 *   tsx bench/discord.ts --data-dir DIR     an ingested DATA_DIR
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { deployCommands } from '../adapters/discord/deploy.js';
import { startDiscord } from '../adapters/discord/index.js';
import { openApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { FakeDiscord, INTERACTION_DEADLINE_MS, type CapturedRequest } from '../test/adapters/discord/fakeDiscord.js';
import { autocomplete, botMessage, buttonClick, slashCommand } from '../test/adapters/discord/payloads.js';
import { AUTOCOMPLETE_PREFIXES, KEYWORD_QUERIES } from './queries.js';
import { fmtMs, percentile } from './stats.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Only the burst: `size` /paper interactions written to the gateway at once; how long until the
 * last answer, and how many were answered within Discord's 3 s.
 */
export async function benchDiscordBurst(app: App, size = 100): Promise<{ maxMs: number; inTime: number; failed: number }> {
  const fake = await FakeDiscord.start();
  const config = { token: fake.token, apiUrl: fake.apiUrl };
  await deployCommands(config, () => undefined);
  const bot = await startDiscord(app, config);
  try {
    for (const query of QUERIES.slice(0, 10)) await fake.interact(slashCommand(fake, 'paper', { query }), 10_000); // warm-up
    const payloads = Array.from({ length: size }, (_, i) => slashCommand(fake, 'paper', { query: QUERIES[(i * 7) % QUERIES.length]! }));
    const sentAt = new Map<string, number>();
    const answers = payloads.map((p) =>
      fake.waitFor((r) => r.kind === 'callback' && r.token === p.token, 10_000).then(
        (r) => ({ ms: r.at - sentAt.get(p.token)!, ok: answered(r) }),
        () => ({ ms: Infinity, ok: false }),
      ),
    );
    for (const p of payloads) {
      sentAt.set(p.token, performance.now());
      fake.interactionCreate(p);
    }
    const burst = await Promise.all(answers);
    return {
      maxMs: Math.max(...burst.map((b) => b.ms)),
      inTime: burst.filter((b) => b.ok && b.ms <= INTERACTION_DEADLINE_MS).length,
      failed: burst.filter((b) => !b.ok).length,
    };
  } finally {
    await bot.stop();
    await fake.close();
  }
}

export interface DiscordBenchOptions {
  /** Sequential /paper interactions timed (at least 200). */
  commands?: number;
  /** Interactions dispatched at once. */
  burst?: number;
}

/** Queries of every kind people type: keywords, title beginnings, an author, filters. */
const QUERIES = [
  ...KEYWORD_QUERIES,
  ...AUTOCOMPLETE_PREFIXES.map((p) => p.trim()).filter((p) => p.length >= 3),
  'attention is all you need',
  'author:"Yoshua Bengio"',
  'diffusion year:2023',
  'venue:icml reinforcement learning',
  'transfomer',
];

export interface DiscordBench {
  /** The report lines. */
  lines: string[];
  /** Each timed /paper round trip, in ms. */
  paperMs: number[];
}

/**
 * Runs the Discord benchmark against `app` and returns the report lines and the /paper timings.
 * @example for (const line of (await benchDiscord(app)).lines) console.log(line);
 */
export async function benchDiscord(app: App, options: DiscordBenchOptions = {}): Promise<DiscordBench> {
  const commands = Math.max(200, options.commands ?? 300);
  const burstSize = options.burst ?? 100;
  const fake = await FakeDiscord.start();
  const config = { token: fake.token, apiUrl: fake.apiUrl };
  await deployCommands(config, () => undefined); // as in production, so the bot finds its commands
  const bot = await startDiscord(app, config);
  try {
    const timed = async (payload: any): Promise<{ ms: number; request: CapturedRequest }> => {
      const started = performance.now();
      const request = await fake.interact(payload, 10_000);
      return { ms: request.at - started, request };
    };
    for (const query of QUERIES.slice(0, 20)) await timed(slashCommand(fake, 'paper', { query })); // warm-up

    const paper: number[] = [];
    let failed = 0;
    let deferred = 0;
    let lastPage: any;
    for (let i = 0; i < commands; i++) {
      const { ms, request } = await timed(slashCommand(fake, 'paper', { query: QUERIES[i % QUERIES.length]! }));
      paper.push(ms);
      if (!answered(request)) failed++;
      if (request.body?.type === 5) deferred++;
      if (request.body?.data?.components?.length) lastPage = request.body.data;
    }
    const suggest: number[] = [];
    for (let i = 0; i < commands; i++) suggest.push((await timed(autocomplete(fake, 'paper', 'query', AUTOCOMPLETE_PREFIXES[i % AUTOCOMPLETE_PREFIXES.length]!))).ms);
    const next: number[] = [];
    const nextId = lastPage?.components?.flatMap((r: any) => r.components).find((c: any) => /Next/.test(c.label ?? ''))?.custom_id;
    if (nextId) for (let i = 0; i < 100; i++) next.push((await timed(buttonClick(fake, nextId, botMessage(fake, lastPage)))).ms);

    // The burst: every INTERACTION_CREATE written to the gateway before any answer is read.
    const payloads = Array.from({ length: burstSize }, (_, i) => slashCommand(fake, 'paper', { query: QUERIES[(i * 7) % QUERIES.length]! }));
    const sentAt = new Map<string, number>();
    const answers = payloads.map((p) =>
      fake.waitFor((r) => r.kind === 'callback' && r.token === p.token, 10_000).then(
        (r) => ({ ms: r.at - sentAt.get(p.token)!, ok: answered(r), deferred: r.body?.type === 5 }),
        () => ({ ms: Infinity, ok: false, deferred: false }),
      ),
    );
    for (const p of payloads) {
      sentAt.set(p.token, performance.now());
      fake.interactionCreate(p);
    }
    const burst = await Promise.all(answers);
    const burstMs = burst.map((b) => b.ms);
    const inTime = burst.filter((b) => b.ok && b.ms <= INTERACTION_DEADLINE_MS).length;

    // The columns of bench/run.ts: name, ours, (no baseline), goal.
    const row = (name: string, ours: string, goal = '') => `${name.padEnd(28)}${ours.padEnd(58)}${''.padEnd(34)}${goal}`;
    const p = (ms: number[]) => `${fmtMs(percentile(ms, 0.5))} / ${fmtMs(percentile(ms, 0.99))}`;
    const trouble = (f: number, d: number) => `${f} failed${d > 0 ? `, ${d} deferred` : ''}`;
    const burstFailed = burst.filter((b) => !b.ok).length;
    const lines = [
      'Discord: INTERACTION_CREATE dispatched on a loopback gateway → interaction callback received (discord.js)',
      row('  /paper p50 / p99', `${p(paper)} (${commands} queries, ${trouble(failed, deferred)})`, '≤ 50 ms p99'),
      row('  autocomplete p50 / p99', `${p(suggest)} (${commands} prefixes)`),
      ...(next.length > 0 ? [row('  Next button p50 / p99', `${p(next)} (${next.length} clicks)`)] : []),
      row(
        `  burst of ${burstSize} at once`,
        `max ${fmtMs(Math.max(...burstMs))}; ${inTime}/${burstSize} in 3 s, ${trouble(burstFailed, burst.filter((b) => b.deferred).length)}`,
        'all in 3 s, none failed',
      ),
    ];
    return { lines, paperMs: paper };
  } finally {
    await bot.stop();
    await fake.close();
  }
}

/** Discord accepted the callback, and it is not an apology for an internal error. */
function answered(request: CapturedRequest): boolean {
  return request.status === 204 && !String(request.body?.data?.content ?? '').startsWith('Sorry, something went wrong');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
  const dataDir = values['data-dir'] ?? process.env.DATA_DIR ?? './data';
  const app = await openApp(loadConfig({ DATA_DIR: dataDir, LOOKUP_UPSTREAM: 'off' }), createLogger({ logLevel: 'warn', logFormat: 'json' }), { demoWhenEmpty: false });
  process.stdout.write(`Library: ${app.library.size.toLocaleString('en-US')} papers in ${dataDir}\n`);
  for (const line of (await benchDiscord(app)).lines) process.stdout.write(`${line}\n`);
  await app.close();
}
