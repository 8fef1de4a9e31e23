/**
 * Paper Copilot "paperlists": one JSON array per venue and year (`icml/icml2019.json`), with
 * ';'-separated authors and keywords. Venue and year come from the file name.
 */
import { hash } from 'node:crypto';
import { venueDisplayName, type PaperRecordInput } from '../../papers/model.js';
import { normalizeArxivId, normalizeDoi, normalizeOpenReviewId } from '../../papers/ids.js';
import { collapseWhitespace, normalizeTitle } from '../../text.js';
import { MAX_AUTHORS, asFields, defined, guard, httpUrl, splitList, text, unique, validate, type MapResult } from './fields.js';

/** Where a paperlists file's records appeared, from its name. */
export interface PaperlistsFile {
  /** The venue code as paperlists names its folders: `icml`, `nips`, `siggraphasia`. */
  venueCode: string;
  year: number;
}

const FILE_NAME = /^([a-z0-9]+?)(\d{4})\.json$/;

/**
 * The venue code and year a paperlists file name stands for, if it follows the pattern.
 * @example parsePaperlistsFileName('siggraphasia2023.json') // { venueCode: 'siggraphasia', year: 2023 }
 */
export function parsePaperlistsFileName(fileName: string): PaperlistsFile | undefined {
  const match = FILE_NAME.exec(fileName.toLowerCase());
  if (!match) return undefined;
  const year = Number(match[2]);
  return year >= 1900 && year <= 2100 ? { venueCode: match[1]!, year } : undefined;
}

/**
 * Splits a paperlists author field. Most files separate names with ';', the SIGGRAPH ones and a
 * few others with ','; some repeat the whole list (IROS), some end it "…; B and C" or
 * "…; and C". Names come back trimmed, whitespace collapsed, each once in first-seen order.
 * @example splitAuthors('Ann Lee;Bo Chen;Ann Lee;Bo Chen') // ['Ann Lee', 'Bo Chen']
 * @example splitAuthors('Ann Lee, Bo Chen and Cy Diaz') // ['Ann Lee', 'Bo Chen', 'Cy Diaz']
 */
export function splitAuthors(field: string | undefined): string[] {
  const names = splitList(field, field?.includes(';') ? ';' : ',').map((name) => name.replace(/^and\s+/, ''));
  if (names.length > 1) names.push(...splitList(names.pop(), /\s+and\s+/));
  return unique(names.filter((name) => name.length > 0));
}

/**
 * Maps one paperlists record to a paper record.
 * Labels hold the record's `primary_area` only: a non-main `track` ("Demo Track", "Doctoral
 * Consortium", "Journal Track") says how a paper was presented, not what it is about.
 * @example
 * mapPaperlists({ id: '3768', title: 'A Baseline…', author: 'Jingkai Mao; Jakob Foerster' }, { venueCode: 'icml', year: 2019 })
 * // { ok: true, record: { sourceKey: 'icml2019:3768', venue: 'ICML', year: 2019, authors: ['Jingkai Mao', 'Jakob Foerster'], … } }
 */
export function mapPaperlists(value: unknown, file: PaperlistsFile): MapResult {
  return guard(() => {
    const fields = asFields(value);
    const title = collapseWhitespace(text(fields, 'title') ?? '');
    const id = text(fields, 'id', { numbers: true });
    const site = httpUrl(text(fields, 'site'));
    const arxiv = text(fields, 'arxiv');
    const doi = text(fields, 'doi');
    const primaryArea = text(fields, 'primary_area');
    const record: PaperRecordInput = {
      sourceKey: `${file.venueCode}${file.year}:${id || `t:${sha1(normalizeTitle(title)).slice(0, 12)}`}`,
      title,
      authors: splitAuthors(text(fields, 'author')).slice(0, MAX_AUTHORS),
      abstract: collapseWhitespace(text(fields, 'abstract') ?? ''),
      venue: venueDisplayName(file.venueCode),
      year: file.year,
      status: collapseWhitespace(text(fields, 'status') ?? ''),
      keywords: unique(splitList(text(fields, 'keywords'), ';')),
      labels: primaryArea ? [collapseWhitespace(primaryArea)] : [],
      links: defined({
        page: site ?? httpUrl(text(fields, 'oa')),
        pdf: httpUrl(text(fields, 'pdf')),
        code: httpUrl(text(fields, 'github')),
        project: httpUrl(text(fields, 'project')),
      }),
      externalIds: defined({
        arxiv: arxiv ? normalizeArxivId(arxiv) : undefined,
        // A DOI or DOI URL holds no spaces; some listings break one with a stray space ("…19836-6 _31").
        doi: doi ? normalizeDoi(doi.replace(/\s+/g, '')) : undefined,
        openreview: site && /^https?:\/\/([a-z0-9-]+\.)*openreview\.net\//i.test(site) ? normalizeOpenReviewId(site) : undefined,
      }),
    };
    return validate(record);
  });
}

function sha1(value: string): string {
  return hash('sha1', value, 'hex');
}
