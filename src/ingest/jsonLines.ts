/**
 * A streaming reader for JSON Lines (JSONL, NDJSON): one JSON value per line, blank lines
 * skipped, LF or CRLF line ends, an optional byte order mark.
 */
import { MAX_RECORD_CHARS, type SourceItem, type TextChunks } from './types.js';

const NOT_BLANK = /\S/;

/**
 * Splits JSON Lines text fed in arbitrary pieces into parsed records. Pure and synchronous.
 * @example
 * const splitter = new JsonLinesSplitter();
 * splitter.push('{"a":1}\r\n\n{"b"'); // [{ index: 0, line: 1, value: { a: 1 } }]
 * splitter.push(':2}');                // []
 * splitter.end();                      // [{ index: 1, line: 3, value: { b: 2 } }]
 */
export class JsonLinesSplitter {
  private pending = '';
  private oversized = false;
  private line = 0;
  private index = 0;
  private started = false;

  push(chunk: string): SourceItem[] {
    const out: SourceItem[] = [];
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const piece = text.slice(from, nl);
      const line = this.pending.length > 0 ? this.pending + piece : piece;
      this.pending = '';
      this.emit(line, out);
      from = nl + 1;
    }
    this.keep(text.slice(from));
    return out;
  }

  /** Call once the input is exhausted; returns the last line if it had no line break. */
  end(): SourceItem[] {
    const out: SourceItem[] = [];
    if (this.pending.length > 0 || this.oversized) this.emit(this.pending, out);
    this.pending = '';
    return out;
  }

  private keep(rest: string): void {
    if (this.oversized || rest.length === 0) return;
    if (this.pending.length + rest.length > MAX_RECORD_CHARS) {
      this.oversized = true;
      this.pending = '';
    } else {
      this.pending += rest;
    }
  }

  private emit(text: string, out: SourceItem[]): void {
    this.line++;
    if (this.oversized) {
      this.oversized = false;
      out.push({ index: this.index++, line: this.line, error: `line longer than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters` });
      return;
    }
    if (!NOT_BLANK.test(text)) return;
    const item: SourceItem = { index: this.index++, line: this.line };
    try {
      item.value = JSON.parse(text);
    } catch (error) {
      item.error = `invalid JSON: ${(error as Error).message}`;
    }
    out.push(item);
  }
}

/**
 * Streams the records of a JSON Lines file.
 * @example
 * for await (const item of readJsonLines(readTextChunks('arxiv-metadata-oai-snapshot.json'))) console.log(item.line);
 */
export async function* readJsonLines(chunks: TextChunks): AsyncGenerator<SourceItem, void, undefined> {
  const splitter = new JsonLinesSplitter();
  for await (const chunk of chunks) yield* splitter.push(chunk);
  yield* splitter.end();
}
