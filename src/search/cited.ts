/**
 * Orders and checks by citation count (`sort:cited`, `cited:`), over the index's per-document
 * counts (`IndexView.citedBy`, {@link UNKNOWN_CITED} where OpenAlex has given none).
 *
 * A paper whose count is unknown is never taken for one cited zero times: `cited:` ranges hold
 * only papers with a known count, and `sort:cited` lists the unknown after every known count,
 * best match first among them.
 */
import type { CountRange } from './query.js';
import type { IndexView } from './index/view.js';
import { MAX_CITED_BY } from '../store/citations.js';
import { UNKNOWN_CITED } from './standing.js';
import { TopK } from './topk.js';

interface Ranked {
  doc: number;
  score: number;
}

/**
 * Whether document `d`'s count lies in `range` (a known count only).
 * @example citedCheck(view, { from: 101 })(d) // true for a paper cited 150 times
 */
export function citedCheck(view: IndexView, range: CountRange): (d: number) => boolean {
  const from = range.from ?? 0;
  const to = range.to ?? MAX_CITED_BY;
  return (d) => {
    const count = view.citedBy(d);
    return count !== UNKNOWN_CITED && count >= from && count <= to;
  };
}

/**
 * `list` most cited first; unknown counts last; ties by score, then store order.
 * @example mostCitedFirst(view, ranked)[0] // the most cited of the ranked papers
 */
export function mostCitedFirst<T extends Ranked>(view: IndexView, list: readonly T[]): T[] {
  const n = list.length;
  // Unknown (0xffffffff) sorts as -1: after a count of zero.
  const count = new Float64Array(n);
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = view.citedBy(list[i]!.doc);
    count[i] = c === UNKNOWN_CITED ? -1 : c;
    key[i] = view.storeDoc(list[i]!.doc);
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => count[b]! - count[a]! || list[b]!.score - list[a]!.score || key[a]! - key[b]!);
  return order.map((i) => list[i]!);
}

/**
 * The `keep` most cited of `docs` (unknown counts last, then store order), best first; a
 * selection, not a sort, so a filter that passes most of a million papers stays quick.
 * @example mostCitedOf(view, [3, 9, 4], 2) // the two most cited of the three
 */
export function mostCitedOf(view: IndexView, docs: Iterable<number>, keep: number): Ranked[] {
  const top = new TopK(keep, (d) => view.storeDoc(d));
  for (const d of docs) {
    const c = view.citedBy(d);
    top.offer(c === UNKNOWN_CITED ? -1 : c, d);
  }
  return top.sorted().map(({ doc }) => ({ doc, score: 0 }));
}

const known = new WeakMap<object, boolean>();

/**
 * Whether any live paper of the index has a known count (read once per segment): a `cited:`
 * query that finds nothing in a library without counts says why.
 */
export function hasCitationCounts(view: IndexView): boolean {
  for (const part of view.parts) {
    let any = known.get(part.data);
    if (any === undefined) {
      any = part.data.citedBy.some((c) => c !== UNKNOWN_CITED);
      known.set(part.data, any);
    }
    if (any) return true;
  }
  return false;
}
