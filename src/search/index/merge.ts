/**
 * Merges segments into one snapshot file without re-tokenizing anything: the live documents of
 * every input, in store-document order, their postings merged term by term. Sections are
 * streamed to disk in pieces, so memory stays a few bytes per document and term however large
 * the inputs (mapped files) are. The result is the file a full rebuild over the same live
 * papers would write.
 *
 * Five phases, one function each: the documents (1), the vocabulary (2), document frequencies
 * and the forward index's size (3), the layout from the section table (4), all in mergePlan.ts;
 * then every section written (5), in mergeWrite.ts and, for postings, mergePostings.ts.
 */
import type { SegmentData } from './types.js';
import { SnapshotWriter } from './writer.js';
import { releasePages } from './mmap.js';
import { findAscending, type IndexView } from './view.js';
import { countTerms, documentTotals, mergeDocuments, mergeVenues, mergeVocabulary, sectionCounts, topicWordsOf, type MergeInput } from './mergePlan.js';
import { writeSections } from './mergeWrite.js';
import { sectionBytes } from './sections.js';
import { mergeAuthors } from './authorTable.js';

export type { MergeInput } from './mergePlan.js';

export interface MergeOptions {
  generation: number;
  taxonomyHash: string;
  topicIds: readonly string[];
  /** Pause after each piece written (tests that kill a merge half way). */
  pauseMs?: number;
}

/**
 * The inputs of a merge over segments made one after another (an import's chunks, then what the
 * store changed since): each segment masks the store documents a later one holds again or that
 * were deleted with it, as {@link IndexView.apply} masks them, without the view's vocabulary,
 * which a merge builds for itself (a 1M import's 24 chunks: 2.8 s in a view, 0.13 s here).
 * @example const masks = new MergeInputs(base); masks.apply(chunk, deleted); mergeSegments(masks.inputs, path, { generation: masks.generation, taxonomyHash, topicIds });
 */
export class MergeInputs {
  readonly inputs: Array<Required<MergeInput>> = [];
  /** The newest generation of the segments. */
  generation: number;

  constructor(base: SegmentData) {
    this.inputs.push({ segment: base, dead: new Uint8Array(base.docCount) });
    this.generation = base.generation;
  }

  /** Adds a newer segment, masking what it replaces and the store documents deleted with it. */
  apply(segment: SegmentData, deletedStoreDocs: readonly number[] = []): void {
    for (let i = 0; i < segment.docCount; i++) this.mask(segment.storeDocs[i]!);
    for (const storeDoc of deletedStoreDocs) this.mask(storeDoc);
    if (segment.docCount > 0) this.inputs.push({ segment, dead: new Uint8Array(segment.docCount) });
    this.generation = Math.max(this.generation, segment.generation);
  }

  private mask(storeDoc: number): void {
    for (const { segment, dead } of this.inputs) {
      const { storeDocs, docCount } = segment;
      // Outside a segment's range (an import's chunks follow one another): no search needed.
      if (docCount === 0 || storeDoc < storeDocs[0]! || storeDoc > storeDocs[docCount - 1]!) continue;
      const local = findAscending(storeDocs, storeDoc);
      if (local >= 0) dead[local] = 1;
    }
  }
}

/**
 * Writes the union of the inputs' live documents to `path` (atomically). Inputs must share a
 * taxonomy; a store document live in two inputs is an error (mask the older one).
 * @example mergeSegments([{ segment: base, dead }, { segment: delta }], 'data/index.bin', { generation, taxonomyHash, topicIds });
 */
export function mergeSegments(inputs: readonly MergeInput[], path: string, options: MergeOptions): { docCount: number; termCount: number } {
  // Mapped inputs' pages stay resident once read: let them go between passes and now and then within one.
  const release = () => {
    for (const inp of inputs) releasePages(inp.segment.storeDocs.buffer);
  };
  // 1–3: the documents, the vocabulary, each term's documents and the forward index's size.
  const docs = mergeDocuments(inputs);
  const vocab = mergeVocabulary(inputs, docs, release);
  const { docFreq, forwardBytes } = countTerms(inputs, docs, vocab, release);
  const { venues, venueMap } = mergeVenues(inputs, docs);
  const topicWords = topicWordsOf(inputs, options.topicIds);
  release();
  // 4: the file's layout, and its header.
  const authors = mergeAuthors(inputs, docs);
  const counts = sectionCounts(inputs, docs, vocab, forwardBytes, topicWords, authors.table.length);
  const { lengthSums, maxFirstSeen } = documentTotals(inputs, docs);
  // The header's fields in the order a build gives them (format.ts, headerOf): the same bytes.
  const writer = new SnapshotWriter(
    path,
    { generation: options.generation, taxonomyHash: options.taxonomyHash, docCount: docs.count, termCount: vocab.count, venues, topics: [...options.topicIds], topicWords, lengthSums, maxFirstSeen },
    (section) => sectionBytes(section, counts),
    options.pauseMs ?? 0,
  );
  // 5: every section, streamed.
  try {
    writeSections(writer, inputs, { docs, vocab, docFreq, venueMap, topicWords, authors }, release);
    writer.commit();
  } catch (err) {
    writer.abort();
    throw err;
  }
  return { docCount: docs.count, termCount: vocab.count };
}
