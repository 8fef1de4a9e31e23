/**
 * Ranks the library by a profile (`profile.ts`): one pass over the postings of the profile's
 * words (title, keywords, abstract) and of its authors' names, summed per document. The words'
 * score is scaled to the best candidate's (1), so that an author shared with every seed (worth
 * `authorBoost`) and the venue (worth `venueBoost`) weigh the same against any profile.
 * Ties break by newer year, then by the store's document number: the same profile over the same
 * library gives the same list.
 */
import { Field } from '../search/index/types.js';
import { positionOf } from '../search/index/postings.js';
import type { IndexView } from '../search/index/view.js';
import { localTerm } from '../search/queryPlan.js';
import { STANDING_RECEIVED } from '../search/rerank.js';
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
  /** 1 where a document may be recommended, 2 once it has a score too. */
  state = new Uint8Array(0);

  reset(docCount: number): void {
    if (this.state.length < docCount) {
      const size = Math.ceil(docCount * 1.25) + 1024;
      this.text = new Float64Array(size);
      this.author = new Float64Array(size);
      this.state = new Uint8Array(size);
    }
  }
}

const scratches = new WeakMap<IndexView, Scratch>();

/** Which documents may be ranked. */
export interface Admit {
  /** Only these (ascending global documents), when the filters pin them down. */
  candidates?: Int32Array;
  /** A check of each document the candidates (or the whole library) leave. */
  allows?: (g: number) => boolean;
  /** Rejected and withdrawn submissions too. */
  includeRejected?: boolean;
  /** Never these (the seeds). */
  exclude?: readonly number[];
}

/**
 * The `keep` best documents for `profile` that `admit` lets through, best first. What may be
 * ranked is marked before the postings are walked, so that the walk adds up only those.
 * @example rankByProfile(view, profile, DEFAULT_TUNING, { exclude: seeds }, 20)[0]?.doc
 */
export function rankByProfile(view: IndexView, profile: Profile, tuning: RecommendTuning, admit: Admit, keep: number): Ranked[] {
  let scratch = scratches.get(view);
  if (!scratch) scratches.set(view, (scratch = new Scratch()));
  scratch.reset(view.docCount);
  const { text, author, state } = scratch;
  markAdmitted(view, state, admit);
  const touched: number[] = [];
  const k0 = tuning.k1 * (1 - tuning.b);
  const fields = [Field.Title, Field.Keywords, Field.Abstract].map((f) => ({ f, boost: tuning.fieldBoost[f]!, k1: (tuning.k1 * tuning.b) / view.avgLength(f) }));

  for (const t of profile.terms) {
    for (const part of view.parts) {
      const local = localTerm(part, t.term);
      if (local < 0) continue;
      const base = part.docBase;
      for (const { f, boost, k1 } of fields) {
        const weight = t.weight * boost + (f === Field.Keywords ? tuning.keywordBoost * t.keywordWeight : 0);
        if (weight === 0) continue;
        const { offsets, docs, tfs, lengths } = part.data.fields[f]!;
        for (let i = offsets[local]!, end = offsets[local + 1]!; i < end; i++) {
          const d = docs[i]!;
          const g = base + d;
          const st = state[g]!;
          if (st === 0) continue;
          if (st === 1) {
            state[g] = 2;
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
      const st = state[g]!;
      if (st === 0) continue;
      if (st === 1) {
        state[g] = 2;
        text[g] = 0;
        author[g] = 0;
        touched.push(g);
      }
      author[g]! += a.share;
    }
  }

  // The venue's share of the seeds, per segment and venue index.
  const venueShare = new Map(view.parts.map((p) => [p, Float64Array.from(p.data.venues, (v) => profile.venues.get(v) ?? 0)]));
  let maxText = 0;
  for (const g of touched) if (text[g]! > maxText) maxText = text[g]!;
  const scale = maxText > 0 ? 1 / maxText : 0;
  const top = new TopK(keep, (d) => view.storeDoc(d));
  for (const g of touched) {
    const part = view.partOf(g);
    const venue = venueShare.get(part)![part.data.venueOf[g - part.docBase]!]!;
    top.offer(text[g]! * scale + tuning.authorBoost * author[g]! + tuning.venueBoost * venue, g);
  }
  const ranked = top.sorted().map(({ doc, score }) => ({ doc, score, year: view.year(doc), key: view.storeDoc(doc) }));
  ranked.sort((a, c) => c.score - a.score || c.year - a.year || a.key - c.key);
  return ranked.map(({ doc, score }) => ({ doc, score }));
}

/** Sets `state` to 1 for every document `admit` lets through, 0 for the rest. */
function markAdmitted(view: IndexView, state: Uint8Array, admit: Admit): void {
  const { dead } = view;
  const { allows, includeRejected = false, candidates } = admit;
  const ok = (g: number, standing: number) => dead[g] === 0 && (includeRejected || standing >= STANDING_RECEIVED) && (!allows || allows(g));
  if (candidates) {
    state.fill(0, 0, view.docCount);
    for (const g of candidates) {
      const part = view.partOf(g);
      state[g] = ok(g, part.data.standing[g - part.docBase]!) ? 1 : 0;
    }
  } else {
    // Segment by segment: a document's standing is read from its segment's array directly.
    for (const part of view.parts) {
      const { standing, docCount } = part.data;
      const base = part.docBase;
      for (let d = 0; d < docCount; d++) state[base + d] = ok(base + d, standing[d]!) ? 1 : 0;
    }
  }
  for (const g of admit.exclude ?? []) state[g] = 0;
}

/** Live documents with an author named exactly `name` (whose words are `terms`), ascending within each segment. */
export function docsByAuthor(view: IndexView, name: string, terms: readonly number[]): number[] {
  // The rarest word's postings, kept where every other word is an author word too, then
  // confirmed against the paper's author names.
  const byRarity = [...new Set(terms)].sort((a, c) => view.df[a]! - view.df[c]! || a - c);
  const out: number[] = [];
  for (const part of view.parts) {
    const lists = byRarity.map((t) => localTerm(part, t));
    if (lists.some((l) => l < 0)) continue;
    const { offsets, docs } = part.data.fields[Field.Authors]!;
    const first = lists[0]!;
    for (let i = offsets[first]!, end = offsets[first + 1]!; i < end; i++) {
      const d = docs[i]!;
      const g = part.docBase + d;
      if (view.dead[g] === 1) continue;
      let all = true;
      for (let k = 1; k < lists.length && all; k++) all = positionOf(docs, offsets[lists[k]!]!, offsets[lists[k]! + 1]!, d) >= 0;
      if (!all) continue;
      const names = view.authors(g);
      if (names === name || names.startsWith(`${name};`) || names.endsWith(`;${name}`) || names.includes(`;${name};`)) out.push(g);
    }
  }
  return out;
}
