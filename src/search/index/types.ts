/**
 * One segment of the search index: typed arrays and UTF-8 blobs only, so that a segment is the
 * same thing whether it was built in memory (a delta) or mapped from the snapshot file (the
 * base). Abstract texts are not here (only their postings); the store serves them for snippets.
 */
import type { TermTrie } from '../vocab.js';

/** Indexed fields, in posting-array order. */
export const Field = { Title: 0, Authors: 1, Keywords: 2, Abstract: 3, FirstAuthor: 4 } as const;
export type Field = (typeof Field)[keyof typeof Field];
export const FIELD_COUNT = 5;

/** Postings of one field: for term t, docs[offsets[t] .. offsets[t+1]) ascending, with term frequencies. */
export interface FieldPostings {
  offsets: Uint32Array;
  docs: Uint32Array;
  tfs: Uint8Array;
  /** Length of this field in words, per document. */
  lengths: Uint16Array;
  /** Sum of `lengths` (an integer, so that sums over segments are exact). */
  lengthSum: number;
}

/** Strings stored as one UTF-8 blob: string i is bytes[offsets[i] .. offsets[i+1]). */
export interface TextColumn {
  bytes: Uint8Array;
  offsets: Uint32Array;
  /**
   * Where `bytes` also lie in the snapshot file, for a mapped column read a few entries at a
   * time in random order: positional reads leave the pages out of the process's memory, where
   * touching the mapping would bring in each page (and the kernel its neighbours) to stay.
   */
  file?: {
    fd: number;
    position: number;
    /** What keeps the descriptor open while the column lives. */
    owner?: object;
  };
}

export interface SegmentData {
  /** Store generation the segment reflects: it holds every change up to it (in its document range). */
  generation: number;
  /** Hash of the topic taxonomy the papers' topics were computed with. */
  taxonomyHash: string;
  docCount: number;
  /** Local document number → the store's `doc` number, ascending. */
  storeDocs: Uint32Array;
  /** Sorted vocabulary (UTF-16 code unit order); a term's local id is its position. */
  terms: TextColumn;
  /** The vocabulary as a trie: exact, prefix and typo-tolerant lookup without a Map. */
  trie: TermTrie;
  /** Documents of this segment that contain the term in any field. */
  docFreq: Uint32Array;
  fields: FieldPostings[];
  /**
   * Per document, its distinct term ids (any field), ascending, as LEB128 deltas: what a document
   * contributed to `docFreq`, read only when the document is masked by a newer version.
   */
  forward: TextColumn;
  /** Paper ids, titles as written, and normalized author names joined by `;`, one per document. */
  ids: TextColumn;
  titles: TextColumn;
  authors: TextColumn;
  /**
   * What the library's own signals read of each document (librarySignals.ts), computed when it is
   * indexed so that no query reads every title and author: the names the paper may go by
   * (standing.ts `paperNames`, joined by `;`, empty for none), and its authors: the sorted
   * distinct 52-bit keys of the segment's authors' names (`authorKey`) and, per document, each
   * author's place among them, 4 bytes little-endian each (authorTable.ts).
   */
  names: TextColumn;
  authorKeys: Float64Array;
  authorIds: TextColumn;
  /** Normalized titles in title order (UTF-8 byte order, then document), and the documents in that order. */
  titleKeys: TextColumn;
  titleOrder: Uint32Array;
  years: Uint16Array;
  /** How the venue received the paper: 3 oral, spotlight or award; 2 accepted; 1 rejected or undecided; 0 withdrawn or anonymous (`recordStanding`). */
  standing: Uint8Array;
  /**
   * How the paper was presented, finer than `standing` (oral, poster, findings, workshop,
   * rejected, …): a {@link Track} per document (`trackOf` in standing.ts).
   */
  track: Uint8Array;
  /** How many works cite each paper, or {@link UNKNOWN_CITED} (see standing.ts). */
  citedBy: Uint32Array;
  /** Venue per document as an index into `venues` (display names). */
  venueOf: Uint32Array;
  venues: string[];
  /**
   * Documents newest first: year (newest first), then the venue's distinction, then first seen
   * (latest first), then store document — the order of a filter-only search.
   */
  newestOrder: Uint32Array;
  /** First-seen time per document, seconds since the epoch, and the newest of them. */
  firstSeen: Float64Array;
  maxFirstSeen: number;
  /** Topic ids, and per document a bitset over them (`topicWords` 32-bit words a document). */
  topics: string[];
  topicWords: number;
  topicBits: Uint32Array;
  /**
   * The snapshot file the segment was mapped from, and what identifies its contents (generation,
   * size and section checksums): where derived tables kept beside it are found (meaning/table.ts).
   * Absent for a segment built in memory.
   */
  snapshot?: { path: string; key: string };
}
