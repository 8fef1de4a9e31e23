/**
 * The hot loop of search: BM25F over typed-array postings into dense per-document accumulators.
 * A query is a list of groups (one per query word); a group is a list of variants (the word
 * itself, its plural, prefix completions, typo corrections) each with a weight. A document's
 * group score is its best variant's score, so a word counts once however many forms it matched.
 */
import { FIELD_COUNT, Field } from './index/types.js';
import type { IndexView, Part } from './index/view.js';
import { idf } from './plan.js';

export interface Variant {
  term: number;
  /** 1 for the word as typed; less for plurals, completions and typo corrections. */
  weight: number;
}

export interface TermGroup {
  /** The query word (folded) this group stands for. */
  word: string;
  variants: Variant[];
  /** Restrict matching to these fields (author: filters); all fields when absent. */
  fields?: readonly Field[];
  /** Adds to the score of documents other groups matched, without counting toward coverage. */
  optional?: boolean;
}

/** Field weights and BM25 length normalization per field. */
export const FIELD_BOOST = [3.0, 2.5, 1.5, 1.0, 5.0] as const;
const FIELD_B = [0.5, 0.3, 0.5, 0.75, 0] as const;
const K1 = 1.2;

export const TITLE_FLAG = 1;
export const AUTHOR_FLAG = 2;
const TOUCHED_FLAG = 4;
/** Words typed (separated by spaces, as in a pasted title) from which a query counts as long. */
const LONG_QUERY_WORDS = 7;
/** Share of all papers above which a word counts as common. */
const COMMON_WORD_SHARE = 0.05;
const FIELD_FLAG = [TITLE_FLAG, AUTHOR_FLAG, 0, 0, AUTHOR_FLAG] as const;
const ALL_FIELDS: readonly Field[] = [Field.Title, Field.Authors, Field.Keywords, Field.Abstract, Field.FirstAuthor];
const FIELDS_WITHOUT_ABSTRACT: readonly Field[] = [Field.Title, Field.Authors, Field.Keywords, Field.FirstAuthor];

/**
 * Dense accumulators sized to the index, reused across queries (search is synchronous, so one
 * set serves every caller). After {@link score}, `touched[0..touchedCount)` lists the documents
 * that matched any group, with their summed score, group coverage and per-field coverage.
 */
export class Scorer {
  score!: Float32Array;
  coverage!: Uint8Array;
  titleCoverage!: Uint8Array;
  authorCoverage!: Uint8Array;
  touched!: Int32Array;
  touchedCount = 0;

  private groupScore!: Float32Array;
  private groupFlags!: Uint8Array;
  private groupTouched!: Int32Array;
  private variantScore!: Float32Array;
  private variantFlags!: Uint8Array;
  private variantTouched!: Int32Array;
  private capacity = -1;

  constructor(private readonly view: IndexView) {
    this.ensureCapacity();
  }

  /** Grows the accumulators when the view has gained documents (they are all zero between queries). */
  ensureCapacity(): void {
    const needed = this.view.docCount;
    if (needed <= this.capacity) return;
    const n = this.capacity < 0 ? needed : Math.ceil(needed * 1.25) + 1024;
    this.capacity = n;
    this.touchedCount = 0;
    this.score = new Float32Array(n);
    this.coverage = new Uint8Array(n);
    this.titleCoverage = new Uint8Array(n);
    this.authorCoverage = new Uint8Array(n);
    this.touched = new Int32Array(n);
    this.groupScore = new Float32Array(n);
    this.groupFlags = new Uint8Array(n);
    this.groupTouched = new Int32Array(n);
    this.variantScore = new Float32Array(n);
    this.variantFlags = new Uint8Array(n);
    this.variantTouched = new Int32Array(n);
  }

  /** Inverse document frequency of a term over the whole index. */
  idf(term: number): number {
    return idf(this.view.df[term]!, this.view.liveCount);
  }

  /** Clears the accumulators of the previous query. */
  reset(): void {
    for (let i = 0; i < this.touchedCount; i++) {
      const d = this.touched[i]!;
      this.score[d] = 0;
      this.coverage[d] = 0;
      this.titleCoverage[d] = 0;
      this.authorCoverage[d] = 0;
    }
    this.touchedCount = 0;
  }

  /** Scores every group into the accumulators. Call {@link reset} first. */
  scoreGroups(groups: readonly TermGroup[], options: { typedWords?: number } = {}): void {
    // In a long query (a pasted title), words in a good share of all abstracts decide nothing
    // there: they are scored in titles, keywords and authors only, which saves most of the work.
    const long = (options.typedWords ?? 0) >= LONG_QUERY_WORDS;
    const commonDf = long ? this.view.liveCount * COMMON_WORD_SHARE : Infinity;
    for (const group of groups) if (!group.optional) this.scoreGroup(group, commonDf);
    for (const group of groups) if (group.optional) this.scoreGroup(group, commonDf);
  }

