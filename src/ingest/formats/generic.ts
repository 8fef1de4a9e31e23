/**
 * Records in Paper Scout's own terms (JSON array, JSON Lines or CSV): the model's field names
 * plus common aliases (`author`, `url`, `github`, …). Lenient about names, strict about types:
 * a year of "abc" or an arXiv id given as a number rejects the record with a reason.
 */
import type { PaperRecordInput } from '../../papers/model.js';
import { normalizeArxivId, normalizeDoi, normalizeOpenReviewId } from '../../papers/ids.js';
import { collapseWhitespace } from '../../text.js';
import { FormatError } from '../types.js';
import {
  FieldError, MAX_AUTHORS, asFields, defined, guard, httpUrl, listOf, pick, text, textOf, unique, validate,
  type Fields, type Found, type MapResult,
} from './fields.js';

/**
 * Maps one generic record. `fileKey` (the file's name without extension) prefixes the record's
 * own `id` into a source key when it has no arXiv id, DOI or OpenReview id. `topics` is ignored:
 * the store computes topics.
 * @example
 * mapGeneric({ title: 'Attention Is All You Need', authors: 'Ashish Vaswani; Noam Shazeer', year: '2017', id: 7 }, 'mine')
 * // { ok: true, record: { sourceKey: 'mine:7', authors: ['Ashish Vaswani', 'Noam Shazeer'], year: 2017, … } }
 */
export function mapGeneric(value: unknown, fileKey: string): MapResult {
  return guard(() => {
    const fields = asFields(value);
    const links = nested(fields, 'links');
    const ids = nested(fields, 'externalIds');
    const externalIds = defined({
      arxiv: identifier(pick(ids, 'arxiv') ?? pick(fields, 'arxiv'), normalizeArxivId),
      doi: identifier(pick(ids, 'doi') ?? pick(fields, 'doi'), (raw) => normalizeDoi(raw.replace(/\s+/g, ''))),
      openreview: identifier(pick(ids, 'openreview') ?? pick(fields, 'openreview'), normalizeOpenReviewId),
    });
    const id = text(fields, 'id', { numbers: true });
    const hasExternalId = Object.keys(externalIds).length > 0;
    const published = date(pick(fields, 'published', 'date'));
    // The optional fields are set after the literal, not spread into its start: a spread before
    // other properties makes V8 define each of them through the runtime (~12 µs a record), and
    // zod then reads that object at half speed.
    const record: PaperRecordInput = {
      title: collapseWhitespace(textOf(pick(fields, 'title')) ?? ''),
      authors: unique(listOf(pick(fields, 'authors', 'author'), ';')).slice(0, MAX_AUTHORS),
      abstract: collapseWhitespace(textOf(pick(fields, 'abstract', 'summary')) ?? ''),
      venue: collapseWhitespace(text(fields, 'venue') ?? ''),
      year: year(pick(fields, 'year')),
      status: collapseWhitespace(text(fields, 'status') ?? ''),
      keywords: unique(listOf(pick(fields, 'keywords'), ';')),
      labels: unique(listOf(pick(fields, 'labels'), ';')),
      links: defined({
        page: link(pick(links, 'page') ?? pick(fields, 'page', 'url', 'site')),
        pdf: link(pick(links, 'pdf') ?? pick(fields, 'pdf')),
        code: link(pick(links, 'code') ?? pick(fields, 'code', 'github')),
        project: link(pick(links, 'project') ?? pick(fields, 'project')),
      }),
      externalIds,
    };
    if (id && !hasExternalId) record.sourceKey = `${fileKey}:${id}`;
    if (published) record.published = published;
    return validate(record);
  });
}

/** A year given as a whole number or as digits in a string ("2024"). */
function year(found: Found | undefined): number | null {
  if (found === undefined) return null;
  const { key, value } = found;
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{4}\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(number)) throw new FieldError(key, `expected a year such as 2024, got ${JSON.stringify(value)}`);
  return number;
}

function link(found: Found | undefined): string | undefined {
  return httpUrl(textOf(found));
}

