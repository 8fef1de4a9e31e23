/**
 * The index snapshot file, format 8: a segment's arrays as they are in memory, each section
 * 8-byte aligned with its CRC-32 in the header, so that opening is a memory map plus views over
 * it — no decoding, no copying, whatever the library's size. The header records the text
 * normalization ({@link TEXT_VERSION}) the terms were made with; a snapshot of another is
 * rebuilt from the store. (Format 3 was the checksummed whole-index snapshot read into memory;
 * format 4 numbered venues in 16 bits, which a library of more than 65,536 venues overflows. It
 * was read as it was until text normalization 3, which every format-4 snapshot predates. Format
 * 5 lacked the joined forms of hyphenated compounds among the terms: see compounds.ts; format 6
 * the papers' tracks and citation counts: see standing.ts; format 7 their names and author keys,
 * which the library's signals read at the first broad query: see librarySignals.ts.)
 *
 * Layout: magic (8 bytes), header length (uint32 LE), header CRC-32 (uint32 LE), JSON header,
 * then the sections.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { SetupError } from '../../errors.js';
import { TEXT_VERSION } from '../../text.js';
import { FIELD_COUNT, type FieldPostings, type SegmentData, type TextColumn } from './types.js';
import { isMapped, mapFile } from './mmap.js';
import { CHECK_AT_OPEN_BYTES, ELEMENT_BYTES, align8, sectionNamed, type SectionData, type SectionInfo, type TextName } from './sections.js';

export const FORMAT_VERSION = 8;
export const MAGIC = `PSIDX${String.fromCharCode(FORMAT_VERSION)}\n\0`;
/**
 * Why a snapshot cannot be used: there is none, it is of another format version (both normal:
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
export interface Header {
  version: number;
  /** The text normalization the terms and title keys were made with. */
  textVersion: number;
  generation: number;
  taxonomyHash: string;
  docCount: number;
  termCount: number;
  venues: string[];
  topics: string[];
  topicWords: number;
  lengthSums: number[];
  maxFirstSeen: number;
  totalBytes: number;
  sections: SectionInfo[];
}

/** The header of a snapshot without reading the rest: enough to tell whether it is stale. */
export interface SnapshotInfo {
  generation: number;
  taxonomyHash: string;
  docCount: number;
}

/** The header fields that are not sections. */
export function headerOf(s: SegmentData): Omit<Header, 'version' | 'textVersion' | 'totalBytes' | 'sections'> {
  return {
    generation: s.generation,
    taxonomyHash: s.taxonomyHash,
    docCount: s.docCount,
    termCount: s.docFreq.length,
    venues: s.venues,
    topics: s.topics,
    topicWords: s.topicWords,
    lengthSums: s.fields.map((f) => f.lengthSum),
    maxFirstSeen: s.maxFirstSeen,
  };
}

/** Serializes a header; its length is the same whatever the CRCs are (they are padded). */
export function encodeHeader(header: Header): { bytes: Buffer; bodyStart: number } {
  const json = JSON.stringify(header, (key, value) => (key === 'crc' ? `${(value as number).toString(16).padStart(8, '0')}` : value));
  const bytes = Buffer.from(json, 'utf8');
  return { bytes, bodyStart: align8(PREFIX_BYTES + bytes.length) };
}

/** Magic, header length, header CRC. */
const PREFIX_BYTES = 16;

/** The file's first bytes: magic, header length, header. */
export function prefixBytes(header: Header): { prefix: Buffer; bodyStart: number } {
  const { bytes, bodyStart } = encodeHeader(header);
  const prefix = Buffer.alloc(bodyStart);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(bytes.length, MAGIC.length);
  prefix.writeUInt32LE(crc32(bytes), MAGIC.length + 4);
  bytes.copy(prefix, PREFIX_BYTES);
  return { prefix, bodyStart };
}

/**
 * Reads only the header of the snapshot at `path`; undefined if there is none or it is
 * unreadable. A directory in its place is a `SetupError`.
 */
export function readSnapshotInfo(path: string): SnapshotInfo | undefined {
  refuseNonFile(path);
  try {
    const { header } = readHeader(path);
    return { generation: header.generation, taxonomyHash: header.taxonomyHash, docCount: header.docCount };
  } catch {
    return undefined;
  }
}

