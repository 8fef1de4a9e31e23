/**
 * The hot loop of search: BM25F over typed-array postings. A query is a list of groups (one
 * per query word); a group is a list of variants (the word itself, its plural, prefix
 * completions, typo corrections) each with a weight. A document's group score is its best
 * variant's score, so a word counts once however many forms it matched.
 *
 * The walk goes through the documents in blocks of {@link BLOCK}: every posting list of the
 * query is walked over one block before the next, so the accumulators are block-sized and stay
 * in the CPU's cache whatever the size of the library (dense arrays over a million documents
 * did not: most of the time went to cache misses). Each block ends with its documents' final
 * scores, in document order. The order of the additions, and so every score, is the
 * {@link QueryPlan}'s. With `keep`, the walk prunes exactly (see {@link Pruner}). The block's
 * accumulators are a {@link Block}.
 */
import type { IndexView } from './index/view.js';
import { Block, cursorAt } from './block.js';
import { Pruner } from './prune.js';
import { anyFullMatch } from './fullMatch.js';
import { positionOf, postingsBefore } from './index/postings.js';
import { QueryPlan, coverageStep, type PlannedGroup, type PlannedVariant } from './queryPlan.js';
import type { TermGroup } from './expand.js';

export interface ScoreOptions {
  /**
   * Words typed, stopwords included: with three query words or more, common words are not
   * scored in abstracts (`COMMON_IN_ABSTRACTS` in queryPlan.ts). 0 or absent: every word in every field.
   */
  typedWords?: number;
  /**
   * Only the `keep` best documents by {@link baseScore}, among those `admits` lets through, need
   * exact scores; with it, documents that provably cannot be among them may be left out.
   * Every document matching all groups is still found (their count is the result's total).
   */
  keep?: number;
  /** Which documents may be listed at all (filters); every one when absent. */
  admits?: (d: number) => boolean;
  /**
   * Only documents that match every group matter (autocomplete); with `keep`, only the `keep`
   * best of them need be found.
   */
  requireAll?: boolean;
  /** Score everything (the reference the pruned scores are tested against). */
  exhaustive?: boolean;
  /**
   * Count common words' abstracts for every document found, not only those that have every word
   * before (see {@link QueryPlan.coverAll}); `'unlessFull'`: where no document `admits` lets
   * through has every word, when that is quick to find out before the walk ({@link anyFullMatch};
   * else the plan's `coverAll` stays false and the caller may find out from the walk).
   */
  coverAll?: boolean | 'unlessFull';
}

/** Documents per block: the block's accumulators (~45 bytes a document) fit in a core's L2 cache. */
export const BLOCK = 8192;
/** A list is read whole unless it is this many times longer than the documents to look up in it. */
const LOOKUP_COST = 16;

/**
 * Walks a query's postings block by block. After {@link scoreGroups}, `touched[0..touchedCount)`
 * lists the documents found, ascending, with their summed `scores` and packed coverage `covs`
 * at the same index; with pruning, those are all the documents that can matter, each scored
 * exactly. Search is synchronous, so one scorer serves every caller.
 */
export class Scorer {
  touched = new Int32Array(1024);
  scores = new Float64Array(1024);
  covs = new Uint32Array(1024);
  touchedCount = 0;
  /** The plan of the last query (for {@link evaluate}). */
  plan: QueryPlan | undefined;
  private pruner: Pruner | undefined;
  /** The block being walked. */
  private readonly block: Block;
  /** Whether the first group's weak-field documents are only counted in this block (see {@link Block.candidate}). */
  private filtering = false;

  constructor(
    private readonly view: IndexView,
    private readonly blockSize = BLOCK,
  ) {
    this.block = new Block(blockSize);
  }

  /** Scores every group, replacing the previous query's results. */
  scoreGroups(groups: readonly TermGroup[], options: ScoreOptions = {}): void {
    const plan = new QueryPlan(this.view, groups, options.typedWords ?? 0, options.coverAll === true);
    if (options.coverAll === 'unlessFull' && plan.covering) plan.coverAll = anyFullMatch(plan.required, this.view.dead, options.admits) === false;
    this.plan = plan;
    this.touchedCount = 0;
    if (plan.required.length === 0) return;
    const keep = options.exhaustive ? 0 : (options.keep ?? (options.requireAll ? Infinity : 0));
    const pruner = keep > 0 ? new Pruner(plan, keep, options.admits, options.requireAll) : undefined;
    this.pruner = pruner;
    const docCount = this.view.docCount;
    const size = this.blockSize;
    for (let lo = 0; lo < docCount; lo += size) this.walkBlock(plan, pruner, lo, Math.min(docCount, lo + size));
  }

