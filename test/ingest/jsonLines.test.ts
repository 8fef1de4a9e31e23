import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readJsonLines } from '../../src/ingest/jsonLines.js';
import { decodeUtf8 } from '../../src/ingest/chunks.js';
import type { SourceItem } from '../../src/ingest/types.js';

async function collect(chunks: AsyncIterable<string> | Iterable<string>): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of readJsonLines(chunks)) items.push(item);
  return items;
}

describe('readJsonLines', () => {
  it('yields one record a line, skipping blank lines but counting them', async () => {
    expect(await collect(['{"a":1}\n\n   \n{"b":2}\n'])).toEqual([
      { index: 0, line: 1, value: { a: 1 } },
      { index: 1, line: 4, value: { b: 2 } },
    ]);
  });

  it('reads CRLF line ends, a byte order mark and a last line without a line break', async () => {
    expect(await collect(['\uFEFF{"a":1}\r\n\r\n{"b":"x\\r\\n"}'])).toEqual([
      { index: 0, line: 1, value: { a: 1 } },
      { index: 1, line: 3, value: { b: 'x\r\n' } },
    ]);
  });

  it('drops a byte order mark that arrives split over two byte chunks', async () => {
    const bytes = Buffer.from('\uFEFF{"a":1}\n', 'utf8');
    expect(await collect(decodeUtf8([bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)]))).toEqual([
      { index: 0, line: 1, value: { a: 1 } },
    ]);
  });

  it('reports a bad line with its line number and carries on', async () => {
    const items = await collect(['{"a":1}\n{"b": \n{"c":3}\n']);
    expect(items.map(({ index, line, value }) => ({ index, line, value }))).toEqual([
      { index: 0, line: 1, value: { a: 1 } },
      { index: 1, line: 2, value: undefined },
      { index: 2, line: 3, value: { c: 3 } },
    ]);
    expect(items[1]!.error).toMatch(/^invalid JSON: /);
  });

  it('gives the same records however the bytes are cut', async () => {
    const line = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }).map((v) => JSON.stringify(v));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(line, fc.constantFrom('', '  ', '{broken')), { maxLength: 8 }),
        fc.constantFrom('\n', '\r\n'),
        fc.integer({ min: 1, max: 7 }),
        async (lines, eol, size) => {
          const text = lines.join(eol);
          const bytes = Buffer.from(text, 'utf8');
          const pieces: Uint8Array[] = [];
          for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
          const items = await collect(decodeUtf8(pieces));
          expect(items).toEqual(await collect([text]));
          const expected = lines.flatMap((l, i) => (l.trim() === '' ? [] : [i + 1]));
          expect(items.map((item) => item.line)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
