/**
 * The search site: the library on web pages, served by the same process as the bot (beside
 * Slack's /slack/events and the health routes, or on its own in the terminal's mode). One
 * request listener: `/`, `/search`, `/related` (related work for a pasted text, GET or a POST
 * form), `/paper/<id>` (and its `/references` and `/cited-by` in the library),
 * `/topic/<area>/<name>`, `/api/search`, `/api/related`, `/api/suggest`, `/opensearch.xml` and
 * the hashed assets. It reads through the core's
 * {@link Library} (the same search, glossary and cards as `/paper`) and shows only the public
 * library: nothing of members, their reading lists or their subscriptions.
 *
 * Every answer carries a Content-Security-Policy without inline script, nosniff and a
 * Referrer-Policy; each client address may make {@link RATE_PER_SECOND} requests a second (then
 * 429 with Retry-After); a query longer than 1 kB is cut, with a note; a text for related work
 * is read up to 10,000 characters (with a note), a body up to {@link MAX_BODY_BYTES} (then 413).
 * Only `/related` and `/api/related` take POST (never kept by a cache); every other path answers
 * GET and HEAD. A request line whose address cannot be read (`GET http://a:99999/`) gets 400, logged at most once a minute. Pages
 * link relative to the site; only `/opensearch.xml` needs absolute addresses, from PUBLIC_URL,
 * else from the Host header (when shaped like a host), and then no shared cache may keep it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { UserError, errorReference } from '../../src/errors.js';
import { loggable, throttledLog } from '../../src/logThrottle.js';
import { messages } from '../../src/i18n/index.js';
import type { Library } from '../../src/library.js';
import { citedBy } from '../../src/papers/cards.js';
import { CITATION_DIRECTIONS, type CitationDirection } from '../../src/papers/citationLists.js';
import { toBibtex } from '../../src/papers/export/bibtex.js';
import type { Paper } from '../../src/papers/model.js';
import type { StoredPaper } from '../../src/store/papers.js';
import { MAX_RESULTS } from '../../src/search/engine.js';
import { CITATION_PATHS, siteLinks } from '../../src/site/links.js';
import { MAX_RELATED_TEXT, hasWords } from '../../src/search/meaning/related.js';
import { apiRelated, apiSearch, apiSuggest, openSearchXml } from './api.js';
import { ASSET_BY_PATH } from './assets.js';
import { topicIdsByLabel } from './cards.js';
import { MAX_BODY_BYTES, RequestAborted, readTextRequest } from './body.js';
import { OPENSEARCH_PATH, RELATED_PATH, type PageContext } from './layout.js';
import { citationsPage, homePage, messagePage, paperPage, relatedPage, resultsPage, topicPage, SITE_PAGE_SIZE, type CitationsView, type RelatedPaper, type RelatedView, type ResultsView } from './pages.js';
import { RATE_PER_SECOND, rateLimiter } from './rateLimit.js';
import { pageNumber, pickLocale, readHost, readQuery } from './request.js';

/** The policy every answer carries: scripts, styles and requests from the site itself only. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
} as const;

/** The paths that take a POST (a text too long for an address): related work, its page and its API. */
const POST_PATHS: ReadonlySet<string> = new Set([RELATED_PATH, '/api/related']);

/** How long browsers and caches may keep a page (the library changes by the day). */
const PAGE_CACHE = 'public, max-age=60';
/**
 * An answer that depends on the request's Host header: the browser may keep it, no shared cache
 * may. Every other page links relative to the site, so the Host header reaches no other answer.
 */
const HOST_PAGE_CACHE = 'private, max-age=60';
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Similar papers, and each list of references and citing papers, on a paper's page. */
const SIMILAR_ON_PAGE = 5;
const CITED_ON_PAGE = 5;
/** The last page of a list of citations anyone may ask for (the offset stays a small number). */
const MAX_CITATIONS_PAGE = 100_000;

export interface SiteOptions {
  /**
   * The site's public address (PUBLIC_URL), for the OpenSearch description; else the Host
   * header's, and then that answer is kept from shared caches.
   */
  publicUrl?: string;
  /** Requests a second per client address (default {@link RATE_PER_SECOND}). */
  ratePerSecond?: number;
  /** Milliseconds now (tests pass their own). */
  now?: () => number;
}

/** The site's request listener: answers every request it is given. */
export type SiteHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * @example createServer(createSite({ library: app.library, log: app.log })).listen(3000)
 */
