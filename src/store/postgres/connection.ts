/**
 * The connection to DATABASE_URL's PostgreSQL: a node-postgres Pool, with what an operator needs
 * when the server is not there. At start, an unreachable server is one line naming host and port,
 * retried with backoff; a refused password or a missing database is said once, with the fix.
 * Mid-run, a statement that fails because the connection was lost (a restart, a failover) is
 * retried on a new connection for a few seconds, so a blip costs a delay, not an error. Store
 * operations are written so that a repeat changes nothing (lease owners, `ON CONFLICT`), which
 * makes the retry safe even when the first attempt committed before the connection dropped.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { SetupError } from '../../errors.js';
import { systemClock, type Clock } from '../../clock.js';
import { StoreUnavailableError } from '../errors.js';

/** Waits between attempts to reach the server at start (then the last, forever). */
export const CONNECT_BACKOFF_MS: readonly number[] = [1000, 2000, 5000, 10_000, 30_000, 60_000];
/** Waits between retries of a statement whose connection was lost (about 10 s in all). */
const LOST_CONNECTION_BACKOFF_MS: readonly number[] = [100, 250, 500, 1000, 2000, 3000, 3000];
/** How long opening a connection may take before it counts as unreachable. */
const CONNECT_TIMEOUT_MS = 5000;
/** The longest a statement may run (a lock wait included) before the server cancels it. */
const STATEMENT_TIMEOUT_MS = 30_000;

/** Where the database is, for messages: `db.internal:5432/paperscout` (never the password). */
export function describeTarget(url: string): string {
  const { host, port, database } = targetOf(url);
  return `${host}:${port}/${database}`;
}

function targetOf(url: string): { host: string; port: string; database: string; user: string } {
  const parsed = new URL(url);
  const socket = parsed.searchParams.get('host');
  return {
    host: parsed.hostname || socket || 'localhost',
    port: parsed.port || '5432',
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username) || 'postgres',
    user: decodeURIComponent(parsed.username) || 'postgres',
  };
}

/** Whether an error means the connection to the server failed or was lost (worth retrying). */
export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (/^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ECONNABORTED)$/.test(code)) return true;
    // connection_exception; admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down)
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return true;
  }
  const text = typeof message === 'string' ? message : '';
  return /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|Client was closed and is not queryable|server closed the connection/i.test(text);
}

/** A statement, or a function of one client (a transaction), retried over a lost connection. */
export interface Postgres {
  readonly target: string;
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /**
   * Runs `fn` in one transaction on one connection (BEGIN … COMMIT, ROLLBACK on a throw). A lost
   * connection runs it again from the start on a new one: `fn` must be safe to repeat.
   */
  transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** One connection of its own, outside the pool's sharing (LISTEN, advisory locks). */
  connect(): Promise<pg.Client>;
  end(): Promise<void>;
  /** The pool itself, for what needs a client of its own for a while (COPY). */
  readonly pool: pg.Pool;
}

export interface ConnectOptions {
  log: Logger;
  /**
   * How long to keep trying to reach the server at start: `forever` (the bot: it is a service,
   * and the database may come up after it), or milliseconds (the CLI), then a
   * {@link StoreUnavailableError}.
   */
  patience: 'forever' | number;
  clock?: Clock;
  /** Pool size (default 10). */
  max?: number;
}

/** Values PostgreSQL sends as types JavaScript reads wrong by default: bigint as number, timestamps as ISO strings. */
const parseTimestamp = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (value: string) => Date;
/** A UTC timestamp as PostgreSQL writes it: `2025-03-01 12:00:00.123456+00`. */
const UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * A timestamptz as `Date#toISOString` writes it. A UTC value (what a session in UTC sends) is
 * rewritten as text, as Date would (milliseconds truncated): parsing a thousand through Date
 * took several milliseconds, a list page's whole budget (500 archive rows carry two each).
 * @example isoTimestamp('2025-03-01 12:00:00.1+00') // '2025-03-01T12:00:00.100Z'
 */
export function isoTimestamp(value: string): string {
  const utc = UTC_TIMESTAMP.exec(value);
  if (!utc) return parseTimestamp(value).toISOString();
  return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
}

