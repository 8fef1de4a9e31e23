/**
 * PaperStore: the library's papers, keyed by a stable id, with every other identifier a paper has
 * (arXiv id, DOI, OpenReview id, title + first author, page and pdf URLs) filed as an alias so
 * the same paper from two sources is one record, and two papers with different arXiv ids, DOIs
 * or OpenReview ids are never one, whatever link or title they share. Two implementations, SQLite (`sqlite/papers.ts`)
 * and PostgreSQL (`postgres/papers.ts`), share the merge rules (`paperRecords.ts`) and this
 * interface; the contract suite (`test/store/papers.contract.test.ts`) holds them to it.
 *
 * Every change of papers happens under a *generation*: a counter that grows by one per write
 * that changed papers. Each row records the generation that last wrote it, and each removal
 * leaves a tombstone with its generation, so a search index at generation G catches up by
 * reading the rows with `gen` > G and masking the tombstones', wherever it runs.
 */
import type { Paper, PaperRecord } from '../papers/model.js';
import type { PaperRef } from '../papers/ids.js';

export type UpsertOutcome = 'added' | 'updated' | 'unchanged';

/** The kinds of identifier that name one paper only (see `STRONG_KINDS` in paperRecords.ts). */
export type StrongKind = 'arxiv' | 'doi' | 'openreview';

/**
 * Why a record did not merge into a paper one of its identifiers names. With `paper` and
 * `differs`: that paper has another arXiv id, DOI or OpenReview id (or, when all they share is a
 * link, another title). Without: `alias` is a link already known to be shared.
 */
export interface KeptApart {
  alias: string;
  paper?: string;
  differs?: StrongKind | 'title';
}

/** A paper's stored columns, as both stores write them (`toColumns` in paperRecords.ts): lists and maps as JSON text, times as ISO strings. */
export interface PaperColumns {
  id: string;
  title: string;
  authors: string;
  abstract: string;
  venue: string;
  year: number | null;
  status: string;
  topics: string;
  keywords: string;
  labels: string;
  links: string;
  external_ids: string;
  published: string | null;
  /** The authors' TL;DR, where the venue has one (OpenReview). */
  tldr: string | null;
  /** Tells whether a merge changed anything. */
  content_hash: string;
}

/**
 * What a record needs to become a new paper, worked out ahead (off the import thread): its
 * identifiers, the id it would get, its topics and the row it would be stored as. A record that
 * merges into a stored paper is planned again from the stored row, with these topics when the
 * merge leaves the text they come from as it was.
 */
export interface PreparedRecord {
  aliases: string[];
  id: string;
  topics: string[];
  columns: PaperColumns;
}

export interface UpsertOptions {
  /** Where the record came from, e.g. `paperlists:icml2019`; a record from the paper's own source replaces its fields. */
  source: string;
  /** Topic ids for the merged paper (the taxonomy's classifier). */
  classify: (paper: Omit<Paper, 'id' | 'topics' | 'firstSeen'>) => string[];
  now: Date;
  /** A record's identifiers, id and new-paper row worked out ahead (`prepareRecord` in paperRecords.ts), where known. */
  prepared?: (record: PaperRecord) => PreparedRecord | undefined;
}

/**
 * What became of one record: its outcome, the paper's id and document number, and the paper it
 * was kept apart from, if one of its identifiers named a paper it differs from; or why the store
 * refused it.
 */
export type UpsertResult = { outcome: UpsertOutcome; id: string; doc: number; apart?: KeptApart } | { refused: string };

/** The columns the search index is built from, one row a paper. */
export interface IndexRow {
  doc: number;
  id: string;
  title: string;
  authors: string[];
  abstract: string;
  keywords: string[];
  venue: string;
  year: number | null;
  status: string;
  topics: string[];
  firstSeen: string;
  /**
   * How many works cite it (OpenAlex's `cited_by_count`, `citations.ts`), or null where the
   * library has no count. A changed count is a write of the paper: a new generation. Search
   * weighs it into broad queries (`search/standing.ts`).
   */
  citedBy: number | null;
}

