/**
 * A query's groups as the scorer walks them: each variant with the fields it is scored in and
 * their BM25F constants and posting lists, an upper bound on what it can add to a document's
 * score (for pruning), and the order of the walk: groups from the fewest documents to the most
 * (the common words' long lists last, where pruning can skip them); within a group, the variants
 * that weigh most first (the long tail of completions last).
 *
 * A document's score is summed in float64 in exactly this order: each variant's fields are
 * summed in field order; the first variant of a group to reach the document adds its sum, a
 * later one what it scores above the group's best so far. The order depends only on global statistics (document
 * frequencies, never on how the index is split into segments), and {@link QueryPlan.evaluate}
 * repeats the same additions for one document, so every path gives bit-identical scores.
 * Coverage counts the groups a document holds: in a field a group is scored in, or, for a
 * document that has every group walked before (any a group walked before reached, with
 * {@link QueryPlan.coverAll}), in the abstract a common word is left out of (its
 * {@link PlannedVariant.covering} lists). Documents are chosen, and pruned, by
 * {@link QueryPlan.rankValue}: more words matched first, then the score.
 */
import { entryBytes } from './index/columns.js';
import { tfOf } from './index/postings.js';
import { Field, type FieldPostings } from './index/types.js';
import type { IndexView, Part } from './index/view.js';
import { ALL_IN_TITLE_BONUS, FIELD_BOOST, baseScore, fieldConstants, idf } from './bm25.js';
import type { TermGroup } from './expand.js';

export const TITLE_FLAG = 1;
export const AUTHOR_FLAG = 2;
const FIELD_FLAG = [TITLE_FLAG, AUTHOR_FLAG, 0, 0, AUTHOR_FLAG] as const;
/** Packed coverage: groups matched (bits 0–7), in the title (8–15), in an author field (16–23). */
export const coverageOf = (cov: number): number => cov & 0xff;
export const titleCoverageOf = (cov: number): number => (cov >>> 8) & 0xff;
export const authorCoverageOf = (cov: number): number => (cov >>> 16) & 0xff;
/** What a group adds to the packed coverage, given its field flags (title 1, author 2). */
export const coverageStep = (flags: number): number => ((flags & TITLE_FLAG) << 8) | ((flags & AUTHOR_FLAG) << 15);

/**
 * When a query's common words are not scored in abstracts: from `words` query words (required
 * groups: stopwords and `author:` names aside), a word in more than `share` of all papers; in a
 * pasted title (`pastedWords` words typed, stopwords included), one in more than `pastedShare`.
 */
export const COMMON_IN_ABSTRACTS = { words: 3, share: 0.05, pastedWords: 7, pastedShare: 0.01 } as const;
const ALL_FIELDS: readonly Field[] = [Field.Title, Field.Authors, Field.Keywords, Field.Abstract, Field.FirstAuthor];
const FIELDS_WITHOUT_ABSTRACT: readonly Field[] = [Field.Title, Field.Authors, Field.Keywords, Field.FirstAuthor];
/** Float32 sums may round a hair above the real sum a bound is computed for. */
const BOUND_SLACK = 1 + 1e-5;
/** Lists up to this long get their bound from their postings at each query; longer ones once ({@link longListImpact}). */
const EXACT_BOUND_POSTINGS = 512;

export interface PlannedField {
  f: Field;
  /** BM25F constants: a posting adds boost·tf / (tf + norm0 + norm1·length). */
  boost: number;
  norm0: number;
  norm1: number;
  /** The field's flag: title 1, author 2, else 0. */
  flag: number;
  /** The term's posting lists in this field, one per segment that has it. */
  lists: PostingCursor[];
  /** More than a posting of these lists scores. */
  bound: number;
}

/** A posting list being walked in order of document (global numbers: `base` + local). */
export interface PostingCursor {
  docs: Uint32Array;
  tfs: Uint8Array;
  lengths: Uint16Array;
  base: number;
  /** Whether the segment has masked documents (to skip). */
  masked: boolean;
  /** The next posting, and the list's end. */
  at: number;
  end: number;
}

