/**
 * A pure parser of arXiv's OAI-PMH `ListRecords` responses in the `arXiv` metadata format
 * (https://www.openarchives.org/OAI/openarchivesprotocol.html, https://info.arxiv.org/help/oa/):
 * records with their header (identifier, datestamp, sets, `status="deleted"`) and metadata
 * (id, dates, authors split into keyname and forenames, title, categories, abstract, DOI), the
 * resumption token with its cursor and list size when the server gives them, and an OAI
 * `<error code=…>`.
 *
 * A page that is not well-formed XML as a whole is read record by record, so one broken record
 * costs that record only; a body that is not an OAI-PMH response at all is an {@link OaiPageError}.
 */
import { normalizeArxivId, normalizeDoi } from '../../papers/ids.js';
import { collapseWhitespace } from '../../text.js';
import { childElements, childText, firstChild, parseXml, textContent, XmlError, type XmlElement } from './xml.js';

export const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';

/** One paper as the `arXiv` metadata format describes it (its latest version). */
export interface OaiRecord {
  /** Version-less arXiv id. */
  id: string;
  /** When arXiv last changed the record, `YYYY-MM-DD`. */
  datestamp: string;
  /** The OAI sets the header lists (`cs`, `physics:hep-th`). */
  sets: string[];
  title: string;
  /** "Forenames Keyname Suffix", in order. */
  authors: string[];
  abstract: string;
  /** Categories, the primary one first. */
  categories: string[];
  /** The first version's date, `YYYY-MM-DD`. */
  created?: string;
  /** The latest version's date, `YYYY-MM-DD`. */
  updated?: string;
  doi?: string;
  journalRef?: string;
}

/** A record arXiv has withdrawn from OAI (`<header status="deleted">`). */
export interface OaiDeleted {
  id: string;
  datestamp: string;
}

/** A record that was skipped: its 0-based position in the page, its id when readable, and why. */
export interface OaiProblem {
  index: number;
  id?: string;
  reason: string;
}

export interface ResumptionToken {
  /** The token; `''` on the last page of a list. */
  value: string;
  /** How many records came before this page's end, when the server says. */
  cursor?: number;
  /** How many records the whole list holds, when the server says. */
  completeListSize?: number;
  expirationDate?: string;
}

export interface OaiPage {
  records: OaiRecord[];
  deleted: OaiDeleted[];
  problems: OaiProblem[];
  /** Records the page held, deleted and malformed ones included. */
  size: number;
  /** Absent when the list fitted in one response (or the response is an error). */
  token?: ResumptionToken;
  /** An OAI-PMH error, e.g. `badResumptionToken` or `noRecordsMatch`. */
  error?: { code: string; message: string };
  /** The page as a whole was not well-formed XML: its records were read one by one. */
  salvaged: boolean;
}

/** The body is not an OAI-PMH response (an HTML error page, a truncated download with no token). */
export class OaiPageError extends Error {
  override readonly name = 'OaiPageError';
}

/**
 * Parses one `ListRecords` response.
 * @example
 * const page = parseListRecords(body);
 * page.records[0] // { id: '2401.00001', datestamp: '2024-01-03', categories: ['cs.LG', 'stat.ML'], … }
 * page.token // { value: '7004309|1001', cursor: 0, completeListSize: 2510 }
 */
export function parseListRecords(xml: string): OaiPage {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    if (!(error instanceof XmlError)) throw error;
    return salvage(xml, error);
  }
  if (root.local !== 'OAI-PMH') throw new OaiPageError(`expected an OAI-PMH response, got <${root.name}>${titleHint(root)}`);
  const page: OaiPage = { records: [], deleted: [], problems: [], size: 0, salvaged: false };
  const error = firstChild(root, 'error');
  if (error) {
    page.error = { code: error.attrs['code'] ?? 'unknown', message: collapseWhitespace(textContent(error)) };
    return page;
  }
  const list = firstChild(root, 'ListRecords');
  if (!list) throw new OaiPageError('the OAI-PMH response has neither <ListRecords> nor <error>');
  childElements(list, 'record').forEach((el, index) => addRecord(page, el, index));
  page.size = childElements(list, 'record').length;
  const token = firstChild(list, 'resumptionToken');
  if (token) page.token = readToken(textContent(token), token.attrs);
  return page;
}

/**
 * The OAI set of the archive a category belongs to: `cs` for cs.LG, `stat` for stat.ML,
 * `physics:hep-th` for hep-th, `physics:physics` for physics.optics, `physics:cond-mat` for
 * cond-mat.str-el.
 * @example oaiSetOf('cs.LG') // 'cs'
 * @example oaiSetOf('astro-ph.CO') // 'physics:astro-ph'
 */
export function oaiSetOf(category: string): string {
  const archive = category.split('.')[0]!;
  return PHYSICS_ARCHIVES.has(archive) ? `physics:${archive}` : archive;
}

/** The archives arXiv exposes under its `physics` set. */
const PHYSICS_ARCHIVES = new Set(['astro-ph', 'cond-mat', 'gr-qc', 'hep-ex', 'hep-lat', 'hep-ph', 'hep-th', 'math-ph', 'nlin', 'nucl-ex', 'nucl-th', 'physics', 'quant-ph']);

