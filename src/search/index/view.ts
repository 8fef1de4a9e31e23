/**
 * The index as the engine sees it: a base segment and delta segments searched as one. Global
 * document numbers run through the segments in order; older versions of papers that a newer
 * segment holds again (or that the store deleted) are masked. Document frequencies and field
 * lengths are kept over the live documents only, so that scores are exactly those of a full
 * rebuild, and every tie breaks on the store's document number.
 *
 * A view changes only in {@link IndexView.apply}, which is synchronous: a query sees it before or
 * after, never half way.
 */
import { NO_TERM, TrieBuilder, Vocabulary, buildTermTrie, trieFind, type TermTrie, type VocabularyParts } from '../vocab.js';
import { bytesAt, compareEntry, entryRun, forEachForward, startsWithAt, textAt } from './columns.js';
import { FIELD_COUNT, type SegmentData } from './types.js';

/** A segment in the view. */
export interface Part {
  data: SegmentData;
  /** Global number of the segment's document 0. */
  docBase: number;
  /** For deltas: local term id → global id. The base's ids are global. */
  globalOf?: Uint32Array;
  /** For deltas: global term id → local id. */
  localOf?: Map<number, number>;
  /** How many of its documents are masked. */
  deadCount: number;
}

const EMPTY_TRIE: TermTrie = new TrieBuilder().finish();

export class IndexView {
  readonly parts: Part[];
  /** Per global document: 1 if masked. */
  dead: Uint8Array;
  /** Documents in all segments, masked ones included (the global numbering's extent). */
  docCount: number;
  /** Documents that are live: what a full rebuild would hold. */
  liveCount: number;
  /** Per field, the summed lengths of live documents. */
  readonly lengthSums: number[];
  /** Documents per global term id, over live documents. */
  df: Uint32Array;
  /** Store generation the view reflects. */
  generation: number;
  readonly vocab: Vocabulary;
  private readonly baseTermCount: number;
  private extras: VocabularyParts['extras'] = { terms: [], ids: new Uint32Array(0), trie: EMPTY_TRIE, byWord: new Map() };
  /** Words were added since {@link extras} was built: rebuilt when next asked for, not at every delta. */
  private extrasStale = false;
  private readonly extraByWord = new Map<string, number>();
  private readonly extraById: string[] = [];
  private readonly topicDocs = new Map<number, Int32Array>();
  private firstSeenOrder: { docs: Int32Array; times: Float64Array } | undefined;
  private readonly newestRanks = new WeakMap<SegmentData, Int32Array>();

  constructor(readonly base: SegmentData) {
    this.parts = [{ data: base, docBase: 0, deadCount: 0 }];
    this.docCount = base.docCount;
    this.liveCount = base.docCount;
    this.dead = new Uint8Array(base.docCount + 1024);
    this.lengthSums = base.fields.map((f) => f.lengthSum);
    this.baseTermCount = base.docFreq.length;
    this.df = new Uint32Array(this.baseTermCount + 1024);
    this.df.set(base.docFreq);
    this.generation = base.generation;
    const view = this; // eslint-disable-line @typescript-eslint/no-this-alias
    this.vocab = new Vocabulary({
      base: { trie: base.trie, termCount: this.baseTermCount },
      get extras() {
        return view.currentExtras();
      },
      get df() {
        return view.df;
      },
      termString: (id) => view.termString(id),
    });
  }

  get taxonomyHash(): string {
    return this.base.taxonomyHash;
  }

  get topics(): string[] {
    return this.base.topics;
  }

  get topicWords(): number {
    return this.base.topicWords;
  }

  /** Documents in delta segments (live or not): what a merge would fold into the base. */
  get deltaDocs(): number {
    return this.docCount - this.base.docCount;
  }

  /** Masked documents in the base. */
  get baseMasked(): number {
    return this.parts[0]!.deadCount;
  }

