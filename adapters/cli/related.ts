/**
 * `paperscout related`: the library's papers closest in meaning to a pasted text (an abstract, a
 * paragraph, in English or Chinese), closest first, each with the sentence of its abstract
 * closest to the text (src/search/meaning/related.ts).
 *
 *   related "<text>" [--limit N] [--json]
 *   related --stdin --json    {"text": "…", "limit": 10} a line in (limit 1–200, by default 10 or
 *                             --limit), a JSON array of hits a line out, in order, each written
 *                             as soon as it is ready (a streaming tool for evaluation scripts)
 * Hits have `search --json`'s fields plus `snippet`, as plain text. A text without a word to read
 * (empty, all punctuation) is a mistake said in one line (exit 2). In a stream, a line that cannot
 * be answered (not JSON, no text, a bad limit, no word to read, longer than
 * {@link MAX_REQUEST_LINE_BYTES}) gets `{"error": …}` in its place and the stream goes on: the
 * exit code is 0 unless stdin itself fails. A text read only in part (past 10,000 characters)
 * says so on stderr, with its line.
 */
import { parseArgs } from 'node:util';
import type { App } from '../../src/app.js';
import { UserError } from '../../src/errors.js';
import { msg, type Message, type Messages } from '../../src/i18n/index.js';
import { snippetHitsJson } from '../../src/papers/hitJson.js';
import { hasWords } from '../../src/search/meaning/related.js';
import { LINE_TOO_LONG, readLines } from '../terminal/lines.js';
import { parseLimit } from './limit.js';
import { printResult } from './print.js';

/**
 * Longest request line read, in bytes: a text of 10,000 characters (what is read of it) takes up
 * to 60 kB once JSON-escaped; a longer one, a whole section pasted, is still read (in part, with
 * a note) rather than refused.
 */
export const MAX_REQUEST_LINE_BYTES = 1024 * 1024;
/** Hits a request gets unless it or --limit says otherwise. */
const DEFAULT_LIMIT = 10;
/** Most hits a request may ask for (the engine's most). */
const MAX_LIMIT = 200;

const STDIN_EXAMPLE = '{"text": "We propose …", "limit": 10}';

export async function runRelated(app: App, args: string[], m: Messages): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { limit: { type: 'string', default: String(DEFAULT_LIMIT) }, json: { type: 'boolean', default: false }, stdin: { type: 'boolean', default: false } },
  });
  const limit = parseLimit(values.limit);
  if (values.stdin) return stream(app, m, limit);
  const text = positionals.join(' ');
  if (!hasWords(text)) throw new UserError('cli.giveText');
  const result = await app.library.related(text, { limit });
  if (values.json) {
    for (const note of result.notes) process.stderr.write(`${m.text(note)}\n`);
    process.stdout.write(`${JSON.stringify(await snippetHitsJson(app.library, result), null, 2)}\n`);
    return 0;
  }
  return (await printResult(app, result, limit, m, { plainSnippets: true })) ? 0 : 1;
}

/** One request a line in, one array of hits (or `{"error": …}`) a line out, each written before the next line is read. */
async function stream(app: App, m: Messages, defaultLimit: number): Promise<number> {
  let n = 0;
  for await (const line of readLines(process.stdin, MAX_REQUEST_LINE_BYTES)) {
    n++;
    if (line === LINE_TOO_LONG) {
      await write(`${JSON.stringify({ error: m.t('cli.lineTooLong', { line: n, max: MAX_REQUEST_LINE_BYTES / 1024 }) })}\n`);
      continue;
    }
    // A blank line too gets its answer (an error): answers stay beside their requests.
    const request = parseRequest(line, n, defaultLimit);
    if ('error' in request) {
      await write(`${JSON.stringify({ error: m.text(request.error) })}\n`);
      continue;
    }
    const result = await app.library.related(request.text, { limit: request.limit });
    // The one note that says the answer left part of the text out; how Chinese was read is not worth a line each.
    for (const note of result.notes) if (note.key === 'search.clipped') process.stderr.write(`${m.t('cli.lineNote', { line: n, note: m.text(note) })}\n`);
    await write(`${JSON.stringify(await snippetHitsJson(app.library, result))}\n`);
  }
  return 0;
}

/**
 * A request line read: its text and limit, or what is wrong with it.
 * @example parseRequest('{"text": "We propose …"}', 1, 10) // { text: 'We propose …', limit: 10 }
 */
export function parseRequest(line: string, n: number, defaultLimit: number): { text: string; limit: number } | { error: Message } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: msg('cli.related.notJson', { line: n, example: STDIN_EXAMPLE }) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, 'text') || typeof (value as { text: unknown }).text !== 'string') {
    return { error: msg('cli.related.noText', { line: n, example: STDIN_EXAMPLE }) };
  }
  const { text } = value as { text: string };
  const given: unknown = Object.hasOwn(value, 'limit') ? (value as { limit: unknown }).limit : undefined;
  const limit = given === undefined || given === null ? defaultLimit : given;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    return { error: msg('cli.related.badLimit', { line: n, max: MAX_LIMIT, default: defaultLimit }) };
  }
  if (!hasWords(text)) return { error: msg('cli.related.noWords', { line: n, example: STDIN_EXAMPLE }) };
  return { text, limit };
}

/** Writes to stdout and waits until it is handed to the system: the reader has each answer before the next line is read. */
function write(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}