/** An identifier in canonical form; one that does not parse is dropped, like a broken link. */
function identifier(found: Found | undefined, normalize: (raw: string) => string | undefined): string | undefined {
  const raw = textOf(found);
  return raw ? normalize(raw) : undefined;
}

function nested(fields: Fields, key: string): Fields {
  const value = fields[key];
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Fields;
  throw new FieldError(key, 'expected an object');
}

/** An ISO date (YYYY-MM-DD) from an ISO date or time or any date `Date.parse` reads. */
function date(found: Found | undefined): string | undefined {
  const value = textOf(found);
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return value.slice(0, 10);
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new FieldError(found!.key, `expected a date such as 2024-01-31, got ${JSON.stringify(value)}`);
  return new Date(time).toISOString().slice(0, 10);
}

/**
 * Column names other tools give the fields (Zotero, Scopus, Google Scholar exports, hand-made
 * spreadsheets), by their comparison form (lowercase letters and digits), and the field each is.
 */
const COLUMN_ALIASES: ReadonlyMap<string, string> = new Map(Object.entries({
  title: 'title', titles: 'title', papertitle: 'title', articletitle: 'title', documenttitle: 'title',
  authors: 'authors', author: 'authors', authornames: 'authors', authorfullnames: 'authors', authorlist: 'authors',
  abstract: 'abstract', abstracts: 'abstract', summary: 'abstract', summaries: 'abstract', abstractnote: 'abstract',
  venue: 'venue', venues: 'venue', conference: 'venue', journal: 'venue', booktitle: 'venue', proceedings: 'venue',
  sourcetitle: 'venue', publicationtitle: 'venue', publication: 'venue',
  year: 'year', years: 'year', publicationyear: 'year', pubyear: 'year', yearpublished: 'year',
  keywords: 'keywords', keyword: 'keywords', authorkeywords: 'keywords', tags: 'keywords', manualtags: 'keywords',
  url: 'url', urls: 'url', link: 'url', paperurl: 'url', landingpage: 'url', page: 'page', site: 'site',
  pdf: 'pdf', pdfurl: 'pdf', pdflink: 'pdf', code: 'code', codeurl: 'code', github: 'github', repository: 'code',
  project: 'project', projectpage: 'project', projecturl: 'project',
  doi: 'doi', arxiv: 'arxiv', arxivid: 'arxiv', eprint: 'arxiv', openreview: 'openreview', openreviewid: 'openreview',
  status: 'status', decision: 'status', published: 'published', date: 'date', publicationdate: 'published',
  id: 'id', paperid: 'id', labels: 'labels', categories: 'labels',
}));

/** Column names listed in the error about a missing title column. */
const COLUMNS_SHOWN = 20;

/**
 * The names to key a CSV file's rows by: its header with aliases read as the fields they stand
 * for ("Titles", "Paper Title" → title; "Author" → authors; "Summary" → abstract; any case,
 * spaces or underscores). A column whose field another column already names keeps its name.
 * A header without a title column stops the file with one error, instead of one per row.
 * @example csvColumns(['Paper Title', 'Author', 'Summaries']) // ['title', 'authors', 'abstract']
 */
export function csvColumns(names: readonly string[]): string[] {
  const taken = new Set(names.filter((name) => COLUMN_ALIASES.get(name) === name));
  const out = names.map((name) => {
    const field = COLUMN_ALIASES.get(name.toLowerCase().replace(/[^a-z0-9]+/g, ''));
    if (field === undefined || field === name || taken.has(field)) return name;
    taken.add(field);
    return field;
  });
  if (!taken.has('title')) {
    const shown = names.slice(0, COLUMNS_SHOWN).map((name) => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name));
    const more = names.length > COLUMNS_SHOWN ? ` and ${names.length - COLUMNS_SHOWN} more` : '';
    throw new FormatError(
      `no title column. Columns found: ${shown.join(', ')}${more}. Expected: "title" (or "titles", "paper title"), ` +
        'and any of "authors", "abstract", "venue", "year", "keywords", "url", "pdf", "code", "doi", "arxiv", ' +
        '"openreview", "status", "id". Rename the column holding the paper titles to "title".',
    );
  }
  return out;
}