export interface PlannedVariant {
  term: number;
  /** What orders the walk: the variant's weight times the boosts of its fields (no segment in it). */
  key: number;
  fields: PlannedField[];
  /** More than the variant can add to any document's group score. */
  bound: number;
  /** Postings of its lists, over all segments. */
  postings: number;
  /**
   * Its abstract lists when the word is left out of abstracts as common (else empty): they
   * score nothing, but a document the query found otherwise that holds the word only there
   * has the word all the same, and counts it toward its coverage. Only a document that has
   * every word walked before, unless the plan covers all ({@link QueryPlan.coverAll}): the
   * others match some of the words, and are no answer while a paper matches them all.
   */
  covering: PostingCursor[];
}

export interface PlannedGroup {
  /** The one with the most documents first, then by weight. */
  variants: PlannedVariant[];
  /** More than the group can add to any document's score. */
  bound: number;
  /** Whether a variant has {@link PlannedVariant.covering} lists (the word is left out of abstracts). */
  covering: boolean;
  /** Whether the group is a compound's joined form. */
  compound: boolean;
}

export class QueryPlan {
  /** Required groups in walk order; the first is the one with the fewest documents. */
  readonly required: PlannedGroup[] = [];
  readonly optional: PlannedGroup[] = [];
  /** More than the optional groups together can add to a document's score. */
  readonly optionalBound: number;
  /** Whether some word was left out of abstracts as common. */
  readonly abstractsLeftOut: boolean;
  /** Whether a required group has {@link PlannedVariant.covering} lists. */
  readonly covering: boolean;
  private byField: Float64Array | undefined;
  /** Per walk position: sums of the m largest bounds of the groups from there on, by m. */
  private readonly boundSums: number[][] = [];
  /** Every variant, group after group (required, then optional): a variant's number is its place here. */
  private readonly variants: PlannedVariant[];
  private readonly partTerms = new Map<Part, { locals: Int32Array; refs: Int32Array }>();
  /** Per variant: 1 if the document being evaluated holds its term. */
  private readonly variantFlagsOf: Uint8Array;
  /** {@link classOffset} by words matched. */
  private readonly offsets: Float64Array;

