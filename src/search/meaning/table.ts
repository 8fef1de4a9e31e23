/**
 * The association table of an index base (associations.ts), learned from the base's own title
 * and abstract postings, and kept beside its snapshot in `<snapshot>.meaning` so that a start
 * reads it instead of learning it again. The file names the snapshot it was learned from (its
 * generation, size and section checksums): a table that does not fit is learned again and
 * rewritten. New papers need no table of their own: the table maps words to words, and a delta's
 * papers are scored through their own postings (docs/design.md, "Meaning").
 */
import { readDerived, writeDerived } from '../index/derived.js';
import { Field, type SegmentData } from '../index/types.js';
import { buildAssociations, type AssociationSource, type AssociationTable } from './associations.js';

/** The file beside the snapshot: `<snapshot>.meaning`. */
const FILE = 'meaning';
/**
 * A word in more than this share of the papers (and more than {@link COMMON_FLOOR} of them)
 * teaches nothing about a description, and costs the most to learn.
 */
const COMMON_SHARE = 0.1;
const COMMON_FLOOR = 1000;
/** Papers a library needs before its co-occurrences teach anything: a smaller one gets an empty table. */
export const MIN_LIBRARY = 1000;

const tables = new WeakMap<SegmentData, AssociationTable>();

/**
 * The table of a base: read from beside its snapshot when it was learned from it, else learned
 * (2–3 s at 95k papers) and written there for the next start. A file that cannot be written
 * (a read-only library) is reported to `onUnsaved` and the table kept in memory.
 * @example tableFor(view.base).start.length === view.base.docFreq.length + 1
 */
export function tableFor(segment: SegmentData, onUnsaved?: (error: unknown) => void): AssociationTable {
  let table = tables.get(segment);
  if (table) return table;
  table = readTable(segment);
  if (!table) {
    table = associationsOf(segment);
    try {
      writeDerived(segment, FILE, [table.start, table.associates, table.weights]);
    } catch (error) {
      onUnsaved?.(error);
    }
  }
  tables.set(segment, table);
  return table;
}

/** The table kept beside the segment's snapshot, when there is one for this snapshot. */
export function readTable(segment: SegmentData): AssociationTable | undefined {
  const arrays = readDerived(segment, FILE);
  if (arrays?.length !== 3) return undefined;
  const [start, associates, weights] = [new Uint32Array(arrays[0]!), new Uint32Array(arrays[1]!), new Float32Array(arrays[2]!)];
  if (start.length !== segment.docFreq.length + 1 || associates.length !== weights.length || start[start.length - 1] !== associates.length) return undefined;
  return { start, associates, weights };
}

/**
 * Learns a segment's table from its title and abstract postings.
 * @example associationsOf(segment).start.length === segment.docFreq.length + 1
 */
export function associationsOf(segment: SegmentData, { minLibrary = MIN_LIBRARY }: { minLibrary?: number } = {}): AssociationTable {
  if (segment.docCount < minLibrary) return { start: new Uint32Array(segment.docFreq.length + 1), associates: new Uint32Array(0), weights: new Float32Array(0) };
  const title = segment.fields[Field.Title]!;
  const abstract = segment.fields[Field.Abstract]!;
  const termCount = segment.docFreq.length;
  // The titles' terms by document: the title postings turned around.
  const titleStart = new Uint32Array(segment.docCount + 1);
  for (let p = 0; p < title.docs.length; p++) titleStart[title.docs[p]! + 1]!++;
  for (let d = 0; d < segment.docCount; d++) titleStart[d + 1]! += titleStart[d]!;
  const titleTerms = new Uint32Array(title.docs.length);
  const fill = titleStart.slice(0, -1);
  for (let t = 0; t < termCount; t++) {
    for (let p = title.offsets[t]!; p < title.offsets[t + 1]!; p++) titleTerms[fill[title.docs[p]!]!++] = t;
  }
  const common = Math.max(COMMON_FLOOR, segment.docCount * COMMON_SHARE);
  const source: AssociationSource = {
    docCount: segment.docCount,
    termCount,
    df: (t) => (segment.docFreq[t]! > common ? 0 : segment.docFreq[t]!),
    titleDf: (t) => title.offsets[t + 1]! - title.offsets[t]!,
    papersWith: (t) => union(title.docs, title.offsets[t]!, title.offsets[t + 1]!, abstract.docs, abstract.offsets[t]!, abstract.offsets[t + 1]!),
    titleTerms: (d) => titleTerms.subarray(titleStart[d]!, titleStart[d + 1]!),
  };
  return buildAssociations(source);
}

/** The documents of two ascending runs, each once, ascending. */
function* union(a: Uint32Array, ai: number, aEnd: number, b: Uint32Array, bi: number, bEnd: number): Generator<number> {
  while (ai < aEnd || bi < bEnd) {
    if (bi >= bEnd || (ai < aEnd && a[ai]! < b[bi]!)) yield a[ai++]!;
    else if (ai >= aEnd || b[bi]! < a[ai]!) yield b[bi++]!;
    else {
      yield a[ai++]!;
      bi++;
    }
  }
}
