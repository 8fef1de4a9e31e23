/**
 * What the streaming readers yield, and the error a reader throws when a whole file is unusable.
 */

/**
 * One record as a reader found it: its place in the file and either its parsed value or why it
 * could not be parsed. Exactly one of `value` and `error` is set.
 */
export interface SourceItem {
  /** 0-based index of the record in its file (array element, non-blank line, CSV data row). */
  index: number;
  /** 1-based line on which the record starts. */
  line: number;
  value?: unknown;
  error?: string;
}

/** Text arriving in pieces: a decoded file stream, or an array of strings in tests. */
export type TextChunks = AsyncIterable<string> | Iterable<string>;

/**
 * The file as a whole cannot be read as the format it claims (not an array, unreadable CSV
 * header, content after the closing bracket). Records yielded before it stay valid.
 */
export class FormatError extends Error {
  override readonly name = 'FormatError';
}

/**
 * Largest record a reader buffers, in UTF-16 code units. A longer one is reported as an error
 * instead of being held in memory: it is almost always an unbalanced quote swallowing the file.
 */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;

/**
 * The start of `text` (up to 20 characters, leading whitespace skipped) for an error message.
 * @example describeStart('  hello world') // '"hello world"'
 */
export function describeStart(text: string): string {
  const trimmed = text.replace(/^[\s\uFEFF]+/, '');
  if (trimmed.length === 0) return 'nothing (the file is empty)';
  return JSON.stringify(trimmed.slice(0, 20)) + (trimmed.length > 20 ? '…' : '');
}
