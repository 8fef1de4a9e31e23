/**
 * What the library itself says of a paper's standing where its citation count is unknown, for
 * broad queries (`broad.ts`): how often later abstracts name the paper (by the one word before
 * its title's colon, or the acronym of its leading phrase: standing.ts's `paperNames`), and how
 * many papers its most prolific author has in the library. Both are counted over the whole
 * index view, so they are computed apart from the per-segment standing tables, and kept while
 * the library changes by less than {@link SIGNALS_STALE}.
 */
import { authorIdsOf, findKey } from './index/authorTable.js';
import { textAt } from './index/columns.js';
import { Field, type SegmentData } from './index/types.js';
import { readDerived, writeDerived } from './index/derived.js';
import { IndexView, type Part } from './index/view.js';

/**
 * What the library itself says of a paper's standing, for papers whose count is unknown, by
 * document: how often later abstracts name it ({@link mentionStanding}), and the log of the
 * papers its most prolific author has in the library less the library's mean of that.
 */
export interface LibrarySignals {
  named: Float32Array;
  prolific: Float32Array;
}
/** The file beside a snapshot that keeps its base's signals: `<snapshot>.signals`. */
const SIGNALS_FILE = 'signals';

/**
 * Computes a base's signals (the whole library's, as of that base) and keeps them beside its
 * snapshot, for the first broad query after a start ({@link LibrarySignalIndex}): what writes a
 * base calls it. Throws what the write throws.
 * @example keepSignals(openSnapshot(path).segment)
 */
export function keepSignals(segment: SegmentData): void {
  if (readDerived(segment, SIGNALS_FILE)) return;
  const { named, prolific } = new LibrarySignalIndex(new IndexView(segment)).signals();
  writeDerived(segment, SIGNALS_FILE, [named, prolific]);
}

/** A segment's names and authors, by local document (see {@link LibrarySignalIndex}). */
interface SegmentNames {
  /** Two global terms a document, -1 for none. */
  names: Int32Array;
  /** Its authors' places in the view's author numbering ({@link AuthorNumbers}), a document's from `authorStarts[d]` to `authorStarts[d + 1]`. */
  authors: Uint32Array;
  authorStarts: Uint32Array;
}
/** The share of papers added or removed after which {@link LibrarySignals} are computed again. */
const SIGNALS_STALE = 0.01;
/** A word in more papers than this is no paper's name (a name's mentions are counted from its postings). */
const MAX_NAMED = 5000;

/** A name in more abstracts dated before its paper (by two years or more) than this share of those after was a word in use already. */
export const NAMED_BEFORE = 0.1;

/**
 * What being named says of a paper whose count is unknown, from the years of the abstracts
 * and titles that hold one of its names ({@link paperNames}), sorted: `ln(1 + the abstracts of
 * its year or later that name it, its own left out)`; 0 where the name was in use before the
 * paper (a title two years older holds it, or more than {@link NAMED_BEFORE} of the abstracts
 * that hold it are that old: "lead", "etc", "HRL" are words, "FCN" is a paper). "TRPO" (2015),
 * in 15 abstracts from 2015 on and none before: 2.6.
 * @example mentionStanding(2015, Float64Array.of(2015, 2016, 2017), Float64Array.of(2015)) // Math.log(3)
 */
export function mentionStanding(year: number, abstracts: Float64Array, titles: Float64Array, owners = 1): number {
  const before = lowerBound(abstracts, year - 1);
  const after = abstracts.length - lowerBound(abstracts, year);
  if (lowerBound(titles, year - 1) > 0 || before > NAMED_BEFORE * after) return 0;
  return Math.log1p(Math.max(0, after - owners) / owners);
}

function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A 52-bit key of an author's normalized name (two 32-bit FNV-1a hashes, one cut to 20 bits),
 * so that the index holds a document's authors as numbers and counting their papers needs no
 * strings: two of the library's 2 million names share a key with odds of about 1 in 2,000.
 * @example authorKey('ashish vaswani') === authorKey('ashish vaswani') // true
 */
export function authorKey(name: string): number {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
    b ^= b >>> 13;
  }
  return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff);
}

