/**
 * Exact pruning of a query's walk, MaxScore-style, block by block. The first group (the one
 * with the fewest documents) is always walked whole, so every document matching all groups is
 * found and counted. The threshold is the k-th best final value ({@link QueryPlan.rankValue}:
 * the words matched, then the score) among the documents of the blocks already done: the k-th
 * best of the whole walk can only be higher. In a block, once even
 * a document matching every remaining variant at its bound (and none walked so far) would stay
 * below it, the rest of the block's lists only update the documents already found; and at each
 * group's start, found documents whose own bound is below it are forgotten, unless they match
 * every group walked so far (they may match all groups).
 */
import { Field } from './index/types.js';
import { ALL_IN_TITLE_BONUS, coverageFactor } from './bm25.js';
import type { QueryPlan } from './queryPlan.js';

/** Fields that may be left out of the weak ones, least weighty first (never an author field: see {@link Pruner.finish}). */
const WEAK_ORDER: readonly Field[] = [Field.Abstract, Field.Keywords, Field.Title];

export class Pruner {
  private readonly best: MinHeap;
  private readonly groups: number;
  /** Documents matching all groups left out of the results: admitted ones, and whether any. */
  unlistedAdmitted = 0;
  unlistedAny = false;
  /** {@link coverageFactor} and {@link QueryPlan.classOffset} by groups matched. */
  private readonly factors: Float64Array;
  private readonly offsets: Float64Array;
  /** boundFrom by position and variant, computed once. */
  private readonly bounds: Float64Array[];
  /** For {@link weakOf}: by position, the group's bounds by field, and the later groups' (and optional ones') together. */
  private readonly fieldBounds: Array<Float64Array | undefined> = [];
  private restBounds: Float64Array | undefined;
  /** {@link QueryPlan.boundTable} by position, computed when first needed. */
  private readonly tables: Array<ReturnType<QueryPlan['boundTable']>> = [];

  /**
   * `requireAll`: only documents matching every group matter (autocomplete), and `keep` is how
   * many of those are wanted (Infinity: all of them).
   */
  constructor(
    private readonly plan: QueryPlan,
    private readonly keep: number,
    private readonly admits: ((d: number) => boolean) | undefined,
    private readonly requireAll = false,
  ) {
    this.best = new MinHeap(keep === Infinity ? 0 : keep);
    const g = plan.required.length;
    this.groups = g;
    this.factors = Float64Array.from({ length: g + 1 }, (_, c) => coverageFactor(c, g));
    this.offsets = Float64Array.from({ length: g + 1 }, (_, c) => plan.classOffset(c));
    this.bounds = plan.required.map((group, position) => Float64Array.from(group.variants, (_, k) => (position > 0 ? plan.boundFrom(position, k) : Infinity)));
  }

  /** A score the k-th best document will reach at least (−∞ until k documents are done). */
  get threshold(): number {
    return this.keep !== Infinity && this.best.size === this.keep ? this.best.min() : -Infinity;
  }

  /**
   * Takes the documents of a finished block, `order[0..n)` (offsets from `lo`) with their final
   * scores and coverage: each goes toward the threshold, and is appended to `touched`/`scores`/
   * `covs` from `out` on if it may be among the k best (by the threshold before this block), or
   * may be an author's name (all groups in author fields: the exactness tiers come later).
   * Documents matching all groups that are left out are counted. Returns the new end.
   */
  finish(lo: number, order: Int32Array, n: number, score: Float64Array, cov: Uint32Array, touched: Int32Array, scores: Float64Array, covs: Uint32Array, out: number): number {
    const { best, admits, factors, offsets, groups } = this;
    const all = this.requireAll;
    const threshold = this.threshold;
    const ranked = best.capacity > 0;
    let floor = best.size < best.capacity ? -Infinity : best.min();
    for (let i = 0; i < n; i++) {
      const j = order[i]!;
      const c = cov[j]!;
      const full = (c & 0xff) === groups;
      // With requireAll, a document that missed a group is neither listed nor ranked.
      let listed = full || !all;
      if (listed && ranked) {
        // QueryPlan.rankValue, inline: this runs for every document found.
        let value = score[j]! * factors[c & 0xff]!;
        if (((c >>> 8) & 0xff) === groups) value *= ALL_IN_TITLE_BONUS;
        value += offsets[c & 0xff]!;
        if (value > floor && (!admits || admits(lo + j))) {
          best.push(value, lo + j);
          if (best.size === best.capacity) floor = best.min();
        }
        listed = value >= threshold || (full && c >>> 16 === groups);
        if (!listed && full) {
          this.unlistedAny = true;
          if (!admits || admits(lo + j)) this.unlistedAdmitted++;
        }
      }
      if (!listed) continue;
      touched[out] = lo + j;
      scores[out] = score[j]!;
      covs[out++] = c;
    }
    return out;
  }

