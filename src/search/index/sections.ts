/**
 * The sections of an index snapshot, in file order: the one table that the writer, the reader
 * and a merge share. A section is one typed array of a segment, little-endian as it is in memory,
 * starting on an 8-byte boundary (zero bytes pad the one before it), so that a reader maps the
 * file and makes views over it without copying.
 *
 * Checksums: the header records each section's CRC-32, over the section's own bytes (not the
 * padding after it); the header has a CRC of its own. Sections up to {@link CHECK_AT_OPEN_BYTES}
 * are checked when the file is opened, the rest in the background, where the sections that hold
 * document numbers ({@link Section.docNumbers}) are also checked against the document count.
 *
 * Reading: every section is a view over the mapping. The texts of two columns, read a few
 * entries a query in random order, are also read by position ({@link Section.positional}).
 */
import { FIELD_COUNT, type SegmentData } from './types.js';

export type ArrayKind = 'u8' | 'u16' | 'u32' | 'f64';
export type SectionData = Uint8Array | Uint16Array | Uint32Array | Float64Array;

export const ELEMENT_BYTES: Readonly<Record<ArrayKind, number>> = { u8: 1, u16: 2, u32: 4, f64: 8 };

/** Sections up to this size are checked against their CRC when the file is opened; larger ones in the background. */
export const CHECK_AT_OPEN_BYTES = 1 << 20;

/** The segment's text columns (a `.bytes` and an `.offsets` section each). */
export type TextName = 'terms' | 'ids' | 'titles' | 'authors' | 'names' | 'authorIds' | 'titleKeys' | 'forward';

/** What the sections' lengths follow from: a merge knows these before it has the arrays. */
export interface SectionCounts {
  docs: number;
  terms: number;
  topicWords: number;
  /** Distinct authors (their keys). */
  authorKeys: number;
  /** Nodes of the term trie, its root included. */
  trieNodes: number;
  /** Per field, its postings. */
  postings: readonly number[];
  /** Per text column, its bytes. */
  textBytes: Readonly<Record<TextName, number>>;
}

export interface Section {
  name: string;
  kind: ArrayKind;
  /** Its length in elements. */
  length(c: SectionCounts): number;
  /** The segment's array that is this section. */
  of(s: SegmentData): SectionData;
  /** It holds document numbers: each is checked to be below the document count. */
  docNumbers?: true;
  /**
   * A text column's bytes that are also read by position (the column's `file`): pages read
   * this way stay out of the process's memory, where touching the mapping would keep them.
   */
  positional?: true;
}

/** A section's place in the file, as the header records it (offset from the end of the header). */
export interface SectionInfo {
  name: string;
  kind: ArrayKind;
  offset: number;
  bytes: number;
  crc: number;
}

const text = (name: TextName, entries: 'docs' | 'terms', read?: { positional: true }): Section[] => [
  { name: `${name}.bytes`, kind: 'u8', length: (c) => c.textBytes[name], of: (s) => s[name].bytes, ...read },
  { name: `${name}.offsets`, kind: 'u32', length: (c) => c[entries] + 1, of: (s) => s[name].offsets },
];

/** Every section, in file order. */
export const SECTIONS: readonly Section[] = [
  { name: 'storeDocs', kind: 'u32', length: (c) => c.docs, of: (s) => s.storeDocs },
  ...text('terms', 'terms'),
  { name: 'docFreq', kind: 'u32', length: (c) => c.terms, of: (s) => s.docFreq },
  { name: 'trie.chars', kind: 'u16', length: (c) => c.trieNodes, of: (s) => s.trie.chars },
  { name: 'trie.depth', kind: 'u8', length: (c) => c.trieNodes, of: (s) => s.trie.depth },
  { name: 'trie.end', kind: 'u32', length: (c) => c.trieNodes, of: (s) => s.trie.end },
  { name: 'trie.term', kind: 'u32', length: (c) => c.trieNodes, of: (s) => s.trie.term },
  ...text('ids', 'docs'),
  ...text('titles', 'docs'),
  ...text('authors', 'docs'),
  ...text('names', 'docs'),
  { name: 'authorKeys', kind: 'f64', length: (c) => c.authorKeys, of: (s) => s.authorKeys },
  ...text('authorIds', 'docs'),
  ...text('titleKeys', 'docs', { positional: true }),
  { name: 'titleOrder', kind: 'u32', length: (c) => c.docs, of: (s) => s.titleOrder, docNumbers: true },
  { name: 'newestOrder', kind: 'u32', length: (c) => c.docs, of: (s) => s.newestOrder, docNumbers: true },
  { name: 'years', kind: 'u16', length: (c) => c.docs, of: (s) => s.years },
  { name: 'standing', kind: 'u8', length: (c) => c.docs, of: (s) => s.standing },
  { name: 'track', kind: 'u8', length: (c) => c.docs, of: (s) => s.track },
  { name: 'citedBy', kind: 'u32', length: (c) => c.docs, of: (s) => s.citedBy },
  { name: 'venueOf', kind: 'u32', length: (c) => c.docs, of: (s) => s.venueOf },
  { name: 'firstSeen', kind: 'f64', length: (c) => c.docs, of: (s) => s.firstSeen },
  { name: 'topicBits', kind: 'u32', length: (c) => c.docs * c.topicWords, of: (s) => s.topicBits },
  ...Array.from({ length: FIELD_COUNT }, (_, f): Section[] => [
    { name: `f${f}.offsets`, kind: 'u32', length: (c) => c.terms + 1, of: (s) => s.fields[f]!.offsets },
    { name: `f${f}.lengths`, kind: 'u16', length: (c) => c.docs, of: (s) => s.fields[f]!.lengths },
    { name: `f${f}.docs`, kind: 'u32', length: (c) => c.postings[f]!, of: (s) => s.fields[f]!.docs, docNumbers: true },
    { name: `f${f}.tfs`, kind: 'u8', length: (c) => c.postings[f]!, of: (s) => s.fields[f]!.tfs },
  ]).flat(),
  ...text('forward', 'docs', { positional: true }),
];

const byName = new Map(SECTIONS.map((s) => [s.name, s]));

/** The section of that name, or undefined when the table has none. */
export function sectionNamed(name: string): Section | undefined {
  return byName.get(name);
}

/**
 * Lays the sections out after the header, each of `bytesOf(section)` bytes on an 8-byte
 * boundary: their places (offsets from the end of the header) and the body's length.
 * @example layout((s) => s.of(segment).byteLength).totalBytes
 */
export function layout(bytesOf: (section: Section) => number): { infos: SectionInfo[]; totalBytes: number } {
  const infos: SectionInfo[] = [];
  let offset = 0;
  for (const s of SECTIONS) {
    const bytes = bytesOf(s);
    infos.push({ name: s.name, kind: s.kind, offset, bytes, crc: 0 });
    offset = align8(offset + bytes);
  }
  return { infos, totalBytes: offset };
}

/** A section's bytes for the given counts. */
export function sectionBytes(section: Section, counts: SectionCounts): number {
  return section.length(counts) * ELEMENT_BYTES[section.kind];
}

export function align8(n: number): number {
  return (n + 7) & ~7;
}
