/**
 * A loopback HTTP server standing in for rss.arxiv.org and export.arxiv.org: each path (for the
 * API, path plus `?start=N`) answers from a queue of replies, the last one repeating. Every
 * request is recorded with the time a {@link FakeClock} showed when it arrived.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../../../src/clock.js';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface RecordedRequest {
  key: string;
  url: URL;
  userAgent: string | undefined;
  /** `clock.now()` when the request arrived, in ms. */
  at: number;
}

/** The text of a file in test/fixtures/arxiv. */
export function fixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../fixtures/arxiv/${name}`, import.meta.url)), 'utf8');
}

/** An RSS reply with a fixture's body. */
export const rss = (name: string): Reply => ({ headers: { 'content-type': 'application/rss+xml; charset=utf-8' }, body: fixture(name) });
/** An Atom reply with a fixture's body. */
export const atom = (name: string): Reply => ({ headers: { 'content-type': 'application/atom+xml; charset=utf-8' }, body: fixture(name) });

export class FeedServer {
  readonly requests: RecordedRequest[] = [];
  private routes = new Map<string, Reply[]>();
  private server: Server | undefined;
  private base = '';

  constructor(private readonly clock?: Clock) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', this.base);
      const start = url.searchParams.get('start');
      const key = url.pathname.startsWith('/api/') ? `${url.pathname}?start=${start}` : url.pathname;
      this.requests.push({ key, url, userAgent: req.headers['user-agent'], at: this.clock?.now().getTime() ?? Date.now() });
      const queue = this.routes.get(key);
      const reply = (queue && queue.length > 1 ? queue.shift() : queue?.[0]) ?? { status: 404, body: `no fixture for ${key}` };
      res.writeHead(reply.status ?? 200, reply.headers ?? {});
      res.end(reply.body ?? '');
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** ARXIV_RSS_URL and ARXIV_API_URL pointing here. */
  get env(): { ARXIV_RSS_URL: string; ARXIV_API_URL: string } {
    return { ARXIV_RSS_URL: `${this.base}/rss/`, ARXIV_API_URL: `${this.base}/api/query` };
  }

  /** Replaces the replies: `/rss/cs.LG` for a feed, `/api/query?start=0` for an API page. */
  serve(routes: Record<string, Reply | Reply[]>): this {
    this.routes = new Map(Object.entries(routes).map(([key, reply]) => [key, Array.isArray(reply) ? [...reply] : [reply]]));
    this.requests.length = 0;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
