/**
 * The non-scoring part of a query: venue, year, citation, topic, author and exclusion constraints,
 * compiled to checks over the index's per-document arrays and to candidate lists.
 */
import { msg, type Message } from '../i18n/index.js';
import { venueKey } from '../papers/model.js';
import type { ParsedQuery } from './query.js';
import { FIELD_COUNT, Field } from './index/types.js';
import type { IndexView } from './index/view.js';
import { planAuthor } from './expand.js';
import { localTerm } from './queryPlan.js';
import { citedCheck } from './cited.js';

/** Resolves a topic name as typed to a topic id, or explains why it cannot. */
export type TopicResolver = (name: string) => { id: string } | { error: Message };

export interface CompiledFilter {
  /** Whether document `d` passes every constraint. */
  allows(d: number): boolean;
  /** When constraints pin the candidates down (topics, authors, first seen), the only documents that can pass, ascending. */
  candidates?: Int32Array;
  /** Constraints that cannot match anything, explained for the user; the result is empty. */
  impossible: Message[];
  /** Whether any constraint is set at all. */
  active: boolean;
}

/**
 * Compiles a query's filters against the index. Unknown venues and topics make the filter
 * impossible with a message that says what exists.
 */
export function compileFilter(
  query: ParsedQuery,
  view: IndexView,
  resolveTopic: TopicResolver,
  excludedMark: Uint32Array,
  stamp: number,
  firstSeenAfter?: Date,
  within?: readonly number[],
): CompiledFilter {
  const impossible: Message[] = [];
  const checks: Array<(d: number) => boolean> = [];

  let candidates: Int32Array | undefined;
  const narrow = (docs: Int32Array) => (candidates = candidates ? intersectSorted(candidates, docs) : docs);
  if (within) narrow(view.liveDocsOf(within));
  if (firstSeenAfter) {
    const after = firstSeenAfter.getTime() / 1000;
    const recent = view.docsFirstSeenAfter(after);
    if (recent === 'many') checks.push((d) => view.firstSeen(d) > after);
    else if (recent !== 'every') narrow(recent);
  }

  if (query.venues.length > 0) {
    const wanted = new Set(query.venues.map(venueKey));
    const allowed = new Map(view.parts.map((p) => [p, Uint8Array.from(p.data.venues, (v) => (wanted.has(venueKey(v)) ? 1 : 0))]));
    if (![...allowed.values()].some((a) => a.includes(1))) {
      const known = view.venueNames().filter(Boolean).sort().slice(0, 40).join(', ');
      impossible.push(msg('search.noVenue', { venues: query.venues.join('", "'), known }));
    }
    checks.push((d) => {
      const p = view.partOf(d);
      return allowed.get(p)![p.data.venueOf[d - p.docBase]!] === 1;
    });
  }

  if (query.years) {
    const from = query.years.from ?? 0;
    const to = query.years.to ?? 9999;
    checks.push((d) => {
      const y = view.year(d);
      return y !== 0 && y >= from && y <= to;
    });
  }

  if (query.cited) checks.push(citedCheck(view, query.cited));

  for (const name of query.topics) {
    const resolved = resolveTopic(name);
    if ('error' in resolved) {
      impossible.push(resolved.error);
      continue;
    }
    const bit = view.topics.indexOf(resolved.id);
    if (bit < 0) {
      impossible.push(msg('search.noTopicPapers', { name }));
      continue;
    }
    narrow(view.docsWithTopic(bit));
  }

  for (const tokens of query.authors) {
    const docs = authorDocs(tokens, view);
    if (docs.length === 0) impossible.push(msg('search.noAuthor', { name: tokens.join(' ') }));
    narrow(docs);
  }

  for (const tokens of query.excluded) {
    for (const d of docsWithAll(tokens, view)) excludedMark[d] = stamp;
  }
  if (query.excluded.length > 0) checks.push((d) => excludedMark[d] !== stamp);

  const allows = (d: number): boolean => {
    for (const check of checks) if (!check(d)) return false;
    return true;
  };
  return {
    allows,
    ...(candidates && { candidates }),
    impossible,
    active: checks.length > 0 || candidates !== undefined,
  };
}

/**
 * Documents with an author whose name contains every token (initials match as prefixes):
 * `["y", "bengio"]` finds "Yoshua Bengio" but not a paper by "Yu Chen" and "Samy Bengio".
 */
export function authorDocs(tokens: readonly string[], view: IndexView): Int32Array {
  const vocab = view.vocab;
  const groups = planAuthor(tokens, vocab, view.liveCount);
  // The rarest full word narrows the candidates; the author strings confirm.
  let best: Int32Array | undefined;
  for (const group of groups) {
    if (group.word.length === 1) continue;
    const docs: number[] = [];
    for (const v of group.variants) forEachPosting(view, Field.Authors, v.term, (g) => docs.push(g));
    const merged = group.variants.length === 1 ? Int32Array.from(docs) : Int32Array.from(new Set(docs)).sort();
    if (!best || merged.length < best.length) best = merged;
  }
  if (!best) return new Int32Array(0);
  const wordSets = groups.map((g) => new Set(g.variants.map((v) => vocab.term(v.term))));
  const out: number[] = [];
  for (const d of best) {
    if (view.authors(d).split(';').some((name) => nameMatches(name.split(' '), tokens, wordSets))) out.push(d);
  }
  return Int32Array.from(out);
}

function nameMatches(nameWords: readonly string[], tokens: readonly string[], wordSets: ReadonlyArray<Set<string>>): boolean {
  return tokens.every((t, i) =>
    t.length === 1 ? nameWords.some((w) => w.startsWith(t)) : nameWords.some((w) => wordSets[i]!.has(w)),
  );
}

function docsWithAll(tokens: readonly string[], view: IndexView): number[] {
  let result: Set<number> | undefined;
  for (const token of tokens) {
    const term = view.vocab.id(token);
    if (term === undefined) return [];
    const docs = new Set<number>();
    for (let f = 0; f < FIELD_COUNT; f++) forEachPosting(view, f as Field, term, (g) => docs.add(g));
    result = result ? new Set([...result].filter((d) => docs.has(d))) : docs;
  }
  return result ? [...result] : [];
}

function intersectSorted(a: Int32Array, b: Int32Array): Int32Array {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out.push(a[i]!);
      i++;
      j++;
    }
  }
  return Int32Array.from(out);
}

/**
 * Calls `fn` with the global number of every live document that holds `term` in field `f`,
 * segment by segment (ascending within each, and segments in order, so ascending overall).
 */
function forEachPosting(view: IndexView, f: Field, term: number, fn: (g: number) => void): void {
  const dead = view.dead;
  for (const part of view.parts) {
    const local = localTerm(part, term);
    if (local < 0) continue;
    const { offsets, docs } = part.data.fields[f]!;
    for (let i = offsets[local]!; i < offsets[local + 1]!; i++) {
      const g = part.docBase + docs[i]!;
      if (dead[g] === 0) fn(g);
    }
  }
}