  /**
   * `coverAll`: the abstracts a common word is left out of count for every document a group
   * walked before reached; otherwise only for those that have every word walked before (the
   * ones that may have them all: see {@link PlannedVariant.covering}). It may be set until the
   * walk starts.
   */
  constructor(
    private readonly view: IndexView,
    groups: readonly TermGroup[],
    typedWords: number,
    public coverAll = false,
  ) {
    // In a query of several words, one in a good share of all abstracts decides nothing there
    // (the papers that matter have the other words too, mostly in their titles): it is scored in
    // titles, keywords and authors only, which saves most of the work. Its abstracts still say
    // whether a paper found otherwise has the word (coverage), without a score: a paper has the
    // words it has, the parts of a compound too. A query of one or two words (however many
    // stopwords or repeats beside them) keeps its abstracts, and so does one whose caller passes
    // no typed words. Never left out: a rare word, and the group walked first (the rarest),
    // through which every paper matching all the words is found.
    const rule = COMMON_IN_ABSTRACTS;
    const words = groups.filter((g) => !g.optional && !g.fields).length;
    const share = typedWords === 0 || words < rule.words ? 1 : typedWords >= rule.pastedWords ? rule.pastedShare : rule.share;
    const commonDf = share < 1 ? view.liveCount * share : Infinity;
    const groupDf = (group: TermGroup) => group.variants.reduce((n, v) => n + view.df[v.term]!, 0);
    let first = -1;
    groups.forEach((group, index) => {
      if (!group.optional && (first < 0 || groupDf(group) < groupDf(groups[first]!))) first = index;
    });
    const required: Array<{ group: PlannedGroup; df: number; index: number }> = [];
    let leftOut = false;
    groups.forEach((group, index) => {
      // (Optional groups only add to the papers found: their lists are read for those alone.)
      const keeps = index === first || group.optional === true;
      const variants = group.variants.map((v) => {
        const common = !group.fields && !keeps && view.df[v.term]! > commonDf;
        leftOut ||= common;
        return this.planVariant(v.term, v.weight, group.fields ?? (common ? FIELDS_WITHOUT_ABSTRACT : ALL_FIELDS), common);
      });
      // The variant with the most documents first (its postings add straight into the scores,
      // the cheapest way), then those that weigh most: the long tail of completions may then
      // be pruned. Ties go by the term's text, never by ids that depend on segments.
      const words = variants.map((v) => view.vocab.term(v.term));
      const byText = (a: number, b: number) => (words[a]! < words[b]! ? -1 : words[a]! > words[b]! ? 1 : 0);
      const dfOf = (i: number) => view.df[variants[i]!.term]!;
      const order = variants.map((_, i) => i).sort((a, b) => dfOf(b) - dfOf(a) || byText(a, b));
      const rest = order.slice(1).sort((a, b) => variants[b]!.key - variants[a]!.key || byText(a, b));
      const sorted = [order[0]!, ...rest].filter((i) => i !== undefined).map((i) => variants[i]!);
      const planned = { variants: sorted, bound: sorted.reduce((max, v) => Math.max(max, v.bound), 0), covering: sorted.some((v) => v.covering.length > 0), compound: group.compound === true };
      if (group.optional) this.optional.push(planned);
      else required.push({ group: planned, df: groupDf(group), index });
    });
    // The group with the fewest documents is walked first and whole: every document matching
    // all groups holds it. Rarer words weigh more, so the bounds mostly fall along the walk.
    required.sort((a, b) => a.df - b.df || a.index - b.index);
    this.required.push(...required.map((r) => r.group));
    this.optionalBound = this.optional.reduce((sum, g) => sum + g.bound, 0);
    this.abstractsLeftOut = leftOut;
    this.covering = this.required.some((group) => group.covering);
    this.variants = [...this.required, ...this.optional].flatMap((g) => g.variants);
    this.variantFlagsOf = new Uint8Array(this.variants.length);
    // No document's base score reaches the span: every group's bound and the bonus, doubled.
    const span = 2 * ALL_IN_TITLE_BONUS * this.required.reduce((sum, g) => sum + g.bound, this.optionalBound) + 1;
    this.offsets = Float64Array.from({ length: this.required.length + 1 }, (_, c) => c * span);
  }

  /**
   * What ranks a document among those matching `coverage` of the query's words: more than any
   * document matching fewer can reach ({@link rankValue}), so that papers matching every word
   * come before those matching some, whatever their scores.
   */
  classOffset(coverage: number): number {
    return this.offsets[coverage]!;
  }

  /**
   * The value the best documents are chosen by (and pruning bounds): {@link baseScore} plus the
   * {@link classOffset} of the words matched.
   * @example plan.rankValue(scorer.scores[i], scorer.covs[i])
   */
  rankValue(score: number, cov: number): number {
    const c = coverageOf(cov);
    return baseScore(score, c, titleCoverageOf(cov), this.required.length) + this.offsets[c]!;
  }

  private planVariant(term: number, weight: number, fields: readonly Field[], covering: boolean): PlannedVariant {
    const view = this.view;
    const w = weight * idf(view.df[term]!, view.liveCount);
    const planned: PlannedField[] = [];
    let bound = 0;
    let postings = 0;
    for (const f of fields) {
      const { boost, norm0, norm1 } = fieldConstants(f, w, view.avgLength(f));
      const pf: PlannedField = { f, boost, norm0, norm1, flag: FIELD_FLAG[f]!, lists: [], bound: 0 };
      planned.push(pf);
      let n = 0;
      let best = 0;
      for (const part of view.parts) {
        const local = localTerm(part, term);
        if (local < 0) continue;
        const { offsets, tfs, docs, lengths } = part.data.fields[f]!;
        const from = offsets[local]!;
        const to = offsets[local + 1]!;
        if (to === from) continue;
        pf.lists.push({ docs, tfs, lengths, base: part.docBase, masked: part.deadCount > 0, at: from, end: to });
        n += to - from;
        if (to - from > EXACT_BOUND_POSTINGS) {
          best = Math.max(best, boost * longListImpact(part.data.fields[f]!, local, pf.norm0, pf.norm1));
          continue;
        }
        // A short list: its best posting.
        for (let i = from; i < to; i++) best = Math.max(best, (boost * tfs[i]!) / (tfs[i]! + pf.norm0 + pf.norm1 * lengths[docs[i]!]!));
      }
      bound += best;
      pf.bound = best * BOUND_SLACK;
      postings += n;
    }
    const key = planned.reduce((sum, pf) => sum + pf.boost, 0);
    return { term, key, fields: planned, bound: bound * BOUND_SLACK, postings, covering: covering ? this.listsOf(term, Field.Abstract) : [] };
  }

