/**
 * The search site's figures on loopback: `/search` (a page of 20 results, rendered in full) and
 * `/api/suggest`, each request timed by the site itself (its Server-Timing header: from the
 * request to the answer written) and end to end, with the size of the HTML. Queries: the
 * relevance set, the keyword queries, Chinese queries read through the glossary, and topic pages.
 * Also the rate limit's cost per request while 100,000 new addresses arrive in one millisecond,
 * below its cap of addresses and past it (evicting one per request).
 *
 * bench/run.ts calls {@link benchWeb} with the app it has open; on its own:
 *   tsx bench/web.ts --data-dir DIR     (an ingested DATA_DIR)
 *   tsx bench/web.ts --rate-limit       (the rate limit alone, no library needed)
 */
import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { MAX_CLIENTS, rateLimiter } from '../adapters/web/rateLimit.js';
import { createSite } from '../adapters/web/site.js';
import type { App } from '../src/app.js';
import { openApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { AUTOCOMPLETE_PREFIXES, KEYWORD_QUERIES } from './queries.js';
import { fmtMs, median, percentile } from './stats.js';

/** Chinese queries as a reader types them (read through the glossary). */
const CHINESE_QUERIES = ['扩散模型', '大语言模型 推理', '强化学习', '图神经网络', '对比学习 图像', '联邦学习 隐私', '知识蒸馏', '目标检测'];
const WARM_UP = 40;

/**
 * Runs the site's measurements on `app` and returns the report lines.
 * @example (await benchWeb(app, queries)).forEach((line) => console.log(line));
 */
export async function benchWeb(app: App, evalQueries: readonly string[] = []): Promise<string[]> {
  // One client asking as fast as it can: the rate limit is not what is measured.
  const server = createServer(createSite(app, { ratePerSecond: 1e9 }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const topics = app.taxonomy.topics.map((t) => `/topic/${t.id}`);
    const searches = [...evalQueries, ...KEYWORD_QUERIES, ...CHINESE_QUERIES].map((q) => `/search?q=${encodeURIComponent(q)}`);
    const pages = [...searches, ...KEYWORD_QUERIES.slice(0, 20).map((q) => `/search?q=${encodeURIComponent(q)}&page=2`)];
    for (const path of [...pages.slice(0, WARM_UP), ...topics.slice(0, 10)]) await get(origin, path);
    // Three passes: the figures of every request, and of each page's fastest of three (what the
    // page costs when the machine is not busy elsewhere: bench runs share their cores).
    const passes = [await timeAll(origin, pages), await timeAll(origin, pages), await timeAll(origin, pages)];
    const search = passes.flat();
    const best = pages.map((_, i) => passes.map((p) => p[i]!).reduce((a, b) => (b.server < a.server ? b : a)));
    const topic = await timeAll(origin, topics);
    const suggestPaths = AUTOCOMPLETE_PREFIXES.map((p) => `/api/suggest?q=${encodeURIComponent(p)}`);
    for (let i = 0; i < 10; i++) for (const path of suggestPaths) await get(origin, path);
    const suggest = await timeAll(origin, [...suggestPaths, ...suggestPaths, ...suggestPaths]);
    const full = passes[0]!.filter((r) => r.cards === 20);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
    const line = (name: string, rs: readonly Timed[], goal: string) =>
      `${name} (${rs.length}): server median ${fmtMs(median(rs.map((r) => r.server)))} / p99 ${fmtMs(percentile(rs.map((r) => r.server), 0.99))}; ` +
      `end to end median ${fmtMs(median(rs.map((r) => r.wall)))} / p99 ${fmtMs(percentile(rs.map((r) => r.wall), 0.99))}   ${goal}`;
    if (process.env.BENCH_WEB_SLOWEST) for (const r of [...search, ...topic, ...suggest].sort((a, b) => b.server - a.server).slice(0, 12)) process.stderr.write(`${r.server.toFixed(1)} ms ${decodeURIComponent(r.path)}\n`);
    return [
      `Site on loopback (${app.library.size.toLocaleString('en-US')} papers):`,
      line('  /search pages', search, 'goal p99 ≤ 30 ms server time'),
      line('  /search, best of 3 a page', best, ''),
      `  /search HTML for 20 results (${full.length} pages): median ${kb(median(full.map((r) => r.bytes)))} / p99 ${kb(percentile(full.map((r) => r.bytes), 0.99))} / max ${kb(Math.max(...full.map((r) => r.bytes)))}   goal ≤ 60 kB`,
      line('  /topic pages', topic, ''),
      line('  /api/suggest', suggest, 'goal p99 ≤ 10 ms'),
      ...benchRateLimit(),
    ];
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** Addresses the rate-limit run sends, all new, all in the same millisecond. */
const FLOOD = 100_000;
const BATCH = 1_000;

/**
 * The rate limit under a flood of new addresses: microseconds per request (the median of
 * batches of {@link BATCH}) before the cap and past it, and the most addresses it held.
 */
function benchRateLimit(): string[] {
  const addresses = Array.from({ length: FLOOD }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  const run = () => {
    const limiter = rateLimiter();
    const perRequest: number[] = [];
    let largest = 0;
    for (let i = 0; i < FLOOD; i += BATCH) {
      const started = performance.now();
      for (let j = i; j < i + BATCH; j++) limiter.take(addresses[j]!, 1_000);
      perRequest.push(((performance.now() - started) * 1000) / BATCH);
      largest = Math.max(largest, limiter.size);
    }
    return { perRequest, largest };
  };
  run(); // warm-up
  const { perRequest, largest } = run();
  const below = perRequest.slice(0, MAX_CLIENTS / BATCH);
  const past = perRequest.slice(MAX_CLIENTS / BATCH);
  const us = (v: number) => `${v.toFixed(2)} µs`;
  return [
    `Rate limit, ${FLOOD.toLocaleString('en-US')} new addresses in 1 ms (cap ${MAX_CLIENTS.toLocaleString('en-US')}):`,
    `  per request below the cap median ${us(median(below))} / p99 ${us(percentile(below, 0.99))}; past it (evicting) median ${us(median(past))} / p99 ${us(percentile(past, 0.99))}; most held ${largest.toLocaleString('en-US')}   goal flat, ≤ cap`,
  ];
}

interface Timed {
  path: string;
  server: number;
  wall: number;
  bytes: number;
  cards: number;
}

async function timeAll(origin: string, paths: readonly string[]): Promise<Timed[]> {
  const out: Timed[] = [];
  for (const path of paths) out.push(await get(origin, path));
  return out;
}

async function get(origin: string, path: string): Promise<Timed> {
  const started = performance.now();
  const res = await fetch(`${origin}${path}`);
  const body = await res.text();
  const wall = performance.now() - started;
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
  const server = Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? Number.NaN);
  return { path, server, wall, bytes: Buffer.byteLength(body), cards: body.split('<article class="card">').length - 1 };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, eval: { type: 'string' }, 'rate-limit': { type: 'boolean', default: false } } });
  if (values['rate-limit']) {
    for (const line of benchRateLimit()) process.stdout.write(`${line}\n`);
    process.exit(0);
  }
  const config = loadConfig({ ...process.env, DATA_DIR: values['data-dir'] ?? process.env.DATA_DIR ?? './data', LOOKUP_UPSTREAM: 'off' });
  const app = await openApp(config, createLogger({ logLevel: 'warn', logFormat: 'json' }), { demoWhenEmpty: false });
  const evalFile = values.eval ?? new URL('../../shared/eval/relevance-dev.jsonl', import.meta.url).pathname;
  const queries = existsSync(evalFile) ? readFileSync(evalFile, 'utf8').split('\n').filter((l) => l.trim()).map((l) => (JSON.parse(l) as { query: string }).query) : [];
  try {
    for (const line of await benchWeb(app, queries)) process.stdout.write(`${line}\n`);
  } finally {
    await app.close();
  }
}