/**
 * Reads and checks the header of the file at `path`. Throws a {@link SnapshotError} saying why
 * (missing, another format, damaged), or a `SetupError` when a directory is in its place.
 */
export function readHeader(path: string): { header: Header; bodyStart: number; fileSize: number } {
  refuseNonFile(path);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new SnapshotError('missing', `there is no index snapshot at ${path}`);
    throw err;
  }
  try {
    const size = fstatSync(fd).size;
    const prefix = Buffer.alloc(PREFIX_BYTES);
    if (readSync(fd, prefix, 0, prefix.length, 0) < prefix.length) throw new SnapshotError('damaged', 'not a Paper Scout index snapshot');
    const magic = prefix.toString('latin1', 0, MAGIC.length);
    if (magic.slice(0, 5) !== MAGIC.slice(0, 5) || magic.slice(6) !== MAGIC.slice(6)) throw new SnapshotError('damaged', 'not a Paper Scout index snapshot');
    if (magic.charCodeAt(5) !== FORMAT_VERSION) throw new SnapshotError('outdated', `index snapshot format ${magic.charCodeAt(5)}, expected ${FORMAT_VERSION}`);
    const headerLength = prefix.readUInt32LE(MAGIC.length);
    if (headerLength > size) throw new SnapshotError('damaged', 'index snapshot is truncated');
    const head = Buffer.alloc(headerLength);
    readSync(fd, head, 0, headerLength, prefix.length);
    if (crc32(head) !== prefix.readUInt32LE(MAGIC.length + 4)) throw new SnapshotError('damaged', 'the header fails its checksum');
    return { ...parseHeader(head, headerLength), fileSize: size };
  } finally {
    closeSync(fd);
  }
}

