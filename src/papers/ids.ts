/**
 * Identifiers of papers: arXiv ids, DOIs, OpenReview ids and URLs, in the canonical forms the
 * store keys aliases by. All functions are pure and total: bad input gives `undefined`.
 */
import { TEXT_VERSION, foldTextAs, normalizeTitle, normalizeTitleAs } from '../text.js';

/** New-style (2401.01234, 0704.0001) or old-style (hep-th/9901001) arXiv id, optional version. */
const ARXIV_NEW = /^(\d{4}\.\d{4,5})(v\d+)?$/;
const ARXIV_OLD = /^([a-z-]+(?:\.[A-Z]{2})?\/\d{7})(v\d+)?$/i;
const DOI_IN_TEXT = /\b(10\.\d{4,9}\/[^\s"<>]+)/;
const OPENREVIEW_ID = /^[A-Za-z0-9_-]{5,}$/;

/**
 * The version-less arXiv id, from a bare id or an `arXiv:` prefix.
 * @example normalizeArxivId('arXiv:2401.01234v2') // '2401.01234'
 */
export function normalizeArxivId(raw: string): string | undefined {
  const text = raw.trim().replace(/^arxiv:/i, '');
  const modern = ARXIV_NEW.exec(text);
  if (modern) return modern[1];
  const old = ARXIV_OLD.exec(text);
  if (old) return old[1]!.toLowerCase();
  return undefined;
}

/**
 * A DOI in lowercase without resolver prefix, found in a bare DOI or any URL that embeds one.
 * @example normalizeDoi('https://doi.org/10.1145/3197517.3201400') // '10.1145/3197517.3201400'
 */
export function normalizeDoi(raw: string): string | undefined {
  const match = DOI_IN_TEXT.exec(safeDecode(raw.trim()));
  if (!match) return undefined;
  return match[1]!.replace(/[.,;)\]]+$/, '').toLowerCase();
}

/** The DOI prefix DataCite gave arXiv: OpenAlex knows arXiv papers as `10.48550/arxiv.<id>`. */
export const ARXIV_DOI_PREFIX = '10.48550/arxiv.';

/**
 * The DOI arXiv's papers have (lowercase, as {@link normalizeDoi} writes DOIs), from an arXiv id.
 * @example arxivDoi('1706.03762') // '10.48550/arxiv.1706.03762'
 */
export function arxivDoi(arxivId: string): string | undefined {
  const id = normalizeArxivId(arxivId);
  return id && `${ARXIV_DOI_PREFIX}${id}`;
}

/**
 * The arXiv id an arXiv DOI names, or undefined for any other DOI: the other way of
 * {@link arxivDoi}, so that a work OpenAlex knows only by its arXiv DOI finds the library's paper
 * filed by its arXiv id.
 * @example arxivIdOfDoi('10.48550/arXiv.1706.03762') // '1706.03762'
 */
export function arxivIdOfDoi(doi: string): string | undefined {
  const normalized = normalizeDoi(doi);
  return normalized?.startsWith(ARXIV_DOI_PREFIX) ? normalizeArxivId(normalized.slice(ARXIV_DOI_PREFIX.length)) : undefined;
}

/** An OpenAlex work id: `W` and its number, bare or as the URL OpenAlex writes it. */
const OPENALEX_WORK = /^(?:https?:\/\/(?:api\.)?openalex\.org\/(?:works\/)?)?[Ww]([1-9]\d{0,14})$/;

/**
 * The number of an OpenAlex work id (`W2741809807`, its URL, or `w…`), which the store keys
 * works by; undefined for anything else, and for numbers past 2^53 (OpenAlex's are ~10 digits).
 * @example openAlexNumber('https://openalex.org/W2741809807') // 2741809807
 */
