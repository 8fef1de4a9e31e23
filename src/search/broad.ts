/**
 * Broad queries: the words a researcher types to explore a field ("semantic segmentation",
 * "policy optimization"), which hundreds of papers match about equally. Words alone then open
 * with any short title that repeats them; a paper's standing (standing.ts) has to weigh in. It
 * must not where the words single one paper out (a title, a name, rare words, an author), so a
 * query is broad only when all of these hold ({@link isBroad}):
 *  - many papers match every word ({@link BROAD}.minMatches) and no author is named;
 *  - every word is in the index as typed, none corrected or still being typed;
 *  - the query is a field's name: papers carry it as a phrase inside their titles, not only at
 *    their start ({@link BROAD}.phraseTitles; "face recognition" is in "Deep Face Recognition",
 *    "Development and Control of" opens a few titles and is inside none).
 * Then the candidates (the walk's best by words, the titles the query begins, and the papers of
 * highest standing holding the rarest words, {@link StandingIndex.scan}, which the walk's best
 * few hundred by words may not reach) are ordered by a blend of words and standing
 * ({@link blendOrder}); a title typed whole still comes first, and the "title begins with the
 * query" and "short name" tiers, which such queries begin hundreds of titles with, become a
 * small bonus.
 */
import { tokenize } from '../text.js';
import { inflections, type TermGroup } from './expand.js';
import { Field, type SegmentData } from './index/types.js';
import type { IndexView, Part } from './index/view.js';
import type { Candidate } from './rerank.js';
import { coverageFactor } from './bm25.js';
import { positionOf } from './index/postings.js';
import { paperStanding, UNKNOWN_CITED, type Track } from './standing.js';

/** When a query is broad (see the module's comment). */
export const BROAD = {
  /** Papers matching every word, at least: two pages of results. */
  minMatches: 20,
  /** Candidates' titles holding the query as a phrase after their first word, at least. */
  phraseTitles: 8,
  /** Query words, at most (more is a pasted title or a description). */
  maxWords: 5,
  /** A typed word in fewer papers than this was read as a correction or a completion. */
  rareWord: 10,
  /** The last word is still being typed when a completion of it is this many times commoner. */
  typingRatio: 20,
} as const;

/** How the blend weighs each part, in the units of a natural log of the words' score. */
export const BLEND = {
  /** Standing (log citations per year, or the prior for unknown counts). */
  standing: 1,
  /**
   * For an unknown count: the share of the matching papers that are newer (the field's first
   * papers are among its oldest), times the share of them whose counts are unknown (the less the
   * library knows of counts, the more age says).
   */
  older: 6,
  /** Each query word a paper lacks. */
  missing: 1,
  /** Each of the query's compounds held as typed. */
  compound: 0.3,
  /** The title begins with the query, or its short name is the query. */
  titleTier: 0.5,
  /**
   * Standing counts in full for a paper whose words score at least this share of the best
   * candidate's, and in proportion below: a famous paper that mentions the words in passing
   * ("topic" and "models" in an abstract on adversarial attacks) does not lead a field's query.
   */
  relevant: 0.25,
} as const;

/** Papers of highest standing the scan adds to the candidates, at most. */
export const SCAN_KEEP = 16;
/** Fields the scan reads: a field's word in an author's name is no sign of the field. */
const SCAN_FIELDS = [Field.Title, Field.Keywords, Field.Abstract] as const;

/** What {@link isBroad} decides from. */
export interface BreadthSignals {
  /** Query words (required groups). */
  words: number;
  /** Papers matching every word. */
  fullCount: number;
  /** The words are an author's name. */
  author: boolean;
  /** A word the index holds in fewer than {@link BROAD}.rareWord papers (read as a correction or completion). */
  rare: boolean;
  /** The last word is still being typed. */
  typing: boolean;
  /** Titles holding the query as a phrase after their first word (counted up to {@link BROAD}.phraseTitles). */
  phraseTitles: number;
}

