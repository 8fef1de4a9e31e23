/**
 * The order of a search's best candidates (the walk's best few hundred by score, and the title
 * matches pulled in), from the strongest kind of match to the weakest:
 *  1. exactness: the query is the title, its short name, its start, or an author's name (tiers,
 *     with their typos and the share of the title covered);
 *  2. the query's words matched, all of them before some of them;
 *  3. the query's hyphenated compounds held as typed ("role-playing", not "role" and "playing" apart);
 *  4. all the words in the title;
 *  5. a paper of its own: a withdrawn or anonymous record goes after the papers that match alike;
 *  6. the score (BM25F scaled by the share of words matched, see bm25.ts);
 * then newer year, then the store's document number, so that the order never depends on
 * iteration order or on how the index is split into segments.
 */

import { standingOf } from '../papers/model.js';

/** A candidate with what orders it. */
export interface Candidate {
  doc: number;
  /** The exactness tier's points (0 for none; see engine.ts). */
  tier: number;
  /** Query words matched. */
  coverage: number;
  /** 1 if all of them are in the title. */
  inTitle: number;
  /** The query's compounds it holds as typed. */
  compounds: number;
  /** 1 for a paper of its own, 0 for a withdrawn or anonymous record (standing 0, {@link recordStanding}). */
  record: number;
  /** The score, with the tier's points: what a hit shows. */
  score: number;
  year: number;
  /** The store's document number. */
  key: number;
  /** For a broad query, what orders it instead of the above (see broad.ts). */
  blend?: number;
}

/**
 * Compares two candidates, the better first (for `Array.prototype.sort`).
 * @example candidates.sort(byRank)
 */
export function byRank(a: Candidate, b: Candidate): number {
  return (
    b.tier - a.tier ||
    b.coverage - a.coverage ||
    b.compounds - a.compounds ||
    b.inTitle - a.inTitle ||
    b.record - a.record ||
    b.score - a.score ||
    b.year - a.year ||
    a.key - b.key
  );
}

/**
 * The least {@link recordStanding} of a paper that is neither rejected, withdrawn nor still
 * undecided: what recommendations keep unless asked for the rest.
 */
export const STANDING_RECEIVED = 2;

/**
 * How a venue received a paper, as the index keeps it (its `standing`; newest-first lists order
 * by it too): 0 for a record that is no paper of its own (withdrawn, desk-rejected, or with
 * every author "Anonymous", as submissions under review and many withdrawn ones are listed), 1
 * rejected or not decided yet, 2 accepted, 3 distinguished (an oral, a spotlight, an award):
 * {@link standingOf}, with its 0 split in two.
 * @example recordStanding('Withdrawn', ['Jane Doe']) // 0
 * @example recordStanding('Poster', ['Anonymous']) // 0
 * @example recordStanding('Rejected', ['Jane Doe']) // 1
 */
export function recordStanding(status: string, authors: readonly string[]): number {
  if (authors.length > 0 && authors.every((name) => name.trim().toLowerCase() === 'anonymous')) return 0;
  const standing = standingOf(status);
  if (standing > 0) return standing + 1;
  return /withdraw|desk/i.test(status) ? 0 : 1;
}
