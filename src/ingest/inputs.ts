/**
 * What `paperscout ingest` reads: local files, or files at an http(s) URL, either of them
 * gzip-compressed (recognized by its first bytes, whatever the name says). Each is opened as
 * its text's head (for format detection) and its text in chunks from the start, counting the
 * raw bytes read for the progress bar. Nothing is ever held whole in memory.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { networkReason } from '../causes.js';
import { decodeUtf8, readHead, readTextChunks } from './chunks.js';

/** Text read ahead to recognize a format. */
export const HEAD_CHARS = 256 * 1024;
/** How long a remote server may take to start answering. */
export const REMOTE_HEADERS_TIMEOUT_MS = 30_000;

export interface Opened {
  head: string;
  chunks: AsyncIterable<string>;
  /** Releases the file or download when the rest will not be read (the head ruled it out). */
  close(): Promise<void>;
  /** The size in raw bytes, when known once opened (a remote file's Content-Length). */
  bytes?: number;
}

export interface Input {
  /** The path or URL, for messages. */
  name: string;
  /** The file name the format is recognized by: `iclr2024.json` for `…/iclr2024.json.gz`. */
  fileName: string;
  /** Raw bytes, when known before opening (local files). */
  bytes?: number;
  /** Opens the input; `onBytes` hears how many raw bytes each read brought. */
  open(onBytes: (bytes: number) => void, signal?: AbortSignal): Promise<Opened>;
}

/** An input could not be opened or stopped being readable (HTTP status, network, corrupt gzip). */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/**
 * Whether a path is a URL to fetch rather than a file.
 * @example isUrl('https://example.org/papers.jsonl.gz') // true
 */
export function isUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

/**
 * A local file: plain text read as it is, gzip decompressed as it streams.
 * @example const input = localInput('papers.jsonl.gz', 1234);
 */
export function localInput(path: string, bytes: number): Input {
  return {
    name: path,
    fileName: innerName(basename(path)),
    bytes,
    async open(onBytes) {
      if (!(await startsWithGzip(path))) return { head: await readHead(path, HEAD_CHARS), chunks: readTextChunks(path, onBytes), close: async () => undefined };
      return peek(decodeUtf8(gunzip(counted(createReadStream(path, { highWaterMark: 1024 * 1024 }), onBytes), path)));
    },
  };
}

/**
 * A file at an http(s) URL, fetched with Paper Scout's User-Agent and streamed.
 * @example const input = remoteInput('https://example.org/iclr2024.json.gz', { userAgent });
 */
export function remoteInput(url: string, options: { userAgent?: string; fetch?: typeof fetch } = {}): Input {
  const name = safeName(url);
  return {
    name: url,
    fileName: innerName(name),
    async open(onBytes, signal) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new InputError(`no answer within ${REMOTE_HEADERS_TIMEOUT_MS / 1000} s`)), REMOTE_HEADERS_TIMEOUT_MS);
      const abort = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', abort, { once: true });
      let response: Response;
      try {
        response = await (options.fetch ?? fetch)(url, {
          headers: { ...(options.userAgent && { 'user-agent': options.userAgent }), accept: 'application/json, application/x-ndjson, text/csv, application/gzip, */*;q=0.5' },
          signal: controller.signal,
        });
      } catch (error) {
        throw new InputError(controller.signal.reason instanceof InputError ? controller.signal.reason.message : networkReason(error));
      } finally {
        clearTimeout(timer);
      }
      if (!response.ok || !response.body) {
        signal?.removeEventListener('abort', abort);
        await response.body?.cancel().catch(() => undefined);
        throw new InputError(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}: check the URL (it must serve the file itself, not a page about it)`);
      }
      const length = Number(response.headers.get('content-length'));
      const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
      const opened = await peek(decodeUtf8(gunzip(counted(body, onBytes), url)));
      return { ...opened, ...(Number.isFinite(length) && length > 0 && { bytes: length }) };
    },
  };
}

/** The name without a trailing `.gz`. */
function innerName(name: string): string {
  return name.replace(/\.gz$/i, '');
}

/** The last path segment of a URL, decoded where it can be. */
function safeName(url: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? 'download';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

async function startsWithGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(2);
    const { bytesRead } = await handle.read(buffer, 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

async function* counted(stream: AsyncIterable<Uint8Array>, onBytes: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) {
    onBytes(chunk.length);
    yield chunk;
  }
}

/**
 * The bytes, decompressed when they start as gzip does; any read or decompression error becomes
 * an {@link InputError} naming the input.
 */
async function* gunzip(bytes: AsyncIterable<Uint8Array>, name: string): AsyncGenerator<Uint8Array> {
  const iterator = bytes[Symbol.asyncIterator]();
  let first: IteratorResult<Uint8Array>;
  try {
    first = await iterator.next();
  } catch (error) {
    throw new InputError(networkReason(error));
  }
  if (first.done) return;
  const rest = (async function* () {
    yield first.value;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  })();
  const gzip = first.value[0] === 0x1f && first.value[1] === 0x8b;
  try {
    if (!gzip) {
      yield* rest;
      return;
    }
    for await (const chunk of Readable.from(rest).pipe(createGunzip())) yield chunk as Buffer;
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as { code?: string }).code;
    throw new InputError(code?.startsWith('Z_') ? `${name} is not valid gzip (${(error as Error).message})` : networkReason(error));
  }
}

/** Reads ahead up to {@link HEAD_CHARS} of text for detection, then replays it before the rest. */
async function peek(chunks: AsyncGenerator<string>): Promise<Opened> {
  const buffered: string[] = [];
  let size = 0;
  let done = false;
  while (size < HEAD_CHARS) {
    const next = await chunks.next();
    if (next.done) {
      done = true;
      break;
    }
    buffered.push(next.value);
    size += next.value.length;
  }
  async function* replay(): AsyncGenerator<string> {
    yield* buffered;
    if (done) return;
    for (;;) {
      const next = await chunks.next();
      if (next.done) return;
      yield next.value;
    }
  }
  const close = async () => {
    await chunks.return(undefined).catch(() => undefined);
  };
  return { head: buffered.join('').slice(0, HEAD_CHARS), chunks: replay(), close };
}
