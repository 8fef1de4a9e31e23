/**
 * The scorer's working memory for one block of documents (see {@link Scorer}): accumulators
 * indexed by document number minus the block's first, the documents found so far, the stamps
 * that tell one group's or variant's visit from the last, and the bit sets of the weak-field
 * passes. Allocated once per scorer and cleared as it goes, so a query allocates almost nothing.
 * Only state and its bookkeeping live here; what is added to it, and in which order, is the
 * scorer's.
 */
import type { PlannedGroup, PostingCursor } from './queryPlan.js';
import { postingsBefore } from './index/postings.js';

/** Group and variant stamps wrap before they would overflow an int32 shifted left by 2. */
const MAX_STAMP = 1 << 28;

export class Block {
  /** Summed scores and packed coverage of the block's documents. */
  readonly score: Float64Array;
  readonly cov: Uint32Array;
  /** 1 for documents found in this block; `found[0..foundCount)` lists them. */
  readonly mark: Uint8Array;
  readonly found: Int32Array;
  foundCount = 0;
  /**
   * A bit for every document found in this block (and not cleared when pruning forgets one:
   * `mark` says which are still found), so that the block ends in document order without sorting.
   */
  readonly foundBits: Int32Array;
  /** The block's found documents in order. */
  readonly order: Int32Array;
  /** The stamp of the last group that reached a document (<< 2), with that group's field flags. */
  readonly seen: Int32Array;
  /** The best variant sum of the group being walked. */
  readonly best: Float64Array;
  /** A variant's sums by document, the stamp (<< 2) and fields of its visit, the documents it reached. */
  readonly vsum: Float64Array;
  readonly vseen: Int32Array;
  readonly vfound: Int32Array;
  /** Found documents checked before a pass of forgetting that forgets none of them stops (64 in a full block). */
  readonly forgetSample: number;
  /**
   * With weak fields (see {@link Pruner.weakFields}, {@link Pruner.weakFieldsOfFirst}): a bit
   * for every document of the block that holds the first group (a one-word query: any group) in
   * another field (only those are scored), and in `unscored` a bit for every other document the
   * first group reaches (only counted). While a later group is walked, `candidate` holds the
   * documents it reaches instead (which of the unscored ones match every group), or, with weak
   * fields of its own ({@link Pruner.weakFieldsAt}), those holding it in another field.
   */
  readonly candidate: Int32Array;
  readonly unscored: Int32Array;
  /** The positions of the postings of a list's block to score. */
  readonly pick: Int32Array;
  /** The found documents the scorer's `cover` looks for. */
  readonly needy: Int32Array;
  /**
   * The documents that match every group walked so far (kept only where the scorer's `cover`
   * counts for them alone, see {@link QueryPlan.covered}): the few it looks among, where the
   * found documents may be a hundred times as many.
   */
  readonly whole: Int32Array;
  wholeCount = 0;
  private groupStamp = 0;
  private variantStamp = 0;

  constructor(readonly size: number) {
    this.score = new Float64Array(size);
    this.cov = new Uint32Array(size);
    this.mark = new Uint8Array(size);
    this.found = new Int32Array(size);
    this.foundBits = new Int32Array((size + 31) >>> 5);
    this.forgetSample = Math.max(8, size >>> 7);
    this.order = new Int32Array(size);
    this.seen = new Int32Array(size);
    this.best = new Float64Array(size);
    this.vsum = new Float64Array(size);
    this.vseen = new Int32Array(size);
    this.vfound = new Int32Array(size);
    const words = (size + 31) >>> 5;
    this.candidate = new Int32Array(words);
    this.unscored = new Int32Array(words);
    this.pick = new Int32Array(size);
    this.needy = new Int32Array(size);
    this.whole = new Int32Array(size);
  }

  /** A stamp for the next group's visit, distinct from every one in `seen`. */
  nextGroupStamp(): number {
    if (++this.groupStamp >= MAX_STAMP) {
      this.seen.fill(0);
      this.groupStamp = 1;
    }
    return this.groupStamp;
  }

  /** A stamp for the next variant's visit, distinct from every one in `vseen`. */
  nextVariantStamp(): number {
    if (++this.variantStamp >= MAX_STAMP) {
      this.vseen.fill(0);
      this.variantStamp = 1;
    }
    return this.variantStamp;
  }

  /**
   * Sets `candidate` to the block `[lo, hi)`'s documents that hold a variant of one of `groups`
   * in a field outside `weak`, from a pass over those lists that only sets bits.
   */
  markCandidates(groups: readonly PlannedGroup[], weak: number, lo: number, hi: number): void {
    const candidate = this.candidate;
    candidate.fill(0, 0, (hi - lo + 31) >>> 5);
    for (const { variants } of groups) {
      for (const variant of variants) {
        for (const field of variant.fields) {
          if ((weak >>> field.f) & 1) continue;
          for (const list of field.lists) {
            const { docs } = list;
            const from = cursorAt(list, lo);
            const stop = postingsBefore(docs, from, list.end, hi - list.base);
            const shift = list.base - lo;
            for (let i = from; i < stop; i++) {
              const j = shift + docs[i]!;
              candidate[j >>> 5]! |= 1 << (j & 31);
            }
          }
        }
      }
    }
  }

  /**
   * After required group `position`: keeps in `whole` the documents that match every group so
   * far (after the first group, every document found).
   */
  keepWhole(position: number): void {
    const { whole, cov } = this;
    if (position === 0) {
      whole.set(this.found.subarray(0, this.foundCount));
      this.wholeCount = this.foundCount;
      return;
    }
    let n = 0;
    for (let q = 0; q < this.wholeCount; q++) {
      const j = whole[q]!;
      whole[n] = j;
      n += (cov[j]! & 0xff) === position + 1 ? 1 : 0;
    }
    this.wholeCount = n;
  }

  /** Keeps the first `n` of `needy` not yet stamped `stamped` (counted by a list of the group); returns how many. */
  stillNeedy(n: number, stamped: number): number {
    const { needy, seen } = this;
    let kept = 0;
    for (let q = 0; q < n; q++) {
      const j = needy[q]!;
      needy[kept] = j;
      kept += (seen[j]! & ~3) === stamped ? 0 : 1;
    }
    return kept;
  }

  /**
   * After a later group's walk, while the first group's weak-field documents are only counted:
   * keeps flagged in `unscored` only those the group holds (its walk set their `candidate`
   * bits), so that those left at the end match every group.
   */
  keepMembers(lo: number, hi: number): void {
    const { candidate, unscored } = this;
    const words = (hi - lo + 31) >>> 5;
    for (let w = 0; w < words; w++) unscored[w]! &= candidate[w]!;
  }
}

/**
 * Moves a list's cursor to its first posting of a document at or after `lo` (global) and returns
 * it: a cursor left behind in blocks where the list was not read catches up here.
 */
export function cursorAt(list: PostingCursor, lo: number): number {
  return (list.at = postingsBefore(list.docs, list.at, list.end, lo - list.base));
}
