/**
 * The site's machine-readable answers: `/api/search` (the hits as `paperscout search --json`
 * prints them, with the total), `/api/related` (related work for a pasted text, the hits as
 * `paperscout related --json` prints them), `/api/suggest` (titles for an autocomplete box, also
 * in the OpenSearch suggestions format) and the OpenSearch description a browser adds the site with.
 */
import type { Messages } from '../../src/i18n/index.js';
import type { Library } from '../../src/library.js';
import { hitsJson, snippetHitsJson, type HitJson, type RelatedHitJson } from '../../src/papers/hitJson.js';
import { MAX_RESULTS } from '../../src/search/engine.js';
import { hasWords, MAX_RELATED_TEXT } from '../../src/search/meaning/related.js';
import { MAX_BODY_BYTES, type TextRequest } from './body.js';
import { siteLinks } from '../../src/site/links.js';
import { escapeHtml } from './html.js';
import { SITE_NAME } from './layout.js';
import { readQuery } from './request.js';

/** Hits `/api/search` returns unless `limit` says otherwise. */
export const DEFAULT_API_LIMIT = 20;
/** Hits `/api/related` returns unless `limit` says otherwise (as `paperscout related`). */
export const DEFAULT_RELATED_LIMIT = 10;
/** Titles `/api/suggest` returns. */
export const SUGGESTIONS = 8;

export interface ApiSearchBody {
  query: string;
  /** How many papers match (the hits are the best of them, at most {@link MAX_RESULTS}). */
  total: number;
  offset: number;
  limit: number;
  /** Whether the query was cut to 1 kB. */
  cut: boolean;
  /** How the query was read, in the language asked for. */
  notes: string[];
  hits: HitJson[];
}

/**
 * `GET /api/search?q=&limit=&offset=`: 400 with a one-line `error` for a missing query or a bad range.
 * @example await apiSearch(library, messages('en'), new URLSearchParams('q=gan&limit=5'))
 */
export async function apiSearch(library: Library, m: Messages, params: URLSearchParams): Promise<{ status: number; body: ApiSearchBody | { error: string } }> {
  const { query, cut } = readQuery(params.get('q'));
  if (query === '') return { status: 400, body: { error: m.t('web.apiNoQuery') } };
  const limit = whole(params.get('limit'), DEFAULT_API_LIMIT);
  const offset = whole(params.get('offset'), 0);
  if (limit === undefined || offset === undefined || limit < 1 || offset < 0 || limit + offset > MAX_RESULTS) {
    return { status: 400, body: { error: m.t('web.apiBadRange', { max: MAX_RESULTS }) } };
  }
  const result = await library.search(query, { limit: offset + limit });
  const hits = await hitsJson(library, result.hits.slice(offset));
  const total = result.hits.length === 0 ? 0 : Math.max(result.total, result.hits.length);
  return { status: 200, body: { query, total, offset, limit, cut, notes: result.notes.map((n) => m.text(n)), hits } };
}

export interface ApiRelatedBody {
  limit: number;
  /** How the text was read (Chinese through the glossary; only its beginning, past 10,000 characters), in the language asked for. */
  notes: string[];
  /** The closest papers, closest first. */
  hits: RelatedHitJson[];
}

/**
 * `POST /api/related` with `{"text": "…", "limit": 10}` as JSON, or `GET /api/related?text=&limit=`:
 * 400 with a one-line `error` for a missing text, one without a word to read, a bad limit or a
 * body that is not such an object; 413 past {@link MAX_BODY_BYTES}; 415 for a body not JSON.
 * @example await apiRelated(library, messages('en'), { kind: 'text', text: abstract, limit: 5 })
 */
export async function apiRelated(library: Library, m: Messages, request: TextRequest): Promise<{ status: number; body: ApiRelatedBody | { error: string } }> {
  const error = (status: number, text: string) => ({ status, body: { error: text } });
  if (request.kind === 'tooLarge') return error(413, m.t('web.tooLarge', { max: MAX_BODY_BYTES / 1024, chars: MAX_RELATED_TEXT }));
  if (request.kind === 'unsupported') return error(415, m.t('web.apiRelatedType'));
  if (request.kind === 'malformed' || request.text === undefined || !hasWords(request.text)) return error(400, m.t('web.apiRelatedText', { max: MAX_RESULTS }));
  const limit = request.limit ?? DEFAULT_RELATED_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RESULTS) return error(400, m.t('web.apiRelatedLimit', { max: MAX_RESULTS }));
  const result = await library.related(request.text, { limit });
  return { status: 200, body: { limit, notes: result.notes.map((n) => m.text(n)), hits: await snippetHitsJson(library, result) } };
}

/**
 * `GET /api/suggest?q=`: paper titles for what is typed (Chinese read through the glossary),
 * `{ query, suggestions: [{ id, title, url }] }`; with `format=opensearch`, OpenSearch's
 * `[query, titles, descriptions, urls]`.
 */
export function apiSuggest(library: Library, params: URLSearchParams): unknown {
  const { query } = readQuery(params.get('q'));
  const links = siteLinks('');
  const found = [...query].length < 2 ? [] : library.suggest(library.readQuery(query).query, SUGGESTIONS);
  const suggestions = found.map((s) => ({ id: s.id, title: s.title, url: links.paper(s.id) }));
  if (params.get('format') === 'opensearch') return [query, suggestions.map((s) => s.title), suggestions.map(() => ''), suggestions.map((s) => s.url)];
  return { query, suggestions };
}

/**
 * The OpenSearch description: what a browser needs to search the site from its address bar.
 * @example openSearchXml(messages('en'), 95652, 'https://papers.lab.example')
 */
export function openSearchXml(m: Messages, size: number, base: string): string {
  const x = escapeHtml;
  return `<?xml version="1.0" encoding="UTF-8"?>
<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
  <ShortName>${x(SITE_NAME)}</ShortName>
  <Description>${x(m.t('web.opensearch', { count: size }))}</Description>
  <InputEncoding>UTF-8</InputEncoding>
  <Language>${x(m.locale)}</Language>
  <Url type="text/html" method="get" template="${x(`${base}/search?q={searchTerms}`)}"/>
  <Url type="application/x-suggestions+json" method="get" template="${x(`${base}/api/suggest?q={searchTerms}&format=opensearch`)}"/>
  <Url type="application/opensearchdescription+xml" rel="self" template="${x(`${base}/opensearch.xml`)}"/>
</OpenSearchDescription>
`;
}

function whole(raw: string | null, fallback: number): number | undefined {
  if (raw === null || raw.trim() === '') return fallback;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : undefined;
}
