/**
 * Building blocks of segments: growable typed arrays, UTF-8 text columns decoded on demand, and
 * the LEB128 varints of the forward index.
 */
import { readSync } from 'node:fs';
import type { TextColumn } from './types.js';

type TypedArrayCtor<T> = { new (length: number): T; BYTES_PER_ELEMENT: number };
export type NumericArray = Uint8Array | Uint16Array | Uint32Array | Float64Array | Int32Array;

/** An append-only typed array that doubles its capacity. */
export class GrowableArray<T extends NumericArray> {
  private data: T;
  length = 0;
  constructor(
    private readonly ctor: TypedArrayCtor<T>,
    capacity = 1024,
  ) {
    this.data = new ctor(Math.max(16, capacity));
  }
  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }
  /** Appends a run of values. */
  pushAll(values: ArrayLike<number>): void {
    if (this.length + values.length > this.data.length) this.grow(this.length + values.length);
    (this.data as Uint8Array).set(values as Uint8Array, this.length);
    this.length += values.length;
  }
  /** A copy of the values, exactly `length` long. */
  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }
  get raw(): T {
    return this.data;
  }
  private grow(min: number): void {
    let size = this.data.length * 2;
    while (size < min) size *= 2;
    const bigger = new this.ctor(size);
    (bigger as Uint8Array).set(this.data as Uint8Array);
    this.data = bigger;
  }
}

/** Collects strings into a {@link TextColumn}. */
export class TextColumnBuilder {
  private readonly bytes = new GrowableArray(Uint8Array, 1 << 16);
  private readonly offsets = new GrowableArray(Uint32Array);
  private scratch = Buffer.alloc(4096);
  constructor() {
    this.offsets.push(0);
  }
  get count(): number {
    return this.offsets.length - 1;
  }
  add(text: string): void {
    if (text.length * 3 > this.scratch.length) this.scratch = Buffer.alloc(text.length * 3);
    const n = this.scratch.write(text, 0, 'utf8');
    this.bytes.pushAll(this.scratch.subarray(0, n));
    this.offsets.push(this.bytes.length);
  }
  addBytes(bytes: Uint8Array): void {
    this.bytes.pushAll(bytes);
    this.offsets.push(this.bytes.length);
  }
  finish(): TextColumn {
    return { bytes: this.bytes.toArray(), offsets: this.offsets.toArray() };
  }
}

const views = new WeakMap<Uint8Array, Buffer>();

function bufferOf(bytes: Uint8Array): Buffer {
  let buf = views.get(bytes);
  if (!buf) {
    buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    views.set(bytes, buf);
  }
  return buf;
}

/**
 * String `i` of a text column, decoded now.
 * @example textAt(segment.titles, 3) // 'Attention Is All You Need'
 */
export function textAt(column: TextColumn, i: number): string {
  return bufferOf(column.bytes).toString('utf8', column.offsets[i]!, column.offsets[i + 1]!);
}

/** The raw UTF-8 bytes of string `i` (a view, not a copy). */
export function bytesAt(column: TextColumn, i: number): Uint8Array {
  return column.bytes.subarray(column.offsets[i]!, column.offsets[i + 1]!);
}

/** Byte-wise comparison of `key` with string `i` of a column: negative, 0 or positive. */
export function compareAt(column: TextColumn, i: number, key: Uint8Array): number {
  const bytes = column.bytes;
  let a = column.offsets[i]!;
  const end = column.offsets[i + 1]!;
  const n = Math.min(end - a, key.length);
  for (let k = 0; k < n; k++, a++) {
    const diff = bytes[a]! - key[k]!;
    if (diff !== 0) return diff;
  }
  return end - column.offsets[i]! - key.length;
}

/** Whether string `i` of a column starts with `prefix`. */
export function startsWithAt(column: TextColumn, i: number, prefix: Uint8Array): boolean {
  const start = column.offsets[i]!;
  if (column.offsets[i + 1]! - start < prefix.length) return false;
  for (let k = 0; k < prefix.length; k++) if (column.bytes[start + k] !== prefix[k]) return false;
  return true;
}

/** Appends `value` as an unsigned LEB128 varint. */
export function pushVarint(out: GrowableArray<Uint8Array>, value: number): void {
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  out.push(value);
}

let scratch = Buffer.alloc(4096);

/**
 * Entry `i`'s bytes: a view into the column, or, for a column with a file, read from the file
 * into a buffer the next call reuses (so use them before reading another entry).
 */
export function entryBytes(column: TextColumn, i: number): Uint8Array {
  const from = column.offsets[i]!;
  const to = column.offsets[i + 1]!;
  if (!column.file) return column.bytes.subarray(from, to);
  if (scratch.length < to - from) scratch = Buffer.alloc(Math.max(to - from, scratch.length * 2));
  const n = readSync(column.file.fd, scratch, 0, to - from, column.file.position + from);
  if (n !== to - from) throw new Error(`index snapshot: entry ${i} is cut short`);
  return scratch.subarray(0, n);
}

/**
 * Entries `from..to` of a column as a column of their own (offsets from 0): one positional read
 * for a column with a file, a view otherwise. For a run of neighbours, such as titles in title
 * order after a binary search.
 */
export function entryRun(column: TextColumn, from: number, to: number): TextColumn {
  const start = column.offsets[from]!;
  const end = column.offsets[to]!;
  const offsets = new Uint32Array(to - from + 1);
  for (let i = from; i <= to; i++) offsets[i - from] = column.offsets[i]! - start;
  if (!column.file) return { bytes: column.bytes.subarray(start, end), offsets };
  const bytes = Buffer.alloc(end - start);
  if (readSync(column.file.fd, bytes, 0, end - start, column.file.position + start) !== end - start) throw new Error(`index snapshot: entries ${from}–${to} are cut short`);
  return { bytes, offsets };
}

/** {@link compareAt} through {@link entryBytes}: for a column with a file, one positional read. */
export function compareEntry(column: TextColumn, i: number, key: Uint8Array): number {
  return Buffer.compare(entryBytes(column, i), key);
}

/**
 * Decodes the ascending ids of forward-index entry `i` (LEB128 deltas) and calls `fn` on each.
 */
export function forEachForward(column: TextColumn, i: number, fn: (term: number) => void): void {
  const bytes = entryBytes(column, i);
  const ids = new Uint32Array(bytes.length);
  const n = readDeltas(bytes, 0, bytes.length, ids);
  for (let k = 0; k < n; k++) fn(ids[k]!);
}

/**
 * Decodes the LEB128 deltas in `bytes[at, end)` into `out` (at least `end - at` long: an id
 * takes a byte or more) as their running sums, the ascending ids of a forward-index entry;
 * returns how many there were. A merge reads every entry so, without a call per id.
 */
export function readDeltas(bytes: Uint8Array, at: number, end: number, out: Uint32Array): number {
  let id = 0;
  let n = 0;
  while (at < end) {
    let byte = bytes[at++]!;
    let value = byte & 0x7f;
    // A running power of 128, not 2 ** shift: Math.pow made this the hottest line of a merge.
    for (let scale = 128; byte & 0x80 && at < end; scale *= 128) {
      byte = bytes[at++]!;
      value += (byte & 0x7f) * scale;
    }
    id += value;
    out[n++] = id;
  }
  return n;
}
