/**
 * Reading one posting list: where a document is in it, and its term frequency there. Lists are
 * ascending runs of local document numbers (`docs[offsets[t]..offsets[t + 1])`), so both are a
 * binary search.
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
