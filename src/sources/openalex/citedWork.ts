/**
 * What citations need of an OpenAlex work, read from the API's lists (`GET /works?filter=…`,
 * `{"meta": {…, "next_cursor": …}, "results": [work, …]}`), its single works (`GET
 * /works/doi:…`) and the snapshot's works files (one work a line): its id, what matching reads
 * (DOI, arXiv id, title, year, authors), `cited_by_count` and `referenced_works`. Pure: the
 * parsers take what came over the wire or out of the file and never throw anything but
 * {@link OpenAlexError} for a body that is not what OpenAlex sends.
 *
 * *A count is data, not trust*: a `cited_by_count` that is missing, not a number, negative, not
 * whole or past {@link MAX_CITED_BY} is not coerced; the work carries why it was refused, and
 * the caller reports it and writes nothing of it.
 */
import { normalizeArxivId, normalizeDoi, normalizeOpenAlexId } from '../../papers/ids.js';
import type { WorkKeys } from '../../papers/matchWork.js';
import { MAX_CITED_BY, MAX_REFERENCES } from '../../store/citations.js';
import { collapseWhitespace } from '../../text.js';
import { OpenAlexError } from './work.js';

/** Authors read of a work: matching compares the first few, and collaboration papers list thousands. */
const MAX_AUTHORS_READ = 100;
/** Works read of one page: OpenAlex's pages hold at most 200. */
const MAX_PAGE_WORKS = 1000;

/** A work as citations read it. */
export interface CitedWork extends WorkKeys {
  /** `W2741809807`. */
  id: string;
  doi?: string;
  arxiv?: string;
  title: string;
  year?: number;
  authors: string[];
  /** `cited_by_count`, where it can be believed. */
  count?: number;
  /** Why `cited_by_count` was refused (set exactly when {@link count} is not). */
  refused?: string;
  /** `referenced_works` as given (ids or URLs; the store drops what is not a work's). */
  references: string[];
}

/** A page of a list: its works, what could not be read of it, and where the next page starts. */
export interface WorksPage {
  works: CitedWork[];
  /** Results that are not works (no id), by position. */
  problems: Array<{ index: number; reason: string }>;
  /** `meta.count`: how many works the query matches in all, when said. */
  total?: number;
  /** `meta.next_cursor`, when there is a next page (cursor paging). */
  nextCursor?: string;
}

/**
 * Whether a count can be believed: a whole number from 0 to {@link MAX_CITED_BY}; else why not.
 * @example countProblem(-3) // 'cited_by_count -3 is not a whole number from 0 to 10,000,000'
 * @example countProblem(12) // undefined
 */
export function countProblem(value: unknown): string | undefined {
  if (value === undefined || value === null) return 'the work has no cited_by_count';
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_CITED_BY) return undefined;
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 30)) : typeof value === 'number' ? String(value) : typeof value;
  return `cited_by_count ${shown} is not a whole number from 0 to ${MAX_CITED_BY.toLocaleString('en-US')}`;
}

/**
 * Reads a work (a parsed JSON value) as citations need it.
 * @example citedWorkOf({ id: 'https://openalex.org/W1', display_name: 'T', cited_by_count: 3, referenced_works: [] }) // { id: 'W1', title: 'T', count: 3, … }
 */
export function citedWorkOf(value: unknown): CitedWork {
  if (!isObject(value)) throw new OpenAlexError('expected an OpenAlex work (a JSON object)');
  const id = typeof value['id'] === 'string' ? normalizeOpenAlexId(value['id']) : undefined;
  if (!id) throw new OpenAlexError(`expected an OpenAlex work id (https://openalex.org/W…), got ${describe(value['id'])}`);
  const title = collapseWhitespace(str(value['display_name']) ?? str(value['title']) ?? '');
  const doi = normalizeDoi(str(value['doi']) ?? '');
  const year = value['publication_year'];
  const arxiv = arxivOfLocations(value);
  const count = value['cited_by_count'];
  const refused = countProblem(count);
  return {
    id,
    ...(doi && { doi }),
    ...(arxiv && { arxiv }),
    title,
    ...(typeof year === 'number' && Number.isInteger(year) && year >= 1000 && year <= 3000 && { year }),
    authors: authorsOf(value['authorships']),
    ...(refused === undefined ? { count: count as number } : { refused }),
    references: referencesOf(value['referenced_works']),
  };
}

