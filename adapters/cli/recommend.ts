/**
 * `paperscout recommend`: papers like the ones named, best first (never one of them).
 *
 *   recommend --like <id>[,<id>…] [--where "<filters>"] [--limit N] [--json]
 *   recommend --stdin --json    {"like": [ids], "unlike": [ids], "exclude": [ids],
 *                               "where": "year:2024", "limit": 20} a line in, a JSON array of
 *                               hits a line out, in order (relevance feedback: `unlike` are
 *                               papers disliked, which papers like them follow down; `exclude`
 *                               papers never to give, such as those shown already)
 * Hits have `search --json`'s fields plus `why`: the seeds a paper is most like, the words and
 * authors it shares with them. Seeds the library does not hold are left out and said so (on
 * stderr); a request with none it holds is an error with its reason (in a stream, a line
 * `{"error": …}` in its place, and the exit code 1 at the end; so is a line over 64 kB, or one
 * that is not such an object: the stream goes on).
 */
import { parseArgs } from 'node:util';
import type { App } from '../../src/app.js';
import { UserError } from '../../src/errors.js';
import type { Messages } from '../../src/i18n/index.js';
import type { Recommendations } from '../../src/recommend/seeds.js';
import { normalizeTitle } from '../../src/text.js';
import { hitJson, type HitJson } from '../../src/papers/hitJson.js';
import { LINE_TOO_LONG, MAX_LINE_BYTES, readLines } from '../terminal/lines.js';
import { parseLimit } from './limit.js';

/** A hit of `recommend --json`. */
export interface RecommendHitJson extends HitJson {
  why: { seeds: Array<{ id: string; title: string }>; words: string[]; authors: string[] };
}

interface Request {
  like: string[];
  unlike: string[];
  exclude: string[];
  where?: string;
  limit?: number;
}

const STDIN_EXAMPLE = '{"like": ["<id>", "<id>"], "unlike": ["<id>"], "exclude": ["<id>"], "where": "year:2024", "limit": 20}';

export async function runRecommend(app: App, args: string[], m: Messages): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      like: { type: 'string', multiple: true, default: [] },
      where: { type: 'string', default: '' },
      limit: { type: 'string', default: '20' },
      json: { type: 'boolean', default: false },
      stdin: { type: 'boolean', default: false },
    },
  });
  if (values.stdin) return stream(app, m, values.json);
  const like = values.like.flatMap((v) => v.split(',')).map((id) => id.trim()).filter(Boolean);
  if (like.length === 0) throw new UserError('cli.giveLike');
  const result = await app.library.recommend(like, { where: values.where, limit: parseLimit(values.limit) });
  if (result.unknown.length > 0 && result.ok) process.stderr.write(`${m.t('recommend.unknownSeeds', { ids: result.unknown.join(', ') })}\n`);
  if (!result.ok) throw new UserError(result.notes[0]!);
  for (const note of result.notes) process.stderr.write(`${m.text(note)}\n`);
  const hits = await hitsJson(app, result);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(hits, null, 2)}\n`);
    return 0;
  }
  if (hits.length === 0) {
    process.stderr.write(`${m.t('cli.noResults')}\n`);
    return 1;
  }
  hits.forEach((h, i) => {
    const why = h.why.seeds[0] ? m.t('recommend.why', { title: h.why.seeds[0].title, words: h.why.words.join(', ') || '—' }) : '';
    process.stdout.write(`${String(i + 1).padStart(2)}. ${h.title}\n    ${[h.venue, h.year].filter(Boolean).join(' ')} · ${h.id}\n    ${why}\n`);
  });
  return 0;
}

/** One request a line in, one array of hits (or `{"error": …}`) a line out. */
async function stream(app: App, m: Messages, json: boolean): Promise<number> {
  let failed = false;
  let n = 0;
  for await (const line of readLines(process.stdin)) {
    n++;
    if (line === LINE_TOO_LONG) {
      failed = true;
      process.stdout.write(`${JSON.stringify({ error: m.t('cli.lineTooLong', { line: n, max: MAX_LINE_BYTES / 1024 }) })}\n`);
      continue;
    }
    if (line.trim() === '') continue;
    let request: Request;
    try {
      request = parseRequest(line, n);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      failed = true;
      process.stdout.write(`${JSON.stringify({ error: m.text(error.reason) })}\n`);
      continue;
    }
    const { like, unlike, exclude, where, limit = 20 } = request;
    const result = await app.library.recommend(like, { unlike, exclude, ...(where !== undefined && { where }), limit });
    if (!result.ok) {
      failed = true;
      process.stdout.write(`${JSON.stringify({ error: m.text(result.notes[0]!), unknown: result.unknown })}\n`);
      continue;
    }
    if (result.unknown.length > 0) process.stderr.write(`${m.t('recommend.unknownSeeds', { ids: result.unknown.join(', ') })}\n`);
    const hits = await hitsJson(app, result);
    process.stdout.write(json ? `${JSON.stringify(hits)}\n` : `${hits.map((h) => h.title).join('\n')}\n\n`);
  }
  return failed ? 1 : 0;
}

function parseRequest(line: string, n: number): Request {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new UserError('cli.badStdinLine', { line: n, example: STDIN_EXAMPLE });
  }
  const bad = () => new UserError('cli.badStdinLine', { line: n, example: STDIN_EXAMPLE });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad();
  const r = value as Partial<Record<keyof Request, unknown>>;
  /** A list of ids: an array of strings, or one string of ids separated by commas. */
  const ids = (v: unknown, required: boolean): string[] => {
    const list = typeof v === 'string' ? v.split(',') : v === undefined && !required ? [] : v;
    if (!Array.isArray(list) || !list.every((id) => typeof id === 'string')) throw bad();
    const out = list.map((id: string) => id.trim()).filter(Boolean);
    if (required && out.length === 0) throw bad();
    return out;
  };
  if (r.where !== undefined && typeof r.where !== 'string') throw bad();
  if (r.limit !== undefined && !(Number.isInteger(r.limit) && (r.limit as number) >= 1 && (r.limit as number) <= 200)) throw new UserError('cli.badLimit');
  return { like: ids(r.like, true), unlike: ids(r.unlike, false), exclude: ids(r.exclude, false), ...(r.where !== undefined && { where: r.where as string }), ...(r.limit !== undefined && { limit: r.limit as number }) };
}

async function hitsJson(app: App, result: Extract<Recommendations, { ok: true }>): Promise<RecommendHitJson[]> {
  const papers = await app.library.papersByDocs(result.hits.map((h) => h.storeDoc));
  return result.hits.map((h) => {
    const paper = papers.get(h.storeDoc);
    // The index keeps names folded ("yoshua bengio"); the paper has them as written.
    const authors = h.why.authors.map((name) => paper?.authors.find((a) => normalizeTitle(a) === name) ?? name);
    return { ...hitJson(h, paper), why: { ...h.why, authors } };
  });
}