const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    // int8: document numbers and generations stay far below 2^53.
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    if (oid === pg.types.builtins.TIMESTAMPTZ) return isoTimestamp;
    return pg.types.getTypeParser(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

/**
 * Opens a pool on `url` and waits until the server answers; rejects with a {@link SetupError}
 * (bad credentials, no such database) or, past the patience, a {@link StoreUnavailableError}.
 * @example const db = await connectPostgres(config.database.url, { log, patience: 'forever' });
 */
export async function connectPostgres(url: string, options: ConnectOptions): Promise<Postgres> {
  const clock = options.clock ?? systemClock;
  const target = describeTarget(url);
  const { log } = options;
  const settings: pg.PoolConfig = {
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: 'paperscout',
    statement_timeout: STATEMENT_TIMEOUT_MS,
    // Timestamps come as UTC text, which isoTimestamp reads without Date (the store's SQL has no
    // zone-dependent function: only the text form changes).
    options: '-c TimeZone=UTC',
    types: TYPES,
  };
  const pool = new pg.Pool(settings);
  // An idle connection the server dropped: the pool discards it; the next query opens another.
  pool.on('error', (err) => log.warn({ err: err.message, target }, 'PostgreSQL closed an idle connection; a new one will be opened'));

  const started = clock.now().getTime();
  for (let attempt = 0; ; attempt++) {
    try {
      await pool.query('SELECT 1');
      if (attempt > 0) log.info({ target }, 'PostgreSQL reached');
      break;
    } catch (err) {
      const refused = explainRefusal(err, url);
      if (refused) {
        await pool.end().catch(() => undefined);
        throw refused;
      }
      if (!isConnectionError(err)) {
        await pool.end().catch(() => undefined);
        throw err;
      }
      const wait = CONNECT_BACKOFF_MS[Math.min(attempt, CONNECT_BACKOFF_MS.length - 1)]!;
      const line = unreachableLine(url, err);
      if (options.patience !== 'forever' && clock.now().getTime() + wait - started > options.patience) {
        await pool.end().catch(() => undefined);
        throw new StoreUnavailableError(`${line}. Check that the server is running and that DATABASE_URL names it.`);
      }
      log.warn({ target, retryInMs: wait }, `${line}; trying again in ${Math.round(wait / 1000)} s`);
      await clock.sleep(wait);
    }
  }
  return wrap(pool, url, log, clock);
}

/** "could not reach PostgreSQL at db:5432 (ECONNREFUSED)". */
function unreachableLine(url: string, err: unknown): string {
  const { host, port } = targetOf(url);
  const { code, message } = err as { code?: unknown; message?: unknown };
  return `could not reach PostgreSQL at ${host}:${port} (${typeof code === 'string' ? code : String(message)})`;
}

/** Refusals that retrying cannot fix, in one line with the fix; undefined for anything else. */
function explainRefusal(err: unknown, url: string): SetupError | undefined {
  const code = (err as { code?: unknown }).code;
  const { host, port, database, user } = targetOf(url);
  if (code === '28P01' || code === '28000') {
    return new SetupError(`PostgreSQL at ${host}:${port} refused user "${user}" (${(err as Error).message}): check the user and password in DATABASE_URL.`);
  }
  if (code === '3D000') {
    return new SetupError(`PostgreSQL at ${host}:${port} has no database "${database}": create it (createdb -h ${host} -p ${port} -U ${user} ${database}) or fix DATABASE_URL.`);
  }
  if (code === '42501') {
    return new SetupError(`PostgreSQL at ${host}:${port} does not let user "${user}" use database "${database}" (${(err as Error).message}): grant it (GRANT ALL ON DATABASE ${database} TO ${user}; and ownership of schema public).`);
  }
  return undefined;
}

function wrap(pool: pg.Pool, url: string, log: Logger, clock: Clock): Postgres {
  const target = describeTarget(url);
  let warned = false;
  /** Runs `attempt` again while the connection is lost, for about 10 s. */
  const retrying = async <T>(attempt: () => Promise<T>): Promise<T> => {
    for (let retry = 0; ; retry++) {
      try {
        const result = await attempt();
        if (warned) {
          warned = false;
          log.info({ target }, 'PostgreSQL reached again');
        }
        return result;
      } catch (err) {
        if (!isConnectionError(err)) throw err;
        if (retry >= LOST_CONNECTION_BACKOFF_MS.length) {
          throw new StoreUnavailableError(`${unreachableLine(url, err)}: the connection was lost and could not be opened again`, { cause: err });
        }
        if (!warned) {
          warned = true;
          log.warn({ target, err: (err as Error).message }, 'lost the connection to PostgreSQL; retrying on a new one');
        }
        await clock.sleep(LOST_CONNECTION_BACKOFF_MS[retry]!);
      }
    }
  };
  return {
    target,
    pool,
    query: (text, values) => retrying(() => pool.query(text, values)),
    transaction: (fn) =>
      retrying(async () => {
        const client = await pool.connect();
        let broken = false;
        try {
          await client.query('BEGIN');
          const result = await fn(client);
          await client.query('COMMIT');
          return result;
        } catch (err) {
          broken = isConnectionError(err);
          if (!broken) await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          // A connection that failed is not given back to others.
          client.release(broken ? true : undefined);
        }
      }),
    async connect() {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, application_name: 'paperscout', options: '-c TimeZone=UTC', types: TYPES });
      client.on('error', (err) => log.warn({ err: err.message, target }, 'a PostgreSQL connection failed'));
      await client.connect();
      return client;
    },
    end: () => pool.end(),
  };
}