/** A directory (or anything but a file) where the snapshot belongs is for whoever runs the bot to remove. */
export function refuseNonFile(path: string): void {
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

function parseHeader(head: Buffer, headerLength: number): { header: Header; bodyStart: number } {
  let header: Header;
  try {
    header = JSON.parse(head.toString('utf8'), (key, value) => (key === 'crc' ? parseInt(value as string, 16) : value)) as Header;
  } catch {
    throw new SnapshotError('damaged', 'the header is unreadable');
  }
  if (header.version !== FORMAT_VERSION || header.textVersion !== TEXT_VERSION) {
    throw new SnapshotError('outdated', `index snapshot format ${header.version} (text ${header.textVersion ?? 1}), expected ${FORMAT_VERSION} (text ${TEXT_VERSION})`);
  }
  if (!Array.isArray(header.venues)) throw new SnapshotError('damaged', 'the header lists no venues');
  return { header, bodyStart: align8(PREFIX_BYTES + headerLength) };
}

/**
 * Opens a snapshot written by {@link writeSegmentFile} or a merge: maps it and returns the
 * segment as views over the mapping. Checks sizes, offsets and the CRCs of the small sections;
 * {@link verifySnapshot} checks the rest. Throws with the reason when the file is missing,
 * truncated, damaged or of another format.
 */
export function openSnapshot(path: string): { segment: SegmentData; header: Header } {
  // A snapshot renamed over the path while it was being opened: open the new one.
  for (let attempt = 1; ; attempt++) {
    try {
      return openOnce(path);
    } catch (error) {
      if (!(error instanceof ReplacedWhileOpening) || attempt === 3) throw error instanceof ReplacedWhileOpening ? new SnapshotError('damaged', error.message) : error;
    }
  }
}

/** The file at the path was replaced between two steps of opening it. */
class ReplacedWhileOpening extends Error {
  constructor() {
    super('index snapshot changed while it was opened');
  }
}

function openOnce(path: string): { segment: SegmentData; header: Header } {
  const { header, bodyStart, fileSize } = readHeader(path);
  if (fileSize !== bodyStart + header.totalBytes) throw new SnapshotError('damaged', 'index snapshot is truncated');
  const buffer = mapFile(path);
  if (buffer.byteLength !== fileSize) throw new ReplacedWhileOpening();
  const file = isMapped(buffer) ? openForEntries(path, buffer, bodyStart) : undefined;
  try {
    const opened = viewsOf(buffer, header, bodyStart, file);
    opened.segment.snapshot = { path, key: snapshotKey(header) };
    return opened;
  } catch (error) {
    if (file) closeForEntries(file);
    throw error;
  }
}

/** What identifies a snapshot's contents: its generation, size and section checksums. */
function snapshotKey(header: Header): string {
  const crcs = Buffer.from(Uint32Array.from(header.sections, (s) => s.crc).buffer);
  return `${header.generation}:${header.docCount}:${header.termCount}:${crc32(crcs).toString(16)}`;
}

/** The segment as views over the mapped (or read) file, checked as {@link openSnapshot} says. */
function viewsOf(buffer: ArrayBuffer, header: Header, bodyStart: number, file: EntriesFile | undefined): { segment: SegmentData; header: Header } {
  const byName = new Map(header.sections.map((s) => [s.name, s]));
  const bytesOf = (s: SectionInfo) => new Uint8Array(buffer, bodyStart + s.offset, s.bytes);
  for (const s of header.sections) {
    if (s.bytes <= CHECK_AT_OPEN_BYTES && crc32(bytesOf(s)) !== s.crc) throw new SnapshotError('damaged', `section ${s.name} fails its checksum`);
  }
  const view = <T extends SectionData>(name: string): T => {
    const s = byName.get(name);
    if (!s) throw new SnapshotError('damaged', `section ${name} is missing`);
    const { kind } = sectionNamed(name)!;
    if (s.kind !== kind) throw new SnapshotError('damaged', `section ${name} is not of ${kind} elements`);
    const start = bodyStart + s.offset;
    const length = s.bytes / ELEMENT_BYTES[kind];
    switch (kind) {
      case 'u8':
        return new Uint8Array(buffer, start, length) as T;
      case 'u16':
        return new Uint16Array(buffer, start, length) as T;
      case 'u32':
        return new Uint32Array(buffer, start, length) as T;
      case 'f64':
        return new Float64Array(buffer, start, length) as T;
    }
  };
  const text = (name: TextName): TextColumn => {
    const bytes = `${name}.bytes`;
    const column: TextColumn = { bytes: view(bytes), offsets: view(`${name}.offsets`) };
    if (file && sectionNamed(bytes)!.positional) column.file = file.at(bodyStart + byName.get(bytes)!.offset);
    return column;
  };
  const fields: FieldPostings[] = [];
  for (let i = 0; i < FIELD_COUNT; i++) {
    fields.push({ offsets: view(`f${i}.offsets`), docs: view(`f${i}.docs`), tfs: view(`f${i}.tfs`), lengths: view(`f${i}.lengths`), lengthSum: header.lengthSums[i] ?? 0 });
  }
  const segment: SegmentData = {
    generation: header.generation,
    taxonomyHash: header.taxonomyHash,
    docCount: header.docCount,
    storeDocs: view('storeDocs'),
    terms: text('terms'),
    trie: { chars: view('trie.chars'), depth: view('trie.depth'), end: view('trie.end'), term: view('trie.term') },
    docFreq: view('docFreq'),
    fields,
    forward: text('forward'),
    ids: text('ids'),
    titles: text('titles'),
    authors: text('authors'),
    names: text('names'),
    authorKeys: view('authorKeys'),
    authorIds: text('authorIds'),
    titleKeys: text('titleKeys'),
    titleOrder: view('titleOrder'),
    newestOrder: view('newestOrder'),
    years: view('years'),
    standing: view('standing'),
    track: view('track'),
    citedBy: view('citedBy'),
    venueOf: view('venueOf'),
    venues: header.venues,
    firstSeen: view('firstSeen'),
    maxFirstSeen: header.maxFirstSeen,
    topics: header.topics,
    topicWords: header.topicWords,
    topicBits: view('topicBits'),
  };
  checkShape(segment, header);
  return { segment, header };
}

/** Closes the descriptor of a snapshot's columns read with positional reads once they are all gone. */
const openFiles = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing to do
  }
});

