/**
 * A segment's authors as numbers, for the library's signals (librarySignals.ts): the sorted
 * distinct keys of its documents' authors (`authorKey`, 52 bits of a normalized name) and, per
 * document, each author's place in that table, so that counting an author's papers is an
 * increment in an array, not a string looked up (4M authors at 1M papers). A build makes the
 * table from its documents; a merge from its live documents', the same table a build gives.
 */
import type { Documents, MergeInput } from './mergePlan.js';
import type { TextColumn } from './types.js';

/** The sorted distinct keys of `keys` and each key's place in them. */
export function authorTable(keys: Float64Array): { table: Float64Array; ids: Uint32Array } {
  const table = uniqueSorted(Float64Array.from(keys).sort());
  const ids = new Uint32Array(keys.length);
  for (let i = 0; i < keys.length; i++) ids[i] = findKey(table, keys[i]!);
  return { table, ids };
}

/** A document's authors' places in its segment's table (4 bytes each, as the index stores them). */
export function authorIdsOf(column: TextColumn): { ids: Uint32Array; starts: Uint32Array } {
  const { bytes, offsets } = column;
  // Mapped sections start on 8 bytes, as does a built column: a view, else a copy.
  const ids = bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2) : new Uint32Array(bytes.slice().buffer);
  const starts = new Uint32Array(offsets.length);
  for (let d = 0; d < offsets.length; d++) starts[d] = offsets[d]! >>> 2;
  return { ids, starts };
}

/**
 * The merged segment's author table (the keys of the live documents' authors, sorted) and, per
 * input, each of its table's places in it (-1 for a key only dead documents held).
 */
export function mergeAuthors(inputs: readonly MergeInput[], docs: Documents): { table: Float64Array; remap: Int32Array[] } {
  const used = inputs.map((inp) => new Uint8Array(inp.segment.authorKeys.length));
  const columns = inputs.map((inp) => authorIdsOf(inp.segment.authorIds));
  const all: number[] = [];
  for (let n = 0; n < docs.count; n++) {
    const i = docs.inputOf[n]!;
    const { ids, starts } = columns[i]!;
    const d = docs.localOf[n]!;
    for (let s = starts[d]!; s < starts[d + 1]!; s++) {
      if (used[i]![ids[s]!] === 1) continue;
      used[i]![ids[s]!] = 1;
      all.push(inputs[i]!.segment.authorKeys[ids[s]!]!);
    }
  }
  const table = uniqueSorted(Float64Array.from(all).sort());
  const remap = inputs.map((inp, i) => {
    const keys = inp.segment.authorKeys;
    const out = new Int32Array(keys.length).fill(-1);
    for (let l = 0; l < keys.length; l++) if (used[i]![l] === 1) out[l] = findKey(table, keys[l]!);
    return out;
  });
  return { table, remap };
}

/** Where `key` is in the sorted `table`, or -1. */
export function findKey(table: Float64Array, key: number): number {
  let lo = 0;
  let hi = table.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (table[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < table.length && table[lo] === key ? lo : -1;
}

function uniqueSorted(sorted: Float64Array): Float64Array {
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i]!;
  return sorted.slice(0, n);
}
