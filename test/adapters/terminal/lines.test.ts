/**
 * The terminal's line reader: readline's lines (checked against readline itself on any text cut
 * into any chunks), and a line past the cap answered once and dropped, whatever follows it.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINE_TOO_LONG, readLines } from '../../../adapters/terminal/lines.js';

async function collect(chunks: Array<string | Buffer>, maxBytes?: number): Promise<Array<string | typeof LINE_TOO_LONG>> {
  const out: Array<string | typeof LINE_TOO_LONG> = [];
  for await (const line of readLines(Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))), maxBytes)) out.push(line);
  return out;
}

async function byReadline(text: string): Promise<string[]> {
  const out: string[] = [];
  for await (const line of createInterface({ input: Readable.from([Buffer.from(text)]), terminal: false, crlfDelay: Infinity })) out.push(line);
  return out;
}

describe('readLines', () => {
  it.each([
    [['a\nb\n'], ['a', 'b']],
    [['a\r\nb'], ['a', 'b']],
    [['a\rb\r'], ['a', 'b']],
    [['a\r', '\nb\n'], ['a', 'b']],
    [['a\r', 'b\n'], ['a', 'b']],
    [['\n\n'], ['', '']],
    [['/paper dif', 'fusion\n/help'], ['/paper diffusion', '/help']],
    [[Buffer.from('扩散').subarray(0, 4), Buffer.concat([Buffer.from('扩散').subarray(4), Buffer.from('\n')])], ['扩散']],
    [[''], []],
  ] as Array<[Array<string | Buffer>, string[]]>)('%j → %j', async (chunks, lines) => {
    expect(await collect(chunks)).toEqual(lines);
  });

  it('reads as readline does, whatever the chunks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.constantFrom('\n', '\r', '\r\n', '\n\r')), { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), async (pieces, cuts) => {
        const bytes = Buffer.from(pieces.join(''));
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((from, i) => bytes.subarray(from, [...at, bytes.length][i])).filter((c) => c.length > 0);
        expect(await collect(chunks)).toEqual(await byReadline(pieces.join('')));
      }),
    );
  });

  it('answers a line over the cap once, at once, and reads on after its end', async () => {
    expect(await collect(['x'.repeat(17), '\n/help\n'], 16)).toEqual([LINE_TOO_LONG, '/help']);
    expect(await collect(['x'.repeat(16), '\n'], 16)).toEqual(['x'.repeat(16)]);
    // Cut across chunks, ended by \r\n split between two of them, followed by more.
    expect(await collect(['/paper ', 'y'.repeat(10), 'y'.repeat(10), '\r', '\n/topic\r\n'], 16)).toEqual([LINE_TOO_LONG, '/topic']);
    // Two long lines, two answers; a line that never ends gets its answer all the same.
    expect(await collect(['z'.repeat(40), '\n', 'z'.repeat(40), '\nok\n', 'z'.repeat(100)], 16)).toEqual([LINE_TOO_LONG, LINE_TOO_LONG, 'ok', LINE_TOO_LONG]);
  });
});
