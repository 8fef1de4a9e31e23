#!/usr/bin/env node
/**
 * `paperscout`: the command line (`npm run cli -- <command>` in a checkout). USAGE below lists
 * the commands.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { openApp, type App } from '../../src/app.js';
import { paperLinks } from '../../src/library.js';
import { SetupError, UserError } from '../../src/errors.js';
import { messages } from '../../src/i18n/index.js';
import { parsePaperRef } from '../../src/papers/ids.js';
import type { Paper } from '../../src/papers/model.js';
import type { SearchHit } from '../../src/search/engine.js';
import { renderText } from '../terminal/render.js';
import { displayWidth } from '../terminal/width.js';
import { bootstrap } from '../../src/bootstrap.js';
import { BATCH_LOCK_WAIT_MS, StoreUnavailableError, isStoreBusy } from '../../src/store/errors.js';
import { runIngest, runReindex } from './ingest.js';
import { runSync } from './sync.js';
import { runDigestCommand } from './digest.js';

const USAGE = `Usage: paperscout <command> [options]

  ingest <file-or-dir>...                 import papers: Paper Copilot paperlists JSON, the arXiv
                                          metadata snapshot (JSONL), or JSONL/CSV with the paper fields
  ingest <https URL>                      import a remote file of those formats (gzip too)
  sync arxiv [--categories cs.LG,cs.CL]   fetch the new submissions of arXiv categories (default:
                                          ARXIV_CATEGORIES), one request every 3 s as arXiv asks
  sync arxiv --from YYYY-MM-DD [--until YYYY-MM-DD] [--categories …]
                                          backfill from arXiv's OAI-PMH interface; run it again
                                          after an interruption to resume where it stopped
  sync openreview --venue <venue id>      all submissions of an OpenReview venue, with decisions
                                          (e.g. ICLR.cc/2025/Conference; default: OPENREVIEW_VENUES)
  search "<query>" [--limit N] [--json]   search the library (query syntax: /help in the bot)
  search --stdin --json                   one query a line in, one JSON array of hits a line out
  show <id|arXiv id|DOI|URL> [--json]     one paper in full
  topics                                  the topic taxonomy, with paper counts
  topic "<name>" [--limit N] [--json]     the papers of a topic, newest first
  stats [--memory] [--json]               what the library holds (and the memory it takes)
  reindex [--merge]                       rebuild the search index from the library, or with --merge fold
                                          recent changes into its snapshot (the bot does this itself)
  digest run-due [--at <ISO time>]        send the digests due at that instant (default now), then exit
  digest preview <channel> [--at <time>]  print what a channel's digests would hold, sending nothing

Settings come from the environment or .env (see .env.example); DATA_DIR holds the library.`;

/** The terminal's language (LC_ALL, LC_MESSAGES, LANG), once the configuration is read. */
let locale: string | undefined;
const LOCKED_MESSAGE =
  `Another process held the library's write lock for more than ${BATCH_LOCK_WAIT_MS / 1000} s (an import, a re-index, ` +
  'a sqlite3 shell left in a transaction). What was written before stays; run the command again once that process is done.';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  // Quiet by default: stdout is for results; warnings still reach stderr.
  const { config, log } = bootstrap({ LOG_LEVEL: 'warn' });
  locale = config.locale;
  if (command === 'ingest') return runIngest(rest, config, log);
  if (command === 'sync') return runSync(rest, config, log);
  if (command === 'reindex') return runReindex(rest, config, log);
  const app = await openApp(config, log);
  try {
    switch (command) {
      case 'search':
        return await search(app, rest);
      case 'show':
        return await show(app, rest);
      case 'topics':
        return topics(app);
      case 'topic':
        return await topic(app, rest);
      case 'stats':
        return await stats(app, rest);
      case 'digest':
        return await runDigestCommand(app, rest, async (a) => (await import('../senders.js')).createSenders(a));
      default:
        process.stderr.write(`Unknown command "${command}".\n\n${USAGE}\n`);
        return 2;
    }
  } finally {
    await app.close();
  }
}