/**
 * Whether a query is broad (see the module's comment).
 * @example isBroad({ words: 2, fullCount: 1603, author: false, rare: false, typing: false, phraseTitles: 8 }) // true
 */
export function isBroad(s: BreadthSignals): boolean {
  return s.words > 0 && s.words <= BROAD.maxWords && s.fullCount >= BROAD.minMatches && !s.author && !s.rare && !s.typing && s.phraseTitles >= BROAD.phraseTitles;
}

/**
 * Whether the words may make a broad query, before titles are read: each required word is in
 * the index as typed in {@link BROAD}.rareWord papers or more, and the last one, when it may be a
 * prefix, is no rarity beside a completion of it.
 */
export function wordSignals(groups: readonly TermGroup[], view: IndexView, lastIsPrefix: boolean): { rare: boolean; typing: boolean } {
  const vocab = view.vocab;
  const required = groups.filter((g) => !g.optional);
  let rare = false;
  for (const group of required) {
    const id = vocab.id(group.word);
    if (id === undefined || vocab.df(id) < BROAD.rareWord) rare = true;
  }
  const last = required[required.length - 1];
  let typing = false;
  if (lastIsPrefix && last && !rare) {
    const own = vocab.df(vocab.id(last.word)!);
    for (const v of last.variants) if (vocab.df(v.term) > own * BROAD.typingRatio) typing = true;
  }
  return { rare, typing };
}

/**
 * Whether `title` holds the query `words` as a phrase after its first word (each word as typed,
 * or its plural or singular).
 * @example phraseInside(['face', 'recognition'], 'Deep Face Recognition') // true
 * @example phraseInside(['face', 'recognition'], 'Face Recognition with Kernels') // false
 */
export function phraseInside(words: readonly string[], title: string): boolean {
  const tokens = tokenize(title);
  const forms = words.map((w) => [w, ...inflections(w)]);
  for (let i = 1; i + words.length <= tokens.length; i++) {
    let k = 0;
    while (k < words.length && forms[k]!.includes(tokens[i + k]!)) k++;
    if (k === words.length) return true;
  }
  return false;
}

/** A candidate of a broad query, with what the blend needs beyond {@link Candidate}. */
export interface BroadCandidate extends Candidate {
  /** The score of its words (BM25F, see bm25.ts), without tiers. */
  base: number;
  /** How its title matched the query, if it did. */
  titleKind: 'exact' | 'name' | 'prefix' | undefined;
}

/**
 * Orders a broad query's candidates: a title typed whole first (its tier), then by the blend of
 * the words' score and standing ({@link BLEND}); ties by newer year, then store document.
 * Returns the best `keep` of them in that order (every one when `keep` is larger). Sets each
 * candidate's `blend`, and clears the tier of name and prefix matches (a bonus instead) from
 * its tier and score. `g` is
 * the number of query words; `standing(doc)` and `known(doc)` come from a {@link StandingIndex}.
 */
export function blendOrder(candidates: BroadCandidate[], g: number, keep: number, standing: (doc: number) => number, known: (doc: number) => boolean): BroadCandidate[] {
  const n = candidates.length;
  const isKnown = new Uint8Array(n);
  let full = 0;
  let unknownFull = 0;
  let best = 0;
  for (let i = 0; i < n; i++) {
    const c = candidates[i]!;
    isKnown[i] = known(c.doc) ? 1 : 0;
    if (c.coverage === g) {
      full++;
      unknownFull += 1 - isKnown[i]!;
    }
    best = Math.max(best, wordsOf(c, g));
  }
  const years = new Float64Array(full);
  for (let i = 0, k = 0; i < n; i++) if (candidates[i]!.coverage === g) years[k++] = candidates[i]!.year;
  years.sort();
  const unknown = full === 0 ? 0 : unknownFull / full;
  const blends = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = candidates[i]!;
    const words = wordsOf(c, g);
    // The share of the papers matching every word that are newer than this one.
    const older = full === 0 ? 0 : (full - upperBound(years, c.year)) / full;
    const tiered = c.titleKind === 'name' || c.titleKind === 'prefix';
    if (c.titleKind !== 'exact') {
      c.tier = 0;
      c.score = c.base;
    }
    const weight = best > 0 ? Math.min(1, words / best / BLEND.relevant) : 1;
    const blend =
      Math.log(Math.max(words, 1e-3)) +
      weight * (BLEND.standing * standing(c.doc) + (isKnown[i] === 1 ? 0 : BLEND.older * unknown * older)) -
      BLEND.missing * (g - c.coverage) +
      BLEND.compound * c.compounds +
      (tiered ? BLEND.titleTier : 0);
    c.blend = blend;
    blends[i] = c.tier > 0 ? Infinity : blend;
  }
  // Only the best `keep` are sorted: those at or above the keep-th best blend (and the exact titles).
  let kept = candidates;
  if (n > keep) {
    const floor = blends.slice().sort()[n - keep]!;
    kept = candidates.filter((_, i) => blends[i]! >= floor);
  }
  kept.sort((a, b) => b.tier - a.tier || b.blend! - a.blend! || b.year - a.year || a.key - b.key);
  return kept.length > keep ? kept.slice(0, keep) : kept;
}

