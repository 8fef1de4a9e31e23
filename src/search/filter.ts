/**
 * The non-scoring part of a query: venue, year, topic, author and exclusion constraints,
 * compiled to checks over the index's per-document arrays.
 */
import { msg, type Message } from '../i18n/index.js';
import { venueKey } from '../papers/model.js';
import type { IndexData } from './index/types.js';
import type { ParsedQuery } from './query.js';
import { Field } from './index/types.js';
import type { Vocabulary } from './vocab.js';
import { postings } from './scorer.js';
import { planAuthor } from './plan.js';

/** Resolves a topic name as typed to a topic id, or explains why it cannot. */
export type TopicResolver = (name: string) => { id: string } | { error: Message };

export interface CompiledFilter {
  /** Whether document `d` passes every constraint. */
  allows(d: number): boolean;
  /** When constraints pin the candidates down (author: filters), the only documents that can pass. */
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
  data: IndexData,
  vocab: Vocabulary,
  resolveTopic: TopicResolver,
  excludedMark: Uint32Array,
  stamp: number,
  firstSeenAfter?: Date,
): CompiledFilter {
  const impossible: Message[] = [];
  const checks: Array<(d: number) => boolean> = [];

  if (firstSeenAfter) {
    const after = firstSeenAfter.getTime() / 1000;
    checks.push((d) => data.firstSeen[d]! > after);
  }

  if (query.venues.length > 0) {
    const wanted = new Set(query.venues.map(venueKey));
    const allowed = new Uint8Array(data.venues.length);
    data.venues.forEach((v, i) => (allowed[i] = wanted.has(venueKey(v)) ? 1 : 0));
    if (!allowed.includes(1)) {
      const known = [...new Set(data.venues.filter(Boolean))].sort().slice(0, 40).join(', ');
      impossible.push(msg('search.noVenue', { venues: query.venues.join('", "'), known }));
    }
    checks.push((d) => allowed[data.venueOf[d]!] === 1);
  }

  if (query.years) {
    const from = query.years.from ?? 0;
    const to = query.years.to ?? 9999;
    checks.push((d) => {
      const y = data.years[d]!;
      return y !== 0 && y >= from && y <= to;
    });
  }

  for (const name of query.topics) {
    const resolved = resolveTopic(name);
    if ('error' in resolved) {
      impossible.push(resolved.error);
      continue;
    }
    const bit = data.topics.indexOf(resolved.id);
    if (bit < 0) {
      impossible.push(msg('search.noTopicPapers', { name }));
      continue;
    }
    const word = bit >>> 5;
    const mask = 1 << (bit & 31);
    checks.push((d) => (data.topicBits[d * data.topicWords + word]! & mask) !== 0);
  }

  let candidates: Int32Array | undefined;
  for (const tokens of query.authors) {
    const docs = authorDocs(tokens, data, vocab);
    if (docs.length === 0) impossible.push(msg('search.noAuthor', { name: tokens.join(' ') }));
    candidates = candidates ? intersectSorted(candidates, docs) : docs;
  }

  for (const tokens of query.excluded) {
    for (const d of docsWithAll(tokens, data, vocab)) excludedMark[d] = stamp;
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
export function authorDocs(tokens: readonly string[], data: IndexData, vocab: Vocabulary): Int32Array {
  const groups = planAuthor(tokens, vocab, data.docFreq, data.docCount);
  // The rarest full word narrows the candidates; the author strings confirm.
  let best: Uint32Array | undefined;
  for (const group of groups) {
    if (group.word.length === 1) continue;
    const lists = group.variants.map((v) => postings(data, Field.Authors, v.term));
    const merged = lists.length === 1 ? lists[0]! : unionSorted(lists);
    if (!best || merged.length < best.length) best = merged;
  }
  if (!best) return new Int32Array(0);
  const wordSets = groups.map((g) => new Set(g.variants.map((v) => vocab.terms[v.term]!)));
  const out: number[] = [];
  for (const d of best) {
    if (data.authors[d]!.split(';').some((name) => nameMatches(name.split(' '), tokens, wordSets))) out.push(d);
  }
  return Int32Array.from(out);
}

function nameMatches(nameWords: readonly string[], tokens: readonly string[], wordSets: ReadonlyArray<Set<string>>): boolean {
  return tokens.every((t, i) =>
    t.length === 1 ? nameWords.some((w) => w.startsWith(t)) : nameWords.some((w) => wordSets[i]!.has(w)),
  );
}

function docsWithAll(tokens: readonly string[], data: IndexData, vocab: Vocabulary): number[] {
  let result: Set<number> | undefined;
  for (const token of tokens) {
    const term = vocab.id(token);
    if (term === undefined) return [];
    const docs = new Set<number>();
    for (let f = 0; f < data.fields.length; f++) for (const d of postings(data, f as Field, term)) docs.add(d);
    result = result ? new Set([...result].filter((d) => docs.has(d))) : docs;
  }
  return result ? [...result] : [];
}

function unionSorted(lists: readonly Uint32Array[]): Uint32Array {
  const all = new Set<number>();
  for (const list of lists) for (const d of list) all.add(d);
  return Uint32Array.from([...all].sort((a, b) => a - b));
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
