/**
 * Lines from a byte stream, none longer than {@link MAX_LINE_BYTES}. readline keeps a line in
 * one string until its end comes, so a line that never ends (`npm start < /dev/zero`) grew it
 * until V8 refused (`RangeError: Invalid string length`) and the process died. Here the bytes
 * of a line are counted as they arrive: past the cap the line is dropped, {@link LINE_TOO_LONG}
 * is yielded once, at once (the line may never end), and what follows up to its end is read
 * and thrown away, so memory stays at one chunk and the cap whatever comes in.
 *
 * Line ends are readline's: `\n`, `\r\n` or a lone `\r`; a last line without one counts. Bytes
 * are decoded as UTF-8 once a line is whole (a newline byte never occurs inside a UTF-8
 * character, so lines can be cut before decoding).
 */

/** Longest line read, in bytes (its end not counted). */
export const MAX_LINE_BYTES = 64 * 1024;

/** What stands for a line that was longer than the cap (its text is gone). */
export const LINE_TOO_LONG = Symbol('line too long');

const LF = 0x0a;
const CR = 0x0d;

/**
 * @example for await (const line of readLines(process.stdin)) if (line === LINE_TOO_LONG) warn(); else run(line);
 */
export async function* readLines(input: AsyncIterable<Buffer | string>, maxBytes: number = MAX_LINE_BYTES): AsyncGenerator<string | typeof LINE_TOO_LONG> {
  let parts: Buffer[] = [];
  let size = 0;
  /** The line under way was too long: drop the rest of it. */
  let dropping = false;
  /** The last chunk ended on `\r`: a `\n` starting the next one belongs to that line end. */
  let afterCr = false;

  /** Adds a piece of the line under way; true when that made it too long (just now). */
  const add = (piece: Buffer): boolean => {
    if (dropping || piece.length === 0) return false;
    if (size + piece.length > maxBytes) {
      dropping = true;
      parts = [];
      size = 0;
      return true;
    }
    // A copy: a slice would keep its whole chunk alive.
    parts.push(Buffer.from(piece));
    size += piece.length;
    return false;
  };
  /** Ends the line under way: its text, or undefined when it was dropped. */
  const end = (): string | undefined => {
    const text = dropping ? undefined : Buffer.concat(parts, size).toString('utf8');
    parts = [];
    size = 0;
    dropping = false;
    return text;
  };

  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = afterCr && bytes[0] === LF ? 1 : 0;
    afterCr = false;
    // The next line end of each kind, looked for again only once passed: a chunk of many short
    // lines and no `\r` would otherwise be searched to its end for one at every line.
    let lf = bytes.indexOf(LF, start);
    let cr = bytes.indexOf(CR, start);
    while (start < bytes.length) {
      if (lf !== -1 && lf < start) lf = bytes.indexOf(LF, start);
      if (cr !== -1 && cr < start) cr = bytes.indexOf(CR, start);
      const stop = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (stop === -1) {
        if (add(bytes.subarray(start))) yield LINE_TOO_LONG;
        break;
      }
      if (size === 0 && !dropping && stop - start <= maxBytes) {
        // A whole line inside the chunk: decoded where it is, without a copy.
        yield bytes.toString('utf8', start, stop);
      } else {
        if (add(bytes.subarray(start, stop))) yield LINE_TOO_LONG;
        const text = end();
        if (text !== undefined) yield text;
      }
      start = stop + 1;
      if (bytes[stop] === CR) {
        if (start === bytes.length) afterCr = true;
        else if (bytes[start] === LF) start++;
      }
    }
  }
  if (size > 0) yield end()!;
}