  /** Average length of a field over live documents. */
  avgLength(field: number): number {
    return this.liveCount > 0 ? Math.max(1, this.lengthSums[field]! / this.liveCount) : 1;
  }

  /**
   * Adds a delta segment (the store's rows changed since the view's generation) and masks what
   * it replaces, along with the store documents deleted since.
   */
  apply(delta: SegmentData, deletedStoreDocs: readonly number[] = []): void {
    for (let i = 0; i < delta.docCount; i++) this.maskStoreDoc(delta.storeDocs[i]!);
    for (const storeDoc of deletedStoreDocs) this.maskStoreDoc(storeDoc);
    if (delta.docCount > 0) {
      const termCount = delta.docFreq.length;
      const globalOf = new Uint32Array(termCount);
      const localOf = new Map<number, number>();
      let added = false;
      for (let t = 0; t < termCount; t++) {
        const word = textAt(delta.terms, t);
        const node = trieFind(this.base.trie, word);
        let g = node < 0 ? NO_TERM : this.base.trie.term[node]!;
        if (g === NO_TERM) {
          g = this.extraByWord.get(word) ?? NO_TERM;
          if (g === NO_TERM) {
            g = this.baseTermCount + this.extraById.length;
            this.extraByWord.set(word, g);
            this.extraById.push(word);
            added = true;
          }
        }
        globalOf[t] = g;
        localOf.set(g, t);
      }
      if (added) this.addedWords();
      for (let t = 0; t < termCount; t++) this.df[globalOf[t]!]! += delta.docFreq[t]!;
      for (let f = 0; f < FIELD_COUNT; f++) this.lengthSums[f]! += delta.fields[f]!.lengthSum;
      this.parts.push({ data: delta, docBase: this.docCount, globalOf, localOf, deadCount: 0 });
      this.docCount += delta.docCount;
      this.liveCount += delta.docCount;
      if (this.dead.length < this.docCount) {
        const bigger = new Uint8Array(Math.ceil(this.docCount * 1.25) + 1024);
        bigger.set(this.dead);
        this.dead = bigger;
      }
    }
    this.generation = Math.max(this.generation, delta.generation);
    this.topicDocs.clear();
    this.firstSeenOrder = undefined;
  }

  /**
   * The live documents of these store documents, ascending: the papers of a reading list, to
   * search within them. Store documents the view does not hold (yet) are left out.
   * @example view.liveDocsOf([17, 3]) // Int32Array [2, 15]
   */
  liveDocsOf(storeDocs: readonly number[]): Int32Array {
    const out: number[] = [];
    for (const storeDoc of storeDocs) {
      for (const part of this.parts) {
        const { storeDocs: docs, docCount } = part.data;
        if (docCount === 0 || storeDoc < docs[0]! || storeDoc > docs[docCount - 1]!) continue;
        const local = findAscending(docs, storeDoc);
        if (local >= 0 && this.dead[part.docBase + local] !== 1) out.push(part.docBase + local);
      }
    }
    return Int32Array.from(out).sort();
  }

  /** Masks the live version of a store document, if the view has one. */
  private maskStoreDoc(storeDoc: number): void {
    for (const part of this.parts) {
      const { storeDocs, docCount } = part.data;
      // Outside a segment's range (an import's chunks follow one another): no search needed.
      if (docCount === 0 || storeDoc < storeDocs[0]! || storeDoc > storeDocs[docCount - 1]!) continue;
      const local = findAscending(storeDocs, storeDoc);
      if (local < 0 || this.dead[part.docBase + local] === 1) continue;
      this.dead[part.docBase + local] = 1;
      part.deadCount++;
      this.liveCount--;
      const globalOf = part.globalOf;
      forEachForward(part.data.forward, local, (t) => {
        this.df[globalOf ? globalOf[t]! : t]!--;
      });
      for (let f = 0; f < FIELD_COUNT; f++) this.lengthSums[f]! -= part.data.fields[f]!.lengths[local]!;
    }
  }

