/**
 * Phase 5 of a merge: every section of the merged segment streamed to the snapshot writer in
 * pieces, from the mapped inputs and what phases 1–4 settled (mergePlan.ts). Sections are
 * written by name; the writer puts each where the section table (sections.ts) lays it out.
 */
import { newestOrder } from './build.js';
import { bytesAt, compareAt, readDeltas } from './columns.js';
import { PIECE, RELEASE_DOCS, type Documents, type MergeInput, type Vocabulary } from './mergePlan.js';
import { writePostings } from './mergePostings.js';
import { authorIdsOf } from './authorTable.js';
import { sectionNamed, type SectionData } from './sections.js';
import { FIELD_COUNT, type SegmentData } from './types.js';
import type { SnapshotWriter } from './writer.js';

/** What the sections are written from, besides the inputs. */
export interface Merged {
  docs: Documents;
  vocab: Vocabulary;
  docFreq: Uint32Array;
  /** Per input, its venue numbers' merged numbers. */
  venueMap: Int32Array[];
  topicWords: number;
  /** The merged author table, and per input its authors' places in it (authorTable.ts). */
  authors: { table: Float64Array; remap: Int32Array[] };
}

/** Writes every section of the merged segment. */
export function writeSections(writer: SnapshotWriter, inputs: readonly MergeInput[], merged: Merged, release: () => void): void {
  const { docs, vocab, topicWords } = merged;
  const { count: docCount, inputOf, localOf } = docs;
  const out = new SectionOut(writer);
  const perDoc = (name: string, value: (seg: SegmentData, local: number, i: number) => number) => {
    out.begin(name);
    for (let n = 0; n < docCount; n++) out.push(value(inputs[inputOf[n]!]!.segment, localOf[n]!, inputOf[n]!));
    out.end();
  };
  perDoc('storeDocs', (seg, d) => seg.storeDocs[d]!);
  writer.write('terms.bytes', vocab.terms.bytes);
  writer.write('terms.offsets', vocab.terms.offsets);
  writer.write('docFreq', merged.docFreq);
  writer.write('trie.chars', vocab.trie.chars);
  writer.write('trie.depth', vocab.trie.depth);
  writer.write('trie.end', vocab.trie.end);
  writer.write('trie.term', vocab.trie.term);
  for (const name of ['ids', 'titles', 'authors', 'names'] as const) {
    const columns = inputs.map((inp) => inp.segment[name]);
    out.begin(`${name}.bytes`);
    const offsets = new Uint32Array(docCount + 1);
    let at = 0;
    for (let n = 0; n < docCount; n++) {
      const bytes = bytesAt(columns[inputOf[n]!]!, localOf[n]!);
      out.pushAll(bytes);
      at += bytes.length;
      offsets[n + 1] = at;
    }
    out.end();
    writer.write(`${name}.offsets`, offsets);
  }
  writeAuthors(inputs, docs, merged.authors, out, writer);
  writeTitleOrder(inputs, docs, out, writer);
  const seg = (n: number) => inputs[inputOf[n]!]!.segment;
  writer.write(
    'newestOrder',
    newestOrder(docCount, (n) => seg(n).years[localOf[n]!]!, (n) => seg(n).standing[localOf[n]!]!, (n) => seg(n).firstSeen[localOf[n]!]!, (n) => seg(n).storeDocs[localOf[n]!]!),
  );
  perDoc('years', (seg, d) => seg.years[d]!);
  perDoc('standing', (seg, d) => seg.standing[d]!);
  perDoc('track', (seg, d) => seg.track[d]!);
  perDoc('citedBy', (seg, d) => seg.citedBy[d]!);
  perDoc('venueOf', (seg, d, i) => merged.venueMap[i]![seg.venueOf[d]!]!);
  perDoc('firstSeen', (seg, d) => seg.firstSeen[d]!);
  out.begin('topicBits');
  for (let n = 0; n < docCount; n++) {
    out.pushAll(seg(n).topicBits.subarray(localOf[n]! * topicWords, (localOf[n]! + 1) * topicWords));
  }
  out.end();
  for (let f = 0; f < FIELD_COUNT; f++) {
    const counts = vocab.postings[f]!;
    const offsets = new Uint32Array(vocab.count + 1);
    for (let t = 0; t < vocab.count; t++) offsets[t + 1] = offsets[t]! + counts[t]!;
    writer.write(`f${f}.offsets`, offsets);
    perDoc(`f${f}.lengths`, (seg, d) => seg.fields[f]!.lengths[d]!);
    writePostings(inputs, docs.newIds, vocab, f, writer, release);
    release();
  }
  writeForward(inputs, docs, vocab.termMap, out, writer, release);
}

/** The merged author table, and each document's authors' places in it (4 bytes little-endian each). */
function writeAuthors(inputs: readonly MergeInput[], docs: Documents, authors: Merged['authors'], out: SectionOut, writer: SnapshotWriter): void {
  writer.write('authorKeys', authors.table);
  const columns = inputs.map((inp) => authorIdsOf(inp.segment.authorIds));
  const offsets = new Uint32Array(docs.count + 1);
  out.begin('authorIds.bytes');
  for (let n = 0; n < docs.count; n++) {
    const i = docs.inputOf[n]!;
    const { ids, starts } = columns[i]!;
    const d = docs.localOf[n]!;
    for (let k = starts[d]!; k < starts[d + 1]!; k++) {
      const id = authors.remap[i]![ids[k]!]!;
      out.push(id & 0xff);
      out.push((id >>> 8) & 0xff);
      out.push((id >>> 16) & 0xff);
      out.push(id >>> 24);
    }
    offsets[n + 1] = offsets[n]! + 4 * (starts[d + 1]! - starts[d]!);
  }
  out.end();
  writer.write('authorIds.offsets', offsets);
}

/** Titles in merged title order: normalized title bytes, then store document. */
function writeTitleOrder(inputs: readonly MergeInput[], docs: Documents, out: SectionOut, writer: SnapshotWriter): void {
  const { count: docCount, newIds } = docs;
  const pos = inputs.map(() => 0);
  const skip = (i: number) => {
    const { titleOrder, docCount: n } = inputs[i]!.segment;
    while (pos[i]! < n && newIds[i]![titleOrder[pos[i]!]!]! < 0) pos[i]!++;
  };
  inputs.forEach((_, i) => skip(i));
  const order = new Uint32Array(docCount);
  const keyOffsets = new Uint32Array(docCount + 1);
  out.begin('titleKeys.bytes');
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

/** The forward index: each merged document's term ids, renumbered, as LEB128 deltas. */
function writeForward(inputs: readonly MergeInput[], docs: Documents, termMap: Uint32Array[], out: SectionOut, writer: SnapshotWriter, release: () => void): void {
  const { count: docCount, inputOf, localOf } = docs;
  out.begin('forward.bytes');
  const forwardOffsets = new Uint32Array(docCount + 1);
  /** A forward-index entry's (input) term ids, and the entry renumbered. */
  let entry = new Uint32Array(1024);
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
}

/** Buffers one section's values and writes them in pieces. */
class SectionOut {
  private name = '';
  private buffer: SectionData = new Uint8Array(0);
  private filled = 0;
  constructor(private readonly writer: SnapshotWriter) {}
  /** Starts a section: its values are of the kind the section table gives it. */
  begin(name: string): void {
    const section = sectionNamed(name);
    if (!section) throw new Error(`merge: no section ${name}`);
    const { kind } = section;
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