/** How well the words a paper has score, whether or not it has them all (BM25F, see bm25.ts). */
function wordsOf(c: BroadCandidate, g: number): number {
  return c.base / coverageFactor(c.coverage, g);
}

function upperBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The standing from which a paper counts as one of high standing for the scan
 * ({@link StandingIndex.scan}): a known count of 100 citations a year (about the top 3% of papers).
 */
export const ELITE_STANDING = Math.log1p(100);
/** A segment's papers of high standing are walked instead of a word's postings when these are more than this many times as many. */
const ELITE_WALK_COST = 4;

/** Per segment, its documents' standing for the library's newest year, and those of high standing, best first. */
interface StandingTable {
  newestYear: number;
  values: Float32Array;
  elite: Uint32Array;
}

/**
 * Standing by document over an index view, and the scan for the papers of highest standing
 * that hold a query's rarest words. Each segment's standing is computed once (on the first broad
 * query that reaches it) and again only when the library's newest year changes.
 */
export class StandingIndex {
  private readonly tables = new WeakMap<SegmentData, StandingTable>();
  private newest = { docs: -1, live: -1, year: 0 };
  private mark = new Uint32Array(0);
  private stamp = 0;

  constructor(private readonly view: IndexView) {}

  /** The standing of document `g` (see standing.ts). */
  standing(g: number): number {
    const part = this.view.partOf(g);
    return this.tableOf(part).values[g - part.docBase]!;
  }

  /** Whether document `g`'s citation count is known. */
  known(g: number): boolean {
    return this.view.citedBy(g) !== UNKNOWN_CITED;
  }

  /**
   * For the rarest of `groups`' words (and the second rarest when `both`), as typed, in its plural
   * or singular, or as its stem ({@link stems}), up to `keep` live documents of high standing
   * ({@link ELITE_STANDING} or more: a known count of 100 citations a year) that hold it in a
   * title, keywords or abstract and that `skip` does not rule out, the highest first (ties: lower
   * store document): candidates the walk's best by words may have missed. A heap per word, so
   * that the papers holding a common second word do not crowd out those holding the rarest.
   * Each segment is read the cheaper way, with the same answer: a rare word's postings, or its
   * papers of high standing in standing order, looked up in the word's postings until the heap
   * is full of better ones.
   */
  scan(groups: readonly TermGroup[], both: boolean, keep: number, skip: (g: number) => boolean): number[] {
    const view = this.view;
    const dfOf = (group: TermGroup) => group.variants.reduce((n, v) => n + view.df[v.term]!, 0);
    const rarest = groups.filter((group) => !group.optional).sort((a, b) => dfOf(a) - dfOf(b)).slice(0, both ? 2 : 1);
    if (this.mark.length < view.docCount) this.mark = new Uint32Array(Math.ceil(view.docCount * 1.25) + 1024);
    const found: number[] = [];
    for (const group of rarest) {
      this.stamp = (this.stamp + 1) >>> 0 || 1;
      const heap = new StandingHeap(keep);
      const words = [group.word, ...inflections(group.word), ...stems(group.word)].map((w) => view.vocab.id(w) ?? -1);
      for (const part of view.parts) {
        const terms = words.map((w) => termIn(part, w)).filter((t) => t >= 0);
        if (terms.length === 0) continue;
        const table = this.tableOf(part);
        let postings = 0;
        for (const t of terms) for (const f of SCAN_FIELDS) postings += part.data.fields[f]!.offsets[t + 1]! - part.data.fields[f]!.offsets[t]!;
        if (postings <= table.elite.length * ELITE_WALK_COST) this.scanPostings(part, table, terms, heap, skip);
        else this.walkElite(part, table, terms, heap, skip);
      }
      for (const g of heap.docs()) if (!found.includes(g)) found.push(g);
    }
    return found;
  }

