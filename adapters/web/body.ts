/**
 * Request bodies the site reads (the related-work form and `/api/related`): the whole body up to
 * a cap, never more in memory, whatever the sender declares or sends.
 */
import type { IncomingMessage } from 'node:http';
import { MAX_RELATED_TEXT } from '../../src/search/meaning/related.js';

/**
 * Longest body read, in bytes: a text of {@link MAX_RELATED_TEXT} characters (all that is read
 * of it) takes up to 90 kB percent-encoded in a form (9 bytes a Chinese character) and 60 kB in
 * JSON (`\uXXXX`); a longer one, a section pasted whole, is still read in part, with a note.
 */
export const MAX_BODY_BYTES = 256 * 1024;

/** The sender went away before its body ended: nobody is left to answer. */
export class RequestAborted extends Error {
  override readonly name = 'RequestAborted';
}

/**
 * The whole body, or undefined once it passes `limit` bytes (declared or sent; the rest is left
 * unread). Rejects with {@link RequestAborted} when the connection closes before the body ends.
 * @example const body = await readBody(req, MAX_BODY_BYTES); if (!body) return tooLarge();
 */
export function readBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > limit) return resolve(undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: Buffer | undefined, err?: Error) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else settle(undefined);
    };
    req.on('data', onData);
    req.once('end', () => settle(Buffer.concat(chunks, size)));
    req.once('error', (err) => settle(undefined, new RequestAborted('the request failed before its body ended', { cause: err })));
    req.once('close', () => settle(undefined, new RequestAborted('the request closed before its body ended')));
  });
}

/**
 * A body's media type, lower case, without its parameters (`charset`): what the sender says it is.
 * @example mediaType('Application/x-www-form-urlencoded; charset=UTF-8') // 'application/x-www-form-urlencoded'
 */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * A related-work request as read: its text (undefined when it gives none) and limit (undefined
 * when it gives none, NaN when it is no number); or why it cannot be read.
 */
export type TextRequest =
  | { kind: 'text'; text: string | undefined; limit: number | undefined }
  | { kind: 'tooLarge' }
  /** A body of another media type than the one expected. */
  | { kind: 'unsupported' }
  /** A JSON body that is not an object with a `text` string. */
  | { kind: 'malformed' };

/**
 * The text of a related-work request: `?text=` and `?limit=` of a GET (or HEAD); of a POST, its
 * body as a form (`application/x-www-form-urlencoded`, the page's) or as a JSON object (`/api`).
 * A field given twice counts once, the first time (a JSON member, the last). Bytes that are not
 * UTF-8 are read as U+FFFD.
 * @example const request = await readTextRequest(req, url, 'form');
 */
export async function readTextRequest(req: IncomingMessage, url: URL, as: 'form' | 'json'): Promise<TextRequest> {
  if (req.method !== 'POST') return { kind: 'text', text: url.searchParams.get('text') ?? undefined, limit: numberOf(url.searchParams.get('limit')) };
  const expected = as === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  if (mediaType(req.headers['content-type']) !== expected) {
    // Not read: the connection cannot be kept for another request with its body still in it.
    req.resume();
    return { kind: 'unsupported' };
  }
  const body = await readBody(req);
  if (!body) {
    req.resume();
    return { kind: 'tooLarge' };
  }
  const text = body.toString('utf8');
  if (as === 'form') {
    const form = new URLSearchParams(text);
    return { kind: 'text', text: form.get('text') ?? undefined, limit: numberOf(form.get('limit')) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'malformed' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, 'text')) return { kind: 'malformed' };
  const fields = value as { text: unknown; limit?: unknown };
  if (typeof fields.text !== 'string') return { kind: 'malformed' };
  const limit = Object.hasOwn(value, 'limit') ? fields.limit : undefined;
  return { kind: 'text', text: fields.text, limit: limit === undefined || limit === null ? undefined : typeof limit === 'number' ? limit : Number.NaN };
}

/** A query field as a number: undefined when absent or blank, NaN when it is none. */
function numberOf(raw: string | null): number | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  return Number(raw);
}
