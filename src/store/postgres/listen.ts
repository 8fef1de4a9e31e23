/**
 * A LISTEN on a connection of its own, kept open: every `NOTIFY <channel>` reaches `onNotify`
 * within milliseconds. A connection that fails (the server restarted) is opened again with
 * backoff; notifications sent while it was down are lost, which is why whoever listens also
 * polls (and `onNotify` is called once on every reconnection, so the listener catches up).
 */
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Postgres } from './connection.js';

/** Waits before opening the listening connection again, by attempt. */
const RECONNECT_MS: readonly number[] = [500, 1000, 2000, 5000, 10_000, 30_000];

export interface Listener {
  /** Whether the connection is open and listening now. */
  readonly listening: boolean;
  close(): Promise<void>;
}

/**
 * Listens on `channel` (a plain identifier) until closed.
 * @example const listener = listen(db, 'paperscout_papers', log, (payload) => catchUp());
 */
export function listen(db: Postgres, channel: string, log: Logger, onNotify: (payload: string | undefined) => void): Listener {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`listen: "${channel}" is not a plain channel name`);
  let client: pg.Client | undefined;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  let failedOnce = false;

  const reconnectLater = () => {
    if (closed || timer) return;
    const wait = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]!;
    timer = setTimeout(() => {
      timer = undefined;
      void open();
    }, wait);
    timer.unref();
  };

  const open = async () => {
    if (closed) return;
    let next: pg.Client | undefined;
    try {
      next = await db.connect();
      next.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload);
      });
      const failed = (err?: Error) => {
        if (client !== next) return;
        client = undefined;
        failedOnce = true;
        if (!closed) log.warn({ channel, err: err?.message }, 'the PostgreSQL connection listening for changes was lost; opening it again');
        next?.end().catch(() => undefined);
        reconnectLater();
      };
      next.on('error', failed);
      next.on('end', () => failed());
      await next.query(`LISTEN ${channel}`);
      if (closed) {
        await next.end();
        return;
      }
      client = next;
      attempt = 0;
      if (failedOnce) log.info({ channel }, 'listening for changes in PostgreSQL again');
      // Whatever was notified while nobody listened: the listener looks for itself.
      onNotify(undefined);
    } catch (err) {
      failedOnce = true;
      await next?.end().catch(() => undefined);
      if (!closed) log.warn({ channel, err: (err as Error).message }, 'could not listen for changes in PostgreSQL; trying again (polling meanwhile)');
      reconnectLater();
    }
  };
  void open();

  return {
    get listening() {
      return client !== undefined;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