  /** The holders of `terms` in a segment, from their postings, offered to `heap`. */
  private scanPostings(part: Part, table: StandingTable, terms: readonly number[], heap: StandingHeap, skip: (g: number) => boolean): void {
    const { mark, stamp } = this;
    const { dead } = this.view;
    const { values } = table;
    const base = part.docBase;
    for (const term of terms) {
      for (const f of SCAN_FIELDS) {
        const { offsets, docs } = part.data.fields[f]!;
        for (let i = offsets[term]!, end = offsets[term + 1]!; i < end; i++) {
          const local = docs[i]!;
          const value = values[local]!;
          if (value < ELITE_STANDING || !heap.wants(value)) continue;
          const g = base + local;
          if (mark[g] === stamp || dead[g] === 1) continue;
          mark[g] = stamp;
          if (!skip(g)) heap.offer(value, part.data.storeDocs[local]!, g);
        }
      }
    }
  }

  /** A segment's papers of high standing, best first, offered to `heap` while they hold one of `terms` and can get in. */
  private walkElite(part: Part, table: StandingTable, terms: readonly number[], heap: StandingHeap, skip: (g: number) => boolean): void {
    const { dead } = this.view;
    const { values, elite } = table;
    const fields = part.data.fields;
    for (const local of elite) {
      const value = values[local]!;
      if (!heap.wants(value)) return;
      const g = part.docBase + local;
      if (dead[g] === 1 || skip(g)) continue;
      const holds = terms.some((t) => SCAN_FIELDS.some((f) => positionOf(fields[f]!.docs, fields[f]!.offsets[t]!, fields[f]!.offsets[t + 1]!, local) >= 0));
      if (holds) heap.offer(value, part.data.storeDocs[local]!, g);
    }
  }

  /**
   * How many of `groups`' required words document `g` holds in any field, as typed (or in a
   * form the query planned) or as the stem of a word in -ing ("caption" for "captioning"): the
   * scorer's coverage leaves out a common word found only in the abstract of a paper that lacks
   * a rarer one, which is what a paper lacking one word is, and the planned forms leave out
   * stems (search does not stem: "Neural Image Caption Generator" is about image captioning).
   */
  wordsHeld(groups: readonly TermGroup[], g: number): number {
    const part = this.view.partOf(g);
    const local = g - part.docBase;
    const holds = (term: number) => {
      const t = termIn(part, term);
      return t >= 0 && part.data.fields.some((f) => positionOf(f.docs, f.offsets[t]!, f.offsets[t + 1]!, local) >= 0);
    };
    let held = 0;
    for (const group of groups) {
      if (group.optional) continue;
      if (group.variants.some((v) => holds(v.term)) || stems(group.word).some((w) => holds(this.view.vocab.id(w) ?? -1))) held++;
    }
    return held;
  }

