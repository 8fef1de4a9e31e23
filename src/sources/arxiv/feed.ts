/**
 * Pure parsers of what arXiv serves: the daily RSS 2.0 announcement feed of a category
 * (`https://rss.arxiv.org/rss/<category>`) and a page of the API's Atom search results
 * (`https://export.arxiv.org/api/query?search_query=cat:<category>&…`). Both give
 * {@link ArxivEntry}s plus the entries they had to skip and why; a body that is not such a feed
 * at all is an {@link ArxivFeedError}.
 */
import { normalizeArxivId, normalizeDoi } from '../../papers/ids.js';
import { collapseWhitespace } from '../../text.js';
import { childElements, childText, firstChild, parseXml, textContent, XmlError, type XmlElement } from './xml.js';

/** The namespaces arXiv's feeds use. */
export const NS = {
  atom: 'http://www.w3.org/2005/Atom',
  arxiv: 'http://arxiv.org/schemas/atom',
  dc: 'http://purl.org/dc/elements/1.1/',
  opensearch: 'http://a9.com/-/spec/opensearch/1.1/',
} as const;

/** Why a paper is in a day's RSS feed: a new submission, a cross-listing, or a new version. */
export type AnnounceType = 'new' | 'cross' | 'replace' | 'replace-cross';
const ANNOUNCE_TYPES: readonly string[] = ['new', 'cross', 'replace', 'replace-cross'];

/** One paper as a feed describes it. */
export interface ArxivEntry {
  /** Version-less arXiv id, e.g. `2504.09001`. */
  id: string;
  /** The version the feed describes (`2` for `2504.09001v2`), when it says. */
  version?: number;
  title: string;
  authors: string[];
  abstract: string;
  /** Subject categories, the primary one first when the feed says which it is. */
  categories: string[];
  /** RSS: why the paper is in the day's feed. */
  announceType?: AnnounceType;
  /** RSS: the day of the announcement, `YYYY-MM-DD`. */
  announced?: string;
  /** API: when the first version was submitted (ISO 8601). */
  published?: string;
  /** API: when this version was submitted (ISO 8601). */
  updated?: string;
  /** Lowercase DOI, when the authors gave one. */
  doi?: string;
  journalRef?: string;
}

/** An entry that was skipped: its 0-based position among the feed's items, and why. */
export interface FeedProblem {
  index: number;
  reason: string;
}

export interface RssFeed {
  /** The day the feed announces (`YYYY-MM-DD`, from the channel's pubDate), when it says. */
  date?: string;
  /** Days the feed says it is not updated (`Saturday`, `Sunday`). */
  skipDays: string[];
  entries: ArxivEntry[];
  problems: FeedProblem[];
}

export interface ApiPage {
  /** How many entries match the query in all (opensearch:totalResults). */
  totalResults?: number;
  /** The 0-based offset of this page. */
  startIndex?: number;
  entries: ArxivEntry[];
  problems: FeedProblem[];
}

/** The body is not a feed of the kind expected (not XML, an HTML page, an API error). */
export class ArxivFeedError extends Error {
  override readonly name = 'ArxivFeedError';
}

type Parsed = { entry: ArxivEntry } | { reason: string };

/**
 * Parses a category's RSS announcement feed. A day without announcements (weekends, holidays)
 * is a feed with no entries, not an error.
 * @example
 * const feed = parseRssFeed(await (await fetch('https://rss.arxiv.org/rss/cs.LG')).text());
 * feed.entries[0] // { id: '2504.09001', version: 1, announceType: 'new', announced: '2025-04-14', … }
 */
export function parseRssFeed(xml: string): RssFeed {
  const root = readDocument(xml, 'an RSS feed');
  if (root.local !== 'rss' && root.local !== 'RDF') throw new ArxivFeedError(`expected an RSS feed, got <${root.name}>${titleHint(root)}`);
  const channel = firstChild(root, 'channel');
  if (!channel) throw new ArxivFeedError('the RSS feed has no <channel>');
  const date = rssDate(childText(channel, 'pubDate') ?? childText(channel, 'lastBuildDate') ?? childText(channel, 'date', NS.dc));
  const skip = firstChild(channel, 'skipDays');
  const skipDays = skip ? childElements(skip, 'day').map((d) => textContent(d).trim()).filter(Boolean) : [];
  // RSS 2.0 puts items in the channel; RSS 1.0 (arXiv's feeds before 2024) next to it.
  const items = [...childElements(channel, 'item'), ...childElements(root, 'item')];
  const entries: ArxivEntry[] = [];
  const problems: FeedProblem[] = [];
  items.forEach((item, index) => {
    const parsed = rssItem(item, date);
    if ('entry' in parsed) entries.push(parsed.entry);
    else problems.push({ index, reason: parsed.reason });
  });
  return { ...(date ? { date } : {}), skipDays, entries, problems };
}

