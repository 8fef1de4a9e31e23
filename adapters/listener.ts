/**
 * The process's one HTTP listener on PORT, owned by whoever runs the process (the service, or
 * the terminal's mode), never by a platform adapter: it outlives every adapter's crash and
 * restart. What answers on it:
 * - fixed routes (health, readiness, metrics), by path and method;
 * - handlers mounted by adapters for their paths (Slack's /slack/events and install flow); an
 *   adapter that restarts swaps what its handler does, the port stays open;
 * - everything else, the fallback (the search site), else 404.
 * A request line whose address cannot be read (`GET http://a:99999/`) goes to the fallback, which
 * answers 400 itself, or gets a plain 400; a handler that throws gets a 500, and the listener
 * carries on.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { SetupError } from '../src/errors.js';
import { loggable, throttledLog } from '../src/logThrottle.js';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A route served by path and method (health, readiness, metrics). */
export interface Route {
  path: string;
  method: string;
  handler: RequestHandler;
}

/** Where an adapter mounts its handler: the port, and the paths it answers. */
export interface HttpMount {
  port: number;
  /** `handler` answers every request to `paths` from now on; the function returned unmounts it. */
  mount(paths: readonly string[], handler: RequestHandler): () => void;
}

export interface HttpListener extends HttpMount {
  /** Takes no new connections (idle keep-alive ones close); requests under way finish. */
  stopAccepting(): void;
  /** Closes the listener and every connection left. */
  close(): Promise<void>;
}

export interface ListenerOptions {
  log: Logger;
  routes?: readonly Route[];
  /** Answers every other request (the search site), malformed ones included. */
  fallback?: RequestHandler;
  /** Milliseconds now, for the throttled log lines (tests pass their own). */
  now?: () => number;
}

/**
 * The path of a request's address, or undefined when its request line cannot be read as one
 * (an absolute URL with a port out of range, a broken IPv6 host…).
 * @example requestPath('http://a:99999/') // undefined
 */
export function requestPath(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

/**
 * Listens on `port` (all interfaces); rejects with a {@link SetupError} naming PORT when the
 * port is taken.
 * @example const listener = await startHttpListener(3000, { log, routes, fallback: site }); listener.mount(['/slack/events'], slackHandler);
 */
export async function startHttpListener(port: number, options: ListenerOptions): Promise<HttpListener> {
  const { log, routes = [], fallback } = options;
  const mounted = new Map<string, RequestHandler>();
  const malformed = throttledLog(log, 'warn', 'refused a request whose address cannot be read (400)', options.now ? { now: options.now } : {});
  const failed = throttledLog(log, 'error', 'a request handler failed; the listener carries on', options.now ? { now: options.now } : {});

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const path = requestPath(req.url);
    if (path === undefined) {
      if (fallback) return fallback(req, res);
      malformed({ method: req.method, url: loggable(req.url) });
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Bad request: the address in the request line cannot be read.\n');
      return;
    }
    const fixed = routes.find((r) => r.path === path && r.method === req.method);
    if (fixed) return fixed.handler(req, res);
    const handler = mounted.get(path);
    if (handler) return handler(req, res);
    if (fallback) return fallback(req, res);
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`Not found. Try ${routes.map((r) => r.path).join(', ')}.\n`);
  };
  const server: Server = createServer((req, res) => {
    try {
      route(req, res);
    } catch (err) {
      failed({ err, method: req.method, path: loggable(requestPath(req.url)) });
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Something went wrong here; try again.\n');
    }
  });
  server.listen(port);
  try {
    await once(server, 'listening');
  } catch (err) {
    throw listenFailure(err, port);
  }
  const closed = once(server, 'close').then(() => undefined);
  return {
    port: (server.address() as AddressInfo).port,
    mount(paths, handler) {
      for (const path of paths) {
        if (mounted.has(path)) throw new Error(`listener: ${path} is mounted already`);
        mounted.set(path, handler);
      }
      return () => {
        for (const path of paths) if (mounted.get(path) === handler) mounted.delete(path);
      };
    },
    stopAccepting() {
      if (server.listening) server.close();
      server.closeIdleConnections();
    },
    async close() {
      if (server.listening) server.close();
      // The last step of a shutdown: a keep-alive connection left open would hold it up.
      server.closeAllConnections();
      await closed;
    },
  };
}

/**
 * A listen error said as what to do: a {@link SetupError}, whose message `npm start` prints as
 * its one line, without a stack trace.
 */
function listenFailure(err: unknown, port: number): SetupError {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (code === 'EADDRINUSE') return new SetupError(`Port ${port} is already in use: stop whatever listens there or set PORT to a free port.`, { cause: err });
  if (code === 'EACCES') return new SetupError(`Not allowed to listen on port ${port}: set PORT to a port above 1023.`, { cause: err });
  return new SetupError(`Could not listen on port ${port} (PORT): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}
