/**
 * The association table of an index base (associations.ts), learned from the base's own title
 * and abstract postings, and kept beside its snapshot in `<snapshot>.meaning` so that a start
 * reads it instead of learning it again. The file names the snapshot it was learned from (its
 * generation, size and section checksums): a table that does not fit is learned again and
 * rewritten. New papers need no table of their own: the table maps words to words, and a delta's
 * papers are scored through their own postings (docs/design.md, "Meaning").
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { Field, type SegmentData } from '../index/types.js';
import { buildAssociations, type AssociationSource, type AssociationTable } from './associations.js';

const MAGIC = 'PSMEAN01';
/**
 * A word in more than this share of the papers (and more than {@link COMMON_FLOOR} of them)
 * teaches nothing about a description, and costs the most to learn.
 */
const COMMON_SHARE = 0.1;
const COMMON_FLOOR = 1000;

const tables = new WeakMap<SegmentData, AssociationTable>();

/**
 * The table of a base: read from beside its snapshot when it was learned from it, else learned
 * (2–3 s at 95k papers) and written there for the next start. A file that cannot be written
 * (a read-only library) is reported to `onUnsaved` and the table kept in memory.
 * @example tableFor(view.base).start.length === view.base.docFreq.length + 1
 */
export function tableFor(segment: SegmentData, onUnsaved?: (error: unknown) => void): AssociationTable {
  let table = tables.get(segment);
  if (table) return table;
  const origin = segment.snapshot;
  const file = origin && `${origin.path}.meaning`;
  table = file ? readTable(file, origin.key) : undefined;
  if (!table) {
    table = associationsOf(segment);
    if (file) {
      try {
        writeTable(file, origin.key, table);
      } catch (error) {
        onUnsaved?.(error);
      }
    }
  }
  tables.set(segment, table);
  return table;
}

/**
 * Learns a segment's table from its title and abstract postings.
 * @example associationsOf(segment).start.length === segment.docFreq.length + 1
 */
export function associationsOf(segment: SegmentData): AssociationTable {
  const title = segment.fields[Field.Title]!;
  const abstract = segment.fields[Field.Abstract]!;
  const termCount = segment.docFreq.length;
  // The titles' terms by document: the title postings turned around.
  const titleStart = new Uint32Array(segment.docCount + 1);
  for (let p = 0; p < title.docs.length; p++) titleStart[title.docs[p]! + 1]!++;
  for (let d = 0; d < segment.docCount; d++) titleStart[d + 1]! += titleStart[d]!;
  const titleTerms = new Uint32Array(title.docs.length);
  const fill = titleStart.slice(0, -1);
  for (let t = 0; t < termCount; t++) {
    for (let p = title.offsets[t]!; p < title.offsets[t + 1]!; p++) titleTerms[fill[title.docs[p]!]!++] = t;
  }
  const common = Math.max(COMMON_FLOOR, segment.docCount * COMMON_SHARE);
  const source: AssociationSource = {
    docCount: segment.docCount,
    termCount,
    df: (t) => (segment.docFreq[t]! > common ? 0 : segment.docFreq[t]!),
    titleDf: (t) => title.offsets[t + 1]! - title.offsets[t]!,
    papersWith: (t) => union(title.docs, title.offsets[t]!, title.offsets[t + 1]!, abstract.docs, abstract.offsets[t]!, abstract.offsets[t + 1]!),
    titleTerms: (d) => titleTerms.subarray(titleStart[d]!, titleStart[d + 1]!),
  };
  return buildAssociations(source);
}

/** The documents of two ascending runs, each once, ascending. */
function* union(a: Uint32Array, ai: number, aEnd: number, b: Uint32Array, bi: number, bEnd: number): Generator<number> {
  while (ai < aEnd || bi < bEnd) {
    if (bi >= bEnd || (ai < aEnd && a[ai]! < b[bi]!)) yield a[ai++]!;
    else if (ai >= aEnd || b[bi]! < a[ai]!) yield b[bi++]!;
    else {
      yield a[ai++]!;
      bi++;
    }
  }
}

/** The table in `<snapshot>.meaning` when it was learned from the base `key` names, else undefined. */
export function readTable(path: string, key: string): AssociationTable | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  if (bytes.length < 12 || bytes.toString('latin1', 0, 8) !== MAGIC) return undefined;
  const headLength = bytes.readUInt32LE(8);
  let head: { key?: unknown; terms?: unknown; entries?: unknown; crc?: unknown };
  try {
    head = JSON.parse(bytes.toString('utf8', 12, 12 + headLength)) as typeof head;
  } catch {
    return undefined;
  }
  const { terms, entries } = head;
  if (head.key !== key || !Number.isSafeInteger(terms) || !Number.isSafeInteger(entries)) return undefined;
  const at = align8(12 + headLength);
  const size = ((terms as number) + 1 + 2 * (entries as number)) * 4;
  if (bytes.length !== at + size || crc32(bytes.subarray(at)) !== head.crc) return undefined;
  // A copy on an aligned buffer: the file's bytes need not start on a 4-byte boundary.
  const body = new Uint8Array(size);
  body.set(bytes.subarray(at));
  const start = new Uint32Array(body.buffer, 0, (terms as number) + 1);
  const associates = new Uint32Array(body.buffer, start.byteLength, entries as number);
  const weights = new Float32Array(body.buffer, start.byteLength + associates.byteLength, entries as number);
  return { start, associates, weights };
}

/** Writes the table for the base `key` names, replacing the file at once (a reader sees the old one or the new one). */
export function writeTable(path: string, key: string, table: AssociationTable): void {
  const body = Buffer.concat([bufferOf(table.start), bufferOf(table.associates), bufferOf(table.weights)]);
  const head = Buffer.from(JSON.stringify({ key, terms: table.start.length - 1, entries: table.associates.length, crc: crc32(body) }));
  const prefix = Buffer.alloc(align8(12 + head.length));
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(head.length, 8);
  head.copy(prefix, 12);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat([prefix, body]));
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

const bufferOf = (a: Uint32Array | Float32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const align8 = (n: number): number => (n + 7) & ~7;
