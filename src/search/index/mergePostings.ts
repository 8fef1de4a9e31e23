/**
 * Phase 5 of a merge, for postings: one field's postings written term by term, each input's live
 * postings renumbered and merged by document. See mergeWrite.ts.
 */
import { NO_TERM } from '../vocab.js';
import { PIECE, RELEASE_POSTINGS, type MergeInput, type Vocabulary } from './mergePlan.js';
import type { SnapshotWriter } from './writer.js';

/** One field's postings, term by term: each input's live postings renumbered, merged by document. */
export function writePostings(inputs: readonly MergeInput[], newIds: Int32Array[], vocab: Vocabulary, f: number, writer: SnapshotWriter, release: () => void): void {
  const { termMap, count: termCount } = vocab;
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
