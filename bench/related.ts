/**
 * Related work for a pasted abstract (issue 40): 50 texts of 3,000 characters, each the abstract
 * of a paper drawn from the library (seed 40, abstracts of 500 characters or more) continued with
 * the abstracts of the papers after it in the library's order (mostly the same venue and year) up
 * to 3,000 characters, cut at a word. Timed three ways, three passes each, p50 / p99:
 * `library.related` alone (10 hits), with the 10 cards and their closest sentences (what
 * `paperscout related` and the site show), and `POST /related` through the site on loopback
 * (its Server-Timing: the form read, 20 cards rendered). The first call, which reads the
 * association table, is shown on its own. The paper itself is not left out of its answer.
 *
 * bench/run.ts calls {@link benchRelated} with the app it has open; on its own:
 *   npx tsx bench/related.ts --data-dir DIR     (an ingested DATA_DIR, only read)
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createSite } from '../adapters/web/site.js';
import { openApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { silentLog } from '../test/helpers/corpus.js';
import { rng } from './scale/generate.js';
import { fmtMs, percentile } from './stats.js';

/** Characters of each text: a long abstract, or an abstract and its introduction's start. */
export const TEXT_CHARS = 3000;
const TEXTS = 50;
const PASSES = 3;
/** Abstracts shorter than this are not drawn to start a text. */
const MIN_ABSTRACT = 500;

/**
 * The report lines for `app`'s library.
 * @example (await benchRelated(app)).forEach((line) => console.log(line));
 */
export async function benchRelated(app: App): Promise<string[]> {
  const texts = await drawTexts(app);
  if (texts.length === 0) return ['related (3,000-char abstract): skipped (no abstracts of 500 characters or more in the library)'];
  const t0 = performance.now();
  await app.library.related(texts[0]!, { limit: 10 });
  const first = performance.now() - t0;
  for (const text of texts.slice(0, 10)) await app.library.cards(await app.library.related(text, { limit: 10 }), 0, 10); // warm-up
  const alone: number[] = [];
  const withCards: number[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    for (const text of texts) {
      const t = performance.now();
      const result = await app.library.related(text, { limit: 10 });
      const found = performance.now();
      await app.library.cards(result, 0, 10);
      alone.push(found - t);
      withCards.push(performance.now() - t);
    }
  }
  const site = await timeSite(app, texts);
  const line = (ms: readonly number[]) => `${fmtMs(percentile(ms, 0.5))} / ${fmtMs(percentile(ms, 0.99))}`;
  const pad = (s: string, n: number) => s.padEnd(n);
  return [
    `${pad('related (3,000-char abstract) p50 / p99', 44)}${pad(`${texts.length} texts × ${PASSES} passes; the first call (reads the association table) ${fmtMs(first)}`, 76)}≤ 200 ms`,
    `${pad('  library.related, 10 hits', 44)}${line(alone)}`,
    `${pad('  with 10 cards (closest sentences)', 44)}${line(withCards)}`,
    `${pad('  POST /related, 20 cards (server)', 44)}${line(site)}`,
  ];
}

/** {@link TEXTS} texts of {@link TEXT_CHARS} characters from the library's abstracts, drawn with seed 40. */
async function drawTexts(app: App): Promise<string[]> {
  const abstracts: string[] = [];
  for await (const row of app.store.rowsForIndex()) abstracts.push(row.abstract.replace(/\s+/g, ' ').trim());
  const starts = abstracts.flatMap((a, i) => (a.length >= MIN_ABSTRACT ? [i] : []));
  const pick = rng(40);
  const texts: string[] = [];
  for (let n = 0; n < TEXTS && starts.length > 0; n++) {
    let i = starts[Math.floor(pick() * starts.length)]!;
    let text = abstracts[i]!;
    while (text.length < TEXT_CHARS && ++i < abstracts.length) if (abstracts[i]) text += ` ${abstracts[i]}`;
    const cut = text.slice(0, TEXT_CHARS);
    texts.push(cut.length < TEXT_CHARS ? cut : cut.slice(0, Math.max(cut.lastIndexOf(' '), TEXT_CHARS - 40)));
  }
  return texts;
}

/** The site's own time (Server-Timing) for each text posted to /related, {@link PASSES} passes. */
async function timeSite(app: App, texts: readonly string[]): Promise<number[]> {
  const server = createServer(createSite(app, { ratePerSecond: 1e9 }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (text: string) => {
    const res = await fetch(`${origin}/related`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ text }).toString() });
    const body = await res.text();
    if (res.status !== 200 || !body.includes('<article class="card">')) throw new Error(`POST /related answered ${res.status} without results`);
    return Number(/app;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1]);
  };
  try {
    for (const text of texts.slice(0, 10)) await post(text); // warm-up
    const ms: number[] = [];
    for (let pass = 0; pass < PASSES; pass++) for (const text of texts) ms.push(await post(text));
    return ms;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
  if (!values['data-dir']) {
    process.stderr.write('Give --data-dir, an ingested DATA_DIR (it is only read).\n');
    process.exit(2);
  }
  const app = await openApp(loadConfig({ DATA_DIR: values['data-dir'], LOOKUP_UPSTREAM: 'off' }), silentLog, { demoWhenEmpty: false });
  try {
    for (const line of await benchRelated(app)) console.log(line);
  } finally {
    await app.close();
  }
}
