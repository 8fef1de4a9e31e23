/**
 * Where OpenAlex's counts go, once its works are matched to the library's papers
 * (`papers/matchWork.ts`): the mapper a sync and a works file share. Pure.
 *
 * A paper several works match (OpenAlex holds a preprint and its published version apart, or a
 * DOI twice) takes the most cited of them: each is the paper, and the larger count is the one
 * a reader would be quoted. A work whose count cannot be believed gives nothing and is reported;
 * a work whose title fits several papers equally well gives nothing to any of them and is
 * reported as ambiguous.
 */
import type { WorkMatch } from '../../papers/matchWork.js';
import type { CitationEntry } from '../../store/citations.js';
import type { CitedWork } from './citedWork.js';

/** A work that could not be told apart between papers. */
export interface AmbiguousWork {
  work: CitedWork;
  /** The papers it fits, ascending. */
  docs: number[];
}

/** A work whose count was refused, and the paper it matched, if one. */
export interface RefusedWork {
  work: CitedWork;
  doc?: number;
  reason: string;
}

/** What a batch of matched works gives. */
export interface Assignment {
  /** One entry a paper: the most cited work matched to it. */
  entries: CitationEntry[];
  ambiguous: AmbiguousWork[];
  refused: RefusedWork[];
  /** Works that match no paper, in order. */
  unmatched: CitedWork[];
}

/**
 * Turns works and their matches (same order) into citation entries, stamped `fetched`.
 * @example assignWorks([work], [{ kind: 'matched', doc: 42, id: 'arxiv:1706.03762', by: 'arxiv' }], now).entries
 * // [{ doc: 42, openalex: 'W2626778328', count: 90210, fetched: now, references: [...] }]
 */
export function assignWorks(works: readonly CitedWork[], matches: readonly WorkMatch[], fetched: Date): Assignment {
  const best = new Map<number, CitedWork>();
  const out: Assignment = { entries: [], ambiguous: [], refused: [], unmatched: [] };
  works.forEach((work, i) => {
    const match = matches[i] ?? { kind: 'unmatched' };
    if (match.kind === 'ambiguous') out.ambiguous.push({ work, docs: match.docs });
    else if (match.kind === 'unmatched') out.unmatched.push(work);
    else if (work.count === undefined) out.refused.push({ work, doc: match.doc, reason: work.refused ?? 'no count' });
    else {
      const held = best.get(match.doc);
      if (!held || work.count > held.count!) best.set(match.doc, work);
    }
  });
  for (const [doc, work] of best) out.entries.push(entryOf(doc, work, fetched));
  return out;
}

/**
 * The entry a work gives a paper it is known to be (a refresh by the work's id).
 * @example entryOf(42, work, new Date()) // { doc: 42, openalex: 'W1', count: 3, fetched: …, references: ['W2'] }
 */
export function entryOf(doc: number, work: CitedWork, fetched: Date): CitationEntry {
  return { doc, openalex: work.id, count: work.count!, fetched, references: work.references };
}