async function search(app: App, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { limit: { type: 'string', default: '10' }, json: { type: 'boolean', default: false }, stdin: { type: 'boolean', default: false } },
  });
  const limit = parseLimit(values.limit);
  if (values.stdin) {
    const lines = createInterface({ input: process.stdin, terminal: false });
    for await (const line of lines) {
      const result = await app.library.search(line, { limit });
      const hits = await hitsJson(app, result.hits);
      process.stdout.write(values.json ? `${JSON.stringify(hits)}\n` : `${hits.map((h) => h.title).join('\n')}\n\n`);
    }
    return 0;
  }
  const query = positionals.join(' ');
  if (query.trim() === '') throw new UserError('cli.giveQuery');
  const result = await app.library.search(query, { limit });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(await hitsJson(app, result.hits), null, 2)}\n`);
    return 0;
  }
  const m = messages(locale);
  for (const note of result.notes) process.stderr.write(`${m.text(note)}\n`);
  if (result.hits.length === 0) {
    process.stderr.write(`${m.t('cli.noResults')}\n`);
    return 1;
  }
  const cards = await app.library.cards(result, 0, limit, m);
  const reply = { fallback: '', blocks: cards.map((paper) => ({ kind: 'paper' as const, paper })) };
  process.stdout.write(renderText({ ...reply, locale: m.locale }, textStyle()));
  process.stderr.write(`${m.t('cli.matching', { total: result.total, shown: result.hits.length })}\n`);
  return 0;
}

async function show(app: App, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
  const key = positionals.join(' ').trim();
  if (!key) throw new UserError('cli.giveId');
  const ref = parsePaperRef(key);
  const found = (await app.library.findById(key)) ?? (ref && (await app.store.findByRef(ref)));
  if (!found) throw new UserError('cli.noPaper', { key });
  const { paper, doc } = found;
  if (values.json) {
    process.stdout.write(`${JSON.stringify(paper, null, 2)}\n`);
    return 0;
  }
  const m = messages(locale);
  const card = app.library.card(paper, doc, { detail: true, messages: m });
  process.stdout.write(renderText({ locale: m.locale, fallback: '', blocks: [{ kind: 'paper', paper: card }] }, textStyle()));
  process.stdout.write(`   id ${paper.id} · first seen ${paper.firstSeen}\n`);
  return 0;
}

function topics(app: App): number {
  const counts = app.library.topicCounts();
  const language = messages(locale).dataLocale;
  for (const area of app.taxonomy.areas) {
    process.stdout.write(`${app.taxonomy.areaName(area, language)}\n`);
    for (const t of area.topics) {
      const label = app.taxonomy.label(t, language);
      // Padded by display columns, so Chinese labels line up too.
      const pad = ' '.repeat(Math.max(0, 64 - displayWidth(label)));
      process.stdout.write(`  ${label}${pad} ${String(counts.get(t.id) ?? 0).padStart(7)}  ${t.id}\n`);
    }
  }
  return 0;
}

async function topic(app: App, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { limit: { type: 'string', default: '10' }, json: { type: 'boolean', default: false } },
  });
  const name = positionals.join(' ').trim();
  if (!name) throw new UserError('cli.giveTopic');
  const found = app.library.topics.resolve(name);
  if (!('topic' in found)) {
    const hint = found.suggestions.slice(0, 5).map((t) => `  ${app.taxonomy.label(t, messages(locale).dataLocale)}`).join('\n');
    throw hint ? new UserError('cli.noTopicMaybe', { name, suggestions: hint }) : new UserError('cli.noTopic', { name });
  }
  return search(app, [`topic:"${found.topic.id}"`, '--limit', values.limit ?? '10', ...(values.json ? ['--json'] : [])]);
}

async function stats(app: App, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { memory: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });
  const s = app.library.stats();
  if (values.json) {
    process.stdout.write(`${JSON.stringify(await statsJson(app, s))}\n`);
    return 0;
  }
  const lines = [
    `Library: ${app.demo ? 'bundled demo corpus (the library has no papers yet)' : app.stores.description}`,
    `Papers: ${s.papers.toLocaleString('en-US')} (index generation ${s.generation}, ${s.terms.toLocaleString('en-US')} distinct words)`,
    `Years: ${s.years}`,
    `Venues: ${s.venues.map(([v, n]) => `${v || '(none)'} ${n.toLocaleString('en-US')}`).join(', ')}`,
    `With a topic: ${s.withTopic.toLocaleString('en-US')}`,
  ];
  if (values.memory) {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    const mb = (n: number) => (n / 1048576).toFixed(1);
    lines.push(`Memory: heap ${mb(m.heapUsed)} MB, external ${mb(m.external)} MB, RSS ${mb(m.rss)} MB`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** `stats --json`: the library's counts as one object. */
async function statsJson(app: App, s: ReturnType<App['library']['stats']>) {
  const [min, max] = s.years === 'none' ? [] : s.years.split('–').map(Number);
  return {
    papers: s.papers,
    stored: await app.store.count(),
    demo: app.demo,
    generation: s.generation,
    terms: s.terms,
    years: min !== undefined ? { min, max } : null,
    withTopic: s.withTopic,
    venues: Object.fromEntries(s.venues),
    statuses: Object.fromEntries(await app.store.statusCounts()),
    harvests: app.demo ? [] : (await app.stores.harvests.list()).map((h) => ({ key: h.key, source: h.source, updatedAt: h.updatedAt })),
  };
}

/** The hits as `search --json` prints them, their papers read in one go. */
async function hitsJson(app: App, hits: readonly SearchHit[]) {
  const papers = await app.library.papersByDocs(hits.map((h) => h.storeDoc));
  return hits.map((hit) => hitJson(hit, papers.get(hit.storeDoc)));
}

function hitJson(hit: SearchHit, paper: Paper | undefined) {
  return {
    id: hit.id,
    title: hit.title,
    authors: paper?.authors ?? [],
    venue: paper?.venue ?? '',
    year: paper?.year ?? null,
    status: paper?.status ?? '',
    score: Math.round(hit.score * 1000) / 1000,
    topics: paper?.topics ?? [],
    url: (paper && paperLinks(paper)[0]?.url) ?? null,
  };
}

function parseLimit(value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 200) throw new UserError('cli.badLimit');
  return n;
}

function textStyle() {
  return { ansi: process.stdout.isTTY === true, width: Math.min(process.stdout.columns ?? 100, 120) };
}

// `paperscout topics | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UserError) {
      process.stderr.write(`${messages(locale).text(err.reason)}\n`);
    } else if (err instanceof SetupError || err instanceof StoreUnavailableError) {
      // The message is the whole story (what, where, what to do): no stack trace.
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
      return;
    }
    if (isStoreBusy(err)) {
      process.stderr.write(`${LOCKED_MESSAGE}\n`);
      process.exitCode = 1;
      return;
    }
    if (err instanceof TypeError && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${err.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`paperscout failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
