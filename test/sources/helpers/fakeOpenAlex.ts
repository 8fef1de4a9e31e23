/**
 * A loopback OpenAlex for tests and benchmarks, answering as its API documents
 * (docs.openalex.org, "Works", "Filter", "Select fields", "Paging", "Search"):
 *
 * - `GET /works?filter=…&search=…&select=…&per-page=…&page=…|cursor=…&mailto=…`: filters are
 *   `key:value` joined by `,` (AND), a value may OR several with `|` (at most 100); keys
 *   `doi`, `openalex` (also `ids.openalex`), `title.search`, `publication_year` (a year or
 *   `a-b`), `from_publication_date`, `to_publication_date`, `cited_by_count` (`>n`, `<n`, `n`);
 *   `search` and `title.search` match works whose title (or, for `search`, abstract) holds every
 *   word, best first by how much of the title the query is; `per-page` 1–200; `page` paging up
 *   to 10,000 results, `cursor=*` then `meta.next_cursor`; `select` root fields only. The reply
 *   is `{"meta": {"count", "db_response_time_ms", "page", "per_page", "next_cursor",
 *   "groups_count"}, "results": […], "group_by": []}`; a mistake is a 400 with
 *   `{"error", "message"}`.
 * - `GET /works/<W…|doi:…|https://doi.org/…>`: one work (with `select`), or a 404.
 *
 * Faults are queued ({@link FakeOpenAlex.fail}): the next requests get them instead (a 429 with
 * Retry-After, a 5xx, a body that is not JSON), or a reply is held until released. Every request
 * is recorded.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A work as OpenAlex's API gives it (the fields the fake reads; the rest are passed through). */
export type Work = Record<string, unknown> & { id: string };

export interface FaultReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface SeenRequest {
  url: URL;
  headers: IncomingHttpHeaders;
  /** What was answered. */
  status: number;
}

/** Values one filter may OR, results a page may hold, results `page` paging reaches: OpenAlex's limits. */
const MAX_OR = 100;
const MAX_PER_PAGE = 200;
const MAX_PAGED = 10_000;
/** Root fields `select` may name. */
const ROOT_FIELDS = new Set([
  'id', 'doi', 'title', 'display_name', 'publication_year', 'publication_date', 'ids', 'language', 'primary_location', 'type', 'open_access',
  'authorships', 'cited_by_count', 'is_retracted', 'is_paratext', 'primary_topic', 'topics', 'keywords', 'locations', 'referenced_works',
  'related_works', 'abstract_inverted_index', 'counts_by_year', 'updated_date', 'created_date', 'best_oa_location', 'biblio', 'concepts',
]);

class BadRequest extends Error {}

