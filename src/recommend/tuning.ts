/**
 * The recommender's constants, in one place so that the evaluation can try others
 * (`npm run eval -- --recommend`); docs/design.md says how they were chosen.
 */
import { Field } from '../search/index/types.js';

export interface RecommendTuning {
  /** BM25 saturation and length normalization, for seeds and candidates alike. */
  k1: number;
  b: number;
  /** Weight of a word by the field it is in (indexed by `Field`). */
  fieldBoost: readonly number[];
  /** Exponent on the share of seeds that have a word: above 1 favours what they share. */
  spread: number;
  /** The same for author keywords, and their weight against the rest of the words. */
  keywordSpread: number;
  keywordBoost: number;
  /** Words in more than this share of the library are left out. */
  maxDfShare: number;
  /** Words and authors the profile keeps, most telling first. */
  profileTerms: number;
  profileAuthors: number;
  /** Weight of an author shared with the seeds (times the share of seeds that list them, to the power `authorSpread`). */
  authorBoost: number;
  authorSpread: number;
  /**
   * Seeds an author must be on to count fully (on fewer, in proportion; on one, not at all: a
   * paper's co-authors are not the group, and a name on one paper is often someone else's).
   */
  authorSureAt: number;
  /** Weight of the venue (times the share of seeds from it). */
  venueBoost: number;
  /**
   * How far a paper like the disliked ones goes down: its likeness to them (scored as a
   * recommendation of theirs, best of the candidates 1) times this, off its score.
   */
  dislikePenalty: number;
  /** Candidates beyond those asked for that the dislikes may reorder. */
  dislikePool: number;
}

export const DEFAULT_TUNING: RecommendTuning = {
  k1: 1.2,
  b: 0.75,
  fieldBoost: fieldBoosts({ [Field.Title]: 2, [Field.Keywords]: 1, [Field.Abstract]: 1 }),
  spread: 1,
  keywordSpread: 2,
  keywordBoost: 5,
  maxDfShare: 0.05,
  profileTerms: 60,
  profileAuthors: 40,
  authorBoost: 1,
  authorSpread: 2,
  authorSureAt: 3,
  venueBoost: 0.1,
  dislikePenalty: 0.6,
  dislikePool: 200,
};

function fieldBoosts(by: Partial<Record<Field, number>>): number[] {
  return [Field.Title, Field.Authors, Field.Keywords, Field.Abstract, Field.FirstAuthor].map((f) => by[f] ?? 0);
}
