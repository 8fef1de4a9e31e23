/**
 * A loopback HTTP server that keeps each request waiting until the test releases it: a
 * response_url whose answer is "in flight" for as long as the test needs. It notes whether the
 * client gave up on (reset) a request before it was answered.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldRequest {
  path: string;
  body: string;
  /** Whether the client closed the connection before the answer. */
  readonly reset: boolean;
  /** Answers 200 with `body` (JSON). */
  release(body?: unknown): void;
}

export class HoldingServer {
  private readonly held: HeldRequest[] = [];
  private readonly waiters: Array<(r: HeldRequest) => void> = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<HoldingServer> {
    const server = createServer();
    const holding = new HoldingServer(server);
    server.on('request', (req, res) => void holding.onRequest(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return holding;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** The next request to arrive (or the earliest not yet taken). */
  next(timeoutMs = 10_000): Promise<HeldRequest> {
    const waiting = this.held.shift();
    if (waiting) return Promise.resolve(waiting);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`HoldingServer: no request within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push((r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    let reset = false;
    res.on('close', () => {
      if (!res.writableFinished) reset = true;
    });
    const held: HeldRequest = {
      path: req.url ?? '/',
      body,
      get reset() {
        return reset;
      },
      release(answer = { ok: true }) {
        if (!reset) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      },
    };
    const waiter = this.waiters.shift();
    if (waiter) waiter(held);
    else this.held.push(held);
  }
}
