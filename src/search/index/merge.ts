/**
 * Merges segments into one snapshot file without re-tokenizing anything: the live documents of
 * every input, in store-document order, their postings merged term by term. Sections are
 * streamed to disk in pieces, so memory stays a few bytes per document and term however large
 * the inputs (mapped files) are. The result is the file a full rebuild over the same live
 * papers would write.
 */
import { NO_TERM, TrieBuilder } from '../vocab.js';
import { GrowableArray, TextColumnBuilder, bytesAt, compareAt, readDeltas, textAt } from './columns.js';
import { FIELD_COUNT, type SegmentData, type TextColumn } from './types.js';
import type { ArrayKind, SectionData } from './format.js';
import { SnapshotWriter } from './writer.js';
import { newestOrder } from './build.js';
import { releasePages } from './mmap.js';
import { findAscending, type IndexView } from './view.js';

export interface MergeInput {
  segment: SegmentData;
  /** Per local document: 1 if it must be left out (replaced by a newer version, or deleted). */
  dead?: Uint8Array;
}

export interface MergeOptions {
  generation: number;
  taxonomyHash: string;
  topicIds: readonly string[];
  /** Pause after each piece written (tests that kill a merge half way). */
  pauseMs?: number;
}

/** Elements buffered per section before a write. */
const PIECE = 1 << 18;
/** Postings, and documents' forward entries, read from the mapped inputs between two releases of their pages. */
const RELEASE_POSTINGS = 1 << 22;
const RELEASE_DOCS = 1 << 17;

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
  const live = (i: number, d: number) => inputs[i]!.dead?.[d] !== 1;
  // An input with nothing masked counts its postings by their offsets, without reading them.
  const allLive = inputs.map((inp) => !inp.dead || !inp.dead.includes(1));
  // Mapped inputs' pages stay resident once read: let them go between passes and now and then within one.
  const release = () => {
    for (const inp of inputs) releasePages(inp.segment.storeDocs.buffer);
  };

  // 1. Documents: a k-way merge by store document.
  const newIds = inputs.map((inp) => new Int32Array(inp.segment.docCount).fill(-1));
  const outInput = new GrowableArray(Uint8Array);
  const outLocal = new GrowableArray(Uint32Array);
  {
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
  }
  const docCount = outLocal.length;
  const inputOf = outInput.raw;
  const localOf = outLocal.raw;

  // 2. Vocabulary: a k-way merge by term, keeping terms with a live posting; per-field counts.
  const termMap = inputs.map((inp) => new Uint32Array(inp.segment.docFreq.length).fill(NO_TERM));
  const terms = new TextColumnBuilder();
  const trie = new TrieBuilder();
  const fieldCounts = Array.from({ length: FIELD_COUNT }, () => new GrowableArray(Uint32Array));
  {
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
          const { offsets, docs } = seg.fields[f]!;
          if (allLive[i]) {
            counts[f]! += offsets[t + 1]! - offsets[t]!;
            continue;
          }
          const ids = newIds[i]!;
          for (let k = offsets[t]!; k < offsets[t + 1]!; k++) if (ids[docs[k]!]! >= 0) counts[f]!++;
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
  }
  const termCount = terms.count;
  const termColumn = terms.finish();
  const termTrie = trie.finish();

  // 3. Document frequencies and the forward index's size, from the live documents' term lists.
  // Input by input (neither sum depends on the order), so that each input's term map stays in cache.
  const docFreq = new Uint32Array(termCount);
  let forwardBytes = 0;
  let done = 0;
  /** A forward-index entry's (input) term ids. */
  let entry = new Uint32Array(1024);
  inputs.forEach((inp, i) => {
    const map = termMap[i]!;
    const ids = newIds[i]!;
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

  // Venues and topics: one table for all inputs. Venues are numbered as a build numbers them, in
  // the order the live documents first name them (so a venue only masked documents named is left out).
  const venues: string[] = [];
  const venueIndex = new Map<string, number>();
  const venueMap = inputs.map((inp) => new Int32Array(inp.segment.venues.length).fill(-1));
  for (let n = 0; n < docCount; n++) {
    const i = inputOf[n]!;
    const seg = inputs[i]!.segment;
    const local = seg.venueOf[localOf[n]!]!;
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
  const topicWords = Math.max(1, Math.ceil(options.topicIds.length / 32));
  for (const inp of inputs) {
    if (inp.segment.topicWords !== topicWords || inp.segment.topics.join('\n') !== options.topicIds.join('\n')) {
      throw new Error('merge: segments were built with another taxonomy');
    }
  }

  release();

  // 4. Lay the file out and stream every section.
  const textBytes = (pick: (s: SegmentData) => TextColumn) => {
    let total = 0;
    for (let n = 0; n < docCount; n++) {
      const c = pick(inputs[inputOf[n]!]!.segment);
      total += c.offsets[localOf[n]! + 1]! - c.offsets[localOf[n]!]!;
    }
    return total;
  };
  const titleKeyBytes = inputs.reduce((sum, inp, i) => {
    const { titleKeys, titleOrder, docCount: n } = inp.segment;
    for (let pos = 0; pos < n; pos++) if (live(i, titleOrder[pos]!)) sum += titleKeys.offsets[pos + 1]! - titleKeys.offsets[pos]!;
    return sum;
  }, 0);
  const postings = fieldCounts.map((c) => {
    let total = 0;
    for (let t = 0; t < termCount; t++) total += c.raw[t]!;
    return total;
  });
  const sizes: Array<{ name: string; kind: ArrayKind; bytes: number }> = [
    { name: 'storeDocs', kind: 'u32', bytes: docCount * 4 },
    { name: 'terms.bytes', kind: 'u8', bytes: termColumn.bytes.byteLength },
    { name: 'terms.offsets', kind: 'u32', bytes: termColumn.offsets.byteLength },
    { name: 'docFreq', kind: 'u32', bytes: termCount * 4 },
    { name: 'trie.chars', kind: 'u16', bytes: termTrie.chars.byteLength },
    { name: 'trie.depth', kind: 'u8', bytes: termTrie.depth.byteLength },
    { name: 'trie.end', kind: 'u32', bytes: termTrie.end.byteLength },
    { name: 'trie.term', kind: 'u32', bytes: termTrie.term.byteLength },
    { name: 'ids.bytes', kind: 'u8', bytes: textBytes((s) => s.ids) },
    { name: 'ids.offsets', kind: 'u32', bytes: (docCount + 1) * 4 },
    { name: 'titles.bytes', kind: 'u8', bytes: textBytes((s) => s.titles) },
    { name: 'titles.offsets', kind: 'u32', bytes: (docCount + 1) * 4 },
    { name: 'authors.bytes', kind: 'u8', bytes: textBytes((s) => s.authors) },
    { name: 'authors.offsets', kind: 'u32', bytes: (docCount + 1) * 4 },
    { name: 'titleKeys.bytes', kind: 'u8', bytes: titleKeyBytes },
    { name: 'titleKeys.offsets', kind: 'u32', bytes: (docCount + 1) * 4 },
    { name: 'titleOrder', kind: 'u32', bytes: docCount * 4 },
    { name: 'newestOrder', kind: 'u32', bytes: docCount * 4 },
    { name: 'years', kind: 'u16', bytes: docCount * 2 },
    { name: 'standing', kind: 'u8', bytes: docCount },
    { name: 'venueOf', kind: 'u32', bytes: docCount * 4 },
    { name: 'firstSeen', kind: 'f64', bytes: docCount * 8 },
    { name: 'topicBits', kind: 'u32', bytes: docCount * topicWords * 4 },
    ...Array.from({ length: FIELD_COUNT }, (_, f) => [
      { name: `f${f}.offsets`, kind: 'u32' as const, bytes: (termCount + 1) * 4 },
      { name: `f${f}.lengths`, kind: 'u16' as const, bytes: docCount * 2 },
      { name: `f${f}.docs`, kind: 'u32' as const, bytes: postings[f]! * 4 },
      { name: `f${f}.tfs`, kind: 'u8' as const, bytes: postings[f]! },
    ]).flat(),
    { name: 'forward.bytes', kind: 'u8', bytes: forwardBytes },
    { name: 'forward.offsets', kind: 'u32', bytes: (docCount + 1) * 4 },
  ];
  const lengthSums = new Array<number>(FIELD_COUNT).fill(0);
  let maxFirstSeen = 0;
  for (let n = 0; n < docCount; n++) {
    const seg = inputs[inputOf[n]!]!.segment;
    for (let f = 0; f < FIELD_COUNT; f++) lengthSums[f]! += seg.fields[f]!.lengths[localOf[n]!]!;
    maxFirstSeen = Math.max(maxFirstSeen, seg.firstSeen[localOf[n]!]!);
  }
  const writer = new SnapshotWriter(
    path,
    { generation: options.generation, taxonomyHash: options.taxonomyHash, docCount, termCount, venues, topics: [...options.topicIds], topicWords, lengthSums, maxFirstSeen },
    sizes,
    options.pauseMs ?? 0,
  );
  try {
    const out = new SectionOut(writer);
    const perDoc = (name: string, kind: ArrayKind, value: (seg: SegmentData, local: number, i: number) => number) => {
      out.begin(name, kind);
      for (let n = 0; n < docCount; n++) out.push(value(inputs[inputOf[n]!]!.segment, localOf[n]!, inputOf[n]!));
      out.end();
    };
    perDoc('storeDocs', 'u32', (seg, d) => seg.storeDocs[d]!);
    writer.write('terms.bytes', termColumn.bytes);
    writer.write('terms.offsets', termColumn.offsets);
    writer.write('docFreq', docFreq);
    writer.write('trie.chars', termTrie.chars);
    writer.write('trie.depth', termTrie.depth);
    writer.write('trie.end', termTrie.end);
    writer.write('trie.term', termTrie.term);
    for (const [name, pick] of [['ids', (s: SegmentData) => s.ids], ['titles', (s: SegmentData) => s.titles], ['authors', (s: SegmentData) => s.authors]] as const) {
      out.begin(`${name}.bytes`, 'u8');
      const offsets = new Uint32Array(docCount + 1);
      let at = 0;
      for (let n = 0; n < docCount; n++) {
        const bytes = bytesAt(pick(inputs[inputOf[n]!]!.segment), localOf[n]!);
        out.pushAll(bytes);
        at += bytes.length;
        offsets[n + 1] = at;
      }
      out.end();
      writer.write(`${name}.offsets`, offsets);
    }
    writeTitleOrder(inputs, newIds, out, writer, docCount);
    const seg = (n: number) => inputs[inputOf[n]!]!.segment;
    writer.write(
      'newestOrder',
      newestOrder(docCount, (n) => seg(n).years[localOf[n]!]!, (n) => seg(n).standing[localOf[n]!]!, (n) => seg(n).firstSeen[localOf[n]!]!, (n) => seg(n).storeDocs[localOf[n]!]!),
    );
    perDoc('years', 'u16', (seg, d) => seg.years[d]!);
    perDoc('standing', 'u8', (seg, d) => seg.standing[d]!);
    perDoc('venueOf', 'u32', (seg, d, i) => venueMap[i]![seg.venueOf[d]!]!);
    perDoc('firstSeen', 'f64', (seg, d) => seg.firstSeen[d]!);
    out.begin('topicBits', 'u32');
    for (let n = 0; n < docCount; n++) {
      const seg = inputs[inputOf[n]!]!.segment;
      out.pushAll(seg.topicBits.subarray(localOf[n]! * topicWords, (localOf[n]! + 1) * topicWords));
    }
    out.end();
    for (let f = 0; f < FIELD_COUNT; f++) {
      const counts = fieldCounts[f]!.raw;
      const offsets = new Uint32Array(termCount + 1);
      for (let t = 0; t < termCount; t++) offsets[t + 1] = offsets[t]! + counts[t]!;
      writer.write(`f${f}.offsets`, offsets);
      perDoc(`f${f}.lengths`, 'u16', (seg, d) => seg.fields[f]!.lengths[d]!);
      writePostings(inputs, newIds, termMap, f, termCount, writer, release);
      release();
    }
    out.begin('forward.bytes', 'u8');
    const forwardOffsets = new Uint32Array(docCount + 1);
    let scratch = new Uint8Array(entry.length * 5);
    let at = 0;
    for (let n = 0; n < docCount; n++) {
      if ((n + 1) % RELEASE_DOCS === 0) release();
      const i = inputOf[n]!;
      const map = termMap[i]!;
      const { bytes, offsets } = inputs[i]!.segment.forward;
      const from = offsets[localOf[n]!]!;
      const end = offsets[localOf[n]! + 1]!;
      // A document has no more terms than bytes, and a renumbered delta takes at most 5 bytes.
      if (scratch.length < (end - from) * 5) {
        scratch = new Uint8Array((end - from) * 5);
        entry = new Uint32Array(end - from);
      }
      const count = readDeltas(bytes, from, end, entry);
      let w = 0;
      let prev = 0;
      for (let k = 0; k < count; k++) {
        const id = map[entry[k]!]!;
        let delta = id - prev;
        prev = id;
        // pushVarint, inline: this runs for every term of every document.
        while (delta >= 0x80) {
          scratch[w++] = (delta & 0x7f) | 0x80;
          delta >>>= 7;
        }
        scratch[w++] = delta;
      }
      out.pushAll(scratch.subarray(0, w));
      at += w;
      forwardOffsets[n + 1] = at;
    }
    out.end();
    writer.write('forward.offsets', forwardOffsets);
    writer.commit();
  } catch (err) {
    writer.abort();
    throw err;
  }
  return { docCount, termCount };
}

/** Titles in merged title order: normalized title bytes, then store document. */
function writeTitleOrder(inputs: readonly MergeInput[], newIds: Int32Array[], out: SectionOut, writer: SnapshotWriter, docCount: number): void {
  const pos = inputs.map(() => 0);
  const skip = (i: number) => {
    const { titleOrder, docCount: n } = inputs[i]!.segment;
    while (pos[i]! < n && newIds[i]![titleOrder[pos[i]!]!]! < 0) pos[i]!++;
  };
  inputs.forEach((_, i) => skip(i));
  const order = new Uint32Array(docCount);
  const keyOffsets = new Uint32Array(docCount + 1);
  out.begin('titleKeys.bytes', 'u8');
  // The inputs by their next title (then store document), smallest first: a binary heap, so
  // each title costs a few comparisons however many inputs there are.
  const before = (i: number, j: number): boolean => {
    const a = inputs[i]!.segment;
    const b = inputs[j]!.segment;
    const c = compareAt(a.titleKeys, pos[i]!, bytesAt(b.titleKeys, pos[j]!));
    return c < 0 || (c === 0 && a.storeDocs[a.titleOrder[pos[i]!]!]! < b.storeDocs[b.titleOrder[pos[j]!]!]!);
  };
  const heap: number[] = [];
  const siftDown = (k: number) => {
    for (;;) {
      const l = 2 * k + 1;
      if (l >= heap.length) return;
      const c = l + 1 < heap.length && before(heap[l + 1]!, heap[l]!) ? l + 1 : l;
      if (!before(heap[c]!, heap[k]!)) return;
      [heap[c], heap[k]] = [heap[k]!, heap[c]!];
      k = c;
    }
  };
  inputs.forEach((inp, i) => {
    if (pos[i]! < inp.segment.docCount) heap.push(i);
  });
  for (let k = (heap.length >> 1) - 1; k >= 0; k--) siftDown(k);
  let at = 0;
  for (let n = 0; n < docCount; n++) {
    const best = heap[0]!;
    const seg = inputs[best]!.segment;
    const key = bytesAt(seg.titleKeys, pos[best]!);
    out.pushAll(key);
    at += key.length;
    keyOffsets[n + 1] = at;
    order[n] = newIds[best]![seg.titleOrder[pos[best]!]!]!;
    pos[best]!++;
    skip(best);
    if (pos[best]! >= seg.docCount) {
      // This input is done: the last one takes its place.
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    siftDown(0);
  }
  out.end();
  writer.write('titleKeys.offsets', keyOffsets);
  writer.write('titleOrder', order);
}

/** One field's postings, term by term: each input's live postings renumbered, merged by document. */
function writePostings(
  inputs: readonly MergeInput[],
  newIds: Int32Array[],
  termMap: Uint32Array[],
  f: number,
  termCount: number,
  writer: SnapshotWriter,
  release: () => void,
): void {
  // For each output term, where it is in each input: walk the inputs' terms in step.
  const cursor = inputs.map(() => 0);
  const docsOut = new Uint32Array(PIECE);
  const tfsOut = new Uint8Array(PIECE);
  let filled = 0;
  const flush = () => {
    writer.write(`f${f}.docs`, docsOut.subarray(0, filled));
    writer.write(`f${f}.tfs`, tfsOut.subarray(0, filled));
    filled = 0;
  };
  const runs = new RunMerger();
  let read = 0;
  for (let t = 0; t < termCount; t++) {
    // The inputs' pages stay mapped once read; a field's postings can be larger than memory allows.
    if (read >= RELEASE_POSTINGS) {
      release();
      read = 0;
    }
    runs.clear();
    for (let i = 0; i < inputs.length; i++) {
      const map = termMap[i]!;
      while (cursor[i]! < map.length && (map[cursor[i]!] === NO_TERM || map[cursor[i]!]! < t)) cursor[i]!++;
      if (cursor[i]! >= map.length || map[cursor[i]!] !== t) continue;
      const { offsets, docs, tfs } = inputs[i]!.segment.fields[f]!;
      const local = cursor[i]!;
      const from = offsets[local]!;
      const to = offsets[local + 1]!;
      const ids = newIds[i]!;
      const { docs: docsTo, tfs: tfsTo, start } = runs.room(to - from);
      let n = start;
      for (let k = from; k < to; k++) {
        const id = ids[docs[k]!]!;
        docsTo[n] = id;
        tfsTo[n] = tfs[k]!;
        // Masked postings (-1) are overwritten by the next.
        n += id >= 0 ? 1 : 0;
      }
      read += to - from;
      // Each input's postings are in its document order, which the new numbers keep: a run.
      runs.add(n);
    }
    // Inputs made one after another (an import's chunks) mostly come in document order already;
    // where they do not, their runs are merged.
    const { docs, tfs, length } = runs.merge();
    for (let k = 0; k < length; ) {
      if (filled === PIECE) flush();
      const n = Math.min(length - k, PIECE - filled);
      docsOut.set(docs.subarray(k, k + n), filled);
      tfsOut.set(tfs.subarray(k, k + n), filled);
      filled += n;
      k += n;
    }
  }
  flush();
}

/** Buffers one section's values and writes them in pieces. */
class SectionOut {
  private name = '';
  private buffer: SectionData = new Uint8Array(0);
  private filled = 0;
  constructor(private readonly writer: SnapshotWriter) {}
  begin(name: string, kind: ArrayKind): void {
    this.name = name;
    this.filled = 0;
    this.buffer = kind === 'u8' ? new Uint8Array(PIECE) : kind === 'u16' ? new Uint16Array(PIECE) : kind === 'u32' ? new Uint32Array(PIECE) : new Float64Array(PIECE);
  }
  push(value: number): void {
    if (this.filled === this.buffer.length) this.flush();
    this.buffer[this.filled++] = value;
  }
  pushAll(values: Uint8Array | Uint32Array): void {
    if (this.filled + values.length <= this.buffer.length) {
      // Most often (a title, a document's terms): all at once, without a view of a part.
      this.buffer.set(values, this.filled);
      this.filled += values.length;
      return;
    }
    for (let k = 0; k < values.length; ) {
      if (this.filled === this.buffer.length) this.flush();
      const n = Math.min(values.length - k, this.buffer.length - this.filled);
      this.buffer.set(values.subarray(k, k + n), this.filled);
      this.filled += n;
      k += n;
    }
  }
  end(): void {
    this.flush();
  }
  private flush(): void {
    if (this.filled > 0) this.writer.write(this.name, this.buffer.subarray(0, this.filled));
    this.filled = 0;
  }
}

function varintLength(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

/**
 * One term's postings from every input (documents and term frequencies side by side), gathered
 * run by run, and merged into ascending order: runs already in order with the one before are
 * joined first, then the rest are merged pairwise, which costs a pass per halving of the runs
 * instead of a sort.
 */
class RunMerger {
  private docs = new Uint32Array(1024);
  private tfs = new Uint8Array(1024);
  private otherDocs = new Uint32Array(1024);
  private otherTfs = new Uint8Array(1024);
  /** Where each run ends (the next starts there). */
  private ends: number[] = [];
  private length = 0;

  clear(): void {
    this.ends.length = 0;
    this.length = 0;
  }

  /** Room for up to `n` more postings: the arrays to write them to, from `start`. */
  room(n: number): { docs: Uint32Array; tfs: Uint8Array; start: number } {
    if (this.length + n > this.docs.length) {
      const size = Math.max(this.length + n, this.docs.length * 2);
      const docs = new Uint32Array(size);
      const tfs = new Uint8Array(size);
      docs.set(this.docs.subarray(0, this.length));
      tfs.set(this.tfs.subarray(0, this.length));
      this.docs = docs;
      this.tfs = tfs;
      this.otherDocs = new Uint32Array(size);
      this.otherTfs = new Uint8Array(size);
    }
    return { docs: this.docs, tfs: this.tfs, start: this.length };
  }

  /** Ends the run written since the last one at `end` (an empty run is none). */
  add(end: number): void {
    if (end === this.length) return;
    // One that follows on in order from the run before is part of it.
    if (this.ends.length > 0 && this.docs[this.length - 1]! < this.docs[this.length]!) this.ends[this.ends.length - 1] = end;
    else this.ends.push(end);
    this.length = end;
  }

  /** The postings in ascending document order (views into arrays the next term reuses). */
  merge(): { docs: Uint32Array; tfs: Uint8Array; length: number } {
    const ends = this.ends;
    let docs = this.docs;
    let tfs = this.tfs;
    let outDocs = this.otherDocs;
    let outTfs = this.otherTfs;
    while (ends.length > 1) {
      let r = 0;
      let w = 0;
      let start = 0;
      for (; r + 1 < ends.length; r += 2) {
        const mid = ends[r]!;
        const end = ends[r + 1]!;
        let i = start;
        let j = mid;
        let k = start;
        while (i < mid && j < end) {
          if (docs[i]! < docs[j]!) {
            outDocs[k] = docs[i]!;
            outTfs[k++] = tfs[i++]!;
          } else {
            outDocs[k] = docs[j]!;
            outTfs[k++] = tfs[j++]!;
          }
        }
        outDocs.set(docs.subarray(i, mid), k);
        outTfs.set(tfs.subarray(i, mid), k);
        k += mid - i;
        outDocs.set(docs.subarray(j, end), k);
        outTfs.set(tfs.subarray(j, end), k);
        ends[w++] = end;
        start = end;
      }
      if (r < ends.length) {
        outDocs.set(docs.subarray(start, ends[r]!), start);
        outTfs.set(tfs.subarray(start, ends[r]!), start);
        ends[w++] = ends[r]!;
      }
      ends.length = w;
      [docs, outDocs] = [outDocs, docs];
      [tfs, outTfs] = [outTfs, tfs];
    }
    // The arrays may have swapped roles: keep the pairs together for the next term.
    this.docs = docs;
    this.tfs = tfs;
    this.otherDocs = outDocs;
    this.otherTfs = outTfs;
    return { docs, tfs, length: this.length };
  }
}