function addRecord(page: OaiPage, el: XmlElement, index: number): void {
  const header = firstChild(el, 'header');
  const identifier = header && childText(header, 'identifier');
  const rawId = identifier?.replace(/^oai:arXiv\.org:/i, '');
  const id = rawId ? normalizeArxivId(rawId) : undefined;
  if (!header || !id) {
    page.problems.push({ index, ...(rawId && { id: rawId.slice(0, 80) }), reason: header ? `no arXiv id in its header (${JSON.stringify(identifier?.slice(0, 80) ?? '')})` : 'no <header>' });
    return;
  }
  const datestamp = (childText(header, 'datestamp') ?? '').slice(0, 10);
  if (header.attrs['status'] === 'deleted') {
    page.deleted.push({ id, datestamp });
    return;
  }
  const metadata = firstChild(el, 'metadata');
  const arxiv = metadata && firstChild(metadata, 'arXiv');
  if (!arxiv) {
    page.problems.push({ index, id, reason: 'no <metadata> in the arXiv format' });
    return;
  }
  const title = collapseWhitespace(childText(arxiv, 'title') ?? '');
  if (!title) {
    page.problems.push({ index, id, reason: 'no title' });
    return;
  }
  const authorsEl = firstChild(arxiv, 'authors');
  const authors = authorsEl ? childElements(authorsEl, 'author').map(authorName).filter(Boolean) : [];
  const created = day(childText(arxiv, 'created'));
  const updated = day(childText(arxiv, 'updated'));
  const doi = normalizeDoi(childText(arxiv, 'doi') ?? '');
  const journalRef = childText(arxiv, 'journal-ref');
  page.records.push({
    id,
    datestamp,
    sets: childElements(header, 'setSpec').map((s) => textContent(s).trim()).filter(Boolean),
    title,
    authors,
    abstract: collapseWhitespace(childText(arxiv, 'abstract') ?? ''),
    categories: [...new Set((childText(arxiv, 'categories') ?? '').split(/\s+/).filter(Boolean))],
    ...(created && { created }),
    ...(updated && { updated }),
    ...(doi && { doi }),
    ...(journalRef && { journalRef: collapseWhitespace(journalRef) }),
  });
}

/**
 * "Forenames Keyname Suffix" from an `<author>` of the arXiv format.
 * @example authorName(parseXml('<author><keyname>Lovelace</keyname><forenames>Ada</forenames></author>')) // 'Ada Lovelace'
 */
export function authorName(el: XmlElement): string {
  return collapseWhitespace([childText(el, 'forenames'), childText(el, 'keyname'), childText(el, 'suffix')].filter(Boolean).join(' '));
}

function readToken(value: string, attrs: Record<string, string>): ResumptionToken {
  const cursor = integer(attrs['cursor']);
  const size = integer(attrs['completeListSize']);
  return {
    value: value.trim(),
    ...(cursor !== undefined && { cursor }),
    ...(size !== undefined && { completeListSize: size }),
    ...(attrs['expirationDate'] && { expirationDate: attrs['expirationDate'] }),
  };
}

const RECORD = /<record[\s>][\s\S]*?<\/record\s*>/g;
const TOKEN = /<resumptionToken\b([^>]*?)(?:\/>|>([^<]*)<\/resumptionToken\s*>)/;
const ERROR = /<error\b[^>]*\bcode\s*=\s*["']([^"']+)["'][^>]*>([^<]*)</;

/**
 * Reads a page that is not well-formed XML as a whole: each `<record>` on its own (inside the
 * OAI namespace), the token and an error by pattern. Without a token or an error the page may
 * be a truncated download, which must not pass for the end of the list: that is an error.
 */
function salvage(xml: string, cause: XmlError): OaiPage {
  if (!/<OAI-PMH[\s>]/.test(xml)) {
    const start = collapseWhitespace(xml.slice(0, 80));
    throw new OaiPageError(`expected an OAI-PMH response but the body is not XML (${cause.message}); it starts ${JSON.stringify(start)}`);
  }
  const page: OaiPage = { records: [], deleted: [], problems: [], size: 0, salvaged: true };
  const error = ERROR.exec(xml);
  if (error) {
    page.error = { code: error[1]!, message: collapseWhitespace(error[2] ?? '') };
    return page;
  }
  const chunks = xml.match(RECORD) ?? [];
  chunks.forEach((chunk, index) => {
    let el: XmlElement | undefined;
    try {
      el = parseXml(`<wrap xmlns="${OAI_NS}">${chunk}</wrap>`).children.find((c): c is XmlElement => typeof c !== 'string');
    } catch (recordError) {
      const id = /<identifier>\s*(?:oai:arXiv\.org:)?([^<\s]+)\s*</i.exec(chunk)?.[1];
      page.problems.push({ index, ...(id && { id: id.slice(0, 80) }), reason: `not well-formed XML: ${(recordError as Error).message}` });
      return;
    }
    if (el) addRecord(page, el, index);
  });
  page.size = chunks.length;
  const token = TOKEN.exec(xml);
  if (!token) throw new OaiPageError(`the page is not well-formed XML (${cause.message}) and has no resumption token: it may have been cut off`);
  page.token = readToken(decodeBasic(token[2] ?? ''), attributes(token[1] ?? ''));
  return page;
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of text.matchAll(/([\w:-]+)\s*=\s*["']([^"']*)["']/g)) out[match[1]!] = decodeBasic(match[2]!);
  return out;
}

function decodeBasic(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

function day(value: string | undefined): string | undefined {
  return value && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;
}

function integer(value: string | undefined): number | undefined {
  return value && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

function titleHint(root: XmlElement): string {
  const head = firstChild(root, 'head');
  const title = head && childText(head, 'title');
  return title ? ` (${JSON.stringify(collapseWhitespace(title).slice(0, 80))})` : '';
}