  private tableOf(part: Part): StandingTable {
    const year = this.newestYear();
    let table = this.tables.get(part.data);
    if (!table || table.newestYear !== year) {
      const { docCount, citedBy, years, track } = part.data;
      const values = new Float32Array(docCount);
      const elite: number[] = [];
      // An unknown count's standing depends on year and track alone: computed once for each pair.
      const priors = new Map<number, number>();
      for (let d = 0; d < docCount; d++) {
        const cited = citedBy[d]!;
        if (cited === UNKNOWN_CITED) {
          const key = years[d]! * 8 + track[d]!;
          let prior = priors.get(key);
          if (prior === undefined) priors.set(key, (prior = paperStanding(cited, years[d]!, track[d] as Track, year)));
          values[d] = prior;
        } else values[d] = paperStanding(cited, years[d]!, track[d] as Track, year);
        if (values[d]! >= ELITE_STANDING) elite.push(d);
      }
      const { storeDocs } = part.data;
      elite.sort((a, b) => values[b]! - values[a]! || storeDocs[a]! - storeDocs[b]!);
      table = { newestYear: year, values, elite: Uint32Array.from(elite) };
      this.tables.set(part.data, table);
    }
    return table;
  }

  /** The newest year of a live paper (what citations per year count up to), read again when the view changed. */
  private newestYear(): number {
    const view = this.view;
    if (this.newest.docs !== view.docCount || this.newest.live !== view.liveCount) {
      let year = 0;
      for (const part of view.parts) {
        const { years, docCount } = part.data;
        for (let d = 0; d < docCount; d++) if (years[d]! > year && view.dead[part.docBase + d] === 0) year = years[d]!;
      }
      this.newest = { docs: view.docCount, live: view.liveCount, year };
    }
    return this.newest.year;
  }
}

/**
 * The stems a word in -ing may have: "captioning" caption, "encoding" encode, "mapping" map.
 * @example stems('captioning') // ['caption', 'captione']
 */
export function stems(word: string): string[] {
  if (word.length < 7 || !word.endsWith('ing')) return [];
  const stem = word.slice(0, -3);
  const out = [stem, `${stem}e`];
  if (stem.length > 3 && stem[stem.length - 1] === stem[stem.length - 2]) out.push(stem.slice(0, -1));
  return out;
}

/** A global term's number in a segment, or -1 (a delta numbers its terms its own way). */
function termIn(part: Part, term: number): number {
  if (term < 0) return -1;
  if (part.localOf) return part.localOf.get(term) ?? -1;
  return term < part.data.docFreq.length ? term : -1;
}

/** The `capacity` best (standing, then lower store document) documents offered. */
class StandingHeap {
  private readonly values: number[] = [];
  private readonly keys: number[] = [];
  private readonly found: number[] = [];

  constructor(private readonly capacity: number) {}

  /** Whether a document of this standing may get in (ties are settled by {@link offer}). */
  wants(value: number): boolean {
    return this.capacity > 0 && (this.found.length < this.capacity || value >= this.values[0]!);
  }

  offer(value: number, key: number, doc: number): void {
    const { values, keys, found } = this;
    if (found.length < this.capacity) {
      values.push(value);
      keys.push(key);
      found.push(doc);
      let i = found.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    if (value < values[0]! || (value === values[0]! && key > keys[0]!)) return;
    values[0] = value;
    keys[0] = key;
    found[0] = doc;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      let worst = i;
      if (l < found.length && this.worse(l, worst)) worst = l;
      if (l + 1 < found.length && this.worse(l + 1, worst)) worst = l + 1;
      if (worst === i) break;
      this.swap(i, worst);
      i = worst;
    }
  }

  /** The documents kept, best first. */
  docs(): number[] {
    return this.found
      .map((doc, i) => ({ doc, value: this.values[i]!, key: this.keys[i]! }))
      .sort((a, b) => b.value - a.value || a.key - b.key)
      .map((x) => x.doc);
  }

  private worse(a: number, b: number): boolean {
    return this.values[a]! < this.values[b]! || (this.values[a] === this.values[b] && this.keys[a]! > this.keys[b]!);
  }

  private swap(a: number, b: number): void {
    for (const list of [this.values, this.keys, this.found]) [list[a], list[b]] = [list[b]!, list[a]!];
  }
}
