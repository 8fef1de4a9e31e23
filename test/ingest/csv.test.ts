import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CsvTokenizer, readCsv, type CsvRow } from '../../src/ingest/csv.js';
import { FormatError, type SourceItem } from '../../src/ingest/types.js';

function rows(text: string, chunkSize = text.length || 1): CsvRow[] {
  const csv = new CsvTokenizer();
  const out: CsvRow[] = [];
  for (let at = 0; at < text.length; at += chunkSize) out.push(...csv.push(text.slice(at, at + chunkSize)));
  out.push(...csv.end());
  return out;
}

async function collect(text: string): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of readCsv([text])) items.push(item);
  return items;
}

describe('CsvTokenizer', () => {
  it.each<[string, string, Array<Partial<CsvRow>>]>([
    ['plain rows', 'a,b\n1,2\n', [{ line: 1, fields: ['a', 'b'] }, { line: 2, fields: ['1', '2'] }]],
    ['CRLF and no final line break', 'a,b\r\n1,2', [{ line: 1, fields: ['a', 'b'] }, { line: 2, fields: ['1', '2'] }]],
    ['quoted commas and doubled quotes', '"x, y","say ""hi"""\n', [{ line: 1, fields: ['x, y', 'say "hi"'] }]],
    ['line breaks inside quotes', '"one\r\ntwo",b\nc,d\n', [{ line: 1, fields: ['one\r\ntwo', 'b'] }, { line: 3, fields: ['c', 'd'] }]],
    ['empty fields', ',,\n"",x,\n', [{ line: 1, fields: ['', '', ''] }, { line: 2, fields: ['', 'x', ''] }]],
    ['blank lines', 'a\n\n\r\nb\n', [{ line: 1, fields: ['a'] }, { line: 4, fields: ['b'] }]],
    ['a quote inside an unquoted field, kept', 'say "hi",b\n', [{ line: 1, fields: ['say "hi"', 'b'] }]],
    ['a byte order mark', '\uFEFFa,b\n', [{ line: 1, fields: ['a', 'b'] }]],
  ])('reads %s', (_name, text, expected) => {
    expect(rows(text)).toEqual(expected);
  });

  it.each([
    ['text after a closing quote', '"a"b,c\n', 'unexpected "b" after a closing quote'],
    ['an unterminated quote', 'a,"b\n', 'unterminated quoted field: the file ends inside quotes'],
  ])('marks a row with %s', (_name, text, error) => {
    expect(rows(text)).toEqual([expect.objectContaining({ line: 1, error })]);
  });

  it('gives the same rows however the text is cut', () => {
    const field = fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', ' ', 'é') });
    const quote = (f: string) => (/[",\r\n]/.test(f) || f === '' ? `"${f.replace(/"/g, '""')}"` : f);
    fc.assert(
      fc.property(
        fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { maxLength: 5 }),
        fc.constantFrom('\n', '\r\n'),
        fc.integer({ min: 1, max: 7 }),
        (table, eol, size) => {
          const text = table.map((row) => row.map(quote).join(',')).join(eol) + eol;
          const whole = rows(text);
          expect(rows(text, size)).toEqual(whole);
          expect(whole.map((r) => r.fields)).toEqual(table);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('readCsv', () => {
  it('keys data rows by the trimmed header and counts them from 0', async () => {
    expect(await collect(' title , year\nA,2020\n"B, C",2021\n')).toEqual([
      { index: 0, line: 2, value: { title: 'A', year: '2020' } },
      { index: 1, line: 3, value: { title: 'B, C', year: '2021' } },
    ]);
  });

  it('reports a row with the wrong number of fields and carries on', async () => {
    expect(await collect('title,year\nA,2020,extra\nB,2021\n')).toEqual([
      { index: 0, line: 2, error: 'expected 2 fields as in the header, got 3' },
      { index: 1, line: 3, value: { title: 'B', year: '2021' } },
    ]);
  });

  it.each([
    ['an empty column name', 'title,,year\n', 'the header row has an empty column name (column 2)'],
    ['a duplicated column name', 'title,title\n', 'the header row names the column "title" twice'],
  ])('fails a header with %s', async (_name, text, message) => {
    await expect(collect(text)).rejects.toThrow(new FormatError(message));
  });
});