const words = (text: string): string[] => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const bareDoi = (doi: string): string => doi.trim().toLowerCase().replace(/^https?:\/\/(dx\.)?doi\.org\//, '').replace(/^doi:/, '');
const bareWork = (id: string): string => id.trim().replace(/^https?:\/\/(api\.)?openalex\.org\/(works\/)?/i, '').toUpperCase();

export class FakeOpenAlex {
  readonly requests: SeenRequest[] = [];
  private readonly faults: Array<FaultReply | { hold: Promise<void> } | null> = [];
  private server: Server | undefined;
  private byId = new Map<string, Work>();
  private byDoi = new Map<string, Work[]>();
  /** Title word → works whose title holds it. */
  private byWord = new Map<string, Work[]>();
  base = '';

  constructor(works: readonly Work[] = []) {
    this.load(works);
  }

  /** Replaces the works OpenAlex holds. */
  load(works: readonly Work[]): this {
    this.byId = new Map();
    this.byDoi = new Map();
    this.byWord = new Map();
    for (const work of works) {
      this.byId.set(bareWork(work.id), work);
      // Pushed in place: a library's worth of works (the bench's 95k) shares a few words thousands of times.
      if (typeof work['doi'] === 'string') append(this.byDoi, bareDoi(work['doi']), work);
      for (const word of new Set(words(titleOf(work)))) append(this.byWord, word, work);
    }
    return this;
  }

  /** The next requests get these replies, in order, instead of an answer (`null`: the answer). */
  fail(...replies: Array<FaultReply | null>): this {
    this.faults.push(...replies);
    return this;
  }

  /** The next request waits until the returned function is called (a test kills its client meanwhile). */
  hold(): () => void {
    let release!: () => void;
    this.faults.push({ hold: new Promise<void>((resolve) => (release = resolve)) });
    return () => release();
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', this.base);
      const fault = this.faults.shift();
      void (fault && 'hold' in fault ? fault.hold : Promise.resolve()).then(() => {
        const reply = fault && 'status' in fault ? fault : this.answer(url);
        this.requests.push({ url, headers: req.headers, status: reply.status });
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers ?? { 'content-type': 'application/json' });
        res.end(reply.body ?? '');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /**
   * The same answers without a socket, as an `HttpRequest` (for tests under fake timers): faults
   * apply, holds do not.
   */
  readonly http = async (url: string): Promise<{ status: number; headers: Headers; text: () => Promise<string> }> => {
    const parsed = new URL(url);
    const fault = this.faults.shift();
    const reply = fault && 'status' in fault ? fault : this.answer(parsed);
    this.requests.push({ url: parsed, headers: {}, status: reply.status });
    return { status: reply.status, headers: new Headers(reply.headers ?? {}), text: async () => reply.body ?? '' };
  };

  /** The filters of the list requests answered so far, in order (`doi:…`, `title.search:…`). */
  get filters(): string[] {
    return this.requests.filter((r) => r.url.pathname === '/works').map((r) => r.url.searchParams.get('filter') ?? `search=${r.url.searchParams.get('search')}`);
  }

  private answer(url: URL): FaultReply {
    try {
      if (url.pathname === '/works') return json(200, this.list(url.searchParams));
      const single = /^\/works\/(.+)$/.exec(url.pathname);
      if (single) {
        const key = decodeURIComponent(single[1]!);
        const work = /^doi:|^https?:\/\/(dx\.)?doi\.org\//i.test(key) ? this.byDoi.get(bareDoi(key))?.[0] : this.byId.get(bareWork(key));
        return work ? json(200, selected(work, fields(url.searchParams))) : json(404, { error: 'Not Found', message: `Work ${key} not found` });
      }
      return json(404, { error: 'Not Found', message: `no route ${url.pathname}` });
    } catch (error) {
      if (error instanceof BadRequest) return json(400, { error: 'Invalid query parameters error.', message: error.message });
      throw error;
    }
  }

  private list(params: URLSearchParams): unknown {
    const perPage = Number(params.get('per-page') ?? params.get('per_page') ?? 25);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) throw new BadRequest(`per-page must be a number between 1 and ${MAX_PER_PAGE}`);
    const select = fields(params);
    let works: Work[] | undefined;
    let query: string[] = [];
    const filter = params.get('filter');
    for (const part of filter ? filter.split(',') : []) {
      const at = part.indexOf(':');
      if (at < 0) throw new BadRequest(`Invalid filter: ${part} is not key:value`);
      const key = part.slice(0, at).trim();
      const values = part.slice(at + 1).split('|');
      if (values.length > MAX_OR) throw new BadRequest(`Maximum number of values exceeded for ${key}. Decrease values to ${MAX_OR} or below.`);
      works = this.filterBy(key, values, works);
      if (key === 'title.search') query = words(values.join(' '));
    }
    const search = params.get('search');
    if (search !== null) {
      const q = words(search);
      works = (works ?? [...this.byId.values()]).filter((w) => q.every((word) => words(`${titleOf(w)} ${abstractOf(w)}`).includes(word)));
      query = q;
    }
    works ??= [...this.byId.values()];
    if (query.length > 0) works = [...works].sort((a, b) => words(titleOf(a)).length - words(titleOf(b)).length);
    const cursor = params.get('cursor');
    let offset: number;
    if (cursor !== null) {
      offset = cursor === '*' ? 0 : Number(Buffer.from(cursor, 'base64url').toString());
      if (!Number.isInteger(offset) || offset < 0) throw new BadRequest('cursor is not valid');
    } else {
      const page = Number(params.get('page') ?? 1);
      if (!Number.isInteger(page) || page < 1) throw new BadRequest('page must be a number ≥ 1');
      offset = (page - 1) * perPage;
      if (offset + perPage > MAX_PAGED) throw new BadRequest(`Maximum results size of ${MAX_PAGED} records is exceeded. Cursor pagination is required for records beyond ${MAX_PAGED}.`);
    }
    const results = works.slice(offset, offset + perPage).map((w) => selected(w, select));
    const next = cursor !== null && offset + perPage < works.length ? Buffer.from(String(offset + perPage)).toString('base64url') : null;
    return {
      meta: { count: works.length, db_response_time_ms: 3, page: cursor === null ? Math.floor(offset / perPage) + 1 : null, per_page: perPage, next_cursor: cursor === null ? undefined : next, groups_count: null },
      results,
      group_by: [],
    };
  }

  private filterBy(key: string, values: string[], within: Work[] | undefined): Work[] {
    const keep = (test: (w: Work) => boolean): Work[] => (within ?? [...this.byId.values()]).filter(test);
    switch (key) {
      case 'doi': {
        const found = values.flatMap((v) => this.byDoi.get(bareDoi(v)) ?? []);
        return within ? found.filter((w) => within.includes(w)) : [...new Set(found)];
      }
      case 'openalex':
      case 'ids.openalex': {
        const found = values.flatMap((v) => this.byId.get(bareWork(v)) ?? []);
        return within ? found.filter((w) => within.includes(w)) : [...new Set(found)];
      }
      case 'title.search': {
        const q = words(values.join(' '));
        if (q.length === 0) throw new BadRequest('title.search needs a value');
        const rarest = q.map((word) => this.byWord.get(word) ?? []).sort((a, b) => a.length - b.length)[0]!;
        const found = rarest.filter((w) => {
          const title = words(titleOf(w));
          return q.every((word) => title.includes(word));
        });
        return within ? found.filter((w) => within.includes(w)) : found;
      }
      case 'publication_year': {
        const ranges = values.map((v) => {
          const m = /^(\d{4})(?:-(\d{4}))?$/.exec(v.trim());
          if (!m) throw new BadRequest(`Value for param publication_year must be a number: ${v}`);
          return [Number(m[1]), Number(m[2] ?? m[1])] as const;
        });
        return keep((w) => ranges.some(([lo, hi]) => Number(w['publication_year']) >= lo && Number(w['publication_year']) <= hi));
      }
      case 'from_publication_date':
      case 'to_publication_date': {
        const day = values[0]!.trim();
        if (values.length > 1 || !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new BadRequest(`${key} must be a date YYYY-MM-DD`);
        return keep((w) => {
          const date = typeof w['publication_date'] === 'string' ? w['publication_date'] : `${String(w['publication_year'])}-06-15`;
          return key === 'from_publication_date' ? date >= day : date <= day;
        });
      }
      case 'cited_by_count': {
        const m = /^([<>]?)(\d+)$/.exec(values[0]!.trim());
        if (!m) throw new BadRequest('cited_by_count must be a number, >n or <n');
        const n = Number(m[2]);
        return keep((w) => (m[1] === '>' ? Number(w['cited_by_count']) > n : m[1] === '<' ? Number(w['cited_by_count']) < n : Number(w['cited_by_count']) === n));
      }
      default:
        throw new BadRequest(`${key} is not a valid field`);
    }
  }
}

function append<K>(map: Map<K, Work[]>, key: K, work: Work): void {
  const list = map.get(key);
  if (list) list.push(work);
  else map.set(key, [work]);
}

function fields(params: URLSearchParams): string[] | undefined {
  const select = params.get('select');
  if (select === null) return undefined;
  const list = select.split(',').map((f) => f.trim());
  for (const f of list) if (!ROOT_FIELDS.has(f)) throw new BadRequest(`${f} is not a valid select field. Valid fields are root-level fields only.`);
  return list;
}

function selected(work: Work, select: string[] | undefined): unknown {
  return select ? Object.fromEntries(select.filter((f) => f in work).map((f) => [f, work[f]])) : work;
}

function titleOf(work: Work): string {
  return typeof work['display_name'] === 'string' ? work['display_name'] : typeof work['title'] === 'string' ? work['title'] : '';
}

function abstractOf(work: Work): string {
  const index = work['abstract_inverted_index'];
  return index && typeof index === 'object' ? Object.keys(index).join(' ') : '';
}

function json(status: number, value: unknown): FaultReply {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

/**
 * A work in OpenAlex's shape from the few fields a test cares about.
 * @example openAlexWork({ n: 1, title: 'Deep Residual Learning', year: 2016, authors: ['Kaiming He'], cited: 200000, doi: '10.1109/cvpr.2016.90' })
 */
export function openAlexWork(w: { n: number; title: string; year?: number; authors?: string[]; cited?: unknown; doi?: string; arxiv?: string; refs?: number[] }): Work {
  const id = `https://openalex.org/W${w.n}`;
  const arxivUrl = w.arxiv ? `https://arxiv.org/abs/${w.arxiv}` : undefined;
  return {
    id,
    doi: w.doi ? `https://doi.org/${w.doi}` : null,
    title: w.title,
    display_name: w.title,
    publication_year: w.year ?? null,
    publication_date: w.year ? `${w.year}-06-15` : null,
    ids: { openalex: id, ...(w.doi && { doi: `https://doi.org/${w.doi}` }) },
    type: 'article',
    primary_location: arxivUrl ? { is_oa: true, landing_page_url: arxivUrl, pdf_url: null, source: { display_name: 'arXiv (Cornell University)' } } : null,
    locations: arxivUrl ? [{ is_oa: true, landing_page_url: arxivUrl, pdf_url: `https://arxiv.org/pdf/${w.arxiv}`, source: { display_name: 'arXiv (Cornell University)' } }] : [],
    authorships: (w.authors ?? []).map((name, i) => ({ author_position: i === 0 ? 'first' : 'middle', author: { id: `https://openalex.org/A${w.n * 10 + i}`, display_name: name }, institutions: [], raw_author_name: name })),
    cited_by_count: w.cited ?? 0,
    referenced_works: (w.refs ?? []).map((r) => `https://openalex.org/W${r}`),
    related_works: [],
    abstract_inverted_index: null,
    updated_date: '2026-01-05T00:00:00.000000',
  };
}
