/**
 * The in-memory search index: typed arrays and a few string blobs, so that it can be written to
 * and read from a snapshot file without re-tokenizing anything. Abstract texts are not here (only
 * their postings); the store serves them for snippets.
 */
import type { TermTrie } from '../vocab.js';

/** Indexed fields, in posting-array order. */
export const Field = { Title: 0, Authors: 1, Keywords: 2, Abstract: 3, FirstAuthor: 4 } as const;
export type Field = (typeof Field)[keyof typeof Field];
export const FIELD_COUNT = 5;
export const FIELD_NAMES = ['title', 'authors', 'keywords', 'abstract', 'first author'] as const;

/** Postings of one field: for term t, docs[offsets[t] .. offsets[t+1]) ascending, with term frequencies. */
export interface FieldPostings {
  offsets: Uint32Array;
  docs: Uint32Array;
  tfs: Uint8Array;
  /** Length of this field in words, per document. */
  lengths: Uint16Array;
  avgLength: number;
}

export interface IndexData {
  /** Store generation the index reflects; a newer store means the index is stale. */
  generation: number;
  /** Hash of the topic taxonomy the papers' topics were computed with. */
  taxonomyHash: string;
  docCount: number;
  /** Index document number → the store's `doc` number. */
  storeDocs: Uint32Array;
  /** Sorted vocabulary; a term's id is its position. */
  terms: string[];
  /** The vocabulary as a trie, for typo-tolerant lookup. */
  trie: TermTrie;
  /** Documents that contain the term in any field. */
  docFreq: Uint32Array;
  fields: FieldPostings[];
  /** Paper ids, one per document. */
  ids: string[];
  /** Titles as written, one per document, and documents ordered by normalized title. */
  titles: string[];
  titleOrder: Uint32Array;
  /** Normalized author names per document, joined by `;`. */
  authors: string[];
  years: Uint16Array;
  /** How the venue distinguished the paper: 2 oral, spotlight or award; 1 accepted; 0 rejected or withdrawn. */
  standing: Uint8Array;
  /** Venue per document as an index into `venues` (display names). */
  venueOf: Uint16Array;
  venues: string[];
  /** First-seen time per document, seconds since the epoch. */
  firstSeen: Float64Array;
  /** Topic ids, and per document a bitset over them (`topicWords` 32-bit words a document). */
  topics: string[];
  topicWords: number;
  topicBits: Uint32Array;
}
