/**
 * The phases of a merge that read the inputs and settle what the merged segment holds before a
 * byte of it is written: its documents (phase 1), its vocabulary (2), each term's document
 * frequency and the forward index's size (3), its venues and topics, and every section's length
 * (4). Each keeps a few bytes per document and term; the inputs' pages are let go as they are read.
 * `mergeSegments` (merge.ts) runs them, then streams the sections (mergeWrite.ts).
 */
import { NO_TERM, TrieBuilder, type TermTrie } from '../vocab.js';
import { GrowableArray, TextColumnBuilder, readDeltas, textAt } from './columns.js';
import { FIELD_COUNT, type SegmentData, type TextColumn } from './types.js';
import type { SectionCounts } from './sections.js';

export interface MergeInput {
  segment: SegmentData;
  /** Per local document: 1 if it must be left out (replaced by a newer version, or deleted). */
  dead?: Uint8Array;
}

/** Elements buffered per section before a write. */
export const PIECE = 1 << 18;
/** Postings, and documents' forward entries, read from the mapped inputs between two releases of their pages. */
export const RELEASE_POSTINGS = 1 << 22;
export const RELEASE_DOCS = 1 << 17;

/** The merged documents, in store-document order. */
export interface Documents {
  count: number;
  /** Per merged document: the input it comes from, and its number there (the first `count`). */
  inputOf: Uint8Array;
  localOf: Uint32Array;
  /** Per input, per local document: its merged number, or -1 when it is left out. */
  newIds: Int32Array[];
}

/** The merged vocabulary: the inputs' terms that have a live posting, in order. */
export interface Vocabulary {
  count: number;
  terms: TextColumn;
  trie: TermTrie;
  /** Per input, per local term: its merged id, or NO_TERM when it has no live posting. */
  termMap: Uint32Array[];
  /** Per field, per merged term: its live postings (the first `count`). */
  postings: Uint32Array[];
}

/** Phase 1: the inputs' live documents, a k-way merge by store document. */
export function mergeDocuments(inputs: readonly MergeInput[]): Documents {
  const live = (i: number, d: number) => inputs[i]!.dead?.[d] !== 1;
  const newIds = inputs.map((inp) => new Int32Array(inp.segment.docCount).fill(-1));
  const outInput = new GrowableArray(Uint8Array);
  const outLocal = new GrowableArray(Uint32Array);
  const cursor = inputs.map(() => 0);
  const advance = (i: number) => {
    while (cursor[i]! < inputs[i]!.segment.docCount && !live(i, cursor[i]!)) cursor[i]!++;
  };
  inputs.forEach((_, i) => advance(i));
  for (;;) {
    let best = -1;
    let bestDoc = Infinity;
    for (let i = 0; i < inputs.length; i++) {
      if (cursor[i]! >= inputs[i]!.segment.docCount) continue;
      const sd = inputs[i]!.segment.storeDocs[cursor[i]!]!;
      if (sd === bestDoc) throw new Error(`merge: store document ${sd} is live in two segments`);
      if (sd < bestDoc) {
        bestDoc = sd;
        best = i;
      }
    }
    if (best < 0) break;
    newIds[best]![cursor[best]!] = outLocal.length;
    outInput.push(best);
    outLocal.push(cursor[best]!);
    cursor[best]!++;
    advance(best);
  }
  return { count: outLocal.length, inputOf: outInput.raw, localOf: outLocal.raw, newIds };
}

/** Phase 2: a k-way merge by term, keeping the terms with a live posting; their postings per field. */
export function mergeVocabulary(inputs: readonly MergeInput[], docs: Documents, release: () => void): Vocabulary {
  // An input with nothing masked counts its postings by their offsets, without reading them.
  const allLive = inputs.map((inp) => !inp.dead || !inp.dead.includes(1));
  const termMap = inputs.map((inp) => new Uint32Array(inp.segment.docFreq.length).fill(NO_TERM));
  const terms = new TextColumnBuilder();
  const trie = new TrieBuilder();
  const fieldCounts = Array.from({ length: FIELD_COUNT }, () => new GrowableArray(Uint32Array));
  const cursor = inputs.map(() => 0);
  const current = inputs.map((inp) => (inp.segment.docFreq.length > 0 ? textAt(inp.segment.terms, 0) : undefined));
  const holders: number[] = [];
  let read = 0;
  for (;;) {
    let word: string | undefined;
    for (const w of current) if (w !== undefined && (word === undefined || w < word)) word = w;
    if (word === undefined) break;
    holders.length = 0;
    for (let i = 0; i < inputs.length; i++) if (current[i] === word) holders.push(i);
    const counts = new Array<number>(FIELD_COUNT).fill(0);
    for (const i of holders) {
      const seg = inputs[i]!.segment;
      const t = cursor[i]!;
      for (let f = 0; f < FIELD_COUNT; f++) {
        const { offsets, docs: postings } = seg.fields[f]!;
        if (allLive[i]) {
          counts[f]! += offsets[t + 1]! - offsets[t]!;
          continue;
        }
        const ids = docs.newIds[i]!;
        for (let k = offsets[t]!; k < offsets[t + 1]!; k++) if (ids[postings[k]!]! >= 0) counts[f]!++;
        read += offsets[t + 1]! - offsets[t]!;
      }
    }
    if (read >= RELEASE_POSTINGS) {
      release();
      read = 0;
    }
    if (counts.some((c) => c > 0)) {
      const id = terms.count;
      terms.add(word);
      trie.push(word);
      for (const i of holders) termMap[i]![cursor[i]!] = id;
      for (let f = 0; f < FIELD_COUNT; f++) fieldCounts[f]!.push(counts[f]!);
    }
    for (const i of holders) {
      const seg = inputs[i]!.segment;
      cursor[i]!++;
      current[i] = cursor[i]! < seg.docFreq.length ? textAt(seg.terms, cursor[i]!) : undefined;
    }
  }
  return { count: terms.count, terms: terms.finish(), trie: trie.finish(), termMap, postings: fieldCounts.map((c) => c.raw) };
}