  /** A term's posting lists in field `f`, one per segment that has it. */
  private listsOf(term: number, f: Field): PostingCursor[] {
    const lists: PostingCursor[] = [];
    for (const part of this.view.parts) {
      const local = localTerm(part, term);
      if (local < 0) continue;
      const { offsets, tfs, docs, lengths } = part.data.fields[f]!;
      const from = offsets[local]!;
      const to = offsets[local + 1]!;
      if (to > from) lists.push({ docs, tfs, lengths, base: part.docBase, masked: part.deadCount > 0, at: from, end: to });
    }
    return lists;
  }

  /**
   * More than a document can reach ({@link rankValue}) if it matches none of the variants
   * walked before variant `k` of required group `position` (not the first group: so it matches
   * fewer than all groups, and gets no all-in-title bonus).
   */
  boundFrom(position: number, k: number): number {
    const bounds = [maxBound(this.required[position]!.variants, k)];
    for (let j = position + 1; j < this.required.length; j++) bounds.push(this.required[j]!.bound);
    bounds.sort((a, b) => b - a);
    const sums = [0];
    for (const b of bounds) sums.push(sums[sums.length - 1]! + b);
    return this.reach(0, 0, sums);
  }

  /**
   * More than a document can reach ({@link rankValue}) that has `score` from `matched` groups, fewer than the
   * `position` walked so far, and may still match any of the groups from `position` on.
   */
  boundWith(score: number, matched: number, position: number): number {
    return this.reach(score, matched, this.sumsFrom(position));
  }

  /**
   * {@link boundWith} for one `position`, by `matched` (below `position`), as a table: the bound
   * is `(score + added[matched] + optional) · factors[matched] + offsets[matched]`, the same
   * additions in the same order, so a loop over many documents gets bit-identical bounds without
   * recomputing the rest.
   */
  boundTable(position: number): { added: Float64Array; optional: number; factors: Float64Array; offsets: Float64Array } {
    const sums = this.sumsFrom(position);
    const added = new Float64Array(position);
    const factors = new Float64Array(position);
    const offsets = new Float64Array(position);
    for (let matched = 0; matched < position; matched++) {
      const m = Math.min(sums.length - 1, this.required.length - 1 - matched);
      // m < 0 cannot happen below `position` (< the number of groups); 0 there is reach's answer.
      added[matched] = m < 0 ? 0 : sums[m]!;
      factors[matched] = m < 0 ? 0 : factor(matched + m, this.required.length);
      offsets[matched] = m < 0 ? 0 : this.offsets[matched + m]!;
    }
    return { added, optional: this.optionalBound, factors, offsets };
  }

  private sumsFrom(position: number): number[] {
    let sums = this.boundSums[position];
    if (!sums) {
      const bounds = this.required.slice(position).map((g) => g.bound).sort((a, b) => b - a);
      sums = [0];
      for (const b of bounds) sums.push(sums[sums.length - 1]! + b);
      this.boundSums[position] = sums;
    }
    return sums;
  }

  /**
   * The most a document can reach ({@link rankValue}) with `score` from `matched` groups and m
   * more groups (never all of them): (score + the m largest bounds) × coverage factor + the
   * class offset, all growing with m. `sums[m]` is the sum of the m largest bounds.
   */
  private reach(score: number, matched: number, sums: readonly number[]): number {
    const m = Math.min(sums.length - 1, this.required.length - 1 - matched);
    // Optional groups add to the sum before the coverage factor, like the rest.
    return m < 0 ? 0 : (score + sums[m]! + this.optionalBound) * factor(matched + m, this.required.length) + this.offsets[matched + m]!;
  }

