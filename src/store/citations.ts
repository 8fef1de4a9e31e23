/**
 * Citations: for each library paper matched to an OpenAlex work, the work's id, how many works
 * cite it (`cited_by_count`), when that was fetched, and the works it references; and for the
 * papers OpenAlex was asked about without a match, when (so a sync does not ask again every
 * day). Kept by document number, beside the papers: a paper's record and content hash never
 * hold a count, so a re-import changes nothing here and a count changes nothing there.
 *
 * *References in the library* are resolved when read, both ways, from two indexes: the works a
 * paper references (→ the papers matched to them: "References in the library"), and the papers
 * that reference a work (→ "Cited by, in the library"). So a paper matched before the papers it
 * cites finds them as soon as they are matched, whichever comes first, and no link can go stale
 * when a match changes or a paper is removed. Every list is most cited first (ties by document).
 *
 * *A count is data, not trust.* {@link CitationStore.put} refuses, per entry, a count that is
 * negative, not an integer or past {@link MAX_CITED_BY}, an id that is not an OpenAlex work's
 * and a document the library does not hold; the rest of the batch goes in, in one transaction,
 * so a failed write loses no count that was there. A count that changes gives its paper a new
 * store generation (as any write of papers does), so every search index following the store
 * reads it (`IndexRow.citedBy`) through the machinery it already has.
 *
 * SQLite and PostgreSQL implement this interface over shared rules (`citationRows.ts`, which
 * also says how references are kept and what they cost at 1M papers); one contract suite
 * (`test/store/citations.contract.test.ts`) runs against both.
 */
import type { PaperCitations } from '../papers/model.js';

export type { PaperCitations };

/** Largest count believed: past it, a count is refused (the most cited works have ~300k). */
export const MAX_CITED_BY = 10_000_000;
/** Most references kept for one work; the rest are dropped and reported (OpenAlex's longest lists are a few thousand). */
export const MAX_REFERENCES = 10_000;
/** Most papers one page of {@link CitationStore.references} or {@link CitationStore.citedBy} holds. */
export const MAX_CITATION_PAGE = 1000;

/** What OpenAlex said of one library paper. */
export interface CitationEntry {
  /** The library paper's document number. */
  doc: number;
  /** The work it was matched to: `W2741809807` (or OpenAlex's URL of it). */
  openalex: string;
  /** The work's `cited_by_count`. */
  count: number;
  /** When OpenAlex said so. */
  fetched: Date;
  /**
   * The works it references (`referenced_works`: ids or URLs), in any order; duplicates and
   * anything that is not a work id are dropped. Undefined keeps the references stored (a
   * refresh that asked only for counts); `[]` says it references none.
   */
  references?: readonly string[];
}

/** What {@link CitationStore.put} did. */
export interface CitationWrite {
  /** Entries that changed what was stored (a new match, another count, id, date or references). */
  written: number;
  /** Entries that matched what was stored exactly. */
  unchanged: number;
  /** Documents whose count changed (or was first given): each now has a new generation. */
  countsChanged: number[];
  /** Entries refused, with why (`doc` 0 where the entry's is not a document number); nothing of them was written, and what was stored stays. */
  refused: Array<{ doc: number; reason: string }>;
  /** Reference ids dropped: not an OpenAlex work's, or past {@link MAX_REFERENCES}. */
  droppedReferences: number;
}

/** A paper in a list of references or citing papers, with its count (the order's key). */
export interface CitedPaper {
  doc: number;
  count: number;
}

/** A page of such a list, most cited first, and how many there are in all. */
export interface CitationPage {
  entries: CitedPaper[];
  total: number;
}

/** A paper a sync should ask OpenAlex about ({@link CitationStore.toFetch}). */
export interface FetchTarget {
  doc: number;
  /** The work it was matched to, if it was (a refresh can ask for it by id); absent for a paper never matched. */
  openalex?: string;
  /** When it was last asked about (a match's count, or a miss); absent for a paper never asked about. */
  fetched?: string;
}

/** What {@link CitationStore.toFetch} looks for, in document order after `afterDoc`. */
export interface FetchQuery {
  /** The cursor: the last document of the previous page (0 to start). */
  afterDoc: number;
  limit: number;
  /** Also matched papers whose count was fetched before this (a refresh); none without it. */
  countsBefore?: Date;
  /** Also papers asked about without a match before this (ask again); none without it. */
  unmatchedBefore?: Date;
}

/** How much is kept ({@link CitationStore.stats}). */
export interface CitationStats {
  /** Papers matched to a work, with a count. */
  matched: number;
  /** Papers asked about without a match. */
  unmatched: number;
  /** References kept, in the library or not. */
  references: number;
}

export interface CitationStore {
  /**
   * Stores what OpenAlex said of a batch of papers, in one transaction: each entry replaces the
   * paper's match, count and date (and its references, if given). A paper named twice keeps the
   * last entry. Entries that cannot be believed or name no paper are refused and reported, the
   * rest go in; the same batch again changes nothing. Papers whose count changed get a new
   * generation, which search indexes following the store pick up.
   * @example await citations.put([{ doc: 42, openalex: 'W2741809807', count: 12345, fetched: new Date(), references: ['W1', 'W2'] }])
   */
  put(entries: readonly CitationEntry[]): Promise<CitationWrite>;
  /**
   * Records that these papers were asked about and OpenAlex held no work for them (or none
   * that could be told apart), so a sync need not ask again before `unmatchedBefore`. A paper
   * that has a match keeps it: a miss never loses a count. Resolves how many were recorded.
   * @example await citations.markUnmatched([7, 9], new Date())
   */
  markUnmatched(docs: readonly number[], at: Date): Promise<number>;
  /**
   * Forgets what is kept of these papers (a match found wrong): their counts leave the index
   * under a new generation. Resolves how many had anything kept.
   * @example await citations.remove([42])
   */
  remove(docs: readonly number[]): Promise<number>;

  /**
   * The counts of these papers, in one read; papers without a match are left out.
   * @example (await citations.counts([42])).get(42) // { count: 12345, openalex: 'W2741809807', fetched: '2026-…' }
   */
  counts(docs: readonly number[]): Promise<Map<number, PaperCitations>>;
  /**
   * "References in the library": the library's papers that `doc` references, most cited first.
   * @example await citations.references(42, { offset: 0, limit: 5 }) // { entries: [{ doc: 7, count: 90210 }, …], total: 12 }
   */
  references(doc: number, page: { offset: number; limit: number }): Promise<CitationPage>;
  /**
   * "Cited by, in the library": the library's papers that reference `doc`, most cited first.
   * @example await citations.citedBy(7, { offset: 0, limit: 5 })
   */
  citedBy(doc: number, page: { offset: number; limit: number }): Promise<CitationPage>;
  /**
   * The papers a sync should ask about, in document order after `afterDoc` (a cursor that
   * resumes after a kill): those never asked about, and as the query says, those whose count
   * or miss is older than a date.
   * @example await citations.toFetch({ afterDoc: 0, limit: 50, countsBefore: thirtyDaysAgo })
   */
  toFetch(query: FetchQuery): Promise<FetchTarget[]>;
  /**
   * The library's papers matched to these OpenAlex works, in one read (ids as `W…` or URLs;
   * keys as given). A work the library holds twice (two records of one paper) names both.
   * @example (await citations.docsByOpenAlex(['W2741809807'])).get('W2741809807') // [42]
   */
  docsByOpenAlex(ids: readonly string[]): Promise<Map<string, number[]>>;
  /** How many papers are matched and unmatched, and how many references are kept. */
  stats(): Promise<CitationStats>;
}
