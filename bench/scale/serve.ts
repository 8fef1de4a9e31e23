/**
 * The serving half of the scale benchmark, run in a process of its own per library (so that its
 * memory is the bot's, not the generator's): opens the library in DATA_DIR as `npm start` does,
 * then measures search and autocomplete latency over the mixed queries, exact-title hit@1 on
 * sampled titles, a burst of 100 Discord commands, `digest run-due` for 1,000 subscriptions, and
 * how soon papers imported by another process are found. Prints one JSON object.
 *
 *   tsx bench/scale/serve.ts <dataDir> <queries.json> <titles.json> <newPapers.jsonl> <cli.js>
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { openApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { decodeRecordText } from '../../src/papers/model.js';
import { normalizeTitle } from '../../src/text.js';
import { benchDigest } from '../digest.js';
import { benchDiscordBurst } from '../discord.js';
import { timeAutocomplete } from '../queries.js';
import { percentile } from '../stats.js';

const [dataDir, queriesFile, titlesFile, newPapersFile, cli] = process.argv.slice(2) as [string, string, string, string, string];
const rssMb = () => process.memoryUsage().rss / 1048576;
/** Resident memory the process owns (heap, SQLite's cache), without the mapped index's file pages, which the kernel may drop and reread. */
const anonMb = () => Number(/RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
/**
 * Whether a hit is the paper searched for: its title as stored is the one given, once the
 * LaTeX the import decodes is decoded ("C$^3$AI" is stored as "C³AI").
 */
const isTitle = (stored: string | undefined, given: string) => stored !== undefined && normalizeTitle(stored) === normalizeTitle(decodeRecordText(given));

const openStarted = performance.now();
const app = await openApp(loadConfig({ DATA_DIR: dataDir }), createLogger({ logLevel: 'warn', logFormat: 'json' }), { demoWhenEmpty: false });
const openMs = performance.now() - openStarted;
const rssAfterLoad = rssMb();

/** A pasted abstract's length, the figure. */
const RELATED_CHARS = 3000;
const queries = JSON.parse(readFileSync(queriesFile, 'utf8')) as Array<{ kind: string; query: string }>;
for (const q of queries) await app.library.search(q.query, { limit: 10 }); // warm-up
const wall: number[] = [];
const cpu: number[] = [];
const byKind = new Map<string, number[]>();
for (let pass = 0; pass < 3; pass++) {
  for (const q of queries) {
    const t = performance.now();
    const u = process.cpuUsage();
    await app.library.search(q.query, { limit: 10 });
    const c = process.cpuUsage(u);
    const ms = performance.now() - t;
    // Descriptions have their own row and bar (issue 40): the mix's figures stay comparable.
    if (q.kind !== 'description') wall.push(ms);
    cpu.push((c.user + c.system) / 1000);
    (byKind.get(q.kind) ?? byKind.set(q.kind, []).get(q.kind)!).push(ms);
  }
}
const suggest = timeAutocomplete((p) => app.library.suggest(p, 25), 5);
// Related work for pasted abstracts of 3,000 characters (issue 40): the library's own abstracts,
// run together until that long.
const pasted: string[] = [];
for (let doc = 1, text = ''; pasted.length < 20 && doc < 20_000; doc += 37) {
  text += ` ${(await app.library.paperByDoc(doc))?.abstract ?? ''}`;
  if (text.length >= RELATED_CHARS) {
    pasted.push(text.slice(0, RELATED_CHARS));
    text = '';
  }
}
for (const text of pasted) await app.library.related(text); // warm-up
const related: number[] = [];
for (let pass = 0; pass < 3; pass++) {
  for (const text of pasted) {
    const t = performance.now();
    await app.library.related(text, { limit: 10 });
    related.push(performance.now() - t);
  }
}
const titles = JSON.parse(readFileSync(titlesFile, 'utf8')) as string[];
let exactHits = 0;
for (const title of titles) {
  const top = (await app.library.search(title, { limit: 1 })).hits[0];
  if (isTitle(top?.title, title)) exactHits++;
}

// 1,000 papers imported by another process while this one runs: the CLI import's own time, then
// how long until this process finds them (it catches up as npm start does before a command).
const newTitles = readFileSync(newPapersFile, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { title: string }).title);
const ingestStarted = performance.now();
const ingest = spawnSync(process.execPath, [cli, 'ingest', newPapersFile], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' });
const ingestMs = performance.now() - ingestStarted;
if (ingest.status !== 0) throw new Error(`ingest of new papers failed: ${ingest.stderr}`);
const cliSearchStarted = performance.now();
const cliSearch = spawnSync(process.execPath, [cli, 'search', newTitles[0]!, '--json', '--limit', '1'], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' });
const cliSearchMs = performance.now() - cliSearchStarted;
const cliFound = isTitle((JSON.parse(cliSearch.stdout || '[]') as Array<{ title: string }>)[0]?.title, newTitles[0]!);
const catchUpStarted = performance.now();
let longestSlice = 0;
let last = performance.now();
const watchdog = setInterval(() => {
  const now = performance.now();
  longestSlice = Math.max(longestSlice, now - last);
  last = now;
}, 1);
await app.library.catchUp();
clearInterval(watchdog);
const catchUpMs = performance.now() - catchUpStarted;
let botFound = 0;
for (const t of newTitles.slice(0, 50)) if (isTitle((await app.library.search(t, { limit: 1 })).hits[0]?.title, t)) botFound++;

const burst = await benchDiscordBurst(app, 100);
const digestLine = (await benchDigest(app, 1000))[0]!;
const digestSeconds = Number(/: ([\d.]+) s/.exec(digestLine)?.[1]);

process.stdout.write(
  `${JSON.stringify({
    papers: app.library.size,
    openMs,
    rssAfterLoad,
    rssAfterQueries: rssMb(),
    anonAfterQueries: anonMb(),
    peakRss: peakMb(),
    search: { p50: percentile(wall, 0.5), p99: percentile(wall, 0.99), max: Math.max(...wall), cpuP99: percentile(cpu, 0.99) },
    byKind: Object.fromEntries([...byKind].map(([k, v]) => [k, { p50: percentile(v, 0.5), p99: percentile(v, 0.99) }])),
    suggest: { p50: percentile(suggest, 0.5), p99: percentile(suggest, 0.99) },
    related: { p50: percentile(related, 0.5), p99: percentile(related, 0.99), texts: pasted.length },
    exactTitleHit1: exactHits / Math.max(1, titles.length),
    newPapers: { ingestMs, cliSearchMs, cliFound, catchUpMs, longestSliceMs: longestSlice, botFound: `${botFound}/50` },
    burst,
    digestSeconds,
  })}\n`,
);
await app.close();
process.exit(0);
