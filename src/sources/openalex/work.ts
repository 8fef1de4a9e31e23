/**
 * A pure parser of an OpenAlex work (`GET /works/doi:<doi>`) and its mapping to a paper record.
 * OpenAlex gives abstracts as an inverted index (`{"word": [positions]}`), rebuilt here into
 * text.
 */
import { normalizeArxivId, normalizeDoi } from '../../papers/ids.js';
import type { PaperRecordInput } from '../../papers/model.js';
import { MAX_AUTHORS, defined, httpUrl, validate, type MapResult } from '../../ingest/formats/fields.js';
import { collapseWhitespace } from '../../text.js';

export interface OpenAlexWork {
  /** `https://openalex.org/W2741809807`. */
  id: string;
  doi?: string;
  title: string;
  authors: string[];
  abstract: string;
  year?: number;
  /** `YYYY-MM-DD`. */
  date?: string;
  /** Where it was published: a journal, proceedings or repository name. */
  venue?: string;
  landingPage?: string;
  pdf?: string;
  /** The arXiv id, when one of the work's locations is arXiv. */
  arxiv?: string;
  keywords: string[];
  /** OpenAlex's topic for the work, e.g. `Machine Learning`. */
  topic?: string;
}

/** The body is not an OpenAlex work. */
export class OpenAlexError extends Error {
  override readonly name = 'OpenAlexError';
}

/** Largest position an inverted index may name: abstracts are never near this long. */
const MAX_POSITION = 20_000;

/**
 * The abstract an inverted index stands for: each word at its positions, in order.
 * @example abstractFromInvertedIndex({ Deep: [0], nets: [1, 3], train: [2] }) // 'Deep nets train nets'
 */
export function abstractFromInvertedIndex(index: unknown): string {
  if (typeof index !== 'object' || index === null || Array.isArray(index)) return '';
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index as Record<string, unknown>)) {
    if (!Array.isArray(positions)) continue;
    for (const p of positions) if (Number.isInteger(p) && p >= 0 && p < MAX_POSITION) words[p as number] = word;
  }
  return collapseWhitespace(words.filter((w) => w !== undefined).join(' '));
}

/**
 * Parses a work.
 * @example parseWork('{"id":"https://openalex.org/W1","display_name":"T","authorships":[]}').title // 'T'
 */
export function parseWork(body: string): OpenAlexWork {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new OpenAlexError(`expected a work as JSON from OpenAlex, got ${JSON.stringify(collapseWhitespace(body.slice(0, 80)))}`);
  }
  return workOf(value);
}

/**
 * Reads a work already parsed from JSON (a line of a works file).
 * @example workOf({ id: 'https://openalex.org/W1', display_name: 'T', authorships: [] }).title // 'T'
 */
export function workOf(value: unknown): OpenAlexWork {
  if (!isObject(value) || typeof value['id'] !== 'string') throw new OpenAlexError('expected a work from OpenAlex (an object with an "id")');
  const title = collapseWhitespace(str(value['title']) ?? str(value['display_name']) ?? '');
  const authorships = Array.isArray(value['authorships']) ? value['authorships'] : [];
  const authors = authorships.flatMap((a) => {
    const name = isObject(a) && isObject(a['author']) ? str(a['author']['display_name']) : isObject(a) ? str(a['raw_author_name']) : undefined;
    return name ? [collapseWhitespace(name)] : [];
  });
  const primary = isObject(value['primary_location']) ? value['primary_location'] : {};
  const source = isObject(primary['source']) ? primary['source'] : {};
  const locations = Array.isArray(value['locations']) ? value['locations'].filter(isObject) : [];
  const arxiv = [primary, ...locations].map((l) => arxivIdOf(str(l['landing_page_url']) ?? str(l['pdf_url']))).find(Boolean);
  const keywords = Array.isArray(value['keywords']) ? value['keywords'].flatMap((k) => (isObject(k) && str(k['display_name']) ? [str(k['display_name'])!] : [])) : [];
  const topic = isObject(value['primary_topic']) ? str(value['primary_topic']['display_name']) : undefined;
  const year = value['publication_year'];
  const date = str(value['publication_date']);
  const doi = normalizeDoi(str(value['doi']) ?? '');
  const venue = str(source['display_name']);
  const landingPage = httpUrl(str(primary['landing_page_url']));
  const pdf = httpUrl(str(primary['pdf_url']));
  return {
    id: value['id'],
    ...(doi && { doi }),
    title,
    authors,
    abstract: abstractFromInvertedIndex(value['abstract_inverted_index']),
    ...(typeof year === 'number' && Number.isInteger(year) && { year }),
    ...(date && /^\d{4}-\d{2}-\d{2}$/.test(date) && { date }),
    ...(venue && { venue: collapseWhitespace(venue) }),
    ...(landingPage && { landingPage }),
    ...(pdf && { pdf }),
    ...(arxiv && { arxiv }),
    keywords,
    ...(topic && { topic }),
  };
}

/**
 * A work as a paper record: the DOI as its key, arXiv's as venue `arXiv` for a preprint.
 * @example workToRecord(parseWork(body)) // { ok: true, record: { externalIds: { doi: '10.1038/nature14539' }, venue: 'Nature', … } }
 */
export function workToRecord(work: OpenAlexWork): MapResult {
  const venue = work.venue && /arxiv/i.test(work.venue) ? 'arXiv' : (work.venue ?? '');
  const record: PaperRecordInput = {
    title: work.title,
    authors: work.authors.slice(0, MAX_AUTHORS),
    abstract: work.abstract,
    venue: venue.slice(0, 200),
    year: work.year !== undefined && work.year >= 1900 && work.year <= 2100 ? work.year : null,
    keywords: work.keywords.slice(0, 200),
    labels: work.topic ? [work.topic] : [],
    links: defined({ page: work.landingPage ?? (work.doi ? `https://doi.org/${work.doi}` : undefined), pdf: work.pdf }),
    externalIds: defined({ doi: work.doi, arxiv: work.arxiv }),
    ...(work.date && { published: work.date }),
  };
  return validate(record);
}

function arxivIdOf(url: string | undefined): string | undefined {
  const match = url && /arxiv\.org\/(?:abs|pdf)\/([^?#]+?)(?:\.pdf)?$/i.exec(url);
  return match ? normalizeArxivId(match[1]!) : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
