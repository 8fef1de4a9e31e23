/**
 * Citations as both stores keep them (the interface is in `citations.ts`): what an entry must
 * be to be believed, how a batch becomes rows, and how a paper's references are kept. Each store
 * is only its SQL.
 *
 * Tables: `paper_citations`, a row per paper OpenAlex was asked about: the work's number
 * (`W2741809807` is kept as 2741809807; NULL for a miss), its count and when it was fetched; and
 * the works the paper references, indexed by work (`citation_refs`).
 *
 * *References, and what they cost.* A paper references ~40 works, most of which the library
 * will never hold, and any of which it may hold later: each is kept, so that the paper cited is
 * found whenever it is matched. At 1M papers that is 40M references. The obvious table, a row
 * per reference keyed (work, doc), costs ~20 bytes a reference in SQLite and ~72 in PostgreSQL
 * (tuple header, item pointer, and its key again in the index): 0.8 and 2.9 GB at 1M; and its
 * random inserts dirty most of its pages on every commit (95k papers' references took 14–26 s to
 * write in SQLite). So each store keeps a paper's references once, on a row of its own, and
 * indexes them by work with an inverted index, which appends and merges:
 * - SQLite: the list as a blob, ascending and delta-varint coded ({@link encodeWorks}, ~4 bytes a
 *   reference), and `citation_refs`, a contentless FTS5 table (`detail=none`: document numbers
 *   only) whose row is the paper's document and whose words are the works' numbers. A row is
 *   deleted by giving its words again, which the blob keeps (so no `contentless_delete`, which
 *   `sqlite3` shells before 3.43 cannot read).
 * - PostgreSQL: `citation_refs (doc, works bigint[])` with a GIN index (compressed posting
 *   lists), apart from `paper_citations` so that a refresh of counts rewrites narrow rows only.
 * Measured (`bench/citations.ts`, 95k papers, 3.8M references nearly all to distinct works, the
 * worst case for an index by work): SQLite 14.3 bytes a reference in all, written at 9,000
 * papers/s; PostgreSQL 48 bytes, 4,400 papers/s: ~0.6 and ~1.9 GB at 1M.
 * In-library links are not written anywhere: they are resolved when read (see `citations.ts`),
 * two index lookups a page, and nothing is left to bring up to date when a paper is matched
 * later, matched again to another work, or removed.
 */
import { openAlexNumber } from '../papers/ids.js';
import { MAX_CITATION_PAGE, MAX_CITED_BY, MAX_REFERENCES, type CitationEntry, type CitationStore, type CitationWrite, type FetchQuery, type PaperCitations } from './citations.js';

/** A paper's row (without its references): `openalex` and `cited_by` are NULL for a miss. Times are ISO strings in both stores. */
export interface CitationRow {
  doc: number;
  openalex: number | null;
  cited_by: number | null;
  fetched: string;
}

/** What a paper has stored, as the planner needs it: its row and its references (numbers, ascending). */
export interface StoredCitation {
  row: CitationRow;
  refs: readonly number[];
}

/** A row to write: its references as they end up (ascending), and those it had, for a store that indexes them separately. */
export interface CitationWriteRow extends CitationRow {
  openalex: number;
  cited_by: number;
  refs: number[];
  /** The references stored before this write (empty for a new row). */
  before: readonly number[];
}

/** What {@link planPut} says to write, and the report. */
export interface CitationPlan {
  /** One row per paper, as the batch leaves it, in the order the papers first came. */
  rows: CitationWriteRow[];
  report: CitationWrite;
}

/** An entry believed: its work and references as numbers. */
interface Checked {
  doc: number;
  openalex: number;
  count: number;
  fetched: string;
  /** Undefined: keep what is stored. */
  refs: number[] | undefined;
}

/**
 * Why an entry cannot be believed, or undefined: a document number, an OpenAlex work id, a
 * whole count from 0 to {@link MAX_CITED_BY}, a valid date, and references as a list.
 * @example entryProblem({ doc: 1, openalex: 'W1', count: -3, fetched: new Date() }) // 'the count -3 is not a whole number from 0 to 10000000'
 */
