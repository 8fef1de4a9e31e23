/**
 * Reading one posting list: where a document is in it, its term frequency there, and where the
 * documents below a number end in it. Lists are ascending runs of local document numbers
 * (`docs[offsets[t]..offsets[t + 1])`), so each is a binary search.
 */

/**
 * The position of `doc` in ascending `docs[from..to)`, or -1.
 * @example positionOf(Uint32Array.of(2, 5, 9), 0, 3, 5) // 1
 */
export function positionOf(docs: Uint32Array, from: number, to: number, doc: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo < to && docs[lo] === doc ? lo : -1;
}

/**
 * Term `term`'s frequency in document `doc` of one field's postings, or 0.
 * @example tfOf(field.offsets, field.docs, field.tfs, localTerm, localDoc)
 */
export function tfOf(offsets: Uint32Array, docs: Uint32Array, tfs: Uint8Array, term: number, doc: number): number {
  const i = positionOf(docs, offsets[term]!, offsets[term + 1]!, doc);
  return i < 0 ? 0 : tfs[i]!;
}

/**
 * Where the run of ascending `docs[at..end)` below `limit` ends: the first position from `at`
 * whose document is `limit` or more (or `end`). Gallops, then bisects, so a block's part of a
 * long list is found in a few steps.
 * @example postingsBefore(Uint32Array.of(2, 5, 9, 12), 1, 4, 10) // 3
 */
export function postingsBefore(docs: Uint32Array, at: number, end: number, limit: number): number {
  let i = at;
  if (i >= end || docs[i]! >= limit) return i;
  let step = 1;
  while (i + step < end && docs[i + step]! < limit) {
    i += step;
    step *= 2;
  }
  let lo = i + 1;
  let hi = Math.min(end, i + step);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