/** A paper with its document number: the handle search results, cards and buttons use. */
export interface StoredPaper {
  doc: number;
  paper: Paper;
}

/** The writes of one transaction (see {@link PaperStore.write}). */
export interface PaperWriter {
  /**
   * Adds records as new papers, or merges each into the paper that shares one of its
   * identifiers, with the same outcomes as one after the other (a later record sees the earlier
   * ones). Re-adding what is there changes nothing and reports `unchanged`.
   * @example await tx.upsertBatch(records, { source: 'paperlists:icml2019', classify, now })
   */
  upsertBatch(records: readonly PaperRecord[], options: UpsertOptions): Promise<UpsertResult[]>;
  /** The paper filed under an identifier, as this transaction sees it. */
  findByRef(ref: PaperRef): Promise<Paper | undefined>;
  /**
   * Removes a paper and the identifiers filed for it (a source withdrew it), under this write's
   * generation, leaving a tombstone so that search indexes following the store mask it;
   * resolves whether there was such a paper.
   */
  remove(id: string): Promise<boolean>;
  setMeta(key: string, value: string): Promise<void>;
  /**
   * Writes a harvest's state (see `harvests.ts`) in this transaction, so that it commits with the
   * page of papers it describes.
   * @example await tx.putHarvest('arxiv-oai:cs:2024-01-01..:cs.LG', 'arxiv-oai', { token }, now)
   */
  putHarvest(key: string, source: string, state: unknown, now: Date): Promise<void>;
}

/** What {@link PaperStore.upgradeText} did to a library written by an older version. */
export interface TextUpgrade {
  /** The text normalization the library was written with, and the current one. */
  from: number;
  to: number;
  papers: number;
  /** Papers whose title, authors or abstract held LaTeX, now decoded. */
  decoded: number;
  /** Title aliases whose key changed. */
  aliases: number;
  /** Recomputed aliases another paper already had: they stay with it (two papers now read alike). */
  shared: number;
}

/** The meta key recording the text normalization (`TEXT_VERSION` in `text.ts`) the stored text and alias keys were made with. */
export const TEXT_VERSION_KEY = 'text_version';

/** What {@link PaperStore.upgradeStatuses} did to a library written by an older version. */
export interface StatusUpgrade {
  /** The status vocabulary the library was written with (0: before statuses were put in one), and the current one. */
  from: number;
  to: number;
  /** Papers whose status changed. */
  papers: number;
  /** Each stored status put in the current vocabulary: [as stored, now, papers]. */
  renamed: Array<[string, string, number]>;
}

/** The meta key recording the status vocabulary (`STATUS_VERSION` in `papers/status.ts`) the stored statuses are in. */
export const STATUS_VERSION_KEY = 'status_version';

export interface PaperStore {
  count(): Promise<number>;
  /** Papers per status (`''` for none), most common first. */
  statusCounts(): Promise<Array<[string, number]>>;
  /** The generation of the last write that changed papers (0 for none). */
  generation(): Promise<number>;
  getMeta(key: string): Promise<string | undefined>;
  setMeta(key: string, value: string): Promise<void>;
  get(id: string): Promise<Paper | undefined>;
  /** The document number of the paper with `id`. */
  docOf(id: string): Promise<number | undefined>;
  /** Papers by document number, in one read; numbers without a paper are left out. */
  papersByDocs(docs: readonly number[]): Promise<Map<number, Paper>>;
  /** Papers by id, with their document numbers, in one read. */
  papersByIds(ids: readonly string[]): Promise<Map<string, StoredPaper>>;
  /** Just the document numbers of the ids held (a list's papers, without reading the papers), in one read. */
  docsOf(ids: readonly string[]): Promise<Map<string, number>>;
  /** Just the abstracts, for phrase checks over many candidates, in one read. */
  abstractsOf(docs: readonly number[]): Promise<Map<number, string>>;
  /** The paper filed under an identifier (arXiv id, DOI, OpenReview id or one of its URLs). */
  findByRef(ref: PaperRef): Promise<StoredPaper | undefined>;
  /**
   * The papers filed under identifiers (alias keys as the store files them: `arxiv:…`, `doi:…`,
   * `title:<title>|<first author's last word>`, `url:…`), or whose id they are, in one read;
   * keys that name no paper are left out. What matching an OpenAlex work reads (`papers/matchWork.ts`).
   * @example (await store.papersByAliases(['doi:10.1038/nature14539'])).get('doi:10.1038/nature14539')?.doc
   */
  papersByAliases(aliases: readonly string[]): Promise<Map<string, StoredPaper>>;
  /** The paper whose normalized title and first author match, if the store has one. */
  findByTitle(title: string, firstAuthor: string | undefined): Promise<Paper | undefined>;

