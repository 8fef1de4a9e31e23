/**
 * The index snapshot: one binary file holding the typed arrays as they are in memory, so that
 * loading is a file read plus views over it, with no tokenizing and no tree building.
 *
 * Layout (format 2): magic (`PSIDX`, the format version as one byte, `\n\0`), header length
 * (uint32 LE), CRC-32 of the header (uint32 LE), JSON header, then 8-byte aligned sections, each
 * with its CRC-32 in the header. Loading checks every checksum (15–35 ms for the 72 MB of 95k
 * papers) and then the arrays' shape (`validate.ts`), so a damaged file is refused with the
 * reason instead of sending queries into loops over garbage.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { SetupError } from '../../errors.js';
import { FIELD_COUNT, type FieldPostings, type IndexData } from './types.js';
import { validateIndex } from './validate.js';

const FORMAT_VERSION = 2;
const MAGIC = `PSIDX${String.fromCharCode(FORMAT_VERSION)}\n\0`;
/** Magic, header length, header CRC-32. */
const PREFIX_BYTES = MAGIC.length + 8;
/** Bytes per element of each array kind (text sections are UTF-8 joined by newlines). */
const ELEMENT_BYTES = { u8: 1, u16: 2, u32: 4, f64: 8, text: 1 } as const;

type ArrayKind = 'u8' | 'u16' | 'u32' | 'f64' | 'text';
interface SectionInfo {
  name: string;
  kind: ArrayKind;
  offset: number;
  bytes: number;
  /** CRC-32 of the section's bytes. */
  crc: number;
}
interface Header {
  version: number;
  generation: number;
  taxonomyHash: string;
  docCount: number;
  venues: string[];
  topics: string[];
  topicWords: number;
  avgLengths: number[];
  totalBytes: number;
  sections: SectionInfo[];
}

type Section = { name: string } & (
  | { kind: 'u8'; data: Uint8Array }
  | { kind: 'u16'; data: Uint16Array }
  | { kind: 'u32'; data: Uint32Array }
  | { kind: 'f64'; data: Float64Array }
  | { kind: 'text'; data: string[] }
);

/** The header of a snapshot without reading the rest: enough to tell whether it is stale. */
export interface SnapshotInfo {
  generation: number;
  taxonomyHash: string;
  docCount: number;
}

/**
 * Why a snapshot cannot be loaded: there is none, it is of another format version (both normal:
 * rebuild it), or it is damaged (rebuild it, and say so).
 */