export function openAlexNumber(raw: string): number | undefined {
  const match = OPENALEX_WORK.exec(raw.trim());
  const n = match ? Number(match[1]) : undefined;
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

/**
 * An OpenAlex work id in the form the store gives back and OpenAlex's API takes: `W` and its number.
 * @example normalizeOpenAlexId('https://openalex.org/W2741809807') // 'W2741809807'
 */
export function normalizeOpenAlexId(raw: string): string | undefined {
  const n = openAlexNumber(raw);
  return n === undefined ? undefined : `W${n}`;
}

/** An OpenReview forum id, from a bare id or a forum/pdf URL. */
export function normalizeOpenReviewId(raw: string): string | undefined {
  const text = raw.trim();
  const url = tryUrl(text);
  if (url) {
    if (!url.hostname.endsWith('openreview.net')) return undefined;
    const id = url.searchParams.get('id');
    return id && OPENREVIEW_ID.test(id) ? id : undefined;
  }
  return OPENREVIEW_ID.test(text) ? text : undefined;
}

/**
 * The comparison form of a URL: no scheme, no `www.`, no trailing slash or fragment; of the query
 * string only `id` is kept (OpenReview and similar put the paper's identity there).
 * @example normalizeUrl('https://www.Example.org/paper/?utm=x#top') // 'example.org/paper'
 */
export function normalizeUrl(raw: string): string | undefined {
  const url = tryUrl(raw.trim());
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const path = url.pathname.replace(/\/+$/, '');
  const id = url.searchParams.get('id');
  return `${host}${path}${id ? `?id=${id}` : ''}`;
}

/** What a piece of text refers to, when it names a paper by an identifier rather than by words. */
export type PaperRef =
  | { kind: 'arxiv'; id: string }
  | { kind: 'doi'; id: string }
  | { kind: 'openreview'; id: string }
  | { kind: 'url'; id: string };

/**
 * Recognizes an arXiv id, DOI, OpenReview id or paper URL typed or pasted as a whole query.
 * arxiv.org/abs|pdf and doi.org URLs resolve to their ids; any other http(s) URL is returned as
 * a normalized URL for the store to look up among the papers' own page and pdf links.
 * @example parsePaperRef('https://arxiv.org/pdf/2401.01234v3.pdf') // { kind: 'arxiv', id: '2401.01234' }
 */
export function parsePaperRef(input: string): PaperRef | undefined {
  const text = input.trim().replace(/^<|>$/g, '');
  if (text.length === 0 || text.length > 2048 || /\s/.test(text)) return undefined;
  const arxiv = normalizeArxivId(text);
  if (arxiv) return { kind: 'arxiv', id: arxiv };
  const url = tryUrl(text);
  if (!url) {
    const doi = /^(doi:)?10\./i.test(text) ? normalizeDoi(text) : undefined;
    return doi ? { kind: 'doi', id: doi } : undefined;
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  if (host === 'arxiv.org' || host === 'export.arxiv.org') {
    const m = /^\/(?:abs|pdf|html)\/(.+?)(?:\.pdf)?\/?$/.exec(url.pathname);
    const id = m ? normalizeArxivId(m[1]!) : undefined;
    if (id) return { kind: 'arxiv', id };
  }
  if (host === 'doi.org' || host === 'dx.doi.org') {
    const doi = normalizeDoi(url.pathname.slice(1));
    if (doi) return { kind: 'doi', id: doi };
  }
  if (host.endsWith('openreview.net')) {
    const id = normalizeOpenReviewId(text);
    if (id) return { kind: 'openreview', id };
  }
  const normalized = normalizeUrl(text);
  return normalized ? { kind: 'url', id: normalized } : undefined;
}

/** The alias key under which the store files a reference: `arxiv:…`, `doi:…`, `openreview:…`, `url:…`. */
export function refAlias(ref: PaperRef): string {
  return `${ref.kind}:${ref.id}`;
}

/**
 * The title + first-author key that identifies the same paper across sources that share no id.
 * Only the first author's last word is used, so "Y. Bengio" and "Yoshua Bengio" agree.
 * @example titleAuthorAlias('Attention Is All You Need', 'Łukasz Kaiser') // 'title:attention is all you need|kaiser'
 */
export function titleAuthorAlias(title: string, firstAuthor: string | undefined): string | undefined {
  return titleAuthorAliasAs(TEXT_VERSION, title, firstAuthor);
}

/**
 * {@link titleAuthorAlias} as text normalization `version` (2 or later) made it: the key an
 * upgrade must replace where refolding it cannot tell what it was ("ℒ1 Adaptive Control" was
 * filed as "title:1 adaptive control|…", and is "title:l1 adaptive control|…" now).
 * @example titleAuthorAliasAs(2, 'ℒ1 Adaptive Control', 'Ann Lee') // 'title:1 adaptive control|lee'
 */
export function titleAuthorAliasAs(version: number, title: string, firstAuthor: string | undefined): string | undefined {
  const t = normalizeTitleAs(version, title);
  if (t.length === 0) return undefined;
  return `title:${t}|${lastNameWord(version, firstAuthor ?? '')}`;
}

/**
 * A title alias written by an older text normalization, in the current one: its title and name
 * parts are folded again ("title:łodz|sørensen" → "title:lodz|sorensen"). Folding what was
 * already folded gives what folding the original gives, so the store can upgrade its keys
 * without the records they came from; except for the compatibility characters normalization 3
 * reads otherwise ("ℒ1", "™"), which the store re-keys from its papers' titles instead.
 * Undefined for a key that is not a title alias.
 * @example refoldTitleAlias('title:łodz dataset|sørensen') // 'title:lodz dataset|sorensen'
 */
export function refoldTitleAlias(alias: string): string | undefined {
  const bar = alias.lastIndexOf('|');
  if (!alias.startsWith('title:') || bar === -1) return undefined;
  const t = normalizeTitle(alias.slice('title:'.length, bar));
  return t.length === 0 ? undefined : `title:${t}|${lastNameWord(TEXT_VERSION, alias.slice(bar + 1))}`;
}

function lastNameWord(version: number, name: string): string {
  const words = foldTextAs(version, name).match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.at(-1) ?? '';
}

function tryUrl(text: string): URL | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
