/**
 * The operational routes, `GET /healthz`, `GET /readyz` and `GET /metrics`, served on the
 * process's one listener (adapters/listener.ts) beside Slack's /slack/events and the site.
 */
import type { ServerResponse } from 'node:http';
import type { Route } from '../listener.js';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';

export interface OpsSources {
  health(): unknown;
  ready(): { ready: boolean; reasons: string[] };
  metrics(): Promise<{ contentType: string; body: string }>;
}

/**
 * @example await startHttpListener(port, { log, routes: opsRoutes(sources) })
 */
export function opsRoutes(sources: OpsSources): Route[] {
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
