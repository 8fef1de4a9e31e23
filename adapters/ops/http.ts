/**
 * The operational routes, `GET /healthz`, `GET /readyz` and `GET /metrics`, as handlers that fit
 * Bolt's `customRoutes` (served on Slack's HTTP server in HTTP mode) and a small node:http server
 * for the other cases (Discord only, Slack in Socket Mode).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SetupError } from '../../src/errors.js';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';

/** A route as Bolt's customRoutes take it. */
export interface OpsRoute {
  path: string;
  method: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

export interface OpsSources {
  health(): unknown;
  ready(): { ready: boolean; reasons: string[] };
  metrics(): Promise<{ contentType: string; body: string }>;
}

/**
 * @example new HTTPReceiver({ …, customRoutes: opsRoutes(sources) })
 */
export function opsRoutes(sources: OpsSources): OpsRoute[] {
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(`${JSON.stringify(body, null, 2)}\n`);
  };
  return [
    { path: HEALTH_PATH, method: 'GET', handler: (_req, res) => json(res, 200, sources.health()) },
    {
      path: READY_PATH,
      method: 'GET',
      handler: (_req, res) => {
        const { ready, reasons } = sources.ready();
        json(res, ready ? 200 : 503, ready ? { ready } : { ready, reasons });
      },
    },
    {
      path: METRICS_PATH,
      method: 'GET',
      handler: (_req, res) => {
        sources.metrics().then(
          ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
          (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err instanceof Error ? err.message : String(err)}\n`),
        );
      },
    },
  ];
}

export interface OpsServer {
  port: number;
  /** Stops accepting connections; requests under way finish. */
  close(): Promise<void>;
}

/**
 * Serves `routes` on `port` (all interfaces, as Bolt does), and anything else with `fallback`
 * (the search site) or 404. Rejects with a message naming PORT when the port is taken.
 */
export async function startOpsServer(port: number, routes: readonly OpsRoute[], fallback?: (req: IncomingMessage, res: ServerResponse) => void): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = routes.find((r) => r.path === path && r.method === req.method);
    if (route) route.handler(req, res);
    else if (fallback) fallback(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end(`Not found. Try ${routes.map((r) => r.path).join(', ')}.\n`);
  });
  server.listen(port);
  try {
    await once(server, 'listening');
  } catch (err) {
    throw listenFailure(err, port);
  }
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      const closed = once(server, 'close');
      server.close();
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
export function listenFailure(err: unknown, port: number): SetupError {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (code === 'EADDRINUSE') return new SetupError(`Port ${port} is already in use: stop whatever listens there or set PORT to a free port.`, { cause: err });
  if (code === 'EACCES') return new SetupError(`Not allowed to listen on port ${port}: set PORT to a port above 1023.`, { cause: err });
  return new SetupError(`Could not listen on port ${port} (PORT): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}