  /**
   * Runs `fn` in one transaction: all of its writes land, or none do; papers it changes get one
   * new generation (none when nothing changed), and instances following the store hear of it.
   * `fn` must await only the writer's methods, and may be run again from the start (PostgreSQL,
   * after a lost connection), so it keeps its effects inside the store until it returns.
   * @example const results = await store.write((tx) => tx.upsertBatch(records, options));
   */
  write<T>(fn: (tx: PaperWriter) => Promise<T>): Promise<T>;
  /**
   * Recomputes every paper's topics (after the taxonomy changed); returns how many changed.
   * One transaction, and a generation only if something changed.
   */
  reclassify(classify: UpsertOptions['classify']): Promise<number>;
  /**
   * Brings a library written with an older text normalization (`TEXT_VERSION` in `text.ts`) up to date,
   * in one transaction: decodes the LaTeX left in stored titles, authors and abstracts
   * (recomputing those papers' topics, under a new generation), and recomputes the title
   * aliases, whose keys hold folded titles and names, so that new records still find the
   * papers they belong to. Resolves undefined when there was nothing to do (the library is
   * current, new and empty, or written by a newer version, which is left as it is).
   * @example const upgrade = await store.upgradeText(classify);
   */
  upgradeText(classify: UpsertOptions['classify']): Promise<TextUpgrade | undefined>;
  /**
   * Puts the statuses of a library written with an older status vocabulary (`STATUS_VERSION` in
   * `papers/status.ts`; before it, statuses were stored as each source wrote them: "Reject",
   * "Withdraw", "Active") in the current one, in one transaction, under a new generation for the
   * papers it changes (topics stay: they do not depend on the status). Resolves undefined when no
   * status changed; a library written by a newer version is left as it is.
   * @example const upgrade = await store.upgradeStatuses(); // { from: 0, to: 1, papers: 825, renamed: [['Reject', 'Rejected', 753], …] }
   */
  upgradeStatuses(): Promise<StatusUpgrade | undefined>;

  /** Every paper in document order, with the fields the search index needs, read in pages. */
  rowsForIndex(): AsyncIterable<IndexRow>;
  /**
   * The papers written in generations (from, to], in document order, at most `limit` of them
   * after document `afterDoc`: what a search index at generation `from` lacks.
   * @example await store.rowsChanged(41, await store.generation(), 0, 500)
   */
  rowsChanged(from: number, to: number, afterDoc: number, limit: number): Promise<IndexRow[]>;
  /** Documents of papers removed in generations (from, to] (their tombstones): what an index at `from` must mask. */
  deletedDocs(from: number, to: number): Promise<number[]>;
  /**
   * How many papers were written, and how many removed, after generation `from`; counting stops
   * past `limit`, so that asking "more than N?" costs N at most.
   */
  countChanged(from: number, limit?: number): Promise<number>;

  /** Closes what this store opened (the in-memory demo store's database). */
  close(): Promise<void>;
}

/** How many rows a page of {@link PaperStore.rowsForIndex} reads. */
export const INDEX_PAGE_ROWS = 5000;