/** One descriptor for a snapshot's columns read with positional reads. */
interface EntriesFile {
  fd: number;
  /** A column's `file`, at `position`; each holds the descriptor open until it is collected. */
  at(position: number): { fd: number; position: number; owner: EntriesFile };
}

/**
 * A descriptor of the snapshot for positional reads of columns (the forward index and the title
 * keys: a few entries a query, scattered over the file), closed when every column using it is
 * collected. It must be the file that was mapped: a snapshot renamed over the path in between
 * has another header (its sections' checksums are in it), and the open starts again.
 */
function openForEntries(path: string, buffer: ArrayBuffer, bodyStart: number): EntriesFile {
  const fd = openSync(path, 'r');
  const head = Buffer.alloc(bodyStart);
  if (readSync(fd, head, 0, bodyStart, 0) !== bodyStart || !head.equals(new Uint8Array(buffer, 0, bodyStart))) {
    closeSync(fd);
    throw new ReplacedWhileOpening();
  }
  const file: EntriesFile = { fd, at: (position) => ({ fd, position, owner: file }) };
  openFiles.register(file, fd, file);
  return file;
}

/** Closes a descriptor no column got (the open failed after it). */
function closeForEntries(file: EntriesFile): void {
  openFiles.unregister(file);
  closeSync(file.fd);
}

/**
 * The checks too large for {@link openSnapshot}: every section against its CRC, and every
 * document number in postings and orders within the document count. Reads with positional
 * reads in 4 MiB pieces (pages read this way are not mapped into the process) and yields
 * between pieces. Resolves the first problem found, or undefined when the file is whole.
 */
export async function verifySnapshot(path: string): Promise<string | undefined> {
  const { header, bodyStart } = readHeader(path);
  const fd = openSync(path, 'r');
  const piece = Buffer.alloc(4 << 20);
  try {
    for (const s of header.sections) {
      const checkDocs = sectionNamed(s.name)?.docNumbers === true;
      if (s.bytes <= CHECK_AT_OPEN_BYTES && !checkDocs) continue;
      let crc = 0;
      for (let done = 0; done < s.bytes; ) {
        const n = readSync(fd, piece, 0, Math.min(piece.length, s.bytes - done), bodyStart + s.offset + done);
        if (n <= 0) return `section ${s.name} is cut short`;
        crc = crc32(piece.subarray(0, n), crc);
        if (checkDocs) {
          const docs = new Uint32Array(piece.buffer, piece.byteOffset, n >>> 2);
          for (let i = 0; i < docs.length; i++) if (docs[i]! >= header.docCount) return `${s.name} names a document that does not exist`;
        }
        done += n;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (crc !== s.crc) return `section ${s.name} fails its checksum`;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Structural checks that keep a damaged file from sending a query out of bounds or into a long loop. */
function checkShape(s: SegmentData, header: Header): void {
  const fail = (what: string) => {
    throw new SnapshotError('damaged', `its ${what} do not fit together`);
  };
  const n = s.docCount;
  const terms = header.termCount;
  const perDoc = [s.storeDocs, s.years, s.standing, s.track, s.citedBy, s.venueOf, s.titleOrder, s.newestOrder, s.firstSeen];
  if (perDoc.some((a) => a.length !== n)) fail('document arrays');
  if (s.docFreq.length !== terms || s.terms.offsets.length !== terms + 1) fail('vocabulary');
  if (s.topicBits.length !== n * s.topicWords) fail('topics');
  if (s.authorIds.bytes.length % 4 !== 0 || s.authorIds.offsets.some((o) => o % 4 !== 0)) fail('authors');
  for (const c of [s.ids, s.titles, s.authors, s.names, s.authorIds, s.titleKeys, s.forward]) {
    if (c.offsets.length !== n + 1 || c.offsets[n] !== c.bytes.length) fail('text offsets');
  }
  for (const f of s.fields) {
    if (f.offsets.length !== terms + 1 || f.lengths.length !== n || f.docs.length !== f.tfs.length) fail('postings');
    if (f.offsets[terms] !== f.docs.length) fail('posting offsets');
    for (let t = 0; t < terms; t++) if (f.offsets[t]! > f.offsets[t + 1]!) fail('posting offsets');
  }
}
