/**
 * Held-out recommendation profiles, built from the library at evaluation time (never written
 * down: the papers are third-party data), of the kinds of ../shared/eval/recommend-dev.jsonl,
 * for years the dev file does not use. Deterministic: candidates are ordered by a hash.
 */
import { createHash } from 'node:crypto';
import type { IndexRow, PaperStore } from '../src/store/papers.js';
import { normalizeTitle } from '../src/text.js';
import type { EvalProfile } from './recommendEval.js';

const YEARS = [2018, 2020, 2021, 2024, 2025];
/** Profiles of each kind per year, at most. */
const PER_YEAR = { lab: 30, keyword: 15 };
const LAB_SEEDS = 12;
const LAB_MIN_SEEDS = 6;
const KEYWORD_SEEDS = 10;
const KEYWORD_MIN_SEEDS = 6;
const KEYWORD_MAX_TARGETS = 40;

interface Row {
  id: string;
  title: string;
  year: number;
  authors: string[];
  keywords: string[];
  rejected: boolean;
}

export async function heldOutProfiles(store: Pick<PaperStore, 'rowsForIndex'>, devYears: ReadonlySet<number>): Promise<EvalProfile[]> {
  const rows: Row[] = [];
  for await (const r of store.rowsForIndex()) rows.push(toRow(r));
  const years = YEARS.filter((y) => !devYears.has(y));
  return [...years.flatMap((y) => labProfiles(rows, y)), ...years.flatMap((y) => keywordProfiles(rows, y))];
}

function toRow(r: IndexRow): Row {
  return {
    id: r.id,
    title: r.title,
    year: r.year ?? 0,
    authors: r.authors.map((a) => a.trim().toLowerCase()).filter(Boolean),
    keywords: r.keywords.map((k) => k.trim().toLowerCase()).filter(Boolean),
    rejected: /reject|withdraw/i.test(r.status),
  };
}

function labProfiles(rows: Row[], year: number): EvalProfile[] {
  const byAuthor = new Map<string, Row[]>();
  for (const r of rows) {
    if (r.year < year - 3 || r.year > year || r.rejected) continue;
    for (const a of r.authors) {
      const list = byAuthor.get(a);
      if (list) list.push(r);
      else byAuthor.set(a, [r]);
    }
  }
  const out: EvalProfile[] = [];
  for (const author of byHash([...byAuthor.keys()], year)) {
    const papers = byAuthor.get(author)!;
    const targets = papers.filter((p) => p.year === year);
    const earlier = papers.filter((p) => p.year < year).sort((a, b) => b.year - a.year || (a.id < b.id ? -1 : 1));
    if (targets.length < 2 || earlier.length < LAB_MIN_SEEDS) continue;
    out.push({ kind: 'lab', year, seeds: earlier.slice(0, LAB_SEEDS).map((p) => p.id), targets: new Set(targets.map((p) => normalizeTitle(p.title))) });
    if (out.length >= PER_YEAR.lab) break;
  }
  return out;
}

function keywordProfiles(rows: Row[], year: number): EvalProfile[] {
  const byKeyword = new Map<string, Row[]>();
  for (const r of rows) {
    if (r.year < year - 2 || r.year > year || r.rejected) continue;
    for (const k of new Set(r.keywords)) {
      const list = byKeyword.get(k);
      if (list) list.push(r);
      else byKeyword.set(k, [r]);
    }
  }
  const out: EvalProfile[] = [];
  for (const keyword of byHash([...byKeyword.keys()], year)) {
    const papers = byKeyword.get(keyword)!;
    const targets = papers.filter((p) => p.year === year);
    if (targets.length < 2 || targets.length > KEYWORD_MAX_TARGETS) continue;
    // Seeds by unrelated authors: none shares an author with another seed or with a target.
    const taken = new Set(targets.flatMap((p) => p.authors));
    const seeds: Row[] = [];
    for (const p of byHashRows(papers.filter((q) => q.year < year), year)) {
      if (p.authors.some((a) => taken.has(a))) continue;
      seeds.push(p);
      for (const a of p.authors) taken.add(a);
      if (seeds.length >= KEYWORD_SEEDS) break;
    }
    if (seeds.length < KEYWORD_MIN_SEEDS) continue;
    out.push({ kind: 'keyword', year, seeds: seeds.map((p) => p.id), targets: new Set(targets.map((p) => normalizeTitle(p.title))) });
    if (out.length >= PER_YEAR.keyword) break;
  }
  return out;
}

function byHash(keys: string[], salt: number): string[] {
  return keys.map((k) => ({ k, h: hash(`${salt}:${k}`) })).sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0)).map((x) => x.k);
}

function byHashRows(rows: Row[], salt: number): Row[] {
  return rows.map((r) => ({ r, h: hash(`${salt}:${r.id}`) })).sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0)).map((x) => x.r);
}

function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