/**
 * The keys of a document's authors (its index column: names joined by `;`), in order; none for
 * an empty or anonymous name. The index keeps them as places in its author table (authorTable.ts).
 * @example authorKeysOf('ada lovelace;anonymous').length // 1
 */
export function authorKeysOf(authors: string): number[] {
  const keys: number[] = [];
  for (const raw of authors.split(';')) {
    const name = raw.trim().toLowerCase();
    if (name !== '' && name !== 'anonymous') keys.push(authorKey(name));
  }
  return keys;
}

/** The library's signals over an index view (see the module's comment). */
export class LibrarySignalIndex {
  private library: { docs: number; live: number; signals: LibrarySignals } = { docs: -1, live: -1, signals: { named: new Float32Array(0), prolific: new Float32Array(0) } };
  private readonly segmentNames = new WeakMap<SegmentData, SegmentNames>();
  private readonly authorNumbers = new AuthorNumbers();

  constructor(private readonly view: IndexView) {}

  /**
   * What the library says of each live document beyond its count (see {@link LibrarySignals}),
   * over the whole view: computed on the first broad query, and again once the view has
   * {@link SIGNALS_STALE} more or fewer papers (papers added since count for nothing until
   * then). Each segment's names and authors are read once.
   */
  signals(): LibrarySignals {
    const view = this.view;
    const last = this.library;
    const drift = Math.max(Math.abs(view.docCount - last.docs), Math.abs(view.liveCount - last.live));
    if (last.docs >= 0 && drift <= SIGNALS_STALE * Math.max(1, last.live)) return last.signals;
    if (last.docs < 0 && this.fromBase()) return this.library.signals;
    const segments = view.parts.map((p) => this.namesOf(p));
    // How many live papers go by each name (an acronym of a field's phrase, "UDA", names many),
    // and how many each author has.
    const owners = new Map<number, number>();
    const papersBy = new Uint32Array(this.authorNumbers.count);
    view.parts.forEach((p, k) => {
      const { names, authors, authorStarts } = segments[k]!;
      for (let d = 0; d < p.data.docCount; d++) {
        if (view.dead[p.docBase + d] === 1) continue;
        for (let i = 2 * d; i < 2 * d + 2; i++) if (names[i]! >= 0) owners.set(names[i]!, (owners.get(names[i]!) ?? 0) + 1);
        for (let i = authorStarts[d]!; i < authorStarts[d + 1]!; i++) papersBy[authors[i]!]!++;
      }
    });
    const years = new Map<number, { abstracts: Float64Array; titles: Float64Array }>();
    const named = new Float32Array(view.docCount);
    const prolific = new Float32Array(view.docCount);
    let sum = 0;
    view.parts.forEach((p, k) => {
      const { names, authors, authorStarts } = segments[k]!;
      for (let d = 0; d < p.data.docCount; d++) {
        const g = p.docBase + d;
        if (view.dead[g] === 1) continue;
        const year = p.data.years[d]!;
        let best = 0;
        for (const term of year > 0 ? [names[2 * d]!, names[2 * d + 1]!] : []) {
          if (term < 0) continue;
          let held = years.get(term);
          if (held === undefined) years.set(term, (held = { abstracts: this.yearsOf(term, Field.Abstract), titles: this.yearsOf(term, Field.Title) }));
          best = Math.max(best, mentionStanding(year, held.abstracts, held.titles, owners.get(term) ?? 1));
        }
        named[g] = best;
        let most = 0;
        for (let i = authorStarts[d]!; i < authorStarts[d + 1]!; i++) most = Math.max(most, papersBy[authors[i]!]!);
        prolific[g] = Math.log1p(most);
        sum += prolific[g]!;
      }
    });
    const mean = sum / Math.max(1, view.liveCount);
    for (let g = 0; g < view.docCount; g++) if (view.dead[g] === 0) prolific[g] = prolific[g]! - mean;
    const signals = { named, prolific };
    this.library = { docs: view.docCount, live: view.liveCount, signals };
    return signals;
  }

