#!/usr/bin/env node
/**
 * `paperscout`: the command line (`npm run cli -- <command>` in a checkout). `cli.usage` in the
 * catalogs lists the commands. Its reports are in the terminal's language (LC_ALL, LC_MESSAGES,
 * LANG); `--json` output is the same in every language.
 *
 * Exit codes: 0 done; 1 a failure (nothing found, a library that cannot be opened, a fault);
 * 2 a mistake in the command, said in one line with what to do instead, or an input `ingest`
 * could use nothing of (ingest.ts); 75 a re-index already under way. `cli.usage` says the same.
 */
import { parseArgs } from 'node:util';
import { openApp, type App } from '../../src/app.js';
import { citationJson, hitsJson } from '../../src/papers/hitJson.js';
import { SetupError, UserError } from '../../src/errors.js';
import { messages, type Messages } from '../../src/i18n/index.js';
import { parsePaperRef } from '../../src/papers/ids.js';
import { LINE_TOO_LONG, MAX_LINE_BYTES, readLines } from '../terminal/lines.js';
import { renderText } from '../terminal/render.js';
import { displayWidth } from '../terminal/width.js';
import { bootstrap } from '../../src/bootstrap.js';
import { BATCH_LOCK_WAIT_MS, StoreUnavailableError, isStoreBusy } from '../../src/store/errors.js';
import { runIngest, runReindex } from './ingest.js';
import { runSync } from './sync.js';
import { runDigestCommand } from './digest.js';
import { stats } from './stats.js';
import { parseLimit } from './limit.js';
import { runRecommend } from './recommend.js';
import { runExport, runLibrary } from './lists.js';
import { runFeedback } from './feedback.js';
import { runSlackCommand } from './slack.js';
import { printResult, textStyle } from './print.js';
import { runRelated } from './related.js';

/** The terminal's language (LC_ALL, LC_MESSAGES, LANG), once the configuration is read. */
let locale: string | undefined;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // Quiet by default: stdout is for results; warnings still reach stderr.
  const { config, log } = bootstrap({ LOG_LEVEL: 'warn' });
  locale = config.locale;
  const m = messages(locale);
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${m.t('cli.usage')}\n`);
    return command ? 0 : 2;
  }
  if (command === 'ingest') return runIngest(rest, config, log, m);
  if (command === 'sync') return runSync(rest, config, log, m);
  if (command === 'reindex') return runReindex(rest, config, log, m);
  if (!LIBRARY_COMMANDS.has(command)) throw new UserError('cli.unknownCommand', { command });
  // Commands that only read open a library this user cannot write read-only (run-due and slack write).
  const app = await openApp(config, log, { readOnlyIfUnwritable: !((command === 'digest' && rest[0] === 'run-due') || command === 'slack') });
  try {
    switch (command) {
      case 'search':
        return await search(app, rest);
      case 'related':
        return await runRelated(app, rest, m);
      case 'show':
        return await show(app, rest);
      case 'topics':
        return topics(app);
      case 'topic':
        return await topic(app, rest);
      case 'stats':
        return await stats(app, rest, m);
      case 'export':
        return await runExport(app, rest);
      case 'library':
        return await runLibrary(app, rest);
      case 'recommend':
        return await runRecommend(app, rest, m);
      case 'feedback':
        return await runFeedback(app, rest);
      case 'slack':
        return await runSlackCommand(app, rest, m);
      default:
        return await runDigestCommand(app, rest, m, async (a) => (await import('../senders.js')).createSenders(a));
    }
  } finally {
    await app.close();
  }
}

/** The commands that open the library through {@link openApp}. */
const LIBRARY_COMMANDS = new Set(['search', 'related', 'show', 'topics', 'topic', 'stats', 'digest', 'export', 'library', 'recommend', 'feedback', 'slack']);

async function search(app: App, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { limit: { type: 'string', default: '10' }, json: { type: 'boolean', default: false }, stdin: { type: 'boolean', default: false } },
  });
  const limit = parseLimit(values.limit);
  if (values.stdin) {
    let n = 0;
    for await (const line of readLines(process.stdin)) {
      n++;
      if (line === LINE_TOO_LONG) {
        // Still one answer a line, so that answers stay beside their queries.
        process.stderr.write(`${messages(locale).t('cli.lineTooLong', { line: n, max: MAX_LINE_BYTES / 1024 })}\n`);
        process.stdout.write(values.json ? '[]\n' : '\n\n');
        continue;
      }
      const result = await app.library.search(line, { limit });
      const hits = await hitsJson(app.library, result.hits);
      process.stdout.write(values.json ? `${JSON.stringify(hits)}\n` : `${hits.map((h) => h.title).join('\n')}\n\n`);
    }
    return 0;
  }
  const query = positionals.join(' ');
  if (query.trim() === '') throw new UserError('cli.giveQuery');
  const result = await app.library.search(query, { limit });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(await hitsJson(app.library, result.hits), null, 2)}\n`);
    return 0;
  }
  const m = messages(locale);
  if (!(await printResult(app, result, limit, m))) return 1;
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
    // The paper as stored, with its citation count and work named as `search --json` names them.
    process.stdout.write(`${JSON.stringify({ ...paper, ...citationJson(paper) }, null, 2)}\n`);
    return 0;
  }
  const m = messages(locale);
  const card = app.library.card(paper, doc, { detail: true, messages: m });
  process.stdout.write(renderText({ locale: m.locale, fallback: '', blocks: [{ kind: 'paper', paper: card }] }, textStyle()));
  process.stdout.write(`   ${m.t('cli.show.footer', { id: paper.id, date: paper.firstSeen })}\n`);
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

// `paperscout topics | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// `--debug`, anywhere before a `--`: a stack trace with every error.
const argv = process.argv.slice(2);
const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
const debug = argv.slice(0, end).includes('--debug');
main(argv.filter((a, i) => i >= end || a !== '--debug')).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const { text, code } = explain(err, messages(locale));
    const stack = debug && err instanceof Error && err.stack && !text.includes(err.stack) ? `${err.stack}\n` : '';
    process.stderr.write(`${text}\n${stack}`);
    process.exitCode = code;
  },
);

/**
 * What to say about an error, and the exit code: one line for a mistake of the user's (2) or a
 * problem of the installation that says its fix (1); a stack trace only for a fault of ours.
 */
function explain(err: unknown, m: Messages): { text: string; code: number } {
  if (err instanceof UserError) return { text: m.text(err.reason), code: 2 };
  // The message is the whole story (what, where, what to do).
  if (err instanceof SetupError || err instanceof StoreUnavailableError) return { text: err.message, code: 1 };
  if (isStoreBusy(err)) return { text: m.t('cli.locked', { seconds: BATCH_LOCK_WAIT_MS / 1000 }), code: 1 };
  if (err instanceof TypeError && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    // Node says some of these in three lines: the mistake is one.
    return { text: m.t('cli.badOption', { detail: err.message.replace(/\s*\n\s*/g, ' ') }), code: 2 };
  }
  return { text: m.t('cli.failed', { detail: err instanceof Error ? (err.stack ?? err.message) : String(err) }), code: 1 };
}