  private scoreGroup(group: TermGroup, commonDf: number): void {
    const { groupScore, groupFlags, groupTouched, variantScore, variantFlags, variantTouched } = this;
    const fieldsOf = (v: Variant) =>
      group.fields ?? (this.view.df[v.term]! > commonDf ? FIELDS_WITHOUT_ABSTRACT : ALL_FIELDS);
    if (group.variants.length === 0) return;
    let groupCount = 0;
    {
      // The first variant's scores go straight into the group's; later ones are kept where better.
      const first = group.variants[0]!;
      groupCount = this.accumulate(first, fieldsOf(first), groupScore, groupFlags, groupTouched, 0);
      for (let k = 1; k < group.variants.length; k++) {
        const variant = group.variants[k]!;
        const variantCount = this.accumulate(variant, fieldsOf(variant), variantScore, variantFlags, variantTouched, 0);
        for (let i = 0; i < variantCount; i++) {
          const d = variantTouched[i]!;
          if (groupFlags[d] === 0) groupTouched[groupCount++] = d;
          if (variantScore[d]! > groupScore[d]!) groupScore[d] = variantScore[d]!;
          groupFlags[d]! |= variantFlags[d]!;
          variantScore[d] = 0;
          variantFlags[d] = 0;
        }
      }
    }
    const { score, coverage, titleCoverage, authorCoverage, touched } = this;
    const optional = group.optional === true;
    for (let i = 0; i < groupCount; i++) {
      const d = groupTouched[i]!;
      if (optional) {
        if (coverage[d] !== 0) score[d]! += groupScore[d]!;
      } else {
        if (coverage[d] === 0) touched[this.touchedCount++] = d;
        score[d]! += groupScore[d]!;
        coverage[d]!++;
        const flags = groupFlags[d]!;
        if (flags & TITLE_FLAG) titleCoverage[d]!++;
        if (flags & AUTHOR_FLAG) authorCoverage[d]!++;
      }
      groupScore[d] = 0;
      groupFlags[d] = 0;
    }
  }

  /** Adds a variant's BM25F scores into `scores`; `flags` marks touched documents (bit 4) and fields. */
  private accumulate(
    variant: Variant,
    fields: readonly Field[],
    scores: Float32Array,
    flags: Uint8Array,
    touched: Int32Array,
    count: number,
  ): number {
    const weight = variant.weight * this.idf(variant.term);
    const dead = this.view.dead;
    for (const f of fields) {
      const boost = weight * FIELD_BOOST[f]! * (K1 + 1);
      const b = FIELD_B[f]!;
      const norm0 = K1 * (1 - b);
      const norm1 = (K1 * b) / this.view.avgLength(f);
      const flag = FIELD_FLAG[f]! | TOUCHED_FLAG;
      for (const part of this.view.parts) {
        const local = localTerm(part, variant.term);
        if (local < 0) continue;
        const { offsets, docs, tfs, lengths } = part.data.fields[f]!;
        const base = part.docBase;
        const masked = part.deadCount > 0;
        const end = offsets[local + 1]!;
        for (let i = offsets[local]!; i < end; i++) {
          const d = base + docs[i]!;
          if (masked && dead[d] === 1) continue;
          const tf = tfs[i]!;
          if (flags[d] === 0) touched[count++] = d;
          scores[d]! += (boost * tf) / (tf + norm0 + norm1 * lengths[d - base]!);
          flags[d]! |= flag;
        }
      }
    }
    return count;
  }
}

/** A global term's id within a segment, or -1 if the segment lacks it. */
export function localTerm(part: Part, term: number): number {
  if (part.localOf) return part.localOf.get(term) ?? -1;
  return term < part.data.docFreq.length ? term : -1;
}

/**
 * Calls `fn` with the global number of every live document that holds `term` in field `f`,
 * segment by segment (ascending within each, and segments in order, so ascending overall).
 */
export function forEachPosting(view: IndexView, f: Field, term: number, fn: (g: number) => void): void {
  const dead = view.dead;
  for (const part of view.parts) {
    const local = localTerm(part, term);
    if (local < 0) continue;
    const { offsets, docs } = part.data.fields[f]!;
    for (let i = offsets[local]!; i < offsets[local + 1]!; i++) {
      const g = part.docBase + docs[i]!;
      if (dead[g] === 0) fn(g);
    }
  }
}

export { FIELD_COUNT };