  /**
   * Per field: more than all groups (required and optional) together can add to a document's
   * score from that field alone, each group by its variant that scores most there.
   */
  get fieldBounds(): Float64Array {
    if (!this.byField) {
      const sums = new Float64Array(FIELD_BOOST.length);
      for (const group of [...this.required, ...this.optional]) {
        const most = new Float64Array(FIELD_BOOST.length);
        for (const variant of group.variants) for (const pf of variant.fields) most[pf.f] = Math.max(most[pf.f]!, pf.bound);
        for (let f = 0; f < sums.length; f++) sums[f]! += most[f]!;
      }
      this.byField = sums;
    }
    return this.byField;
  }

  /** Per field: more than required group `position` can add to a document's score from that field, by its variant that scores most there. */
  fieldBoundsOf(position: number): Float64Array {
    const bounds = new Float64Array(FIELD_BOOST.length);
    for (const variant of this.required[position]!.variants) for (const pf of variant.fields) bounds[pf.f] = Math.max(bounds[pf.f]!, pf.bound);
    return bounds;
  }

  /** Postings of variant `k` of required group `position`. */
  postingsOf(position: number, k: number): number {
    return this.required[position]!.variants[k]!.postings;
  }

  /**
   * The exact score and packed coverage document `d` gets from the walk (see the file's
   * comment), computed from its forward index and a binary search in the few lists that hold it.
   */
  evaluate(d: number): { score: number; cov: number } {
    const part = this.view.partOf(d);
    const local = d - part.docBase;
    const { locals, refs } = this.termsOf(part);
    const hit = this.variantFlagsOf;
    hit.fill(0);
    // The document's distinct terms (ascending LEB128 deltas) against the query's (ascending).
    const bytes = entryBytes(part.data.forward, local);
    let at = 0;
    const end = bytes.length;
    let term = 0;
    let q = 0;
    while (at < end && q < locals.length) {
      let byte = bytes[at++]!;
      let value = byte & 0x7f;
      for (let shift = 7; byte & 0x80 && at < end; shift += 7) {
        byte = bytes[at++]!;
        value += (byte & 0x7f) * (1 << shift);
      }
      term += value;
      while (q < locals.length && locals[q]! < term) q++;
      while (q < locals.length && locals[q] === term) hit[refs[q++]!] = 1;
    }
    const state = { score: 0, cov: 0 };
    let ref = 0;
    this.required.forEach((group, position) => (ref = this.replay(group, position, ref, part, local, state, false)));
    for (const group of this.optional) ref = this.replay(group, -1, ref, part, local, state, true);
    return state;
  }

  /**
   * How many of the query's compounds document `d` holds as written (their joined forms, in any
   * field the group is scored in).
   */
  compoundsHeld(d: number): number {
    const part = this.view.partOf(d);
    const local = d - part.docBase;
    let held = 0;
    for (const group of this.optional) {
      if (!group.compound) continue;
      const holds = group.variants.some((v) => {
        const term = localTerm(part, v.term);
        return term >= 0 && v.fields.some((pf) => {
          const fp = part.data.fields[pf.f]!;
          return tfOf(fp.offsets, fp.docs, fp.tfs, term, local) > 0;
        });
      });
      if (holds) held++;
    }
    return held;
  }

  /** Repeats, for one document, the additions the walk makes for one group (required at `position`). */
  private replay(group: PlannedGroup, position: number, ref: number, part: Part, local: number, state: { score: number; cov: number }, optional: boolean): number {
    if (optional && (state.cov & 0xff) === 0) return ref + group.variants.length;
    let reached = false;
    let best = 0;
    let groupFlags = 0;
    for (let k = 0; k < group.variants.length; k++, ref++) {
      if (this.variantFlagsOf[ref] === 0) continue;
      const variant = group.variants[k]!;
      let sum = 0;
      let flags = 0;
      let any = false;
      for (const pf of variant.fields) {
        const fp = part.data.fields[pf.f]!;
        const term = localTerm(part, variant.term);
        const tf = tfOf(fp.offsets, fp.docs, fp.tfs, term, local);
        if (tf === 0) continue;
        sum += (pf.boost * tf) / (tf + pf.norm0 + pf.norm1 * fp.lengths[local]!);
        flags |= pf.flag;
        any = true;
      }
      if (!any) continue;
      if (!reached) {
        state.score += sum;
        best = sum;
        reached = true;
      } else if (sum > best) {
        state.score += sum - best;
        best = sum;
      }
      groupFlags |= flags;
    }
    if (reached && !optional) state.cov += 1 + coverageStep(groupFlags);
    else if (!reached && group.covering && this.covered(state.cov & 0xff, position) && this.covers(group, ref - group.variants.length, part, local)) state.cov += 1;
    return ref;
  }

