/**
 * Whether any paper matches every word of a query, found before the walk. Where none does, the
 * abstracts a common word is left out of count for every paper found ({@link QueryPlan.coverAll}),
 * and the walk must know that from its start: found after it, the query was walked twice (at
 * 1M, the slowest rare-word queries spent half their time in the first walk).
 *
 * Papers matching every word hold the first group (the rarest), so its postings are gone through
 * in order, each paper looked up in the later groups' lists (the rarest first, so most papers
 * miss at the first look), with a galloping cursor per list. It stops at the first paper that
 * matches them all, and gives up after {@link FULL_MATCH_BUDGET} steps: the walk finds out then.
 */
import type { PlannedGroup, PostingCursor } from './queryPlan.js';

/**
 * Steps (postings looked at) after which {@link anyFullMatch} gives up: a tenth of a millisecond
 * or so. A query no paper fully matches mostly has a rare word and is known in a few steps; at
 * 1M, 39 of the scale benchmark's 1,000 queries and titles gave up (3 at 4× the budget, which
 * took 1.4× the time in all).
 */
const FULL_MATCH_BUDGET = 1 << 14;

/**
 * Whether a live document that `admits` lets through holds every one of `groups` (a variant in
 * a field it is scored in, or in a {@link PlannedVariant.covering} list), as the walk would
 * count it; undefined when that takes more than `budget` steps to know.
 * @example anyFullMatch(plan.required, view.dead, admits) // false: walk with plan.coverAll
 */
export function anyFullMatch(groups: readonly PlannedGroup[], dead: Uint8Array, admits: ((d: number) => boolean) | undefined, budget = FULL_MATCH_BUDGET): boolean | undefined {
  if (groups.length === 0) return false;
  const later = groups.slice(1).map(listsOf);
  let steps = 0;
  for (const first of listsOf(groups[0]!)) {
    // Each later list, in the first list's segment, with a cursor that only moves forward.
    const lists = later.map((ls) => ls.filter((l) => l.base === first.base));
    const cursors = lists.map((ls) => ls.map((l) => l.at));
    for (let i = first.at; i < first.end; i++) {
      const local = first.docs[i]!;
      const d = first.base + local;
      let all = dead[d] === 0;
      for (let p = 0; p < lists.length && all; p++) {
        const ls = lists[p]!;
        const at = cursors[p]!;
        all = false;
        for (let k = 0; k < ls.length && !all; k++) {
          const { docs, end } = ls[k]!;
          // Gallop from the cursor to the first posting at or after the document, then bisect.
          let lo = at[k]!;
          if (lo < end && docs[lo]! < local) {
            let step = 1;
            while (lo + step < end && docs[lo + step]! < local) {
              lo += step;
              step *= 2;
              steps++;
            }
            let hi = Math.min(end, lo + step);
            lo++;
            while (lo < hi) {
              const mid = (lo + hi) >>> 1;
              if (docs[mid]! < local) lo = mid + 1;
              else hi = mid;
              steps++;
            }
          }
          at[k] = lo;
          all = lo < end && docs[lo] === local;
          steps++;
        }
      }
      if (all && (!admits || admits(d))) return true;
      if (steps > budget) return undefined;
    }
  }
  return false;
}

/** A group's posting lists: every variant's, in every field it is scored in and those it covers. */
function listsOf(group: PlannedGroup): PostingCursor[] {
  return group.variants.flatMap((v) => [...v.fields.flatMap((f) => f.lists), ...v.covering]);
}
