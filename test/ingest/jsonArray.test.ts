import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonArraySplitter, readJsonArray } from '../../src/ingest/jsonArray.js';
import { decodeUtf8 } from '../../src/ingest/chunks.js';
import { FormatError, type SourceItem } from '../../src/ingest/types.js';

/** Everything a reader yields for `chunks`, and the FormatError it ended with, if any. */
async function collect(chunks: AsyncIterable<string> | Iterable<string>): Promise<{ items: SourceItem[]; problem?: string }> {
  const items: SourceItem[] = [];
  try {
    for await (const item of readJsonArray(chunks)) items.push(item);
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    return { items, problem: error.message };
  }
  return { items };
}

/** `bytes` cut into pieces of the given sizes (cycled), as a real stream would deliver them. */
function cut(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

describe('JsonArraySplitter', () => {
  it('yields each element with its index and starting line', async () => {
    const text = '[\n {"a": 1},\n {"b": [1, {"c": "]}"}]},\n\n "x", 2, null\n]\n';
    const { items, problem } = await collect([text]);
    expect(problem).toBeUndefined();
    expect(items).toEqual([
      { index: 0, line: 2, value: { a: 1 } },
      { index: 1, line: 3, value: { b: [1, { c: ']}' }] } },
      { index: 2, line: 5, value: 'x' },
      { index: 3, line: 5, value: 2 },
      { index: 4, line: 5, value: null },
    ]);
  });

  it('reports a syntax error inside one element and carries on with the next', async () => {
    const text = '[\n {"title": "ok"},\n {"title": "broken" "year": 2020},\n {"title": "also ok"}\n]';
    const { items, problem } = await collect([text]);
    expect(problem).toBeUndefined();
    expect(items.map((i) => i.value)).toEqual([{ title: 'ok' }, undefined, { title: 'also ok' }]);
    expect(items[1]).toMatchObject({ index: 1, line: 3 });
    expect(items[1]!.error).toMatch(/^invalid JSON: /);
  });

  it.each([
    ['an empty array', '[]', [], undefined],
    ['an empty array with space', ' [ \n ] \n', [], undefined],
    ['a trailing comma', '[1, 2,]', [1, 2], undefined],
    ['a byte order mark', '\uFEFF[1]', [1], undefined],
  ])('accepts %s', async (_name, text, values, problem) => {
    const result = await collect([text]);
    expect(result.items.map((i) => i.value)).toEqual(values);
    expect(result.problem).toBe(problem);
  });

  it('reports an empty element between two commas', async () => {
    const { items } = await collect(['[1,\n,2]']);
    expect(items).toEqual([
      { index: 0, line: 1, value: 1 },
      { index: 1, line: 2, error: 'empty element: two commas in a row' },
      { index: 2, line: 2, value: 2 },
    ]);
  });

  it('fails a file that is not an array, saying what it starts with', async () => {
    const { items, problem } = await collect(['{"title": "x"}']);
    expect(items).toEqual([]);
    expect(problem).toBe(`not a JSON array: the file starts with "{"; expected '['`);
  });

  it('fails an empty file', async () => {
    expect((await collect(['  \n'])).problem).toBe('not a JSON array: the file is empty');
  });

  it('keeps the elements before content after the closing bracket, then fails', async () => {
    const { items, problem } = await collect(['[1, 2]\n', 'garbage']);
    expect(items.map((i) => i.value)).toEqual([1, 2]);
    expect(problem).toBe(`unexpected "g" on line 2 after the array's closing ']'`);
  });

  it('fails a file that ends inside an element, keeping the ones before it', async () => {
    const { items, problem } = await collect(['[{"a": 1},\n {"b": "unfinish']);
    expect(items).toEqual([{ index: 0, line: 1, value: { a: 1 } }]);
    expect(problem).toBe('the file ends inside the element starting on line 2 (a truncated file, or an unbalanced quote or bracket)');
  });

  it('fails a file that ends between elements without the closing bracket', async () => {
    const { items, problem } = await collect(['[1, 2, ']);
    expect(items.map((i) => i.value)).toEqual([1, 2]);
    expect(problem).toBe("the file ends before the array's closing ']' (truncated?)");
  });

  it('stops taking input once the file has a problem', () => {
    const splitter = new JsonArraySplitter();
    expect(splitter.push('x')).toEqual([]);
    expect(splitter.problem).toMatch(/^not a JSON array/);
    expect(splitter.push('[1]')).toEqual([]);
  });
});

describe('JsonArraySplitter fed in tiny chunks', () => {
  // Strings full of the characters a splitter could mistake for structure.
  const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', ',', ':', ' ', '\n', 'a', 'é', '€', '😀', '\u2028') });
  const record = fc.record(
    { title: tricky, authors: fc.array(tricky, { maxLength: 3 }), year: fc.integer(), nested: fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }) },
    { requiredKeys: ['title'] },
  );
  const element = fc.oneof(record, fc.jsonValue({ maxDepth: 4, stringUnit: 'grapheme' }));

  it('gives the same items as the whole file at once, and the values JSON.parse gives', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(element, { maxLength: 8 }),
        fc.constantFrom<undefined | number | string>(undefined, 0, 1, 2, '\t'),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        async (values, indent, sizes) => {
          const text = JSON.stringify(values, null, indent);
          const whole = await collect([text]);
          const chunked = await collect(decodeUtf8(cut(Buffer.from(text, 'utf8'), sizes)));
          expect(chunked).toEqual(whole);
          expect(whole.problem).toBeUndefined();
          expect(whole.items.map((i) => i.value)).toEqual(JSON.parse(text));
          expect(whole.items.map((i) => i.index)).toEqual(values.map((_, i) => i));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds the same elements and errors in hostile text whichever way it is cut', async () => {
    const hostile = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', ',', '\n', '1', 'x', ' ') });
    await fc.assert(
      fc.asyncProperty(hostile, fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }), async (body, sizes) => {
        const text = `[${body}]`;
        expect(await collect(decodeUtf8(cut(Buffer.from(text, 'utf8'), sizes)))).toEqual(await collect([text]));
      }),
      { numRuns: 500 },
    );
  });
});