/**
 * Parses one page of the arXiv API's Atom response. An error the API reports as its single
 * entry (a malformed query) is an {@link ArxivFeedError} with the API's explanation.
 * @example
 * const page = parseApiFeed(body);
 * page.totalResults // 1234
 * page.entries[0].published // '2025-04-11T17:59:01Z'
 */
export function parseApiFeed(xml: string): ApiPage {
  const root = readDocument(xml, 'an Atom feed');
  if (root.local !== 'feed') throw new ArxivFeedError(`expected an Atom feed from the arXiv API, got <${root.name}>${titleHint(root)}`);
  const entries: ArxivEntry[] = [];
  const problems: FeedProblem[] = [];
  childElements(root, 'entry').forEach((el, index) => {
    const rawId = childText(el, 'id') ?? '';
    if (/arxiv\.org\/api\/errors/i.test(rawId)) {
      throw new ArxivFeedError(`the arXiv API refused the query: ${childText(el, 'summary') ?? rawId}`);
    }
    const parsed = apiEntry(el, rawId);
    if ('entry' in parsed) entries.push(parsed.entry);
    else problems.push({ index, reason: parsed.reason });
  });
  const total = integer(childText(root, 'totalResults', NS.opensearch));
  const start = integer(childText(root, 'startIndex', NS.opensearch));
  return { ...(total !== undefined ? { totalResults: total } : {}), ...(start !== undefined ? { startIndex: start } : {}), entries, problems };
}

/** `arXiv:2504.09001v1 Announce Type: new \nAbstract: …`, the current description format. */
const DESCRIPTION = /^\s*arXiv:\s*(\S+)\s+Announce Type:\s*([\w-]+)\s*(?:Abstract:)?\s*([\s\S]*)$/i;

function rssItem(item: XmlElement, feedDate: string | undefined): Parsed {
  const description = childText(item, 'description') ?? '';
  const described = DESCRIPTION.exec(description);
  const guid = childText(item, 'guid')?.replace(/^oai:arXiv\.org:/i, '');
  const link = childText(item, 'link');
  const fromLink = link && /arxiv\.org\/abs\/(\S+?)\/?$/i.exec(link)?.[1];
  const versioned = [guid, described?.[1], fromLink].find((candidate) => candidate && normalizeArxivId(candidate));
  if (!versioned) return { reason: 'no arXiv id: its guid, link and description name none' };
  const id = normalizeArxivId(versioned)!;
  const title = cleanTitle(childText(item, 'title') ?? '');
  if (!title) return { reason: `no title (arXiv ${id})` };
  const type = (childText(item, 'announce_type', NS.arxiv) ?? described?.[2] ?? '').toLowerCase();
  const abstract = described ? described[3]! : description.replace(/<\/?p>/g, ' ');
  const announced = rssDate(childText(item, 'pubDate')) ?? feedDate;
  const doi = normalizeDoi(childText(item, 'DOI', NS.arxiv) ?? '');
  const journalRef = childText(item, 'journal_reference', NS.arxiv);
  return {
    entry: {
      id,
      ...versionOf(versioned),
      title,
      authors: childElements(item, 'creator', NS.dc).flatMap((el) => splitAuthors(textContent(el))),
      abstract: collapseWhitespace(abstract),
      categories: unique(childElements(item, 'category').map((el) => textContent(el).trim())),
      ...(ANNOUNCE_TYPES.includes(type) ? { announceType: type as AnnounceType } : {}),
      ...(announced ? { announced } : {}),
      ...(doi ? { doi } : {}),
      ...(journalRef ? { journalRef: collapseWhitespace(journalRef) } : {}),
    },
  };
}

