/**
 * The index snapshot: one binary file holding the typed arrays as they are in memory, so that
 * loading is a file read plus views over it, with no tokenizing and no tree building.
 *
 * Layout: magic (8 bytes), header length (uint32 LE), JSON header, then 8-byte aligned sections.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { TEXT_VERSION } from '../../text.js';
import { FIELD_COUNT, type FieldPostings, type IndexData } from './types.js';

const MAGIC = 'PSIDX\u0001\n\0';
/**
 * Layout version, and the text normalization the terms were made with: a snapshot written with
 * another of either is rebuilt from the store. 2: ł, ø, ß and the like folded to ASCII, lone
 * Greek letters read as their names, LaTeX decoded.
 */
const FORMAT_VERSION = 2;

type ArrayKind = 'u8' | 'u16' | 'u32' | 'f64' | 'text';
interface SectionInfo {
  name: string;
  kind: ArrayKind;
  offset: number;
  bytes: number;
}
interface Header {
  version: number;
  textVersion: number;
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
    infos.push({ name: sections[i]!.name, kind: sections[i]!.kind, offset, bytes: body.byteLength });
    offset = align8(offset + body.byteLength);
  });
  const header: Header = {
    version: FORMAT_VERSION,
    textVersion: TEXT_VERSION,
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
  const bodyStart = align8(MAGIC.length + 4 + headerBytes.length);
  const out = Buffer.alloc(bodyStart + offset);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(headerBytes.length, MAGIC.length);
  headerBytes.copy(out, MAGIC.length + 4);
  bodies.forEach((body, i) => {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    bytes.copy(out, bodyStart + infos[i]!.offset);
  });

  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, out);
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Reads only the header of the snapshot at `path`; undefined if there is none or it is unreadable. */
export function readSnapshotInfo(path: string): SnapshotInfo | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const prefix = Buffer.alloc(MAGIC.length + 4);
    readSync(fd, prefix, 0, prefix.length, 0);
    const headerLength = prefix.readUInt32LE(MAGIC.length);
    const head = Buffer.alloc(prefix.length + headerLength);
    readSync(fd, head, 0, head.length, 0);
    const { header } = parseHeader(head, fstatSync(fd).size);
    return { generation: header.generation, taxonomyHash: header.taxonomyHash, docCount: header.docCount };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Loads a snapshot written by {@link writeSnapshot}. Throws with the reason when the file is
 * missing, truncated or of another format version (the caller then rebuilds from the store).
 */
export function readSnapshot(path: string): IndexData {
  const file = readFileSync(path);
  const { header, bodyStart } = parseHeader(file);
  // Typed-array views need aligned offsets: copy in the rare case the buffer is not aligned.
  const buf = file.byteOffset % 8 === 0 ? file : Buffer.from(file);
  const byName = new Map(header.sections.map((s) => [s.name, s]));
  const view = <K extends ArrayKind>(name: string, kind: K) => {
    const s = byName.get(name);
    if (!s || s.kind !== kind) throw new Error(`index snapshot ${path}: section ${name} is missing`);
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
  return {
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
}

function parseHeader(file: Buffer, fileSize = file.length): { header: Header; bodyStart: number } {
  if (file.length < MAGIC.length + 4 || file.toString('latin1', 0, MAGIC.length) !== MAGIC) {
    throw new Error('not a Paper Scout index snapshot');
  }
  const headerLength = file.readUInt32LE(MAGIC.length);
  const header = JSON.parse(file.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + headerLength)) as Header;
  if (header.version !== FORMAT_VERSION || header.textVersion !== TEXT_VERSION) {
    throw new Error(`index snapshot format ${header.version} (text ${header.textVersion ?? 1}), expected ${FORMAT_VERSION} (text ${TEXT_VERSION})`);
  }
  const bodyStart = align8(MAGIC.length + 4 + headerLength);
  if (fileSize !== bodyStart + header.totalBytes) throw new Error('index snapshot is truncated');
  return { header, bodyStart };
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
