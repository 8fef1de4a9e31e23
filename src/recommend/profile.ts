/**
 * A reading profile: what a set of saved papers (the seeds) have in common, read from the search
 * index alone. Three parts, each weighed by how many of the seeds share it:
 *  - words: each seed's title, keyword and abstract words as a BM25-saturated vector, the
 *    vectors averaged (Rocchio's centroid) and weighed by idf; the author keywords get their
 *    own idf, over the papers that have keywords, as venues' keyword lists are small
 *    vocabularies where "embeddings" tells more than its frequency in abstracts says;
 *  - authors: full author names on two seeds or more, by the share of seeds that list them (a
 *    lab's own people; one paper's co-authors are not);
 *  - venues: the share of seeds from each venue (a lab reads its venues).
 */
import { forEachForward } from '../search/index/columns.js';
import { tfOf } from '../search/index/postings.js';
import { Field } from '../search/index/types.js';
import type { IndexView, Part } from '../search/index/view.js';
import { localTerm } from '../search/queryPlan.js';
import { STOPWORDS, tokenize } from '../text.js';
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
  /** Share of the seeds that list the author, to the power `authorSpread`: the author's weight. */
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

/** Papers a word may be in and still count as telling, however small the library. */
const MIN_COMMON_DF = 10;

/** Index fields a profile's words are read from. */
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
  const size = Math.max(1, view.liveCount);
  // A small library (a new group's, a demo) has every word in a good share of its papers.
  const maxDf = Math.max(MIN_COMMON_DF, size * tuning.maxDfShare);
  const stop = stopwordTerms(view);
  seeds.forEach((g, at) => {
    const part = view.partOf(g);
    const local = g - part.docBase;
    const vector: Array<{ term: number; text: number; kw: number }> = [];
    let norm = 0;
    // The title's words are counted from the title itself, and a field the seed leaves empty
    // is not looked in: each look is a search of a long postings list.
    const titleTfs = new Map<number, number>();
    for (const word of tokenize(view.title(g))) {
      const id = view.vocab.id(word);
      if (id !== undefined) titleTfs.set(id, (titleTfs.get(id) ?? 0) + 1);
    }
    const fields = part.data.fields;
    const lookIn = TEXT_FIELDS.filter((f) => f !== Field.Title && fields[f]!.lengths[local]! > 0);
    const lookInCommon = lookIn.filter((f) => f === Field.Keywords);
    const lookInAll = [Field.Title, ...lookIn];
    forEachForward(part.data.forward, local, (localId) => {
      const term = part.globalOf ? part.globalOf[localId]! : localId;
      if (stop.has(term)) return;
      // Words too common to tell papers apart are left out of titles and abstracts before
      // their postings are read; as author keywords they still count ("learning" in
      // "Machine Learning: Unsupervised Learning" is one of a small vocabulary's words).
      const common = view.df[term]! > maxDf;
      let textWeight = 0;
      let kwWeight = 0;
      for (const f of common ? lookInCommon : lookInAll) {
        const tf = f === Field.Title ? (titleTfs.get(term) ?? 0) : termFrequency(part, f, localId, local);
        if (tf === 0) continue;
        const fp = part.data.fields[f]!;
        const k = tuning.k1 * (1 - tuning.b + (tuning.b * fp.lengths[local]!) / view.avgLength(f));
        const saturated = tf / (tf + k);
        if (f === Field.Keywords) kwWeight += saturated;
        if (!common) textWeight += saturated * tuning.fieldBoost[f]!;
      }
      if (textWeight === 0 && kwWeight === 0) return;
      vector.push({ term, text: textWeight, kw: kwWeight });
      norm += textWeight * textWeight;
    });
    // Unit length: a long abstract counts as much as a short one.
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (const w of vector) {
      let entry = text.get(w.term);
      if (!entry) text.set(w.term, (entry = { sum: 0, kw: 0, seeds: [] }));
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

  const weighed: Array<Omit<ProfileTerm, 'word'> & { rank: number }> = [];
  for (const [term, entry] of text) {
    const spread = (entry.seeds.length / n) ** tuning.spread;
    const weight = (entry.sum / n) * Math.log(1 + size / view.df[term]!) * spread;
    let keywordWeight = 0;
    if (entry.kw > 0 && keywordDocs > 0) {
      const kdf = fieldDf(view, Field.Keywords, term);
      // BM25's idf: a keyword word on nearly every keyword list ("machine") counts for nearly nothing.
      keywordWeight = (entry.kw / n) ** tuning.keywordSpread * Math.log(1 + Math.max(0, keywordDocs - kdf + 0.5) / (kdf + 0.5));
    }
    weighed.push({ term, weight, keywordWeight, seeds: entry.seeds, rank: weight + tuning.keywordBoost * keywordWeight });
  }
  weighed.sort((a, c) => c.rank - a.rank || a.term - c.term);
  const terms: ProfileTerm[] = [];
  for (const { rank: _, ...t } of weighed) {
    if (terms.length >= tuning.profileTerms) break;
    // Numbers (years, table sizes) and single letters say nothing of a topic.
    const word = view.termString(t.term);
    if (word.length < 2 || /^\d+$/.test(word)) continue;
    terms.push({ ...t, word });
  }

  const authors: ProfileAuthor[] = [];
  // An author of a single seed is left out: one paper's co-authors are not the group's, and
  // a name on one paper is often another person of that name elsewhere.
  for (const [name, list] of authorSeeds) {
    if (list.length < 2) continue;
    const ids = name.split(' ').map((w) => view.vocab.id(w));
    if (ids.some((id) => id === undefined)) continue;
    authors.push({ name, terms: ids as number[], share: (list.length / n) ** tuning.authorSpread * Math.min(1, (list.length - 1) / (tuning.authorSureAt - 1)), seeds: list });
  }
  authors.sort((a, c) => c.share - a.share || (a.name < c.name ? -1 : a.name > c.name ? 1 : 0));
  authors.length = Math.min(authors.length, tuning.profileAuthors);
  return { seeds: [...seeds], terms, authors, venues };
}

/** Term frequency of local term `localId` in local document `local` of field `f`, 0 if absent. */
function termFrequency(part: Part, f: Field, localId: number, local: number): number {
  const { offsets, docs, tfs } = part.data.fields[f]!;
  return tfOf(offsets, docs, tfs, localId, local);
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

/** The ids of the stopwords the index holds (titles keep them), per vocabulary. */
function stopwordTerms(view: IndexView): Set<number> {
  let known = stopwords.get(view);
  if (!known) {
    known = new Set();
    for (const word of STOPWORDS) {
      const id = view.vocab.id(word);
      if (id !== undefined) known.add(id);
    }
    stopwords.set(view, known);
  }
  return known;
}

const stopwords = new WeakMap<IndexView, Set<number>>();