/**
 * Phase 3: each term's document frequency and the forward index's size, from the live
 * documents' term lists. Input by input (neither depends on the order), so that each input's
 * term map stays in cache.
 */
export function countTerms(inputs: readonly MergeInput[], docs: Documents, vocab: Vocabulary, release: () => void): { docFreq: Uint32Array; forwardBytes: number } {
  const docFreq = new Uint32Array(vocab.count);
  let forwardBytes = 0;
  let done = 0;
  /** A forward-index entry's (input) term ids. */
  let entry = new Uint32Array(1024);
  inputs.forEach((inp, i) => {
    const map = vocab.termMap[i]!;
    const ids = docs.newIds[i]!;
    const { bytes, offsets } = inp.segment.forward;
    for (let d = 0; d < inp.segment.docCount; d++) {
      if (ids[d]! < 0) continue;
      if (++done % RELEASE_DOCS === 0) release();
      const from = offsets[d]!;
      const end = offsets[d + 1]!;
      if (entry.length < end - from) entry = new Uint32Array(end - from);
      const n = readDeltas(bytes, from, end, entry);
      let prev = 0;
      for (let k = 0; k < n; k++) {
        const id = map[entry[k]!]!;
        docFreq[id]!++;
        forwardBytes += varintLength(id - prev);
        prev = id;
      }
    }
  });
  return { docFreq, forwardBytes };
}

/**
 * One venue table for all inputs, numbered as a build numbers it: in the order the live
 * documents first name them (so a venue only masked documents named is left out).
 */
export function mergeVenues(inputs: readonly MergeInput[], docs: Documents): { venues: string[]; venueMap: Int32Array[] } {
  const venues: string[] = [];
  const venueIndex = new Map<string, number>();
  const venueMap = inputs.map((inp) => new Int32Array(inp.segment.venues.length).fill(-1));
  for (let n = 0; n < docs.count; n++) {
    const i = docs.inputOf[n]!;
    const seg = inputs[i]!.segment;
    const local = seg.venueOf[docs.localOf[n]!]!;
    if (venueMap[i]![local]! >= 0) continue;
    const name = seg.venues[local]!;
    let k = venueIndex.get(name);
    if (k === undefined) {
      k = venues.length;
      venueIndex.set(name, k);
      venues.push(name);
    }
    venueMap[i]![local] = k;
  }
  return { venues, venueMap };
}

/** The topic bitsets' words a document; every input must have been built with this taxonomy. */
export function topicWordsOf(inputs: readonly MergeInput[], topicIds: readonly string[]): number {
  const topicWords = Math.max(1, Math.ceil(topicIds.length / 32));
  for (const inp of inputs) {
    if (inp.segment.topicWords !== topicWords || inp.segment.topics.join('\n') !== topicIds.join('\n')) {
      throw new Error('merge: segments were built with another taxonomy');
    }
  }
  return topicWords;
}

/** Phase 4: what fixes the sections' lengths, and with them the file's layout. */
export function sectionCounts(inputs: readonly MergeInput[], docs: Documents, vocab: Vocabulary, forwardBytes: number, topicWords: number, authorKeys: number): SectionCounts {
  const { count, inputOf, localOf } = docs;
  const textBytes = (pick: (s: SegmentData) => TextColumn) => {
    let total = 0;
    for (let n = 0; n < count; n++) {
      const c = pick(inputs[inputOf[n]!]!.segment);
      total += c.offsets[localOf[n]! + 1]! - c.offsets[localOf[n]!]!;
    }
    return total;
  };
  const titleKeyBytes = inputs.reduce((sum, inp, i) => {
    const { titleKeys, titleOrder, docCount: n } = inp.segment;
    for (let pos = 0; pos < n; pos++) if (docs.newIds[i]![titleOrder[pos]!]! >= 0) sum += titleKeys.offsets[pos + 1]! - titleKeys.offsets[pos]!;
    return sum;
  }, 0);
  const postings = vocab.postings.map((c) => {
    let total = 0;
    for (let t = 0; t < vocab.count; t++) total += c[t]!;
    return total;
  });
  return {
    docs: count,
    terms: vocab.count,
    topicWords,
    authorKeys,
    trieNodes: vocab.trie.chars.length,
    postings,
    textBytes: {
      terms: vocab.terms.bytes.byteLength,
      ids: textBytes((s) => s.ids),
      titles: textBytes((s) => s.titles),
      authors: textBytes((s) => s.authors),
      names: textBytes((s) => s.names),
      authorIds: textBytes((s) => s.authorIds),
      titleKeys: titleKeyBytes,
      forward: forwardBytes,
    },
  };
}

/** The header's sums over the merged documents: each field's length, and the newest first-seen time. */
export function documentTotals(inputs: readonly MergeInput[], docs: Documents): { lengthSums: number[]; maxFirstSeen: number } {
  const lengthSums = new Array<number>(FIELD_COUNT).fill(0);
  let maxFirstSeen = 0;
  for (let n = 0; n < docs.count; n++) {
    const seg = inputs[docs.inputOf[n]!]!.segment;
    const local = docs.localOf[n]!;
    for (let f = 0; f < FIELD_COUNT; f++) lengthSums[f]! += seg.fields[f]!.lengths[local]!;
    maxFirstSeen = Math.max(maxFirstSeen, seg.firstSeen[local]!);
  }
  return { lengthSums, maxFirstSeen };
}

function varintLength(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}