export function createSite({ library, log }: { library: Library; log: Logger }, options: SiteOptions = {}): SiteHandler {
  const limiter = rateLimiter(options.ratePerSecond);
  const now = options.now ?? Date.now;
  const links = siteLinks('');
  const topicIds = topicIdsByLabel(library.taxonomy);
  const malformed = throttledLog(log, 'warn', 'the site refused a request whose address cannot be read (400)', { now });

  return (req, res) => {
    const started = performance.now();
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      res.writeHead(status, {
        ...SECURITY_HEADERS,
        'content-type': type,
        'content-length': String(data.length),
        'server-timing': `app;dur=${(performance.now() - started).toFixed(1)}`,
        ...headers,
      });
      res.end(req.method === 'HEAD' ? undefined : data);
    };
    const url = readUrl(req.url);
    if (!url) {
      malformed({ method: req.method, url: loggable(req.url) });
      const text = messages(pickLocale(req.headers['accept-language'], null).locale).t('web.badRequest');
      send(400, 'text/plain; charset=utf-8', `${text}\n`, { 'cache-control': 'no-store' });
      return;
    }
    const posted = POST_PATHS.has(url.pathname);
    if (req.method !== 'GET' && req.method !== 'HEAD' && !(posted && req.method === 'POST')) {
      send(405, 'text/plain; charset=utf-8', `Only ${posted ? 'GET, HEAD and POST are' : 'GET and HEAD are'} answered here.\n`, { allow: posted ? 'GET, HEAD, POST' : 'GET, HEAD' });
      return;
    }
    const asset = ASSET_BY_PATH.get(url.pathname);
    if (asset) {
      send(200, asset.contentType, asset.body, { 'cache-control': ASSET_CACHE });
      return;
    }
    const { locale, chosen } = pickLocale(req.headers['accept-language'], url.searchParams.get('lang'));
    const m = messages(locale);
    const ctx: PageContext = { m, locale, chosen, links, url, size: library.size };
    const vary = { vary: 'Accept-Language' };
    const wait = limiter.take(clientAddress(req), now());
    if (wait > 0) {
      const text = m.t('web.tooMany');
      const body = url.pathname.startsWith('/api/') ? `${JSON.stringify({ error: text })}\n` : messagePage(ctx, m.t('web.errorTitle'), text).value;
      send(429, url.pathname.startsWith('/api/') ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8', body, { 'retry-after': String(wait), 'cache-control': 'no-store', ...vary });
      return;
    }
    // An answer to a POST is the sender's alone: no cache keeps it.
    const cache = (status: number) => (status === 200 && req.method !== 'POST' ? PAGE_CACHE : 'no-store');
    const htmlPage = (status: number, body: string) => send(status, 'text/html; charset=utf-8', body, { 'cache-control': cache(status), ...vary });
    const json = (status: number, body: unknown) => send(status, 'application/json; charset=utf-8', `${JSON.stringify(body)}\n`, { 'cache-control': cache(status), ...vary });

    const route = async (): Promise<void> => {
      const path = url.pathname;
      // As a command does: papers the store has and the index not yet are folded in first (briefly).
      if (path === '/search' || path === '/api/search' || posted || path.startsWith('/topic/')) {
        await library.catchUpForCommand().catch((err: unknown) => log.warn({ err }, 'search index catch-up failed; answering from the index as it is'));
      }
      if (path === '/') return htmlPage(200, homePage(ctx, library.taxonomy, library.topicCounts()).value);
      if (path === '/search') {
        const { query, cut } = readQuery(url.searchParams.get('q'));
        if (query === '') return send(302, 'text/plain; charset=utf-8', '', { location: chosen ? `/?lang=${locale}` : '/' });
        const view = await results(library, ctx, query, cut, url.searchParams.get('page'));
        return htmlPage(200, resultsPage(ctx, view, topicIds).value);
      }
      if (path === RELATED_PATH) {
        const request = await readTextRequest(req, url, 'form');
        // The rest of a body too large is left unread: the connection closes after the answer.
        if (request.kind === 'tooLarge') return send(413, 'text/html; charset=utf-8', messagePage(ctx, m.t('web.errorTitle'), m.t('web.tooLarge', { max: MAX_BODY_BYTES / 1024, chars: MAX_RELATED_TEXT })).value, { 'cache-control': 'no-store', connection: 'close', ...vary });
        if (request.kind !== 'text') return htmlPage(415, messagePage(ctx, m.t('web.errorTitle'), m.t('web.relatedForm')).value);
        const view = await relatedView(library, ctx, request.text);
        return htmlPage(200, relatedPage(ctx, view, topicIds).value);
      }
      if (path === '/api/related') {
        const answer = await apiRelated(library, m, await readTextRequest(req, url, 'json'));
        if (answer.status === 413) return send(413, 'application/json; charset=utf-8', `${JSON.stringify(answer.body)}\n`, { 'cache-control': 'no-store', connection: 'close', ...vary });
        return json(answer.status, answer.body);
      }
      const paper = /^\/paper\/([^/]+)$/.exec(path);
      if (paper) {
        const found = await library.findById(safeDecode(paper[1]!));
        if (!found) return htmlPage(404, messagePage(ctx, m.t('web.notFoundTitle'), m.t('web.noPaper')).value);
        const card = library.card(found.paper, found.doc, { detail: true, messages: m, site: links });
        const [similar, cited] = await Promise.all([library.similar(found.paper, SIMILAR_ON_PAGE), library.citations(found.doc, { offset: 0, limit: CITED_ON_PAGE })]);
        const lists = {
          cited: CITATION_DIRECTIONS.map((direction) => ({
            direction,
            total: cited[direction]?.total ?? 0,
            papers: (cited[direction]?.papers ?? []).map((p) => related(p.paper, citedBy(p.count, m, 'compact').text)),
          })),
          similar: similar.map((s) => related(s.paper)),
        };
        return htmlPage(200, paperPage(ctx, card, lists, toBibtex([found.paper]), topicIds).value);
      }
      const citing = /^\/paper\/([^/]+)\/([^/]+)$/.exec(path);
      // The list's path segment as `siteLinks` writes it (`references`, `cited-by`); any other is not found.
      const direction = citing && CITATION_DIRECTIONS.find((d) => CITATION_PATHS[d] === citing[2]);
      if (citing && direction) {
        const found = await library.findById(safeDecode(citing[1]!));
        if (!found) return htmlPage(404, messagePage(ctx, m.t('web.notFoundTitle'), m.t('web.noPaper')).value);
        const view = await citationsView(library, ctx, found, direction, url.searchParams.get('page'));
        return htmlPage(200, citationsPage(ctx, view, topicIds).value);
      }
      const topicPath = /^\/topic\/([^/]+)\/([^/]+)$/.exec(path);
      if (topicPath) {
        const topic = library.taxonomy.byId(`${safeDecode(topicPath[1]!)}/${safeDecode(topicPath[2]!)}`);
        if (!topic) return htmlPage(404, messagePage(ctx, m.t('web.notFoundTitle'), m.t('web.noTopic')).value);
        const view = await results(library, ctx, `topic:"${topic.id}" sort:new`, false, url.searchParams.get('page'));
        const label = library.taxonomy.label(topic, m.dataLocale);
        return htmlPage(200, topicPage(ctx, label, view, topicIds, (n) => `${links.topic(topic.id)}${n > 1 ? `?page=${n}` : ''}`).value);
      }
      if (path === '/api/search') {
        const answer = await apiSearch(library, m, url.searchParams);
        return json(answer.status, answer.body);
      }
      if (path === '/api/suggest') return json(200, apiSuggest(library, url.searchParams));
      if (path === OPENSEARCH_PATH) {
        // Its addresses are absolute: PUBLIC_URL's, which any cache may keep, else the Host
        // header's, which only the browser that sent it may (a shared cache would hand one
        // visitor's Host to the next).
        const base = options.publicUrl ?? hostAddress(req);
        const cache = options.publicUrl !== undefined ? { 'cache-control': PAGE_CACHE, ...vary } : { 'cache-control': HOST_PAGE_CACHE, vary: 'Accept-Language, Host' };
        return send(200, 'application/opensearchdescription+xml; charset=utf-8', openSearchXml(m, library.size, base), cache);
      }
      return htmlPage(404, messagePage(ctx, m.t('web.notFoundTitle'), m.t('web.notFound')).value);
    };

    route().catch((err: unknown) => {
      // Nobody is left to answer when the sender went away before its body ended.
      if (res.headersSent || err instanceof RequestAborted) return void res.destroy();
      const api = url.pathname.startsWith('/api/');
      if (err instanceof UserError) {
        const text = m.text(err.reason);
        const status = err.reason.key === 'error.indexRebuilding' ? 503 : 400;
        return api ? json(status, { error: text }) : htmlPage(status, messagePage(ctx, m.t('web.errorTitle'), text).value);
      }
      const reference = errorReference();
      log.error({ err, reference, path: url.pathname }, 'the site failed to answer');
      const text = m.t('web.failed', { reference });
      return api ? json(500, { error: text }) : htmlPage(500, messagePage(ctx, m.t('web.errorTitle'), text).value);
    });
  };
}

