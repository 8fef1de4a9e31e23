/**
 * The hot loop of search: BM25F over typed-array postings into dense per-document accumulators.
 * A query is a list of groups (one per query word); a group is a list of variants (the word
 * itself, its plural, prefix completions, typo corrections) each with a weight. A document's
 * group score is its best variant's score, so a word counts once however many forms it matched.
 */
import { FIELD_COUNT, Field, type IndexData } from './index/types.js';
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
  readonly score: Float32Array;
  readonly coverage: Uint8Array;
  readonly titleCoverage: Uint8Array;
  readonly authorCoverage: Uint8Array;
  readonly touched: Int32Array;
  touchedCount = 0;

  private readonly groupScore: Float32Array;
  private readonly groupFlags: Uint8Array;
  private readonly groupTouched: Int32Array;
  private readonly variantScore: Float32Array;
  private readonly variantFlags: Uint8Array;
  private readonly variantTouched: Int32Array;

  constructor(private readonly data: IndexData) {
    const n = data.docCount;
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
    return idf(this.data.docFreq[term]!, this.data.docCount);
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
    const commonDf = long ? this.data.docCount * COMMON_WORD_SHARE : Infinity;
    for (const group of groups) if (!group.optional) this.scoreGroup(group, commonDf);
    for (const group of groups) if (group.optional) this.scoreGroup(group, commonDf);
  }

  private scoreGroup(group: TermGroup, commonDf: number): void {
    const { groupScore, groupFlags, groupTouched, variantScore, variantFlags, variantTouched } = this;
    const fieldsOf = (v: Variant) =>
      group.fields ?? (this.data.docFreq[v.term]! > commonDf ? FIELDS_WITHOUT_ABSTRACT : ALL_FIELDS);
    let groupCount = 0;
    if (group.variants.length === 1) {
      // One variant: its scores are the group's.
      const variant = group.variants[0]!;
      groupCount = this.accumulate(variant, fieldsOf(variant), groupScore, groupFlags, groupTouched, 0);
    } else {
      for (const variant of group.variants) {
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
    for (const f of fields) {
      const { offsets, docs, tfs, lengths, avgLength } = this.data.fields[f]!;
      const boost = weight * FIELD_BOOST[f]! * (K1 + 1);
      const b = FIELD_B[f]!;
      const norm0 = K1 * (1 - b);
      const norm1 = (K1 * b) / avgLength;
      const flag = FIELD_FLAG[f]! | TOUCHED_FLAG;
      const end = offsets[variant.term + 1]!;
      for (let i = offsets[variant.term]!; i < end; i++) {
        const d = docs[i]!;
        const tf = tfs[i]!;
        if (flags[d] === 0) touched[count++] = d;
        scores[d]! += (boost * tf) / (tf + norm0 + norm1 * lengths[d]!);
        flags[d]! |= flag;
      }
    }
    return count;
  }
}

/** Documents that contain `term` in field `f`, ascending. */
export function postings(data: IndexData, f: Field, term: number): Uint32Array {
  const p = data.fields[f]!;
  return p.docs.subarray(p.offsets[term]!, p.offsets[term + 1]!);
}

export { FIELD_COUNT };