export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
  constructor(
    readonly problem: 'missing' | 'outdated' | 'damaged',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Writes `data` to `path` atomically (a temp file renamed over the old one), so a crash never
 * leaves a half-written snapshot behind.
 */
export function writeSnapshot(path: string, data: IndexData): void {
  const sections: Section[] = [
    { name: 'storeDocs', kind: 'u32', data: data.storeDocs },
    { name: 'terms', kind: 'text', data: data.terms },
    { name: 'docFreq', kind: 'u32', data: data.docFreq },
    { name: 'ids', kind: 'text', data: data.ids },
    { name: 'titles', kind: 'text', data: data.titles },
    { name: 'titleOrder', kind: 'u32', data: data.titleOrder },
    { name: 'authors', kind: 'text', data: data.authors },
    { name: 'years', kind: 'u16', data: data.years },
    { name: 'standing', kind: 'u8', data: data.standing },
    { name: 'venueOf', kind: 'u16', data: data.venueOf },
    { name: 'firstSeen', kind: 'f64', data: data.firstSeen },
    { name: 'topicBits', kind: 'u32', data: data.topicBits },
    { name: 'trie.chars', kind: 'u16', data: data.trie.chars },
    { name: 'trie.depth', kind: 'u8', data: data.trie.depth },
    { name: 'trie.end', kind: 'u32', data: data.trie.end },
    { name: 'trie.term', kind: 'u32', data: data.trie.term },
  ];
  data.fields.forEach((f, i) => {
    sections.push(
      { name: `f${i}.offsets`, kind: 'u32', data: f.offsets },
      { name: `f${i}.docs`, kind: 'u32', data: f.docs },
      { name: `f${i}.tfs`, kind: 'u8', data: f.tfs },
      { name: `f${i}.lengths`, kind: 'u16', data: f.lengths },
    );
  });

  const bodies = sections.map((s) => (s.kind === 'text' ? Buffer.from(s.data.join('\n'), 'utf8') : s.data));
  const infos: SectionInfo[] = [];
  let offset = 0;
  bodies.forEach((body, i) => {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    infos.push({ name: sections[i]!.name, kind: sections[i]!.kind, offset, bytes: body.byteLength, crc: crc32(bytes) });
    offset = align8(offset + body.byteLength);
  });
  const header: Header = {
    version: FORMAT_VERSION,
    generation: data.generation,
    taxonomyHash: data.taxonomyHash,
    docCount: data.docCount,
    venues: data.venues,
    topics: data.topics,
    topicWords: data.topicWords,
    avgLengths: data.fields.map((f) => f.avgLength),
    totalBytes: offset,
    sections: infos,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const bodyStart = align8(PREFIX_BYTES + headerBytes.length);
  const out = Buffer.alloc(bodyStart + offset);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(headerBytes.length, MAGIC.length);
  out.writeUInt32LE(crc32(headerBytes), MAGIC.length + 4);
  headerBytes.copy(out, PREFIX_BYTES);
  bodies.forEach((body, i) => {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    bytes.copy(out, bodyStart + infos[i]!.offset);
  });

  mkdirSync(dirname(path), { recursive: true });
  refuseNonFile(path);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, out);
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Reads only the header of the snapshot at `path` (its checksum included); undefined if there
 * is none or it is unreadable. A directory in its place is a {@link SetupError}.
 */
export function readSnapshotInfo(path: string): SnapshotInfo | undefined {
  refuseNonFile(path);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const prefix = Buffer.alloc(PREFIX_BYTES);
    readSync(fd, prefix, 0, prefix.length, 0);
    const headerLength = prefix.readUInt32LE(MAGIC.length);
    const size = fstatSync(fd).size;
    if (headerLength > size) return undefined;
    const head = Buffer.alloc(prefix.length + headerLength);
    readSync(fd, head, 0, head.length, 0);
    const { header } = parseHeader(head, size);
    return { generation: header.generation, taxonomyHash: header.taxonomyHash, docCount: header.docCount };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Loads a snapshot written by {@link writeSnapshot}, checking every checksum and the arrays'
 * shape. Throws a {@link SnapshotError} saying why when the file is missing, of another format
 * version or damaged (the caller then rebuilds from the store), and a {@link SetupError} when a
 * directory is in its place.
 */
export function readSnapshot(path: string): IndexData {
  refuseNonFile(path);
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new SnapshotError('missing', `there is no index snapshot at ${path}`);
    throw err;
  }
  const { header, bodyStart } = parseHeader(file);
  // Typed-array views need aligned offsets: copy in the rare case the buffer is not aligned.
  const buf = file.byteOffset % 8 === 0 ? file : Buffer.from(file);
  const byName = new Map(header.sections.map((s) => [s.name, s]));
  for (const s of header.sections) checkSection(buf, bodyStart, header.totalBytes, s);
  const view = <K extends ArrayKind>(name: string, kind: K) => {
    const s = byName.get(name);
    if (!s || s.kind !== kind) throw new SnapshotError('damaged', `section ${name} is missing`);
    const start = buf.byteOffset + bodyStart + s.offset;
    switch (s.kind) {
      case 'u8':
        return new Uint8Array(buf.buffer, start, s.bytes);
      case 'u16':
        return new Uint16Array(buf.buffer, start, s.bytes / 2);
      case 'u32':
        return new Uint32Array(buf.buffer, start, s.bytes / 4);
      case 'f64':
        return new Float64Array(buf.buffer, start, s.bytes / 8);
      case 'text': {
        const text = buf.toString('utf8', bodyStart + s.offset, bodyStart + s.offset + s.bytes);
        return text.length === 0 ? [] : text.split('\n');
      }
    }
  };
  const fields: FieldPostings[] = [];
  for (let i = 0; i < FIELD_COUNT; i++) {
    fields.push({
      offsets: view(`f${i}.offsets`, 'u32') as Uint32Array,
      docs: view(`f${i}.docs`, 'u32') as Uint32Array,
      tfs: view(`f${i}.tfs`, 'u8') as Uint8Array,
      lengths: view(`f${i}.lengths`, 'u16') as Uint16Array,
      avgLength: header.avgLengths[i] ?? 1,
    });
  }
  const data: IndexData = {
    generation: header.generation,
    taxonomyHash: header.taxonomyHash,
    docCount: header.docCount,
    storeDocs: view('storeDocs', 'u32') as Uint32Array,
    terms: view('terms', 'text') as string[],
    trie: {
      chars: view('trie.chars', 'u16') as Uint16Array,
      depth: view('trie.depth', 'u8') as Uint8Array,
      end: view('trie.end', 'u32') as Uint32Array,
      term: view('trie.term', 'u32') as Uint32Array,
    },
    docFreq: view('docFreq', 'u32') as Uint32Array,
    fields,
    ids: view('ids', 'text') as string[],
    titles: view('titles', 'text') as string[],
    titleOrder: view('titleOrder', 'u32') as Uint32Array,
    authors: view('authors', 'text') as string[],
    years: view('years', 'u16') as Uint16Array,
    standing: view('standing', 'u8') as Uint8Array,
    venueOf: view('venueOf', 'u16') as Uint16Array,
    venues: header.venues,
    firstSeen: view('firstSeen', 'f64') as Float64Array,
    topics: header.topics,
    topicWords: header.topicWords,
    topicBits: view('topicBits', 'u32') as Uint32Array,
  };
  const problem = validateIndex(data);
  if (problem) throw new SnapshotError('damaged', problem);
  return data;
}

/** A directory (or anything but a file) where the snapshot belongs is for whoever runs the bot to remove. */
function refuseNonFile(path: string): void {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    return; // not there (or not reachable): the callers say so
  }
  if (!isFile) {
    throw new SetupError(
      `${path} is a directory, not the search index file: remove it (rm -r ${path}) and start again; Paper Scout rebuilds the index from the library.`,
    );
  }
}

function parseHeader(file: Buffer, fileSize = file.length): { header: Header; bodyStart: number } {
  if (file.length < PREFIX_BYTES || file.toString('latin1', 0, 5) !== MAGIC.slice(0, 5) || file.toString('latin1', 6, 8) !== MAGIC.slice(6)) {
    throw new SnapshotError('damaged', 'not a Paper Scout index snapshot');
  }
  const version = file[5]!;
  if (version !== FORMAT_VERSION) throw new SnapshotError('outdated', `index snapshot format ${version}, expected ${FORMAT_VERSION}`);
  const headerLength = file.readUInt32LE(MAGIC.length);
  if (PREFIX_BYTES + headerLength > file.length) throw new SnapshotError('damaged', 'the header is cut short');
  const headerBytes = file.subarray(PREFIX_BYTES, PREFIX_BYTES + headerLength);
  if (crc32(headerBytes) !== file.readUInt32LE(MAGIC.length + 4)) throw new SnapshotError('damaged', 'the header fails its checksum');
  const header = JSON.parse(headerBytes.toString('utf8')) as Header;
  if (header.version !== FORMAT_VERSION) throw new SnapshotError('outdated', `index snapshot format ${header.version}, expected ${FORMAT_VERSION}`);
  const bodyStart = align8(PREFIX_BYTES + headerLength);
  if (fileSize !== bodyStart + header.totalBytes) throw new SnapshotError('damaged', `the file is ${fileSize} bytes, its header says ${bodyStart + header.totalBytes}`);
  return { header, bodyStart };
}

/** A section lies inside the body, is a whole number of aligned elements, and matches its checksum. */
function checkSection(buf: Buffer, bodyStart: number, totalBytes: number, s: SectionInfo): void {
  const size = ELEMENT_BYTES[s.kind];
  if (size === undefined || !Number.isSafeInteger(s.offset) || !Number.isSafeInteger(s.bytes) || s.offset < 0 || s.bytes < 0) {
    throw new SnapshotError('damaged', `section ${s.name} has a bad entry in the header`);
  }
  if (s.offset % 8 !== 0 || s.bytes % size !== 0 || s.offset + s.bytes > totalBytes) {
    throw new SnapshotError('damaged', `section ${s.name} lies outside the file or is misaligned`);
  }
  const start = bodyStart + s.offset;
  if (crc32(buf.subarray(start, start + s.bytes)) !== s.crc) throw new SnapshotError('damaged', `section ${s.name} fails its checksum`);
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