  /**
   * Documents matching every group that were left out of `touched` (they cannot be among the
   * best): how many of them `admits` lets through, and whether there was any at all. The
   * result's total counts them.
   */
  get unlisted(): { admitted: number; any: boolean } {
    return { admitted: this.pruner?.unlistedAdmitted ?? 0, any: this.pruner?.unlistedAny ?? false };
  }

  /**
   * Exact score and packed coverage of one document for the last query, without walking (for
   * documents the walk left out, such as title matches pulled in directly).
   */
  evaluate(d: number): { score: number; cov: number } {
    return this.plan!.evaluate(d);
  }

  /** The position of document `d` in `touched`, or -1. */
  indexOf(d: number): number {
    let lo = 0;
    let hi = this.touchedCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.touched[mid]! < d) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.touchedCount && this.touched[lo] === d ? lo : -1;
  }

  private walkBlock(plan: QueryPlan, pruner: Pruner | undefined, lo: number, hi: number): void {
    const block = this.block;
    // The first group's common word has long lists in its weak fields: documents found only
    // there are counted where they match every group, not scored.
    const single = plan.required.length === 1;
    const weak = pruner === undefined ? 0 : single ? pruner.weakFields() : pruner.weakFieldsOfFirst();
    this.filtering = weak !== 0;
    if (this.filtering) block.markCandidates(single ? [...plan.required, ...plan.optional] : plan.required.slice(0, 1), weak, lo, hi);
    const keepWhole = plan.covering && !plan.coverAll;
    plan.required.forEach((group, position) => {
      // The first group is walked whole: every document that matches all groups is found.
      let restricted = pruner !== undefined && position > 0 && pruner.canRestrict(position, 0);
      if (restricted) block.foundCount = pruner!.forget(position, block.found, block.foundCount, block.score, block.cov, block.mark, block.forgetSample);
      // While weak-field documents are only counted, a later group's walk notes which of them it holds.
      const members = this.filtering && position > 0;
      if (members) block.candidate.fill(0, 0, (hi - lo + 31) >>> 5);
      // A later group not restricted may still skip, in its weak fields, the documents it is the
      // first to reach there alone (see Pruner.weakFieldsAt).
      const join = !restricted && !this.filtering && position > 0 ? pruner?.weakFieldsAt(position) ?? 0 : 0;
      if (join !== 0) block.markCandidates([group], join, lo, hi);
      const stamp = block.nextGroupStamp();
      const variants = group.variants;
      // A group with covering lists notes every document it reaches, for cover() to know them.
      const only = variants.length === 1 && !group.covering;
      for (let k = 0; k < variants.length; k++) {
        if (!restricted && pruner !== undefined && position > 0 && k > 0) restricted = pruner.canRestrict(position, k);
        this.fold(this.gather(variants[k]!, lo, hi, restricted, members, join), stamp, false, k === 0, only);
      }
      if (group.covering) this.cover(group, position, stamp, lo, hi, members, pruner);
      if (members) block.keepMembers(lo, hi);
      if (keepWhole) block.keepWhole(position);
    });
    if (this.filtering) {
      pruner!.countUnscored(lo, block.unscored, hi - lo);
      this.filtering = false;
    }
    // Optional groups only add to documents the required ones found.
    for (const group of plan.optional) {
      const stamp = block.nextGroupStamp();
      const variants = group.variants;
      for (let k = 0; k < variants.length; k++) this.fold(this.gather(variants[k]!, lo, hi, true, false, 0), stamp, true, k === 0, variants.length === 1);
    }
    this.emit(lo, hi, pruner);
  }

  /**
   * After the walk of required group `position`, whose word is left out of abstracts as common:
   * each document found that holds it only there (in a {@link PlannedVariant.covering} list; the
   * group did not reach it) has the word all the same, and counts it toward its coverage,
   * without a score. Documents not found are not looked at: the word alone finds nothing. A
   * long list is read only if the found documents to look for are not few: pruning, those that
   * cannot matter even so are not looked for ({@link pickNeedy}). With `members`, every
   * document of those lists gets its `candidate` bit (see {@link Block.keepMembers}). Where no
   * document is to be looked for, the lists are not read at all (not even where the block's
   * postings start: their pages stay out of memory).
   */
  private cover(group: PlannedGroup, position: number, stamp: number, lo: number, hi: number, members: boolean, pruner: Pruner | undefined): void {
    const block = this.block;
    const { mark, seen, cov, candidate, pick } = block;
    const stamped = stamp << 2;
    const coverAll = this.plan!.coverAll;
    // The found documents to look for: without coverAll, those that have every word before
    // (often none); with it, picked once a list is long enough to be worth it.
    let needy = coverAll ? -1 : this.pickNeedy(position, stamped, undefined);
    for (const variant of group.variants) {
      for (const list of variant.covering) {
        if (!members && (needy === 0 || block.foundCount === 0)) return;
        const { docs } = list;
        const from = cursorAt(list, lo);
        const stop = postingsBefore(docs, from, list.end, hi - list.base);
        list.at = stop;
        if (stop === from) continue;
        const shift = list.base - lo;
        if (members) {
          for (let i = from; i < stop; i++) {
            const j = shift + docs[i]!;
            candidate[j >>> 5]! |= 1 << (j & 31);
          }
        }
        const length = stop - from;
        // Found documents fewer than the list, but not few: those that matter may be (and
        // without coverAll, only those that have every word before count).
        if (needy < 0 && block.foundCount < length && block.foundCount * LOOKUP_COST >= length) needy = this.pickNeedy(position, stamped, pruner);
        else if (needy > 0) needy = block.stillNeedy(needy, stamped);
        const count = needy < 0 ? block.foundCount : needy;
        if (count * LOOKUP_COST < length) {
          // Few documents to look for, a long list: look each one up instead of reading it all.
          const found = needy < 0 ? block.found : block.needy;
          for (let q = 0; q < count; q++) {
            const j = found[q]!;
            if ((seen[j]! & ~3) === stamped || positionOf(docs, from, stop, j - shift) < 0) continue;
            seen[j] = stamped;
            cov[j]! += 1;
          }
          continue;
        }
        // The found ones picked first, without a branch each (see gather), then counted.
        let picked = 0;
        for (let i = from; i < stop; i++) {
          const j = shift + docs[i]!;
          pick[picked] = j;
          picked += mark[j]!;
        }
        for (let q = 0; q < picked; q++) {
          const j = pick[q]!;
          if ((seen[j]! & ~3) === stamped || !(coverAll || (cov[j]! & 0xff) === position)) continue;
          seen[j] = stamped;
          cov[j]! += 1;
        }
      }
    }
  }

  /**
   * Into `needy`, the found documents {@link cover} must look for: those the group did not
   * reach, that it counts for ({@link QueryPlan.covered}), and, with `pruner`, that may matter
   * once it does ({@link Pruner.needsCover}). Returns how many. (Where it counts only for the
   * documents that match every group before, those are the block's `whole`.)
   */
  private pickNeedy(position: number, stamped: number, pruner: Pruner | undefined): number {
    const block = this.block;
    const { needy, seen, score, cov } = block;
    const plan = this.plan!;
    const among = plan.coverAll ? block.found : block.whole;
    const count = plan.coverAll ? block.foundCount : block.wholeCount;
    let n = 0;
    for (let q = 0; q < count; q++) {
      const j = among[q]!;
      const c = cov[j]! & 0xff;
      if ((seen[j]! & ~3) === stamped || !plan.covered(c, position) || (pruner !== undefined && !pruner.needsCover(position, score[j]!, c))) continue;
      needy[n++] = j;
    }
    return n;
  }

  /** Appends the block's documents to the results in document order, and clears the block. */
  private emit(lo: number, hi: number, pruner: Pruner | undefined): void {
    const block = this.block;
    const { score, cov, mark, foundBits, order } = block;
    const n = block.foundCount;
    if (n === 0) {
      // Pruning may have forgotten every document found.
      foundBits.fill(0);
      return;
    }
    // The found documents in order, from their bits: a pass over a word a 32 documents.
    let m = 0;
    const words = (hi - lo + 31) >>> 5;
    for (let w = 0; w < words; w++) {
      let bits = foundBits[w]!;
      if (bits === 0) continue;
      foundBits[w] = 0;
      const first = w << 5;
      while (bits !== 0) {
        const low = bits & -bits;
        const j = first + 31 - Math.clz32(low);
        bits ^= low;
        order[m] = j;
        m += mark[j]!;
      }
    }
    this.ensureRoom(this.touchedCount + n);
    const { touched, scores, covs } = this;
    let out = this.touchedCount;
    if (pruner) {
      out = pruner.finish(lo, order, n, score, cov, touched, scores, covs, out);
      if (n * 8 > hi - lo) {
        // Only found documents have accumulators: when they are many, clearing the block is cheaper.
        score.fill(0, 0, hi - lo);
        cov.fill(0, 0, hi - lo);
        mark.fill(0, 0, hi - lo);
      } else {
        for (let i = 0; i < n; i++) {
          const j = order[i]!;
          score[j] = 0;
          cov[j] = 0;
          mark[j] = 0;
        }
      }
    } else {
      for (let i = 0; i < n; i++) {
        const j = order[i]!;
        touched[out] = lo + j;
        scores[out] = score[j]!;
        covs[out++] = cov[j]!;
        score[j] = 0;
        cov[j] = 0;
        mark[j] = 0;
      }
    }
    this.touchedCount = out;
    block.foundCount = 0;
  }

  /**
   * Sums a variant's postings of the block's documents by document, into `vsum` (with the
   * fields seen in `vseen`, the documents in `vfound`); returns how many documents it reached.
   * Restricted, only documents already found count, and with `members` every document of its
   * lists gets its `candidate` bit (see {@link Block.keepMembers}); not restricted, in the fields of
   * `join` only documents found already or candidates count (see {@link Pruner.weakFieldsAt}).
   */
  private gather(variant: PlannedVariant, lo: number, hi: number, restricted: boolean, members: boolean, join: number): number {
    const block = this.block;
    const { vsum, vseen, vfound, mark, found, candidate, unscored, pick } = block;
    const dead = this.view.dead;
    // With weak fields, only candidates are scored; the others are noted to be counted.
    const filter = this.filtering && !restricted;
    const vstamped = block.nextVariantStamp() << 2;
    const foundCount = block.foundCount;
    let n = 0;
    for (const field of variant.fields) {
      const { boost, norm0, norm1, flag } = field;
      // Only documents found already or holding the group in another field (`candidate`).
      const joined = !restricted && ((join >>> field.f) & 1) === 1;
      for (const list of field.lists) {
        // Restricted to none: nothing to read (the cursor stays behind, and catches up when next needed).
        if (restricted && foundCount === 0 && !members) continue;
        const { docs, tfs, lengths, masked } = list;
        const from = cursorAt(list, lo);
        const stop = postingsBefore(docs, from, list.end, hi - list.base);
        list.at = stop;
        if (stop === from) continue;
        const shift = list.base - lo;
        if (restricted && foundCount * LOOKUP_COST < stop - from) {
          if (members) {
            for (let i = from; i < stop; i++) {
              const j = shift + docs[i]!;
              candidate[j >>> 5]! |= 1 << (j & 31);
            }
          }
          // Few documents found, a long list: look each one up instead of reading it all.
          for (let q = 0; q < foundCount; q++) {
            const j = found[q]!;
            const i = positionOf(docs, from, stop, j - shift);
            if (i < 0 || (masked && dead[lo + j] === 1)) continue;
            const tf = tfs[i]!;
            const x = (boost * tf) / (tf + norm0 + norm1 * lengths[docs[i]!]!);
            const vs = vseen[j]!;
            if ((vs & ~3) !== vstamped) {
              vseen[j] = vstamped | flag;
              vsum[j] = x;
              vfound[n++] = j;
            } else {
              vsum[j]! += x;
              vseen[j] = vs | flag;
            }
          }
          continue;
        }
        // Restricted or filtered, the postings to score are picked first, without branching on
        // each (whether a document was found is a coin toss the CPU cannot predict), then scored.
        let picked = stop - from;
        if (restricted && members) {
          picked = 0;
          for (let i = from; i < stop; i++) {
            const j = shift + docs[i]!;
            pick[picked] = i;
            picked += mark[j]!;
            candidate[j >>> 5]! |= 1 << (j & 31);
          }
        } else if (restricted) {
          picked = 0;
          for (let i = from; i < stop; i++) {
            const j = shift + docs[i]!;
            pick[picked] = i;
            picked += mark[j]!;
          }
        } else if (filter) {
          picked = 0;
          for (let i = from; i < stop; i++) {
            const j = shift + docs[i]!;
            const w = j >>> 5;
            const c = candidate[w]!;
            pick[picked] = i;
            picked += (c >>> (j & 31)) & 1;
            unscored[w]! |= ((~c >>> (j & 31)) & 1 & (masked ? 1 - dead[lo + j]! : 1)) << (j & 31);
          }
        } else if (joined) {
          picked = 0;
          for (let i = from; i < stop; i++) {
            const j = shift + docs[i]!;
            pick[picked] = i;
            picked += mark[j]! | ((candidate[j >>> 5]! >>> (j & 31)) & 1);
          }
        }
        const all = !restricted && !filter && !joined;
        for (let q = 0; q < picked; q++) {
          const i = all ? from + q : pick[q]!;
          const local = docs[i]!;
          const j = shift + local;
          if (masked && dead[lo + j] === 1) continue;
          const tf = tfs[i]!;
          const x = (boost * tf) / (tf + norm0 + norm1 * lengths[local]!);
          const vs = vseen[j]!;
          if ((vs & ~3) !== vstamped) {
            vseen[j] = vstamped | flag;
            vsum[j] = x;
            vfound[n++] = j;
          } else {
            vsum[j]! += x;
            vseen[j] = vs | flag;
          }
        }
      }
    }
    return n;
  }

  /**
   * Folds the `n` variant sums just gathered into the scores: a document the group reaches for
   * the first time adds its sum; one it reached before adds what the sum scores above the
   * group's best so far. Optional groups never count toward coverage. The group's first variant
   * reaches every document for the first time, and the group's only one need not note what it
   * reached for later variants: the same additions, without the bookkeeping.
   */
  private fold(n: number, stamp: number, optional: boolean, first: boolean, only: boolean): void {
    const block = this.block;
    const { vsum, vseen, vfound, score, cov, seen, best, mark, found, foundBits } = block;
    const stamped = stamp << 2;
    let count = block.foundCount;
    if (first) {
      for (let i = 0; i < n; i++) {
        const j = vfound[i]!;
        const s = vsum[j]!;
        const flags = vseen[j]! & 3;
        if (!only) {
          seen[j] = stamped | flags;
          best[j] = s;
        }
        score[j]! += s;
        if (!optional) {
          const c = cov[j]!;
          if (c === 0) {
            found[count++] = j;
            mark[j] = 1;
            foundBits[j >>> 5]! |= 1 << (j & 31);
          }
          cov[j] = c + 1 + coverageStep(flags);
        }
      }
      block.foundCount = count;
      return;
    }
    for (let i = 0; i < n; i++) {
      const j = vfound[i]!;
      const s = vsum[j]!;
      const flags = vseen[j]! & 3;
      const st = seen[j]!;
      if ((st & ~3) !== stamped) {
        seen[j] = stamped | flags;
        best[j] = s;
        score[j]! += s;
        if (!optional) {
          const c = cov[j]!;
          if (c === 0) {
            found[count++] = j;
            mark[j] = 1;
            foundBits[j >>> 5]! |= 1 << (j & 31);
          }
          cov[j] = c + 1 + coverageStep(flags);
        }
      } else {
        const added = flags & ~st;
        if (added !== 0) {
          seen[j] = st | added;
          if (!optional) cov[j]! += coverageStep(added);
        }
        const b = best[j]!;
        if (s > b) {
          score[j]! += s - b;
          best[j] = s;
        }
      }
    }
    block.foundCount = count;
  }

  private ensureRoom(n: number): void {
    if (n <= this.touched.length) return;
    const size = Math.max(n, this.touched.length * 2);
    const grow = <T extends Int32Array | Float64Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a as never);
      return b;
    };
    this.touched = grow(this.touched, (k) => new Int32Array(k));
    this.scores = grow(this.scores, (k) => new Float64Array(k));
    this.covs = grow(this.covs, (k) => new Uint32Array(k));
  }
}