  /**
   * Whether a document that matched `matched` of the groups walked before required group
   * `position` is one its {@link PlannedVariant.covering} lists count for.
   */
  covered(matched: number, position: number): boolean {
    return this.coverAll ? matched > 0 : matched === position;
  }

  /** Whether the document holds a variant of `group` (the first numbered `ref`) in one of its {@link PlannedVariant.covering} lists. */
  private covers(group: PlannedGroup, ref: number, part: Part, local: number): boolean {
    const fp = part.data.fields[Field.Abstract]!;
    for (let k = 0; k < group.variants.length; k++, ref++) {
      const variant = group.variants[k]!;
      if (this.variantFlagsOf[ref] === 0 || variant.covering.length === 0) continue;
      if (tfOf(fp.offsets, fp.docs, fp.tfs, localTerm(part, variant.term), local) > 0) return true;
    }
    return false;
  }

  /** The query's variants a segment holds, by the segment's own term id, ascending. */
  private termsOf(part: Part): { locals: Int32Array; refs: Int32Array } {
    let found = this.partTerms.get(part);
    if (!found) {
      const pairs: Array<[number, number]> = [];
      this.variants.forEach((v, ref) => {
        const local = localTerm(part, v.term);
        if (local >= 0) pairs.push([local, ref]);
      });
      pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      found = { locals: Int32Array.from(pairs, (p) => p[0]), refs: Int32Array.from(pairs, (p) => p[1]) };
      this.partTerms.set(part, found);
    }
    return found;
  }
}

/** Per field of a segment: a long list's best tf / (tf + norm0 + norm1·length), with the norm1 it was found with. */
const impacts = new WeakMap<FieldPostings, Map<number, { impact: number; norm1: number }>>();

/**
 * More than any posting of local term `term`'s list in `postings` scores per unit of boost:
 * the list's best tf / (tf + norm0 + norm1·length), found once with one pass over the list and
 * kept (a common word's list is read by most queries that have it). The mean field length, and
 * so norm1, moves as documents come and go: a value found with a larger norm1 scales up by the
 * ratio (with norm1 r times smaller, each denominator is at least r times as large).
 */
function longListImpact(postings: FieldPostings, term: number, norm0: number, norm1: number): number {
  let byTerm = impacts.get(postings);
  if (!byTerm) impacts.set(postings, (byTerm = new Map()));
  let known = byTerm.get(term);
  if (!known) {
    const { offsets, docs, tfs, lengths } = postings;
    let impact = 0;
    for (let i = offsets[term]!, to = offsets[term + 1]!; i < to; i++) {
      const tf = tfs[i]!;
      const x = tf / (tf + norm0 + norm1 * lengths[docs[i]!]!);
      if (x > impact) impact = x;
    }
    known = { impact, norm1 };
    byTerm.set(term, known);
  }
  // norm1 is 0 in a field without length normalization.
  return norm1 >= known.norm1 ? known.impact : Math.min(1, (known.impact * known.norm1) / norm1);
}

/** A global term's id within a segment, or -1 if the segment lacks it. */
export function localTerm(part: Part, term: number): number {
  if (part.localOf) return part.localOf.get(term) ?? -1;
  return term < part.data.docFreq.length ? term : -1;
}

function factor(matched: number, total: number): number {
  if (total <= 1) return 1;
  const share = matched / total;
  return share * share * share;
}

function maxBound(variants: readonly PlannedVariant[], from: number): number {
  let max = 0;
  for (let k = from; k < variants.length; k++) if (variants[k]!.bound > max) max = variants[k]!.bound;
  return max;
}
