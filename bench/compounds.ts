/**
 * The `rare_compounds` relevance kind, generated from the library itself (no file copied from a
 * corpus): queries made of a few hyphenated compounds that are rare in the library, taken from
 * one paper's abstract, as people paste them ("domain-level many-to-one knowledge-transfer"),
 * and together that paper's alone. That paper should be found in the top 10. Papers and compounds are drawn with a seeded
 * generator, so a seed names one set; another seed is a set held out from tuning.
 */
import { forEachCompound } from '../src/search/compounds.js';
import type { IndexRow } from '../src/store/papers.js';
import { normalizeTitle } from '../src/text.js';

/** A compound is rare in at most this share of the library's papers (at least in 3). */
const RARE_SHARE = 0.0005;
/** Compounds in a query, at least and at most. */
const MIN_COMPOUNDS = 2;
const MAX_COMPOUNDS = 3;

export interface CompoundCase {
  kind: 'rare_compounds';
  query: string;
  title: string;
}

/**
 * `count` queries of 2–3 compounds rare in `rows` (every paper of the library), each from the
 * abstract of a paper drawn with `seed`, in the order the abstract has them, written as it
 * writes them.
 * @example await rareCompoundCases(store.rowsForIndex(), { count: 80, seed: 1 })
 */
export async function rareCompoundCases(rows: AsyncIterable<IndexRow>, options: { count: number; seed: number }): Promise<CompoundCase[]> {
  // Per compound, the titles (normalized) of the papers that hold it anywhere.
  const holders = new Map<string, string[]>();
  // Per paper with compounds enough: its title and its abstract's compounds as written, with their joined forms.
  const papers: Array<{ title: string; compounds: Array<{ written: string; joined: string }> }> = [];
  let size = 0;
  for await (const row of rows) {
    size++;
    const inPaper = new Set<string>();
    for (const text of [row.title, row.keywords.join(' '), row.abstract]) forEachCompound(text, (joined) => inPaper.add(joined));
    const title = normalizeTitle(row.title);
    for (const joined of inPaper) {
      const list = holders.get(joined);
      if (list) list.push(title);
      else holders.set(joined, [title]);
    }
    const compounds = writtenCompounds(row.abstract);
    if (compounds.length >= MIN_COMPOUNDS) papers.push({ title: row.title, compounds });
  }
  const rare = Math.max(3, Math.floor(size * RARE_SHARE));
  const df = (joined: string) => holders.get(joined)?.length ?? 0;
  // Whether the compounds together are this paper's alone (or its other listings', under its title).
  const identify = (joined: string[], title: string) => {
    const rarest = [...joined].sort((a, b) => df(a) - df(b));
    let titles = new Set(holders.get(rarest[0]!));
    for (const j of rarest.slice(1)) {
      const next = new Set(holders.get(j));
      titles = new Set([...titles].filter((t) => next.has(t)));
    }
    return [...titles].every((t) => t === title);
  };
  const random = mulberry32(options.seed);
  const cases: CompoundCase[] = [];
  const taken = new Set<number>();
  for (let tries = 0; cases.length < options.count && tries < options.count * 200 && papers.length > 0; tries++) {
    const at = Math.floor(random() * papers.length);
    if (taken.has(at)) continue;
    const paper = papers[at]!;
    const byJoined = new Map<string, { written: string; joined: string }>();
    for (const c of paper.compounds) if (!byJoined.has(c.joined) && df(c.joined) <= rare) byJoined.set(c.joined, c);
    const candidates = [...byJoined.values()];
    if (candidates.length < MIN_COMPOUNDS) continue;
    const n = Math.min(candidates.length, MIN_COMPOUNDS + Math.floor(random() * (MAX_COMPOUNDS - MIN_COMPOUNDS + 1)));
    // n of them, kept in the abstract's order.
    const picked = candidates
      .map((c, i) => ({ c, i, r: random() }))
      .sort((a, b) => a.r - b.r)
      .slice(0, n)
      .sort((a, b) => a.i - b.i);
    // Compounds other papers have together would name no paper in particular.
    if (!identify(picked.map((p) => p.c.joined), normalizeTitle(paper.title))) continue;
    taken.add(at);
    cases.push({ kind: 'rare_compounds', query: picked.map((p) => p.c.written).join(' '), title: paper.title });
  }
  return cases;
}

/** The compounds of a text as written ("cVAE-GAN"), with their joined forms. */
function writtenCompounds(text: string): Array<{ written: string; joined: string }> {
  const out: Array<{ written: string; joined: string }> = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+(?:[-\u2010\u2011][\p{L}\p{N}]+)+/gu)) {
    forEachCompound(m[0], (joined) => out.push({ written: m[0], joined }));
  }
  return out;
}

/** A seeded generator of numbers in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