  /**
   * The first signals from those kept beside the base's snapshot ({@link keepSignals}), when
   * they are there and the view is the base alone (no delta: what a full build would compute;
   * a start after an import or a merge). A million papers' signals take 1.5 s to compute; read,
   * a few milliseconds.
   */
  private fromBase(): boolean {
    const { view } = this;
    const base = view.base;
    if (view.docCount !== base.docCount || view.liveCount !== base.docCount) return false;
    const arrays = readDerived(base, SIGNALS_FILE);
    if (arrays?.length !== 2 || arrays[0]!.byteLength !== 4 * base.docCount || arrays[1]!.byteLength !== 4 * base.docCount) return false;
    const named = new Float32Array(view.docCount);
    const prolific = new Float32Array(view.docCount);
    named.set(new Float32Array(arrays[0]!));
    prolific.set(new Float32Array(arrays[1]!));
    this.library = { docs: base.docCount, live: base.docCount, signals: { named, prolific } };
    return true;
  }

  /** The years of the live papers holding `term` in `field`, sorted; none for a word too common to be a paper's name. */
  private yearsOf(term: number, field: Field): Float64Array {
    const view = this.view;
    if (view.df[term]! > MAX_NAMED) return Float64Array.of(-Infinity);
    const out: number[] = [];
    for (const p of view.parts) {
      const t = termIn(p, term);
      if (t < 0) continue;
      const { offsets, docs } = p.data.fields[field]!;
      for (let i = offsets[t]!, end = offsets[t + 1]!; i < end; i++) if (view.dead[p.docBase + docs[i]!] === 0) out.push(p.data.years[docs[i]!]!);
    }
    return Float64Array.from(out).sort();
  }

  /**
   * A segment's names (two global terms a document, -1 for none) and author keys, read once
   * from the columns the index computed them into (a name's term may be another segment's).
   */
  private namesOf(part: Part): SegmentNames {
    let cached = this.segmentNames.get(part.data);
    if (cached) return cached;
    const { docCount, names: column } = part.data;
    const names = new Int32Array(2 * docCount).fill(-1);
    const terms = new Map<string, number>();
    for (let d = 0; d < docCount; d++) {
      if (column.offsets[d] === column.offsets[d + 1]) continue;
      textAt(column, d)
        .split(';')
        .forEach((name, i) => {
          let id = terms.get(name);
          if (id === undefined) terms.set(name, (id = this.view.vocab.id(name) ?? -1));
          names[2 * d + i] = id;
        });
    }
    const { ids, starts } = authorIdsOf(part.data.authorIds);
    cached = { names, authors: this.authorNumbers.of(part.data, ids), authorStarts: starts };
    this.segmentNames.set(part.data, cached);
    return cached;
  }
}

/**
 * One numbering of the authors over the view's segments: the first segment's author table
 * numbers its authors (the base: no work at all), and each later segment's authors that are not
 * in it get numbers after it, looked up by key (a delta's few hundred).
 */
class AuthorNumbers {
  private first: Float64Array | undefined;
  private readonly extra = new Map<number, number>();

  get count(): number {
    return (this.first?.length ?? 0) + this.extra.size;
  }

  /** A segment's authors' places in its table (`ids`), as numbers of this numbering. */
  of(segment: SegmentData, ids: Uint32Array): Uint32Array {
    const keys = segment.authorKeys;
    if (this.first === undefined || this.first === keys) {
      this.first = keys;
      return ids;
    }
    const first = this.first;
    const number = new Uint32Array(keys.length);
    keys.forEach((key, l) => {
      let n = findKey(first, key);
      if (n < 0) {
        n = this.extra.get(key) ?? first.length + this.extra.size;
        this.extra.set(key, n);
      }
      number[l] = n;
    });
    return ids.map((l) => number[l]!);
  }
}

/** A global term's number in a segment, or -1 (a delta numbers its terms its own way). */
export function termIn(part: Part, term: number): number {
  if (term < 0) return -1;
  if (part.localOf) return part.localOf.get(term) ?? -1;
  return term < part.data.docFreq.length ? term : -1;
}
