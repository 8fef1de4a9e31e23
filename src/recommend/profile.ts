/**
 * A reading profile: what a set of saved papers (the seeds) have in common, read from the search
 * index alone. Three parts, each weighed by how many of the seeds share it:
 *  - words: each seed's title, keyword and abstract words as a BM25-saturated vector, the
 *    vectors averaged (Rocchio's centroid) and weighed by idf; the author keywords get their
 *    own idf, over the papers that have keywords, as venues' keyword lists are small
 *    vocabularies where "embeddings" tells more than its frequency in abstracts says;
 *  - authors: full author names, by the share of seeds that list them (a lab's own people);
 *  - venues: the share of seeds from each venue (a lab reads its venues).
 */
import { forEachForward } from '../search/index/columns.js';
import { Field } from '../search/index/types.js';
import type { IndexView, Part } from '../search/index/view.js';
import { localTerm } from '../search/scorer.js';
import { STOPWORDS } from '../text.js';
import type { RecommendTuning } from './tuning.js';

/** A weighed word of the profile; `seeds` are the positions of the seeds that have it. */
export interface ProfileTerm {
  term: number;
  word: string;
  /** Weight against titles and abstracts. */
  weight: number;
  /** Weight against author keywords (0: no seed has it as a keyword). */
  keywordWeight: number;
  seeds: number[];
}

export interface ProfileAuthor {
  /** Normalized name, as the index keeps it ("yoshua bengio"). */
  name: string;
  /** The name's words as index term ids (all known, or the author is left out). */
  terms: number[];
  /** Share of the seeds that list the author. */
  share: number;
  seeds: number[];
}

export interface Profile {
  seeds: number[];
  terms: ProfileTerm[];
  authors: ProfileAuthor[];
  /** Venue display name → share of the seeds from it. */
  venues: Map<string, number>;
}

/** Index fields a profile's words are read from, with their tf saturation against length. */
const TEXT_FIELDS = [Field.Title, Field.Keywords, Field.Abstract] as const;

/**
 * The profile of `seeds` (live global documents of `view`, at least one).
 * @example buildProfile(view, [12, 40, 41], DEFAULT_TUNING).authors[0]?.name
 */
export function buildProfile(view: IndexView, seeds: readonly number[], tuning: RecommendTuning): Profile {
  const n = seeds.length;
  const text = new Map<number, { sum: number; kw: number; seeds: number[] }>();
  const authorSeeds = new Map<string, number[]>();
  const venues = new Map<string, number>();
  const keywordDocs = fieldDocCount(view, Field.Keywords);
  seeds.forEach((g, at) => {
    const part = view.partOf(g);
    const local = g - part.docBase;
    const vector = new Map<number, { text: number; kw: number }>();
    let norm = 0;
    forEachForward(part.data.forward, local, (localId) => {
      const term = part.globalOf ? part.globalOf[localId]! : localId;
      let textWeight = 0;
      let kwWeight = 0;
      for (const f of TEXT_FIELDS) {
        const tf = termFrequency(part, f, localId, local);
        if (tf === 0) continue;
        const fp = part.data.fields[f]!;
        const k = tuning.k1 * (1 - tuning.b + (tuning.b * fp.lengths[local]!) / view.avgLength(f));
        const saturated = tf / (tf + k);
        if (f === Field.Keywords) kwWeight += saturated;
        textWeight += saturated * tuning.fieldBoost[f]!;
      }
      if (textWeight === 0 && kwWeight === 0) return;
      vector.set(term, { text: textWeight, kw: kwWeight });
      norm += textWeight * textWeight;
    });
    // Unit length: a long abstract counts as much as a short one.
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (const [term, w] of vector) {
      let entry = text.get(term);
      if (!entry) text.set(term, (entry = { sum: 0, kw: 0, seeds: [] }));
      entry.sum += w.text * scale;
      entry.kw += w.kw > 0 ? 1 : 0;
      entry.seeds.push(at);
    }
    for (const name of new Set(view.authors(g).split(';'))) {
      if (name === '') continue;
      const list = authorSeeds.get(name);
      if (list) list.push(at);
      else authorSeeds.set(name, [at]);
    }
    const venue = view.venue(g);
    venues.set(venue, (venues.get(venue) ?? 0) + 1 / n);
  });

  const size = Math.max(1, view.liveCount);
  const maxDf = Math.max(2, size * tuning.maxDfShare);
  const terms: ProfileTerm[] = [];
  for (const [term, entry] of text) {
    const word = view.termString(term);
    if (STOPWORDS.has(word) || word.length < 2 || /^\d+$/.test(word)) continue;
    const df = view.df[term]!;
    if (df > maxDf) continue;
    const spread = (entry.seeds.length / n) ** tuning.spread;
    const idf = Math.log(1 + size / df);
    const weight = (entry.sum / n) * idf * spread;
    let keywordWeight = 0;
    if (entry.kw > 0 && keywordDocs > 0) {
      const kdf = fieldDf(view, Field.Keywords, term);
      keywordWeight = (entry.kw / n) ** tuning.keywordSpread * Math.log(1 + keywordDocs / Math.max(1, kdf));
    }
    terms.push({ term, word, weight, keywordWeight, seeds: entry.seeds });
  }
  const rank = (t: ProfileTerm) => t.weight + tuning.keywordBoost * t.keywordWeight;
  terms.sort((a, c) => rank(c) - rank(a) || a.term - c.term);
  terms.length = Math.min(terms.length, tuning.profileTerms);

  const authors: ProfileAuthor[] = [];
  for (const [name, list] of authorSeeds) {
    const ids = name.split(' ').map((w) => view.vocab.id(w));
    if (ids.some((id) => id === undefined)) continue;
    authors.push({ name, terms: ids as number[], share: list.length / n, seeds: list });
  }
  authors.sort((a, c) => c.share - a.share || (a.name < c.name ? -1 : a.name > c.name ? 1 : 0));
  authors.length = Math.min(authors.length, tuning.profileAuthors);
  return { seeds: [...seeds], terms, authors, venues };
}

/** Term frequency of local term `localId` in local document `local` of field `f`, 0 if absent. */
function termFrequency(part: Part, f: Field, localId: number, local: number): number {
  const { offsets, docs, tfs } = part.data.fields[f]!;
  let lo = offsets[localId]!;
  let hi = offsets[localId + 1]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < local) lo = mid + 1;
    else hi = mid;
  }
  return lo < offsets[localId + 1]! && docs[lo] === local ? tfs[lo]! : 0;
}

/** In how many documents (masked ones too: an estimate is enough) field `f` holds `term`. */
export function fieldDf(view: IndexView, f: Field, term: number): number {
  let count = 0;
  for (const part of view.parts) {
    const local = localTerm(part, term);
    if (local < 0) continue;
    const { offsets } = part.data.fields[f]!;
    count += offsets[local + 1]! - offsets[local]!;
  }
  return count;
}

/** Documents with anything in field `f` (cached per segment). */
function fieldDocCount(view: IndexView, f: Field): number {
  let count = 0;
  for (const part of view.parts) {
    let known = nonEmpty.get(part.data)?.[f];
    if (known === undefined) {
      const lengths = part.data.fields[f]!.lengths;
      known = 0;
      for (let i = 0; i < part.data.docCount; i++) if (lengths[i]! > 0) known++;
      const row = nonEmpty.get(part.data) ?? [];
      row[f] = known;
      nonEmpty.set(part.data, row);
    }
    count += known;
  }
  return count;
}

const nonEmpty = new WeakMap<object, number[]>();