/**
 * Where people reach the site: PUBLIC_URL, else this machine on `port`.
 * @example siteAddress(undefined, 3000) // 'http://localhost:3000/'
 */
export function siteAddress(publicUrl: string | undefined, port: number): string {
  return publicUrl !== undefined ? `${publicUrl}/` : `http://localhost:${port}/`;
}

/** The results of `query` on page `rawPage`, {@link SITE_PAGE_SIZE} to a page. */
async function results(library: Library, ctx: PageContext, query: string, cut: boolean, rawPage: string | null): Promise<ResultsView> {
  const result = await library.search(query, { limit: MAX_RESULTS });
  const shown = result.hits.length;
  const pages = Math.max(1, Math.ceil(shown / SITE_PAGE_SIZE));
  const page = pageNumber(rawPage, pages);
  const cards = await library.cards(result, (page - 1) * SITE_PAGE_SIZE, SITE_PAGE_SIZE, ctx.m, ctx.links);
  return { query, cut, total: shown === 0 ? 0 : Math.max(result.total, shown), shown, notes: result.notes.map((n) => ctx.m.text(n)), cards, page, pages };
}

/** Related work for `text` (nothing before a text is sent), {@link SITE_PAGE_SIZE} papers, the text kept as read. */
async function relatedView(library: Library, ctx: PageContext, text: string | undefined): Promise<RelatedView> {
  if (text === undefined) return { text: '', hint: false, notes: [], cards: [] };
  const kept = clip(text.trim(), MAX_RELATED_TEXT);
  if (!hasWords(kept)) return { text: kept, hint: true, notes: [], cards: [] };
  const result = await library.related(text, { limit: SITE_PAGE_SIZE });
  const cards = await library.cards(result, 0, SITE_PAGE_SIZE, ctx.m, ctx.links);
  return { text: kept, hint: false, notes: result.notes.map((n) => ctx.m.text(n)), cards };
}

