import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CsvTokenizer, readCsv, sniffDelimiter, type CsvDelimiter, type CsvRow } from '../../src/ingest/csv.js';
import { FormatError, type SourceItem } from '../../src/ingest/types.js';

function rows(text: string, chunkSize = text.length || 1): CsvRow[] {
  const csv = new CsvTokenizer();
  const out: CsvRow[] = [];
  for (let at = 0; at < text.length; at += chunkSize) out.push(...csv.push(text.slice(at, at + chunkSize)));
  out.push(...csv.end());
  return out;
}

async function collect(text: string, delimiter?: CsvDelimiter, chunkSize = text.length || 1): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += chunkSize) chunks.push(text.slice(at, at + chunkSize));
  for await (const item of readCsv(chunks, delimiter ? { delimiter } : {})) items.push(item);
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

  it('marks a row with text after a closing quote', () => {
    expect(rows('"a"b,c\n')).toEqual([expect.objectContaining({ line: 1, error: 'unexpected "b" after a closing quote' })]);
  });

  it('fails a file that ends inside quotes, keeping the rows before', () => {
    const csv = new CsvTokenizer();
    expect(csv.push('x,y\n1,2\n3,"4\n5,6\n')).toEqual([{ line: 1, fields: ['x', 'y'] }, { line: 2, fields: ['1', '2'] }]);
    expect(csv.end()).toEqual([]);
    expect(csv.problem).toBe('the file ends inside a quoted field of the row starting on line 3 (an unbalanced quote, or a truncated file)');
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

  it('fails a header that names a column twice', async () => {
    await expect(collect('title,title\n')).rejects.toThrow(new FormatError('the header row names the column "title" twice'));
  });

  it('keeps columns without a name under one of their own (a spreadsheet index, a trailing separator)', async () => {
    expect(await collect(',title,\n0,A,\n')).toEqual([{ index: 0, line: 2, value: { 'column 1': '0', title: 'A', 'column 3': '' } }]);
  });
});

describe('sniffDelimiter', () => {
  it.each<[string, string, CsvDelimiter]>([
    ['commas', 'title,authors,year\nA,Ann Lee; Bo Chen,2020\n', ','],
    ['semicolons, with commas in the fields', 'title;authors;year\nModelle, Daten;Ann Lee, Bo Chen;2020\n', ';'],
    ['tabs', 'title\tauthors\nA, B; C\tAnn Lee\n', '\t'],
    ['commas, with semicolons in every field', 'title,authors\n"A; B",Ann Lee; Bo Chen\nC,Dee Ek; Fa Gu\n', ','],
    ['semicolons in quotes only', 'title;year\n"A, B; C";2020\n"D";2021\n', ';'],
    ['the rows, when the header alone is ambiguous', 'a,b;c\n1,2\n3,4\n', ','],
    ['an Excel sep= line', 'sep=;\ntitle,with,commas;year\n', ';'],
    ['a header alone', 'title;year', ';'],
    ['one column (a comma)', 'title\nA\n', ','],
    ['nothing (a comma)', '', ','],
  ])('reads %s', (_name, head, expected) => {
    expect(sniffDelimiter(head)).toBe(expected);
  });
});

describe('readCsv in other dialects', () => {
  it('splits on the given separator, quotes and all, however the text is cut', async () => {
    const text = 'sep=;\r\ntitle;year\r\n"A; B";2020\r\nC, D;2021\r\n';
    const expected = [
      { index: 0, line: 3, value: { title: 'A; B', year: '2020' } },
      { index: 1, line: 4, value: { title: 'C, D', year: '2021' } },
    ];
    expect(await collect(text, ';')).toEqual(expected);
    expect(await collect(text, ';', 3)).toEqual(expected);
    expect(await collect('title\tyear\nA, B\t2020\n', '\t')).toEqual([{ index: 0, line: 2, value: { title: 'A, B', year: '2020' } }]);
  });

  it('lets the caller rename columns, or stop the file at the header', async () => {
    const rename = async (text: string, columns: (names: string[]) => string[]) => {
      const items: SourceItem[] = [];
      for await (const item of readCsv([text], { columns })) items.push(item);
      return items;
    };
    expect(await rename('Title,Year\nA,2020\n', (names) => names.map((n) => n.toLowerCase()))).toEqual([{ index: 0, line: 2, value: { title: 'A', year: '2020' } }]);
    await expect(rename('x\n1\n2\n', () => { throw new FormatError('no title column'); })).rejects.toThrow('no title column');
  });
});
