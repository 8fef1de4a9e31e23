/**
 * A streaming CSV reader (RFC 4180): comma-separated fields, double-quoted fields that may hold
 * commas, doubled quotes and line breaks, LF or CRLF row ends, a header row naming the columns.
 * Lenient where it costs nothing: a quote inside an unquoted field is kept as a character.
 */
import { FormatError, MAX_RECORD_CHARS, type SourceItem, type TextChunks } from './types.js';

/** One row as the tokenizer found it. */
export interface CsvRow {
  /** 1-based line on which the row starts. */
  line: number;
  fields: string[];
  /** Why the row is malformed, if it is; its fields are then best effort. */
  error?: string;
}

type State = 'fieldStart' | 'unquoted' | 'quoted' | 'quoteInQuoted' | 'afterQuoted';

/**
 * Splits CSV text fed in arbitrary pieces into rows of fields. Pure and synchronous; blank lines
 * are skipped. A row longer than {@link MAX_RECORD_CHARS} stops it with a {@link problem}.
 * @example
 * const csv = new CsvTokenizer();
 * csv.push('title,year\r\n"Say ""hi"", world",2020\r\n'); // [{ line: 1, fields: ['title', 'year'] }, { line: 2, fields: ['Say "hi", world', '2020'] }]
 */
export class CsvTokenizer {
  problem: string | undefined;
  private state: State = 'fieldStart';
  private field = '';
  private fields: string[] = [];
  private rowChars = 0;
  private rowError: string | undefined;
  private line = 1;
  private rowLine = 1;
  /** The previous character was a CR ending a row, so a LF right after it belongs to it. */
  private afterCr = false;
  private started = false;

  push(chunk: string): CsvRow[] {
    const out: CsvRow[] = [];
    if (this.problem !== undefined) return out;
    let i = 0;
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) i = 1;
    }
    for (; i < chunk.length; i++) {
      const ch = chunk[i]!;
      if (this.afterCr) {
        this.afterCr = false;
        if (ch === '\n') continue;
      }
      switch (this.state) {
        case 'quoted':
          if (ch === '"') this.state = 'quoteInQuoted';
          else {
            if (ch === '\n') this.line++;
            this.field += ch;
          }
          continue;
        case 'quoteInQuoted':
          if (ch === '"') {
            this.field += '"';
            this.state = 'quoted';
            continue;
          }
          this.state = 'afterQuoted';
          break;
        case 'fieldStart':
          if (ch === '"') {
            this.state = 'quoted';
            continue;
          }
          break;
        default:
          break;
      }
      // Outside quotes: separators end the field or row; anything else is field content.
      if (ch === ',') this.endField();
      else if (ch === '\n' || ch === '\r') {
        this.line++;
        this.afterCr = ch === '\r';
        this.endRow(out);
      } else {
        if (this.state === 'afterQuoted') this.rowError ??= `unexpected ${JSON.stringify(ch)} after a closing quote`;
        else this.state = 'unquoted';
        this.field += ch;
      }
      if (this.rowChars + this.field.length > MAX_RECORD_CHARS) {
        this.problem = `the row starting on line ${this.rowLine} is longer than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters (an unbalanced quote?)`;
        return out;
      }
    }
    return out;
  }

  /** Call once the input is exhausted; returns the last row if it had no line break. */
  end(): CsvRow[] {
    const out: CsvRow[] = [];
    if (this.problem !== undefined) return out;
    if (this.state === 'quoted') this.rowError ??= 'unterminated quoted field: the file ends inside quotes';
    if (this.state !== 'fieldStart' || this.fields.length > 0) this.endRow(out);
    return out;
  }

  private endField(): void {
    this.fields.push(this.field);
    this.rowChars += this.field.length;
    this.field = '';
    this.state = 'fieldStart';
  }

  private endRow(out: CsvRow[]): void {
    const blank = this.fields.length === 0 && this.state === 'fieldStart';
    this.endField();
    if (!blank) out.push({ line: this.rowLine, fields: this.fields, ...(this.rowError ? { error: this.rowError } : {}) });
    this.fields = [];
    this.rowChars = 0;
    this.rowError = undefined;
    this.rowLine = this.line;
  }
}

/**
 * Streams the data rows of a CSV file with a header row, as objects keyed by the header's
 * column names (trimmed). A row with a different number of fields than the header is an error
 * item; an empty or duplicated column name is a {@link FormatError}.
 * @example
 * for await (const item of readCsv(['title,year\n', 'Attention,2017\n'])) console.log(item.value); // { title: 'Attention', year: '2017' }
 */
export async function* readCsv(chunks: TextChunks): AsyncGenerator<SourceItem, void, undefined> {
  const tokenizer = new CsvTokenizer();
  let header: string[] | undefined;
  let index = 0;
  const toItem = (row: CsvRow): SourceItem | undefined => {
    if (header === undefined) {
      header = checkHeader(row);
      return undefined;
    }
    if (row.error !== undefined) return { index: index++, line: row.line, error: row.error };
    if (row.fields.length !== header.length) {
      return { index: index++, line: row.line, error: `expected ${header.length} fields as in the header, got ${row.fields.length}` };
    }
    // fromEntries defines own properties, so even a column named "__proto__" is kept as data.
    const value = Object.fromEntries(header.map((name, c) => [name, row.fields[c]!]));
    return { index: index++, line: row.line, value };
  };
  for await (const chunk of chunks) {
    for (const row of tokenizer.push(chunk)) {
      const item = toItem(row);
      if (item) yield item;
    }
    if (tokenizer.problem !== undefined) throw new FormatError(tokenizer.problem);
  }
  for (const row of tokenizer.end()) {
    const item = toItem(row);
    if (item) yield item;
  }
}

function checkHeader(row: CsvRow): string[] {
  if (row.error !== undefined) throw new FormatError(`the header row is malformed: ${row.error}`);
  const names = row.fields.map((name) => name.trim());
  const seen = new Set<string>();
  for (const [i, name] of names.entries()) {
    if (name === '') throw new FormatError(`the header row has an empty column name (column ${i + 1})`);
    if (seen.has(name)) throw new FormatError(`the header row names the column "${name}" twice`);
    seen.add(name);
  }
  return names;
}