/** The first `max` UTF-16 units of `text`, never half a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** A paper in a list on a paper's page: venue and year, and `more` (its count) after them. */
function related(paper: Paper, more = ''): RelatedPaper {
  return { id: paper.id, title: paper.title, detail: [[paper.venue, paper.year].filter(Boolean).join(' '), more].filter(Boolean).join(' · ') };
}

/**
 * Page `rawPage` of a paper's references or citing papers in the library, {@link SITE_PAGE_SIZE}
 * to a page; a page past the end is the last one (read again: the total is known only then).
 */
async function citationsView(library: Library, ctx: PageContext, found: StoredPaper, direction: CitationDirection, rawPage: string | null): Promise<CitationsView> {
  const read = async (page: number) => (await library.citations(found.doc, { offset: (page - 1) * SITE_PAGE_SIZE, limit: SITE_PAGE_SIZE }, [direction]))[direction] ?? { papers: [], total: 0 };
  let page = pageNumber(rawPage, MAX_CITATIONS_PAGE);
  let list = await read(page);
  const pages = Math.max(1, Math.ceil(list.total / SITE_PAGE_SIZE));
  if (page > pages) list = await read((page = pages));
  const cards = list.papers.map((p) => library.card(p.paper, p.doc, { messages: ctx.m, site: ctx.links }));
  return { paper: { id: found.paper.id, title: found.paper.title }, direction, total: list.total, cards, page, pages };
}

/**
 * Who is asking, for the rate limit: the connection's address; behind a proxy on the same machine
 * (a loopback peer), the address that proxy put last in X-Forwarded-For.
 */
function clientAddress(req: IncomingMessage): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string' && /^(127\.|::1$|::ffff:127\.)/.test(peer)) {
    const last = forwarded.split(',').pop()?.trim();
    if (last) return last.slice(0, 64);
  }
  return peer;
}

/** `http://<Host>` when the Host header has a host's shape ({@link readHost}), else localhost. */
function hostAddress(req: IncomingMessage): string {
  return `http://${readHost(req.headers.host) ?? 'localhost'}`;
}

/** The request's address, or undefined when the request line's cannot be read as one. */
function readUrl(raw: string | undefined): URL | undefined {
  try {
    return new URL(raw ?? '/', 'http://site.invalid');
  } catch {
    return undefined;
  }
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
