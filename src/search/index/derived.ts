/**
 * Arrays derived from a whole base segment (the meaning stage's association table, the library's
 * signals), kept beside its snapshot as `<snapshot>.<name>` so that a start reads them instead of
 * computing them again. The file names the snapshot it was derived from (`SegmentData.snapshot`:
 * its generation, size and section checksums) and carries a CRC: one that does not fit, or is
 * damaged, is not used. It is replaced at once (a reader sees the old file or the new one).
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import type { SegmentData } from './types.js';

const MAGIC = 'PSDERV01';

/** The file beside a segment's snapshot, or undefined for a segment built in memory. */
export function derivedPath(segment: SegmentData, name: string): string | undefined {
  return segment.snapshot && `${segment.snapshot.path}.${name}`;
}

/**
 * The arrays kept as `name` beside the segment's snapshot (their bytes, each on an 8-byte
 * boundary, in the order written), or undefined when there are none for this snapshot.
 * @example readDerived(segment, 'meaning')?.[0]
 */
export function readDerived(segment: SegmentData, name: string): ArrayBuffer[] | undefined {
  const path = derivedPath(segment, name);
  if (!path) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  if (bytes.length < 12 || bytes.toString('latin1', 0, 8) !== MAGIC) return undefined;
  const headLength = bytes.readUInt32LE(8);
  let head: { key?: unknown; lengths?: unknown; crc?: unknown };
  try {
    head = JSON.parse(bytes.toString('utf8', 12, 12 + headLength)) as typeof head;
  } catch {
    return undefined;
  }
  const lengths = head.lengths;
  if (head.key !== segment.snapshot!.key || !Array.isArray(lengths) || !lengths.every((n) => Number.isSafeInteger(n) && n >= 0)) return undefined;
  const at = align8(12 + headLength);
  const body = bytes.subarray(at);
  if (body.length !== (lengths as number[]).reduce((sum, n) => sum + align8(n), 0) || crc32(body) !== head.crc) return undefined;
  const out: ArrayBuffer[] = [];
  let offset = 0;
  for (const n of lengths as number[]) {
    // A copy: the file's bytes need not lie on the typed arrays' boundaries.
    out.push(Uint8Array.from(body.subarray(offset, offset + n)).buffer);
    offset += align8(n);
  }
  return out;
}

/** Writes `arrays` as `name` beside the segment's snapshot (nothing for a segment built in memory). */
export function writeDerived(segment: SegmentData, name: string, arrays: readonly ArrayBufferView[]): void {
  const path = derivedPath(segment, name);
  if (!path) return;
  const parts = arrays.map((a) => {
    const padded = Buffer.alloc(align8(a.byteLength));
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).copy(padded);
    return padded;
  });
  const body = Buffer.concat(parts);
  const head = Buffer.from(JSON.stringify({ key: segment.snapshot!.key, lengths: arrays.map((a) => a.byteLength), crc: crc32(body) }));
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

const align8 = (n: number): number => (n + 7) & ~7;
