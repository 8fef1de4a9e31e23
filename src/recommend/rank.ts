/**
 * Ranks the library by a profile (`profile.ts`): one pass over the postings of the profile's
 * words (title, keywords, abstract) and of its authors' names, summed per document. The words'
 * score is scaled to the best candidate's (1), so that an author shared with every seed (worth
 * `authorBoost`) and the venue (worth `venueBoost`) weigh the same against any profile.
 * Ties break by newer year, then by the store's document number: the same profile over the same
 * library gives the same list.
 */
import { Field } from '../search/index/types.js';
import type { IndexView } from '../search/index/view.js';
import { localTerm } from '../search/scorer.js';
import { TopK } from '../search/topk.js';
import type { Profile } from './profile.js';
import type { RecommendTuning } from './tuning.js';

export interface Ranked {
  doc: number;
  score: number;
}

/** Per-document sums of one ranking, kept between calls on the same view (grown as it grows). */
class Scratch {
  text = new Float64Array(0);
  author = new Float64Array(0);
  seen = new Uint32Array(0);
  stamp = 0;
  touched: number[] = [];

  reset(docCount: number): void {
    if (this.text.length < docCount) {
      const size = Math.ceil(docCount * 1.25) + 1024;
      this.text = new Float64Array(size);
      this.author = new Float64Array(size);
      this.seen = new Uint32Array(size);
      this.stamp = 0;
    }
    this.stamp = (this.stamp + 1) >>> 0 || 1;
    this.touched = [];
  }

  touch(g: number): void {
    if (this.seen[g] !== this.stamp) {
      this.seen[g] = this.stamp;
      this.text[g] = 0;
      this.author[g] = 0;
      this.touched.push(g);
    }
  }
}

const scratches = new WeakMap<IndexView, Scratch>();

/**
 * The `keep` best documents for `profile` that `admits` lets through, best first.
 * @example rankByProfile(view, profile, DEFAULT_TUNING, (g) => !seeds.has(g), 20)[0]?.doc
 */
export function rankByProfile(view: IndexView, profile: Profile, tuning: RecommendTuning, admits: (g: number) => boolean, keep: number): Ranked[] {
  let scratch = scratches.get(view);
  if (!scratch) scratches.set(view, (scratch = new Scratch()));
  scratch.reset(view.docCount);
  const { text, author, dead } = { text: scratch.text, author: scratch.author, dead: view.dead };
  const seen = scratch.seen;
  const stamp = scratch.stamp;
  const touched = scratch.touched;
  const fields = [Field.Title, Field.Keywords, Field.Abstract] as const;
  const norms = fields.map((f) => ({ f, avg: view.avgLength(f) }));

  for (const t of profile.terms) {
    for (const part of view.parts) {
      const local = localTerm(part, t.term);
      if (local < 0) continue;
      for (const { f, avg } of norms) {
        const weight = f === Field.Keywords ? t.weight * tuning.fieldBoost[f]! + tuning.keywordBoost * t.keywordWeight : t.weight * tuning.fieldBoost[f]!;
        if (weight === 0) continue;
        const { offsets, docs, tfs, lengths } = part.data.fields[f]!;
        const k0 = tuning.k1 * (1 - tuning.b);
        const k1 = (tuning.k1 * tuning.b) / avg;
        for (let i = offsets[local]!, end = offsets[local + 1]!; i < end; i++) {
          const d = docs[i]!;
          const g = part.docBase + d;
          if (dead[g] === 1) continue;
          if (seen[g] !== stamp) {
            seen[g] = stamp;
            text[g] = 0;
            author[g] = 0;
            touched.push(g);
          }
          const tf = tfs[i]!;
          text[g]! += (weight * tf) / (tf + k0 + k1 * lengths[d]!);
        }
      }
    }
  }

  for (const a of profile.authors) {
    for (const g of docsByAuthor(view, a.name, a.terms)) {
      scratch.touch(g);
      author[g]! += a.share;
    }
  }

  const venueShare = profile.venues;
  let maxText = 0;
  for (const g of touched) if (text[g]! > maxText && admits(g)) maxText = text[g]!;
  const scale = maxText > 0 ? 1 / maxText : 0;
  const top = new TopK(keep, (d) => view.storeDoc(d));
  for (const g of touched) {
    if (!admits(g)) continue;
    const score = text[g]! * scale + tuning.authorBoost * author[g]! + tuning.venueBoost * (venueShare.get(view.venue(g)) ?? 0);
    top.offer(score, g);
  }
  const ranked = top.sorted().map(({ doc, score }) => ({ doc, score, year: view.year(doc), key: view.storeDoc(doc) }));
  ranked.sort((a, c) => c.score - a.score || c.year - a.year || a.key - c.key);
  return ranked.map(({ doc, score }) => ({ doc, score }));
}

/** Live documents with an author named exactly `name` (whose words are `terms`), ascending. */
export function docsByAuthor(view: IndexView, name: string, terms: readonly number[]): number[] {
  // The rarest word's postings, each confirmed against the paper's author names.
  let rarest = terms[0]!;
  for (const t of terms) if (view.df[t]! < view.df[rarest]!) rarest = t;
  const out: number[] = [];
  for (const part of view.parts) {
    const local = localTerm(part, rarest);
    if (local < 0) continue;
    const { offsets, docs } = part.data.fields[Field.Authors]!;
    for (let i = offsets[local]!, end = offsets[local + 1]!; i < end; i++) {
      const g = part.docBase + docs[i]!;
      if (view.dead[g] === 1) continue;
      const names = view.authors(g);
      if (names === name || names.startsWith(`${name};`) || names.endsWith(`;${name}`) || names.includes(`;${name};`)) out.push(g);
    }
  }
  return out;
}
