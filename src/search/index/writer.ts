/**
 * Writes snapshot files: the sections of the section table (sections.ts) at their laid-out
 * offsets with positional writes (so a merge can stream each section in pieces), CRCs
 * accumulated on the way, the header last, then fsync and an atomic rename. A crash at any
 * point leaves the previous file whole and a temp file that the next writer removes.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { TEXT_VERSION } from '../../text.js';
import { processAlive } from '../../processes.js';
import { FORMAT_VERSION, prefixBytes, headerOf, type Header } from './format.js';
import type { SegmentData } from './types.js';
import { refuseNonFile } from './format.js';
import { SECTIONS, layout, type Section, type SectionData, type SectionInfo } from './sections.js';

export class SnapshotWriter {
  private readonly fd: number;
  private readonly infos: SectionInfo[];
  private readonly byName: Map<string, { info: SectionInfo; written: number }>;
  private readonly header: Header;
  private readonly bodyStart: number;
  readonly temp: string;

  constructor(
    private readonly path: string,
    fields: Omit<Header, 'version' | 'textVersion' | 'totalBytes' | 'sections'>,
    /** Each section's length in bytes (the file holds every section of {@link SECTIONS}, in its order). */
    bytesOf: (section: Section) => number,
    /** Milliseconds to pause after each piece written: lets a test kill a writer half way. 0 normally. */
    private readonly pauseMs = 0,
  ) {
    const { infos, totalBytes } = layout(bytesOf);
    this.infos = infos;
    this.byName = new Map(infos.map((info) => [info.name, { info, written: 0 }]));
    this.header = { version: FORMAT_VERSION, textVersion: TEXT_VERSION, ...fields, totalBytes, sections: infos };
    this.bodyStart = prefixBytes(this.header).bodyStart;
    refuseNonFile(path);
    mkdirSync(dirname(path), { recursive: true });
    removeStaleTemps(path);
    this.temp = `${path}.${process.pid}.tmp`;
    this.fd = openSync(this.temp, 'w');
  }

  /** Appends bytes to a section (pieces of a section must come in order). */
  write(name: string, data: SectionData): void {
    const entry = this.byName.get(name);
    if (!entry) throw new Error(`snapshot writer: no section ${name}`);
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (entry.written + bytes.length > entry.info.bytes) throw new Error(`snapshot writer: section ${name} overflows`);
    let done = 0;
    while (done < bytes.length) {
      done += writeSync(this.fd, bytes, done, bytes.length - done, this.bodyStart + entry.info.offset + entry.written + done);
    }
    entry.info.crc = crc32(bytes, entry.info.crc);
    entry.written += bytes.length;
    if (this.pauseMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, this.pauseMs);
  }

  /** Writes the header, syncs and renames the file into place. */
  commit(): void {
    try {
      for (const { info, written } of this.byName.values()) {
        if (written !== info.bytes) throw new Error(`snapshot writer: section ${info.name} has ${written} of ${info.bytes} bytes`);
      }
      const { prefix } = prefixBytes(this.header);
      writeSync(this.fd, prefix, 0, prefix.length, 0);
      const last = this.infos[this.infos.length - 1];
      const total = this.bodyStart + this.header.totalBytes;
      // The last section may end before the 8-byte boundary: make the file its full length.
      if (last && this.bodyStart + last.offset + last.bytes < total) writeSync(this.fd, Buffer.alloc(total - (this.bodyStart + last.offset + last.bytes)), 0, total - (this.bodyStart + last.offset + last.bytes), this.bodyStart + last.offset + last.bytes);
      fsyncSync(this.fd);
      closeSync(this.fd);
      renameSync(this.temp, this.path);
    } catch (err) {
      this.abort();
      throw err;
    }
  }

  abort(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    rmSync(this.temp, { force: true });
  }
}

/**
 * Writes a segment to `path` atomically.
 * @example writeSegmentFile('data/index.bin', buildSegment(rows, options));
 */
export function writeSegmentFile(path: string, segment: SegmentData): void {
  const writer = new SnapshotWriter(path, headerOf(segment), (s) => s.of(segment).byteLength);
  try {
    for (const s of SECTIONS) writer.write(s.name, s.of(segment));
  } catch (err) {
    writer.abort();
    throw err;
  }
  writer.commit();
}

/** Removes temp files of earlier writers of `path` whose process is gone. */
function removeStaleTemps(path: string): void {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = name.startsWith(prefix) && /\.(\d+)\.tmp$/.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && !processAlive(pid)) rmSync(join(dir, name), { force: true });
  }
}

