/**
 * A streaming CSV reader (RFC 4180): separated fields, double-quoted fields that may hold
 * separators, doubled quotes and line breaks, LF or CRLF row ends, a header row naming the
 * columns. The separator is a comma, a semicolon (spreadsheets in many locales) or a tab,
 * sniffed from the first lines ({@link sniffDelimiter}). Lenient where it costs nothing: a quote
 * inside an unquoted field is kept as a character, an Excel `sep=;` line is understood.
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

/** The separators a CSV file may use. */
export type CsvDelimiter = ',' | ';' | '\t';
const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];
/** Rows of a file's head compared when sniffing its separator. */
const SNIFF_ROWS = 20;
/** The line Excel reads (and some tools write) to say which separator a file uses. */
const SEP_LINE = /^\uFEFF?sep=([,;\t])\r?\n/;

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

  constructor(private readonly delimiter: CsvDelimiter = ',') {}

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
      if (ch === this.delimiter) this.endField();
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
    if (this.state === 'quoted') {
      // Everything after the opening quote was swallowed: the file cannot be read to its end.
      this.problem = `the file ends inside a quoted field of the row starting on line ${this.rowLine} (an unbalanced quote, or a truncated file)`;
      return out;
    }
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
 * The separator of a CSV file, from its first lines: an Excel `sep=` line if there is one, else
 * the one of `,` `;` and tab that splits the header into the most columns and the rows after it
 * into as many (quotes respected). One column whichever is tried reads as a comma.
 * @example sniffDelimiter('title;authors;year\nA, B and C;Ann Lee;2020\n') // ';'
 */
export function sniffDelimiter(head: string): CsvDelimiter {
  const hint = SEP_LINE.exec(head);
  if (hint) return hint[1] as CsvDelimiter;
  let best: CsvDelimiter = ',';
  let bestScore = 0;
  for (const delimiter of DELIMITERS) {
    const tokenizer = new CsvTokenizer(delimiter);
    let rows = tokenizer.push(head);
    if (rows.length < 2) rows = [...rows, ...tokenizer.end()];
    rows = rows.slice(0, SNIFF_ROWS);
    const width = rows[0]?.fields.length ?? 0;
    if (width < 2) continue;
    const data = rows.slice(1);
    const agreeing = data.filter((row) => row.error === undefined && row.fields.length === width).length;
    // Rows agreeing with the header matter most; among equals, more columns.
    const score = (data.length === 0 ? 1 : agreeing / data.length) * 1000 + Math.min(width, 999);
    if (score > bestScore) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
}

export interface CsvOptions {
  /** The separator (default a comma); see {@link sniffDelimiter}. */
  delimiter?: CsvDelimiter;
  /**
   * Checks the header's column names and gives the names to key rows by (renaming aliases, for
   * example); throwing a {@link FormatError} stops the file with one error.
   */
  columns?: (names: string[]) => string[];
}

/**
 * Streams the data rows of a CSV file with a header row, as objects keyed by the header's
 * column names (trimmed; a column without a name is "column N"). A row with a different number
 * of fields than the header is an error item; a duplicated column name is a {@link FormatError}.
 * @example
 * for await (const item of readCsv(['title;year\n', 'Attention;2017\n'], { delimiter: ';' })) console.log(item.value); // { title: 'Attention', year: '2017' }
 */
export async function* readCsv(chunks: TextChunks, options: CsvOptions = {}): AsyncGenerator<SourceItem, void, undefined> {
  const delimiter = options.delimiter ?? ',';
  const tokenizer = new CsvTokenizer(delimiter);
  let header: string[] | undefined;
  let index = 0;
  let first = true;
  const toItem = (row: CsvRow): SourceItem | undefined => {
    const isFirst = first;
    first = false;
    if (isFirst && row.fields.length === 2 && row.fields[0] === 'sep=' && row.fields[1] === '') return undefined;
    if (header === undefined) {
      const names = checkHeader(row);
      header = options.columns ? options.columns(names) : names;
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
  if (tokenizer.problem !== undefined) throw new FormatError(tokenizer.problem);
}

function checkHeader(row: CsvRow): string[] {
  if (row.error !== undefined) throw new FormatError(`the header row is malformed: ${row.error}`);
  // A column without a name (a spreadsheet's index column, a trailing separator) is kept
  // under a name of its own; only the named columns mean anything to the mappers.
  const names = row.fields.map((name, i) => name.trim() || `column ${i + 1}`);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new FormatError(`the header row names the column "${name}" twice`);
    seen.add(name);
  }
  return names;
}
