/**
 * What the library itself says of a paper's standing where its citation count is unknown, for
 * broad queries (`broad.ts`): how often later abstracts name the paper (by the one word before
 * its title's colon, or the acronym of its leading phrase: standing.ts's `paperNames`), and how
 * many papers its most prolific author has in the library. Both are counted over the whole
 * index view, so they are computed apart from the per-segment standing tables, and kept while
 * the library changes by less than {@link SIGNALS_STALE}.
 */
import { Field, type SegmentData } from './index/types.js';
import type { IndexView, Part } from './index/view.js';
import { paperNames } from './standing.js';

/**
 * What the library itself says of a paper's standing, for papers whose count is unknown, by
 * document: how often later abstracts name it ({@link mentionStanding}), and the log of the
 * papers its most prolific author has in the library less the library's mean of that.
 */
export interface LibrarySignals {
  named: Float32Array;
  prolific: Float32Array;
}
/** A segment's names and authors, by local document (see {@link LibrarySignalIndex}). */
interface SegmentNames {
  names: Int32Array;
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

/** The library's signals over an index view (see the module's comment). */
export class LibrarySignalIndex {
  private library: { docs: number; live: number; signals: LibrarySignals } = { docs: -1, live: -1, signals: { named: new Float32Array(0), prolific: new Float32Array(0) } };
  private readonly segmentNames = new WeakMap<SegmentData, SegmentNames>();
  private readonly authorIds = new Map<string, number>();

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
    const segments = view.parts.map((p) => this.namesOf(p));
    // How many live papers go by each name (an acronym of a field's phrase, "UDA", names many),
    // and how many each author has.
    const owners = new Map<number, number>();
    const papersBy = new Uint32Array(this.authorIds.size);
    view.parts.forEach((p, k) => {
      const { names, authors, authorStarts } = segments[k]!;
      for (let d = 0; d < p.data.docCount; d++) {
        if (view.dead[p.docBase + d] === 1) continue;
        for (const term of [names[2 * d]!, names[2 * d + 1]!]) if (term >= 0) owners.set(term, (owners.get(term) ?? 0) + 1);
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

  /** A segment's names (two global terms a document, -1 for none) and authors (interned), read once. */
  private namesOf(part: Part): SegmentNames {
    let cached = this.segmentNames.get(part.data);
    if (cached) return cached;
    const view = this.view;
    const { docCount } = part.data;
    const names = new Int32Array(2 * docCount).fill(-1);
    const authorStarts = new Uint32Array(docCount + 1);
    const authors: number[] = [];
    for (let d = 0; d < docCount; d++) {
      const g = part.docBase + d;
      paperNames(view.title(g))
        .slice(0, 2)
        .forEach((name, i) => (names[2 * d + i] = view.vocab.id(name) ?? -1));
      for (const raw of view.authors(g).split(';')) {
        const name = raw.trim().toLowerCase();
        if (name === '' || name === 'anonymous') continue;
        let id = this.authorIds.get(name);
        if (id === undefined) this.authorIds.set(name, (id = this.authorIds.size));
        authors.push(id);
      }
      authorStarts[d + 1] = authors.length;
    }
    cached = { names, authors: Uint32Array.from(authors), authorStarts };
    this.segmentNames.set(part.data, cached);
    return cached;
  }
}

/** A global term's number in a segment, or -1 (a delta numbers its terms its own way). */
export function termIn(part: Part, term: number): number {
  if (term < 0) return -1;
  if (part.localOf) return part.localOf.get(term) ?? -1;
  return term < part.data.docFreq.length ? term : -1;
}
