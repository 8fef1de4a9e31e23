/**
 * A streaming reader for a file holding one top-level JSON array. The splitter finds where each
 * element starts and ends (tracking strings, escapes and nesting across chunks) and parses each
 * element on its own, so one broken element is reported and the rest still come through.
 */
import { FormatError, MAX_RECORD_CHARS, type SourceItem, type TextChunks } from './types.js';

const NEWLINE = 10;
const SPACE = 32;
const TAB = 9;
const CR = 13;
const BOM = 0xfeff;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

type Phase = 'before' | 'inside' | 'after';

/**
 * Splits a top-level JSON array fed in arbitrary pieces into parsed elements. Pure and
 * synchronous: {@link push} returns the elements completed by a chunk, {@link end} the rest.
 * A problem with the file as a whole is left in {@link problem} and stops the splitter.
 * @example
 * const splitter = new JsonArraySplitter();
 * splitter.push('[{"a":1},{"b"'); // [{ index: 0, line: 1, value: { a: 1 } }]
 * splitter.push(':2}]');          // [{ index: 1, line: 1, value: { b: 2 } }]
 */
export class JsonArraySplitter {
  /** Why the file cannot be read further, once that is known. */
  problem: string | undefined;
  private phase: Phase = 'before';
  private line = 1;
  private index = 0;
  /** Nesting inside the current element: 0 between elements and at an element's top level. */
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Line on which the current element started; 0 when no element is open. */
  private elementLine = 0;
  private parts: string[] = [];
  private partsLength = 0;
  private oversized = false;

  push(chunk: string): SourceItem[] {
    const out: SourceItem[] = [];
    if (this.problem !== undefined) return out;
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === NEWLINE) {
        this.line++;
        this.escaped = false;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
        continue;
      }
      if (c === SPACE || c === TAB || c === CR || c === BOM) continue;
      if (this.phase !== 'inside') {
        if (this.phase === 'before' && c === OPEN_BRACKET) {
          this.phase = 'inside';
          continue;
        }
        const found = JSON.stringify(String.fromCodePoint(chunk.codePointAt(i)!));
        this.problem =
          this.phase === 'before'
            ? `not a JSON array: the file starts with ${found}; expected '['`
            : `unexpected ${found} on line ${this.line} after the array's closing ']'`;
        return out;
      }
      if (this.depth === 0 && (c === COMMA || c === CLOSE_BRACKET)) {
        if (this.elementLine > 0) out.push(this.finish(chunk.slice(start, i)));
        else if (c === COMMA) out.push({ index: this.index++, line: this.line, error: 'empty element: two commas in a row' });
        // A ']' right after a comma is a trailing comma: tolerated, it holds no record.
        if (c === CLOSE_BRACKET) this.phase = 'after';
        continue;
      }
      if (this.elementLine === 0) {
        this.elementLine = this.line;
        start = i;
      }
      if (c === QUOTE) this.inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth++;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && this.depth > 0) this.depth--;
    }
    if (this.elementLine > 0) this.keep(chunk.slice(start));
    return out;
  }

  /** Call once the input is exhausted: a file that stops inside the array (between or inside elements) has a problem. */
  end(): SourceItem[] {
    if (this.problem !== undefined || this.phase === 'after') return [];
    if (this.phase === 'before') {
      this.problem = 'not a JSON array: the file is empty';
      return [];
    }
    this.problem =
      this.elementLine > 0
        ? `the file ends inside the element starting on line ${this.elementLine} (a truncated file, or an unbalanced quote or bracket)`
        : "the file ends before the array's closing ']' (truncated?)";
    return [];
  }

  private keep(text: string): void {
    if (this.oversized) return;
    this.partsLength += text.length;
    if (this.partsLength > MAX_RECORD_CHARS) {
      this.oversized = true;
      this.parts = [];
    } else if (text.length > 0) {
      this.parts.push(text);
    }
  }

  private finish(tail: string): SourceItem {
    const item: SourceItem = { index: this.index++, line: this.elementLine };
    if (this.oversized || this.partsLength + tail.length > MAX_RECORD_CHARS) {
      item.error = `element longer than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters (an unbalanced quote or bracket?)`;
    } else {
      const text = this.parts.length === 0 ? tail : this.parts.join('') + tail;
      try {
        item.value = JSON.parse(text);
      } catch (error) {
        item.error = `invalid JSON: ${(error as Error).message}`;
      }
    }
    this.reset();
    return item;
  }

  private reset(): void {
    this.elementLine = 0;
    this.depth = 0;
    this.parts = [];
    this.partsLength = 0;
    this.oversized = false;
  }
}

/**
 * Streams the elements of a top-level JSON array. Throws a {@link FormatError} once the file
 * shows it is not one array (after yielding every element before the problem).
 * @example
 * for await (const item of readJsonArray(readTextChunks('icml2019.json'))) console.log(item.index, item.value);
 */
export async function* readJsonArray(chunks: TextChunks): AsyncGenerator<SourceItem, void, undefined> {
  const splitter = new JsonArraySplitter();
  for await (const chunk of chunks) {
    yield* splitter.push(chunk);
    if (splitter.problem !== undefined) break;
  }
  if (splitter.problem === undefined) yield* splitter.end();
  if (splitter.problem !== undefined) throw new FormatError(splitter.problem);
}