  /** Makes room in {@link df} for the new words' ids; their sorted list and trie wait until a query asks. */
  private addedWords(): void {
    this.extrasStale = true;
    const need = this.baseTermCount + this.extraById.length;
    if (this.df.length < need) {
      const bigger = new Uint32Array(Math.ceil(need * 1.25) + 1024);
      bigger.set(this.df);
      this.df = bigger;
    }
  }

  /**
   * The words not in the base, sorted, with their trie. Built lazily: a merge applies a chunk
   * after chunk and never asks, and re-sorting every word at each of them was a quarter of an
   * import's final merge.
   */
  private currentExtras(): VocabularyParts['extras'] {
    if (this.extrasStale) {
      const words = [...this.extraByWord.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.extras = { terms: words, ids: Uint32Array.from(words, (w) => this.extraByWord.get(w)!), trie: buildTermTrie(words), byWord: this.extraByWord };
      this.extrasStale = false;
    }
    return this.extras;
  }

  /** A global term id's string. */
  termString(id: number): string {
    if (id < this.baseTermCount) return textAt(this.base.terms, id);
    return this.extraById[id - this.baseTermCount] ?? '';
  }

  /** The segment holding global document `g`. */
  partOf(g: number): Part {
    return this.parts[this.partIndexOf(g)]!;
  }

  /** The position in {@link parts} of the segment holding global document `g`. */
  partIndexOf(g: number): number {
    const parts = this.parts;
    if (g < parts[0]!.data.docCount) return 0;
    let lo = 1;
    let hi = parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (parts[mid]!.docBase <= g) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  storeDoc(g: number): number {
    const p = this.partOf(g);
    return p.data.storeDocs[g - p.docBase]!;
  }
  year(g: number): number {
    const p = this.partOf(g);
    return p.data.years[g - p.docBase]!;
  }
  standing(g: number): number {
    const p = this.partOf(g);
    return p.data.standing[g - p.docBase]!;
  }
  /** How the paper was presented (`Track` in standing.ts). */
  track(g: number): number {
    const p = this.partOf(g);
    return p.data.track[g - p.docBase]!;
  }
  /** How many works cite the paper, or `UNKNOWN_CITED` (standing.ts). */
  citedBy(g: number): number {
    const p = this.partOf(g);
    return p.data.citedBy[g - p.docBase]!;
  }
  firstSeen(g: number): number {
    const p = this.partOf(g);
    return p.data.firstSeen[g - p.docBase]!;
  }
  venue(g: number): string {
    const p = this.partOf(g);
    return p.data.venues[p.data.venueOf[g - p.docBase]!] ?? '';
  }
  hasTopicBit(g: number, word: number, mask: number): boolean {
    const p = this.partOf(g);
    return (p.data.topicBits[(g - p.docBase) * p.data.topicWords + word]! & mask) !== 0;
  }
  id(g: number): string {
    const p = this.partOf(g);
    return textAt(p.data.ids, g - p.docBase);
  }
  title(g: number): string {
    const p = this.partOf(g);
    return textAt(p.data.titles, g - p.docBase);
  }
  /** Normalized author names joined by `;`. */
  authors(g: number): string {
    const p = this.partOf(g);
    return textAt(p.data.authors, g - p.docBase);
  }

  /** Venue display names across segments. */
  venueNames(): string[] {
    return [...new Set(this.parts.flatMap((p) => p.data.venues))];
  }

  /** Calls `fn` on every live document. */
  forEachLive(fn: (g: number) => void): void {
    const dead = this.dead;
    for (let g = 0; g < this.docCount; g++) if (dead[g] === 0) fn(g);
  }

  /** The newest first-seen time of any paper, in seconds. */
  maxFirstSeen(): number {
    let max = 0;
    for (const p of this.parts) if (p.data.maxFirstSeen > max) max = p.data.maxFirstSeen;
    return max;
  }

  /** Live documents with a topic bit set, ascending (cached until the view changes). */
  docsWithTopic(bit: number): Int32Array {
    let docs = this.topicDocs.get(bit);
    if (!docs) {
      const word = bit >>> 5;
      const mask = 1 << (bit & 31);
      const out: number[] = [];
      for (const p of this.parts) {
        const { topicBits, topicWords, docCount } = p.data;
        for (let d = 0; d < docCount; d++) {
          if ((topicBits[d * topicWords + word]! & mask) !== 0 && this.dead[p.docBase + d] === 0) out.push(p.docBase + d);
        }
      }
      docs = Int32Array.from(out);
      this.topicDocs.set(bit, docs);
    }
    return docs;
  }

  /**
   * Live documents first seen after `seconds`: 'every' live document, 'many' (more than an
   * eighth of the library: a per-document check is cheaper than a list), or the few, ascending.
   */
  docsFirstSeenAfter(seconds: number): Int32Array | 'many' | 'every' {
    const { docs, times } = (this.firstSeenOrder ??= this.orderByFirstSeen());
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (times[mid]! <= seconds) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return 'every';
    if ((times.length - lo) * 8 > times.length) return 'many';
    return docs.slice(lo).sort();
  }

  /**
   * Live documents in first-seen order (ties in document order). Papers imported together share
   * their time, so each finds its place by the first position of its time among the sorted
   * times (a native numeric sort) instead of through a comparator.
   */
  private orderByFirstSeen(): { docs: Int32Array; times: Float64Array } {
    const live: number[] = [];
    this.forEachLive((g) => live.push(g));
    const n = live.length;
    const times = Float64Array.from(live, (g) => this.firstSeen(g));
    const sorted = times.slice().sort();
    const taken = new Int32Array(n);
    const docs = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const t = times[i]!;
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sorted[mid]! < t) lo = mid + 1;
        else hi = mid;
      }
      docs[lo + taken[lo]!++] = live[i]!;
    }
    return { docs, times: sorted };
  }

  /**
   * Calls `fn` on live documents newest first (year, distinction, first seen, store document)
   * until it returns false: each segment's stored order, merged.
   */
  walkNewest(fn: (g: number) => boolean): void {
    const parts = this.parts;
    const pos = new Array<number>(parts.length).fill(0);
    const head = (i: number): number => {
      const p = parts[i]!;
      while (pos[i]! < p.data.docCount && this.dead[p.docBase + p.data.newestOrder[pos[i]!]!] === 1) pos[i]!++;
      return pos[i]! < p.data.docCount ? p.docBase + p.data.newestOrder[pos[i]!]! : -1;
    };
    for (;;) {
      let best = -1;
      let bestDoc = -1;
      for (let i = 0; i < parts.length; i++) {
        const g = head(i);
        if (g >= 0 && (bestDoc < 0 || this.newer(g, bestDoc) > 0)) {
          best = i;
          bestDoc = g;
        }
      }
      if (best < 0 || !fn(bestDoc)) return;
      pos[best]!++;
    }
  }

  /**
   * `docs` (live, distinct) newest first, in the order {@link walkNewest} visits them: within a
   * segment that is its stored order, so each segment's documents are sorted by their rank in
   * it (a native numeric sort), and the few segments are merged. Costs n log n numeric
   * comparisons where a comparator over four arrays cost many times that.
   */
  sortNewest(docs: ArrayLike<number>): Int32Array {
    const parts = this.parts;
    const partAt = new Uint32Array(docs.length);
    const counts = new Int32Array(parts.length);
    for (let i = 0; i < docs.length; i++) counts[(partAt[i] = this.partIndexOf(docs[i]!))]!++;
    const ranks = Array.from(counts, (n) => new Int32Array(n));
    const rankOf = parts.map((p, at) => (counts[at]! > 0 ? this.newestRankOf(p) : new Int32Array(0)));
    counts.fill(0);
    for (let i = 0; i < docs.length; i++) {
      const at = partAt[i]!;
      ranks[at]![counts[at]!++] = rankOf[at]![docs[i]! - parts[at]!.docBase]!;
    }
    const sorted = ranks.map((order, at) => {
      const { docBase, data } = parts[at]!;
      order.sort();
      for (let i = 0; i < order.length; i++) order[i] = docBase + data.newestOrder[order[i]!]!;
      return order;
    });
    let merged: Int32Array = sorted[0]!;
    for (let i = 1; i < sorted.length; i++) merged = this.mergeNewest(merged, sorted[i]!);
    return merged;
  }

  /**
   * Two lists sorted newest first, as one: each document of the shorter finds its place in the
   * longer by binary search, so a delta's few documents cost a few comparisons each, not one
   * per document of the base's list.
   */
  private mergeNewest(a: Int32Array, b: Int32Array): Int32Array {
    if (a.length < b.length) [a, b] = [b, a];
    if (b.length === 0) return a;
    const out = new Int32Array(a.length + b.length);
    let from = 0;
    let n = 0;
    for (const d of b) {
      let lo = from;
      let hi = a.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.newer(a[mid]!, d) > 0) lo = mid + 1;
        else hi = mid;
      }
      out.set(a.subarray(from, lo), n);
      n += lo - from;
      from = lo;
      out[n++] = d;
    }
    out.set(a.subarray(from), n);
    return out;
  }

  /** Positive when document `a` comes before `b` newest first (year, distinction, first seen, then the lower store document). */
  private newer(a: number, b: number): number {
    return this.year(a) - this.year(b) || this.standing(a) - this.standing(b) || this.firstSeen(a) - this.firstSeen(b) || this.storeDoc(b) - this.storeDoc(a);
  }

  /** Per local document of segment `p`: its position in the segment's newest-first order (made on first use). */
  private newestRankOf(p: Part): Int32Array {
    let rank = this.newestRanks.get(p.data);
    if (!rank) {
      const order = p.data.newestOrder;
      rank = new Int32Array(order.length);
      for (let i = 0; i < order.length; i++) rank[order[i]!] = i;
      this.newestRanks.set(p.data, rank);
    }
    return rank;
  }

  /**
   * Live documents whose normalized title starts with `key` (UTF-8), in title order (then store
   * document), at most `max`.
   */
  titlePrefix(key: Uint8Array, max: number): number[] {
    if (key.length === 0 || max <= 0) return [];
    const found: Array<{ key: Uint8Array; g: number }> = [];
    for (const part of this.parts) {
      // The base's keys are read from the file, not the mapping: a lookup touches ~20 scattered
      // keys, and through the mapping their pages (and the kernel's neighbours) would stay.
      const { titleKeys, titleOrder, docCount } = part.data;
      let lo = 0;
      let hi = docCount;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareEntry(titleKeys, mid, key) < 0) lo = mid + 1;
        else hi = mid;
      }
      // The matches follow in title order, read in runs (masked ones are skipped) that start
      // short, as most lookups match a few titles or none, and grow.
      let taken = 0;
      let pos = lo;
      let step = 16;
      while (pos < docCount && taken < max) {
        const to = Math.min(docCount, pos + step);
        step *= 4;
        const run = entryRun(titleKeys, pos, to);
        let i = 0;
        for (; i < to - pos && taken < max && startsWithAt(run, i, key); i++) {
          const g = part.docBase + titleOrder[pos + i]!;
          if (this.dead[g] === 1) continue;
          found.push({ key: bytesAt(run, i), g });
          taken++;
        }
        if (i < to - pos) break;
        pos = to;
      }
    }
    if (this.parts.length > 1) found.sort((a, b) => Buffer.compare(a.key, b.key) || this.storeDoc(a.g) - this.storeDoc(b.g));
    return found.slice(0, max).map((f) => f.g);
  }
}

/** Position of `value` in an ascending array, or -1. */
export function findAscending(sorted: Uint32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo] === value ? lo : -1;
}
