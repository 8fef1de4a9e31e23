/**
 * The arXiv metadata snapshot (Kaggle's `arxiv-metadata-oai-snapshot.json`, which despite its
 * name is JSON Lines): one record per line with id, authors, authors_parsed, title, abstract,
 * categories, doi, versions and update_date.
 */
import type { PaperRecordInput } from '../../papers/model.js';
import { normalizeArxivId, normalizeDoi } from '../../papers/ids.js';
import { collapseWhitespace } from '../../text.js';
import { FieldError, MAX_AUTHORS, asFields, defined, guard, splitList, text, validate, type Fields, type MapResult } from './fields.js';

/**
 * Maps one arXiv snapshot record to a paper record: version-less id, authors as
 * "first last suffix", year and `published` from the first version's date.
 * @example
 * mapArxiv({ id: '0704.0001', title: 'Calculation of prompt diphoton…', authors_parsed: [['Balázs', 'C.', '']],
 *   categories: 'hep-ph', versions: [{ version: 'v1', created: 'Mon, 2 Apr 2007 19:18:42 GMT' }] })
 * // { ok: true, record: { sourceKey: 'arxiv:0704.0001', authors: ['C. Balázs'], year: 2007, published: '2007-04-02', labels: ['hep-ph'], … } }
 */
export function mapArxiv(value: unknown): MapResult {
  return guard(() => {
    const fields = asFields(value);
    const rawId = text(fields, 'id');
    if (rawId === undefined) throw new FieldError('id', 'missing');
    const id = normalizeArxivId(rawId);
    if (id === undefined) throw new FieldError('id', `not an arXiv id: ${JSON.stringify(rawId)}`);
    const date = firstDate(fields);
    const doi = text(fields, 'doi');
    const record: PaperRecordInput = {
      sourceKey: `arxiv:${id}`,
      title: collapseWhitespace(text(fields, 'title') ?? ''),
      authors: arxivAuthors(fields).slice(0, MAX_AUTHORS),
      abstract: collapseWhitespace(text(fields, 'abstract') ?? ''),
      venue: 'arXiv',
      year: date ? Number(date.slice(0, 4)) : null,
      labels: splitList(text(fields, 'categories'), /\s+/),
      links: { page: `https://arxiv.org/abs/${id}`, pdf: `https://arxiv.org/pdf/${id}` },
      externalIds: defined({ arxiv: id, doi: doi ? normalizeDoi(doi) : undefined }),
      ...(date ? { published: date } : {}),
    };
    return validate(record);
  });
}

/**
 * Author names from `authors_parsed` (`[last, first, suffix]`), else from the `authors` string.
 * @example arxivAuthors({ authors_parsed: [['Yuan', 'C. -P.', '']] }) // ['C. -P. Yuan']
 */
export function arxivAuthors(fields: Fields): string[] {
  const parsed = fields['authors_parsed'];
  if (Array.isArray(parsed) && parsed.length > 0) {
    return parsed.map((entry, i) => {
      if (!Array.isArray(entry) || !entry.every((part) => typeof part === 'string')) {
        throw new FieldError(`authors_parsed[${i}]`, 'expected [last, first, suffix] strings');
      }
      const [last = '', first = '', suffix = ''] = entry as string[];
      return collapseWhitespace(`${first} ${last} ${suffix}`);
    }).filter((name) => name.length > 0);
  }
  return splitList(text(fields, 'authors'), /,|\s+and\s+/);
}

/** The ISO date (YYYY-MM-DD) of the first version, else of `update_date`. */
function firstDate(fields: Fields): string | undefined {
  const versions = fields['versions'];
  if (Array.isArray(versions) && versions.length > 0) {
    const first: unknown = versions[0];
    const created = typeof first === 'object' && first !== null ? (first as Fields)['created'] : undefined;
    const date = typeof created === 'string' ? isoDate(created) : undefined;
    if (date) return date;
  }
  const updated = text(fields, 'update_date');
  return updated ? isoDate(updated) : undefined;
}

function isoDate(value: string): string | undefined {
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 10);
}