/**
 * Parses a page of `GET /works?…`. A result that is not a work is a problem of the page, not a
 * failure of it; a body that is not such a page at all throws {@link OpenAlexError}.
 * @example parseWorksPage('{"meta":{"count":1,"next_cursor":null},"results":[{"id":"https://openalex.org/W1","cited_by_count":0}]}').works[0].id // 'W1'
 */
export function parseWorksPage(body: string): WorksPage {
  const value = parseJson(body);
  if (!isObject(value) || !Array.isArray(value['results'])) throw new OpenAlexError(`expected a list of works from OpenAlex ({"results": […]}), got ${start(body)}`);
  const meta = isObject(value['meta']) ? value['meta'] : {};
  const page: WorksPage = { works: [], problems: [] };
  value['results'].slice(0, MAX_PAGE_WORKS).forEach((result, index) => {
    try {
      page.works.push(citedWorkOf(result));
    } catch (error) {
      if (!(error instanceof OpenAlexError)) throw error;
      page.problems.push({ index, reason: error.message });
    }
  });
  const total = meta['count'];
  if (typeof total === 'number' && Number.isSafeInteger(total) && total >= 0) page.total = total;
  const cursor = meta['next_cursor'];
  if (typeof cursor === 'string' && cursor !== '' && cursor.length < 2000) page.nextCursor = cursor;
  return page;
}

/**
 * Parses one work (`GET /works/<id>` or `/works/doi:<doi>`).
 * @example parseCitedWork('{"id":"https://openalex.org/W1","cited_by_count":2}').count // 2
 */
export function parseCitedWork(body: string): CitedWork {
  return citedWorkOf(parseJson(body));
}

/** The authors' names: each authorship's author, or the name as printed. */
function authorsOf(authorships: unknown): string[] {
  if (!Array.isArray(authorships)) return [];
  const out: string[] = [];
  for (const a of authorships.slice(0, MAX_AUTHORS_READ)) {
    if (!isObject(a)) continue;
    const name = (isObject(a['author']) ? str(a['author']['display_name']) : undefined) ?? str(a['raw_author_name']);
    if (name) out.push(collapseWhitespace(name).slice(0, 300));
  }
  return out;
}

/** The works referenced, as strings (at most a few more than the store keeps). */
function referencesOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const ref of value) {
    if (out.length > MAX_REFERENCES) break;
    if (typeof ref === 'string' && ref.length < 100) out.push(ref);
  }
  return out;
}

/** The arXiv id of the first of the work's locations that is arXiv. */
function arxivOfLocations(work: Record<string, unknown>): string | undefined {
  const locations = [work['primary_location'], ...(Array.isArray(work['locations']) ? work['locations'] : [])];
  for (const location of locations) {
    if (!isObject(location)) continue;
    for (const key of ['landing_page_url', 'pdf_url']) {
      const match = /arxiv\.org\/(?:abs|pdf)\/([^?#]+?)(?:\.pdf)?$/i.exec(str(location[key]) ?? '');
      const id = match && normalizeArxivId(match[1]!);
      if (id) return id;
    }
  }
  return undefined;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new OpenAlexError(`expected JSON from OpenAlex, got ${start(body)}`);
  }
}

function start(body: string): string {
  const text = collapseWhitespace(body.slice(0, 80));
  return text === '' ? 'an empty body' : JSON.stringify(text);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  return value === null ? 'null' : typeof value;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