  /**
   * Fields so weak (a bit per field) that a document matching the query in them alone stays
   * below the threshold, whatever its coverage: documents of the next block found in no other
   * field need only be counted. 0 when there are none.
   */
  weakFields(): number {
    const threshold = this.threshold;
    if (threshold === -Infinity) return 0;
    const bounds = this.plan.fieldBounds;
    let weak = 0;
    let sum = 0;
    for (const f of WEAK_ORDER) {
      // A field the query has no postings in has nothing to leave out.
      if (bounds[f] === 0) continue;
      const next = sum + bounds[f]!;
      // Coverage factors are at most 1; the all-in-title bonus needs the title.
      if ((f === Field.Title ? next * ALL_IN_TITLE_BONUS : next) + this.offsets[this.groups]! >= threshold) break;
      sum = next;
      weak |= 1 << f;
    }
    return weak;
  }

  /**
   * {@link weakFields} for a query of several groups, of the first group's fields: documents
   * where the first group is only in these fields stay below the threshold whatever else they
   * match, and need only be counted. Only while every later group's walk is restricted (then no
   * such document is found by a later group). 0 when there are none.
   */
  weakFieldsOfFirst(): number {
    const threshold = this.threshold;
    if (threshold === -Infinity || this.requireAll) return 0;
    for (let position = 1; position < this.groups; position++) if (!this.canRestrict(position, 0)) return 0;
    // Coverage factors are at most 1; the all-in-title bonus needs the first group in the title.
    return this.weakOf(0, 1, this.offsets[this.groups]!, ALL_IN_TITLE_BONUS, threshold);
  }

  /**
   * Fields of required group `position` (not the first) so weak that a document the group is
   * the first to reach, only there, stays below the threshold whatever it matches after. No
   * group before found such a document: while this group's walk is not restricted, neither
   * were theirs, so it lacks the first group (it is no full match and need not be counted), and
   * an earlier group it does hold skipped it for the same reason, with a bound that covers this
   * one. The group's postings in these fields need only be walked for the documents found
   * already or reached in its other fields. (One the walk does find later, through another
   * group, may then score less than it would: below the threshold either way, so never listed.)
   * 0 when there are none.
   */
  weakFieldsAt(position: number): number {
    const threshold = this.threshold;
    if (threshold === -Infinity || this.requireAll) return 0;
    return this.weakOf(position, this.factors[this.groups - position]!, this.offsets[this.groups - position]!, 1, threshold);
  }

  /**
   * The fields of {@link WEAK_ORDER}, from the first, that group `position`'s bounds there can
   * add to the bound of every later group (and the optional ones) while staying below
   * `threshold`, the sum scaled by `factor` (and by `titleFactor` once the title is in), plus `offset`.
   */
  private weakOf(position: number, factor: number, offset: number, titleFactor: number, threshold: number): number {
    const own = (this.fieldBounds[position] ??= this.plan.fieldBoundsOf(position));
    if (!this.restBounds) {
      const rest = new Float64Array(this.groups);
      let sum = this.plan.optionalBound;
      for (let p = this.groups - 1; p >= 0; p--) {
        rest[p] = sum;
        sum += this.plan.required[p]!.bound;
      }
      this.restBounds = rest;
    }
    let weak = 0;
    let sum = this.restBounds[position]!;
    for (const f of WEAK_ORDER) {
      if (own[f] === 0) continue;
      const next = sum + own[f]!;
      if ((f === Field.Title ? next * titleFactor : next) * factor + offset >= threshold) break;
      sum = next;
      weak |= 1 << f;
    }
    return weak;
  }

