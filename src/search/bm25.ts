/**
 * BM25F, the engine's relevance score, in one place: a word's rarity ({@link idf}), each field's
 * weight and length normalization ({@link fieldConstants}), and how a document's sum becomes the
 * value results are ranked by ({@link baseScore}). Query planning (queryPlan.ts) turns these
 * into per-list constants; the scorer and the pruner only add them up.
 *
 * A posting of term t with frequency tf in field f of a document whose field is `length` words
 * long adds `boost·tf / (tf + norm0 + norm1·length)`, with `boost = weight·idf(t)·FIELD_BOOST[f]·(K1 + 1)`.
 */
import type { Field } from './index/types.js';

/** Field weights, in {@link Field} order: title, authors, keywords, abstract, first author. */
export const FIELD_BOOST = [3.0, 2.5, 1.5, 1.0, 5.0] as const;
/** How much a field's length lowers a match's weight (0: not at all). */
const FIELD_B = [0.5, 0.3, 0.5, 0.75, 0] as const;
/** How quickly repeats of a word in one field stop adding. */
const K1 = 1.2;
/** Score factor when every query word is in the title. */
export const ALL_IN_TITLE_BONUS = 1.5;

/** A field's BM25F constants for one weighted term (see the module's comment). */
export interface FieldConstants {
  boost: number;
  norm0: number;
  norm1: number;
}

/**
 * Inverse document frequency, as the scorer computes it.
 * @example idf(10, 100_000) // ≈ 9.2
 */
export function idf(df: number, docCount: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/**
 * The constants a term of weight `weightedIdf` (its variant weight times its {@link idf}) is
 * scored with in field `f`, whose documents are `avgLength` words long on average.
 * @example fieldConstants(Field.Title, 2, 10) // { boost: 13.2, norm0: 0.6, norm1: 0.06 }
 */
export function fieldConstants(f: Field, weightedIdf: number, avgLength: number): FieldConstants {
  const b = FIELD_B[f]!;
  return { boost: weightedIdf * FIELD_BOOST[f]! * (K1 + 1), norm0: K1 * (1 - b), norm1: (K1 * b) / avgLength };
}

/**
 * A document's relevance before exactness tiers: its BM25F sum scaled by the cube of the share
 * of query words it matches, ×1.5 when all of them are in its title.
 * @example baseScore(10, 2, 2, 2) // 15
 */
export function baseScore(score: number, coverage: number, titleCoverage: number, groups: number): number {
  let s = score * coverageFactor(coverage, groups);
  if (titleCoverage === groups) s *= ALL_IN_TITLE_BONUS;
  return s;
}

/** The cube of the share of query words matched (1 for one-word queries). */
export function coverageFactor(matched: number, total: number): number {
  if (total <= 1) return 1;
  const share = matched / total;
  return share * share * share;
}