export function entryProblem(entry: CitationEntry): string | undefined {
  if (typeof entry !== 'object' || entry === null) return 'the entry is not an object';
  const e = entry as Partial<Record<keyof CitationEntry, unknown>>;
  if (!isDoc(e.doc)) return `the document number ${show(e.doc)} is not a whole number ≥ 1`;
  if (typeof e.openalex !== 'string' || openAlexNumber(e.openalex) === undefined) return `${show(e.openalex)} is not an OpenAlex work id (W and digits)`;
  if (typeof e.count !== 'number' || !Number.isInteger(e.count) || e.count < 0 || e.count > MAX_CITED_BY) {
    return `the count ${show(e.count)} is not a whole number from 0 to ${MAX_CITED_BY}`;
  }
  if (!(e.fetched instanceof Date) || Number.isNaN(e.fetched.getTime())) return `the fetch time ${show(e.fetched)} is not a date`;
  if (e.references !== undefined && !Array.isArray(e.references)) return 'the references are not a list';
  return undefined;
}

/**
 * The works a list of references names, as ascending unique numbers: at most
 * {@link MAX_REFERENCES}, the work itself left out; and how many of the list were dropped.
 * @example referenceNumbers(['W3', 'https://openalex.org/W1', 'W3', 'nonsense'], 9) // { refs: [1, 3], dropped: 2 }
 */
export function referenceNumbers(references: readonly unknown[], self: number): { refs: number[]; dropped: number } {
  const kept = new Set<number>();
  for (const ref of references) {
    if (kept.size === MAX_REFERENCES) break;
    const n = typeof ref === 'string' ? openAlexNumber(ref) : undefined;
    if (n !== undefined && n !== self) kept.add(n);
  }
  return { refs: [...kept].sort((a, b) => a - b), dropped: references.length - kept.size };
}

/**
 * Plans a batch of entries against what the store holds for their papers (`stored`, by
 * document) and which of them the library holds (`held`), with the same outcomes as one entry
 * after the other: each is refused, unchanged, or written over the state the one before left.
 * @example const plan = planPut(entries, storedRows, new Set([42]));
 */
export function planPut(entries: readonly CitationEntry[], stored: ReadonlyMap<number, StoredCitation>, held: ReadonlySet<number>): CitationPlan {
  const report: CitationWrite = { written: 0, unchanged: 0, countsChanged: [], refused: [], droppedReferences: 0 };
  const current = new Map<number, StoredCitation>(stored);
  const rows = new Map<number, CitationWriteRow>();
  for (const entry of entries) {
    const problem = entryProblem(entry);
    if (problem !== undefined || !held.has(entry.doc)) {
      report.refused.push({ doc: problem === undefined || isDoc(entry?.doc) ? entry.doc : 0, reason: problem ?? `the library holds no paper with document number ${entry.doc}` });
      continue;
    }
    const checked = check(entry);
    report.droppedReferences += checked.dropped;
    const was = current.get(checked.doc);
    const refs = checked.refs ?? (was ? [...was.refs] : []);
    const row: CitationRow = { doc: checked.doc, openalex: checked.openalex, cited_by: checked.count, fetched: checked.fetched };
    if (was && sameRow(was.row, row) && sameList(was.refs, refs)) {
      report.unchanged++;
      continue;
    }
    report.written++;
    current.set(row.doc, { row, refs });
    const first = rows.get(row.doc);
    rows.set(row.doc, { ...row, openalex: checked.openalex, cited_by: checked.count, refs, before: first ? first.before : (stored.get(row.doc)?.refs ?? []) });
  }
  for (const row of rows.values()) if (stored.get(row.doc)?.row.cited_by !== row.cited_by) report.countsChanged.push(row.doc);
  return { rows: [...rows.values()], report };
}

function check(entry: CitationEntry): Checked & { dropped: number } {
  const openalex = openAlexNumber(entry.openalex)!;
  const references = entry.references === undefined ? undefined : referenceNumbers(entry.references, openalex);
  return { doc: entry.doc, openalex, count: entry.count, fetched: entry.fetched.toISOString(), refs: references?.refs, dropped: references?.dropped ?? 0 };
}

