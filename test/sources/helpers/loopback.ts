/**
 * A loopback HTTP server standing in for a source (arXiv's OAI-PMH and API, OpenReview,
 * OpenAlex, a file host): each request is reduced to a key by a function the test gives, and
 * answered from that key's queue of replies, the last one repeating; anything else is a 404.
 * Every request is recorded, with the time a fake clock showed when it arrived.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../../src/clock.js';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The reply waits for this (a test holding the answer back while it checks what happens meanwhile). */
  hold?: Promise<void>;
}

export interface Recorded {
  key: string;
  url: URL;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** `clock.now()` when the request arrived, in ms. */
  at: number;
}

export type KeyOf = (url: URL, method: string) => string;

/** The default key: the path and the query string as sent. */
export const pathAndQuery: KeyOf = (url) => `${url.pathname}${url.search}`;

export const xml = (body: string, status = 200): Reply => ({ status, headers: { 'content-type': 'text/xml; charset=utf-8' }, body });
export const json = (value: unknown, status = 200): Reply => ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(value) });

export class Loopback {
  readonly requests: Recorded[] = [];
  private routes = new Map<string, Reply[]>();
  private keyOf: KeyOf = pathAndQuery;
  private server: Server | undefined;
  base = '';

  constructor(private readonly clock?: Clock) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', this.base);
        const key = this.keyOf(url, req.method ?? 'GET');
        this.requests.push({ key, url, method: req.method ?? 'GET', headers: req.headers, body: Buffer.concat(chunks).toString(), at: this.clock?.now().getTime() ?? Date.now() });
        const queue = this.routes.get(key);
        const reply = (queue && queue.length > 1 ? queue.shift() : queue?.[0]) ?? { status: 404, body: `no reply for ${key}` };
        void (reply.hold ?? Promise.resolve()).then(() => {
          if (res.destroyed) return;
          res.writeHead(reply.status ?? 200, reply.headers ?? {});
          res.end(reply.body ?? '');
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Replaces the replies (and forgets the requests so far). */
  serve(routes: Record<string, Reply | Reply[]>, keyOf: KeyOf = pathAndQuery): this {
    this.routes = new Map(Object.entries(routes).map(([key, reply]) => [key, Array.isArray(reply) ? [...reply] : [reply]]));
    this.keyOf = keyOf;
    this.requests.length = 0;
    return this;
  }

  /** The keys of the requests so far, in order. */
  get keys(): string[] {
    return this.requests.map((r) => r.key);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A promise a test resolves when it lets a held reply go. */
export function gate(): { hold: Promise<void>; release: () => void } {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  return { hold, release };
}
