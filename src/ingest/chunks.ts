/**
 * Reading files as UTF-8 text in pieces, so a multi-gigabyte file never sits in memory whole.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

/** Bytes read from disk at a time. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Decodes a stream of UTF-8 bytes to strings, carrying multi-byte characters split across chunk
 * boundaries over to the next chunk and dropping a leading byte order mark.
 * @example
 * for await (const text of decodeUtf8([Buffer.from([0xc3]), Buffer.from([0xa9])])) console.log(text); // 'é'
 */
export async function* decodeUtf8(
  bytes: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of bytes) {
    const text = decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield text;
  }
  const tail = decoder.decode();
  if (tail.length > 0) yield tail;
}

/**
 * The file at `path` as decoded text chunks; `onBytes` hears how many bytes each read brought.
 * The file is opened when the iteration starts (one never iterated, as a file whose head was
 * refused, is never opened); stopping the iteration early closes it.
 * @example
 * for await (const text of readTextChunks('papers.jsonl', (n) => (done += n))) splitter.push(text);
 */
export async function* readTextChunks(path: string, onBytes?: (bytes: number) => void): AsyncGenerator<string, void, undefined> {
  yield* decodeUtf8(countBytes(createReadStream(path, { highWaterMark: READ_CHUNK_BYTES }), onBytes));
}

async function* countBytes(stream: AsyncIterable<Buffer>, onBytes?: (bytes: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of stream) {
    onBytes?.(chunk.length);
    yield chunk;
  }
}

/**
 * The first `maxBytes` of a file as text (a character cut at the end becomes U+FFFD), without a
 * byte order mark; format detection looks at it.
 * @example const head = await readHead('icml2019.json'); // '[\n {\n  "id": "3768", …'
 */
export async function readHead(path: string, maxBytes = 256 * 1024): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    return new TextDecoder('utf-8').decode(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