function sameRow(a: CitationRow, b: CitationRow): boolean {
  return a.openalex === b.openalex && a.cited_by === b.cited_by && a.fetched === b.fetched;
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

/** Whether a value is a document number the stores can hold. */
export function isDoc(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/** The document numbers of a list that can be, without repeats (anything else names no paper). */
export function docList(docs: readonly unknown[]): number[] {
  return [...new Set(docs.filter(isDoc))];
}

/**
 * A work id as the store gives it back.
 * @example workId(2741809807) // 'W2741809807'
 */
export function workId(n: number): string {
  return `W${n}`;
}

/** A matched paper's row as its citations, or undefined for a miss. */
export function toCitations(row: CitationRow): PaperCitations | undefined {
  if (row.openalex === null || row.cited_by === null) return undefined;
  return { count: Number(row.cited_by), openalex: workId(Number(row.openalex)), fetched: row.fetched };
}

/** Rejects a page no store can answer (a negative offset, a fractional limit, more than {@link MAX_CITATION_PAGE}). */
export function checkCitationPage(page: { offset: number; limit: number }): void {
  if (!Number.isSafeInteger(page.offset) || page.offset < 0 || !Number.isSafeInteger(page.limit) || page.limit < 0 || page.limit > MAX_CITATION_PAGE) {
    throw new RangeError(`citation page: offset must be a whole number ≥ 0 and limit one from 0 to ${MAX_CITATION_PAGE} (got ${page.offset}, ${page.limit})`);
  }
}

/** Most documents one {@link CitationStore.toFetch} reads. */
export const MAX_FETCH_PAGE = 10_000;

/** Rejects a cursor no store can answer (a negative document, a limit past {@link MAX_FETCH_PAGE}). */
export function checkFetchQuery(query: FetchQuery): void {
  const { afterDoc, limit } = query;
  if (!Number.isSafeInteger(afterDoc) || afterDoc < 0 || !Number.isSafeInteger(limit) || limit < 0 || limit > MAX_FETCH_PAGE) {
    throw new RangeError(`citations to fetch: afterDoc must be a whole number ≥ 0 and limit one from 0 to ${MAX_FETCH_PAGE} (got ${afterDoc}, ${limit})`);
  }
  for (const date of [query.countsBefore, query.unmatchedBefore]) {
    if (date !== undefined && (!(date instanceof Date) || Number.isNaN(date.getTime()))) throw new RangeError(`citations to fetch: ${String(date)} is not a date`);
  }
}

/** Lists of papers in order, `c` being `paper_citations`: most cited first, ties by document number. */
export const MOST_CITED_FIRST = 'c.cited_by DESC, c.doc';

/**
 * A list of works as bytes: ascending numbers, each written as its difference from the one
 * before in LEB128 (7 bits a byte, the high bit set on all but a number's last byte). OpenAlex's
 * ids are ~10 digits, but a paper's references are close enough that differences take ~4 bytes.
 * @example encodeWorks([5, 300]) // <Buffer 05 a7 02>
 */
export function encodeWorks(works: readonly number[]): Buffer {
  const bytes: number[] = [];
  let previous = 0;
  for (const work of works) {
    let delta = work - previous;
    previous = work;
    while (delta >= 0x80) {
      bytes.push((delta % 0x80) | 0x80);
      delta = Math.floor(delta / 0x80);
    }
    bytes.push(delta);
  }
  return Buffer.from(bytes);
}

/**
 * The works {@link encodeWorks} wrote; bytes that end mid-number or overflow give what came
 * before them (the store wrote them, but a damaged file must not throw on every read).
 * @example decodeWorks(Buffer.from([5, 0xa7, 2])) // [5, 300]
 */
export function decodeWorks(bytes: Uint8Array | null | undefined): number[] {
  const works: number[] = [];
  if (!bytes) return works;
  let previous = 0;
  let delta = 0;
  let scale = 1;
  for (const byte of bytes) {
    delta += (byte & 0x7f) * scale;
    if (byte & 0x80) {
      scale *= 0x80;
      if (scale > 2 ** 56) return works;
      continue;
    }
    previous += delta;
    if (!Number.isSafeInteger(previous)) return works;
    works.push(previous);
    delta = 0;
    scale = 1;
  }
  return works;
}

function show(value: unknown): string {
  if (value instanceof Date) return String(value);
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
