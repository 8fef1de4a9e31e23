/**
 * Why a paper was recommended, in terms a reader checks at a glance: the seeds it is most like
 * (by the profile words and authors they share with it) and the most telling of those words.
 */
import { forEachForward } from '../search/index/columns.js';
import type { IndexView } from '../search/index/view.js';
import type { Profile } from './profile.js';

/** Seeds and words a "why" names at most. */
const WHY_SEEDS = 2;
const WHY_WORDS = 3;

export interface Why {
  /** The seeds it is most like (global documents), most like first. */
  seeds: number[];
  /** Profile words it has, most telling first. */
  words: string[];
  /** Authors it shares with the seeds. */
  authors: string[];
}

/**
 * Explains `doc`'s place in a ranking by `profile`.
 * @example explain(view, profile, hit.doc).words // ['diffusion', 'denoising', 'score']
 */
export function explain(view: IndexView, profile: Profile, doc: number): Why {
  const part = view.partOf(doc);
  const has = new Set<number>();
  forEachForward(part.data.forward, doc - part.docBase, (local) => has.add(part.globalOf ? part.globalOf[local]! : local));
  const bySeed = new Float64Array(profile.seeds.length);
  const words: Array<{ word: string; weight: number }> = [];
  for (const t of profile.terms) {
    if (!has.has(t.term)) continue;
    const weight = t.weight + t.keywordWeight;
    words.push({ word: t.word, weight });
    for (const s of t.seeds) bySeed[s]! += weight;
  }
  const names = new Set(view.authors(doc).split(';'));
  const authors = profile.authors.filter((a) => names.has(a.name));
  // A shared author outweighs any words.
  const top = words.reduce((m, w) => Math.max(m, w.weight), 0) * WHY_WORDS + 1;
  for (const a of authors) for (const s of a.seeds) bySeed[s]! += top;
  const seeds = [...bySeed.keys()]
    .filter((s) => bySeed[s]! > 0)
    .sort((a, c) => bySeed[c]! - bySeed[a]! || a - c)
    .slice(0, WHY_SEEDS)
    .map((s) => profile.seeds[s]!);
  words.sort((a, c) => c.weight - a.weight || (a.word < c.word ? -1 : 1));
  return { seeds, words: words.slice(0, WHY_WORDS).map((w) => w.word), authors: authors.map((a) => a.name) };
}