function apiEntry(el: XmlElement, rawId: string): Parsed {
  const versioned = /arxiv\.org\/abs\/(\S+)$/i.exec(rawId)?.[1] ?? rawId;
  const id = normalizeArxivId(versioned);
  if (!id) return { reason: rawId ? `not an arXiv id: ${JSON.stringify(rawId.slice(0, 80))}` : 'no arXiv id' };
  const title = cleanTitle(childText(el, 'title') ?? '');
  if (!title) return { reason: `no title (arXiv ${id})` };
  const primary = firstChild(el, 'primary_category', NS.arxiv)?.attrs['term'];
  const categories = childElements(el, 'category').map((c) => (c.attrs['term'] ?? '').trim());
  const published = isoTime(childText(el, 'published'));
  const updated = isoTime(childText(el, 'updated'));
  const doi = normalizeDoi(childText(el, 'doi', NS.arxiv) ?? '');
  const journalRef = childText(el, 'journal_ref', NS.arxiv);
  return {
    entry: {
      id,
      ...versionOf(versioned),
      title,
      authors: childElements(el, 'author').map((a) => collapseWhitespace(childText(a, 'name') ?? '')).filter(Boolean),
      abstract: collapseWhitespace(childText(el, 'summary') ?? ''),
      categories: unique([primary?.trim() ?? '', ...categories]),
      ...(published ? { published } : {}),
      ...(updated ? { updated } : {}),
      ...(doi ? { doi } : {}),
      ...(journalRef ? { journalRef: collapseWhitespace(journalRef) } : {}),
    },
  };
}

/**
 * Authors from a `dc:creator` list: comma-separated names, whitespace collapsed, a suffix such
 * as `Jr.` kept with its name, and any HTML (arXiv's older feeds linked each name) removed.
 * @example splitAuthors('Ada Lovelace, Grace\n  Hopper, John Smith, Jr.') // ['Ada Lovelace', 'Grace Hopper', 'John Smith Jr.']
 */
export function splitAuthors(text: string): string[] {
  const out: string[] = [];
  for (const part of text.replace(/<[^>]*>/g, '').split(',')) {
    const name = collapseWhitespace(part);
    if (!name) continue;
    if (out.length > 0 && /^(jr|sr|ii|iii|iv)\.?$/i.test(name)) out[out.length - 1] += ` ${name}`;
    else out.push(name);
  }
  return out;
}

/**
 * The calendar day an RSS date names, as written (no time-zone shift): `YYYY-MM-DD`.
 * @example rssDate('Mon, 14 Apr 2025 00:00:00 -0400') // '2025-04-14'
 */
export function rssDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const rfc = /(\d{1,2})\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{4})/i.exec(value);
  if (rfc) {
    const month = MONTHS.indexOf(rfc[2]!.toLowerCase()) + 1;
    return `${rfc[3]}-${String(month).padStart(2, '0')}-${rfc[1]!.padStart(2, '0')}`;
  }
  const iso = /^\s*(\d{4}-\d{2}-\d{2})/.exec(value);
  if (iso) return iso[1];
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString().slice(0, 10);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function readDocument(xml: string, what: string): XmlElement {
  try {
    return parseXml(xml);
  } catch (error) {
    if (!(error instanceof XmlError)) throw error;
    const start = collapseWhitespace(xml.slice(0, 80));
    throw new ArxivFeedError(`expected ${what} but the body is not XML (${error.message}); it starts ${JSON.stringify(start)}`);
  }
}

/** ` ("Service Unavailable")` for an HTML page with a title, so the error says what came instead. */
function titleHint(root: XmlElement): string {
  const head = firstChild(root, 'head');
  const title = head && childText(head, 'title');
  return title ? ` (${JSON.stringify(collapseWhitespace(title).slice(0, 80))})` : '';
}

/** Whitespace collapsed; the ` (arXiv:… [cs.LG])` tail of arXiv's older RSS titles removed. */
function cleanTitle(title: string): string {
  return collapseWhitespace(title.replace(/\.?\s*\(arXiv:[^)]*\)\s*$/, ''));
}

function versionOf(versioned: string): { version?: number } {
  const match = /v(\d+)$/.exec(versioned.trim());
  return match ? { version: Number(match[1]) } : {};
}

function isoTime(value: string | undefined): string | undefined {
  return value && !Number.isNaN(Date.parse(value)) ? value : undefined;
}

function integer(value: string | undefined): number | undefined {
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items.filter(Boolean))];
}