  /**
   * Counts the documents of a block whose bits are set in `unscored` (bit j of word j >>> 5 for
   * the document at offset j from `lo`): they match every group but were not scored (see
   * {@link weakFields}). Clears the bits.
   */
  countUnscored(lo: number, unscored: Int32Array, size: number): void {
    const admits = this.admits;
    let n = 0;
    let admitted = 0;
    const words = (size + 31) >>> 5;
    for (let w = 0; w < words; w++) {
      let bits = unscored[w]!;
      if (bits === 0) continue;
      unscored[w] = 0;
      if (admits) {
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          n++;
          if (admits(lo + (w << 5) + 31 - Math.clz32(low))) admitted++;
        }
      } else {
        bits -= (bits >>> 1) & 0x55555555;
        bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
        n += Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
      }
    }
    if (!admits) admitted = n;
    if (n > 0) this.unlistedAny = true;
    this.unlistedAdmitted += admitted;
  }

  /**
   * Whether a found document with `score` from `matched` groups, that holds required group
   * `position` (not the first) only in an abstract left out of scoring, can matter once the
   * group counts toward its coverage: it matched every group before (it may match them all, and
   * must be counted), or it may still reach the threshold. One that cannot is below it whatever
   * its coverage: never listed, it is forgotten or left below the threshold.
   */
  needsCover(position: number, score: number, matched: number): boolean {
    if (matched === position) return true;
    const threshold = this.threshold;
    if (threshold === -Infinity) return true;
    const table = (this.tables[position + 1] ??= this.plan.boundTable(position + 1));
    const c = matched + 1;
    return (score + table.added[c]! + table.optional) * table.factors[c]! + table.offsets[c]! >= threshold;
  }

  /** Whether variant `k` of required group `position` (not the first) and the rest of the block may skip documents not found yet. */
  canRestrict(position: number, k: number): boolean {
    return this.requireAll || this.bounds[position]![k]! < this.threshold;
  }

  /**
   * Before required group `position` (the walk restricted), forgets the found documents that
   * cannot matter: from `found[0..count)` (offsets into the block's `score`/`cov`/`mark`), those
   * whose bound ({@link QueryPlan.boundWith}) is below the threshold, unless they match every
   * group walked so far; their accumulators are cleared. With requireAll, every one that missed
   * a group goes, whatever its bound. Keeps the rest in order and returns how many. The bound
   * comes from one table per position (the same arithmetic, so the same decisions). A pass
   * whose first `sample` documents all stay stops there.
   */
  forget(position: number, found: Int32Array, count: number, score: Float64Array, cov: Uint32Array, mark: Uint8Array, sample: number): number {
    const all = this.requireAll;
    const threshold = this.threshold;
    const table = (this.tables[position] ??= this.plan.boundTable(position));
    const { added, optional, factors, offsets } = table;
    if (!all) {
      // Bounds grow with the score (≥ 0): if not even a score of 0 is below the threshold at any
      // coverage, nothing goes, and the pass is skipped.
      let any = false;
      for (let c = 0; c < position && !any; c++) any = (0 + added[c]! + optional) * factors[c]! + offsets[c]! < threshold;
      if (!any) return count;
    }
    let kept = 0;
    for (let i = 0; i < count; i++) {
      // Where the first documents all stay, the rest mostly do too: they stay found (which is
      // always exact: forgetting only saves work).
      if (i === sample && kept === i) return count;
      const j = found[i]!;
      const c = cov[j]! & 0xff;
      // With requireAll, one that missed a group goes. (The table's bounds are for documents
      // that miss some group, so they say nothing of those that matched every group so far.)
      if (c !== position && (all || (score[j]! + added[c]! + optional) * factors[c]! + offsets[c]! < threshold)) {
        score[j] = 0;
        cov[j] = 0;
        mark[j] = 0;
      } else found[kept++] = j;
    }
    return kept;
  }
}

/** The `capacity` largest values pushed, with their documents (a binary min-heap). */
class MinHeap {
  readonly values: Float64Array;
  readonly docs: Int32Array;
  size = 0;

  constructor(readonly capacity: number) {
    this.values = new Float64Array(capacity);
    this.docs = new Int32Array(capacity);
  }

  wouldTake(value: number): boolean {
    return this.size < this.capacity || (this.capacity > 0 && value > this.values[0]!);
  }

  min(): number {
    return this.values[0]!;
  }

  push(value: number, doc: number): void {
    const { values, docs } = this;
    let i: number;
    if (this.size < this.capacity) {
      i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (values[parent]! <= value) break;
        values[i] = values[parent]!;
        docs[i] = docs[parent]!;
        i = parent;
      }
    } else {
      if (value <= values[0]!) return;
      i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= this.size) break;
        const r = l + 1;
        const c = r < this.size && values[r]! < values[l]! ? r : l;
        if (values[c]! >= value) break;
        values[i] = values[c]!;
        docs[i] = docs[c]!;
        i = c;
      }
    }
    values[i] = value;
    docs[i] = doc;
  }
}
