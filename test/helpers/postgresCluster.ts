/**
 * A private PostgreSQL server for tests and benchmarks: `initdb` into a temporary directory and
 * `pg_ctl start` on a free loopback port, with the binaries of Debian's `postgresql` package
 * (/usr/lib/postgresql/<version>/bin). Run as the `postgres` user when this process is root
 * (the server refuses to run as root). For tests durability is off: it is thrown away at the end.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface PostgresCluster {
  /** A URL of the `postgres` database (superuser, no password). */
  url: string;
  port: number;
  dataDir: string;
  /** A new empty database on this server; resolves its URL. */
  createDatabase(name?: string): Promise<string>;
  dropDatabase(url: string): Promise<void>;
  /** Stops the server at once (`pg_ctl stop -m immediate`, as a crash), keeping its files. */
  kill(): Promise<void>;
  /** Starts it again on the same port and files. */
  start(): Promise<void>;
  /** Stops it for good and deletes its files. */
  stop(): Promise<void>;
}

/** Where Debian's PostgreSQL binaries are (PG_BIN overrides), or why not. */
export function postgresBinaries(): { bin: string } | { missing: string } {
  const candidates = process.env.PG_BIN ? [process.env.PG_BIN] : ['15', ...versions()].map((v) => `/usr/lib/postgresql/${v}/bin`);
  const bin = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  return bin
    ? { bin }
    : { missing: 'PostgreSQL binaries not found (/usr/lib/postgresql/15/bin): install Debian\'s postgresql package (apt-get install postgresql) to run the PostgreSQL tests' };
}

function versions(): string[] {
  try {
    return readdirSync('/usr/lib/postgresql').sort().reverse();
  } catch {
    return [];
  }
}

/** A loopback port nothing listens on (yet). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts a private server (on `port` when given, else a free one); rejects when the binaries are
 * missing (see {@link postgresBinaries}).
 * @example const cluster = await startPostgresCluster(); … await cluster.stop();
 */
export async function startPostgresCluster(options: { port?: number; durable?: boolean } = {}): Promise<PostgresCluster> {
  const found = postgresBinaries();
  if ('missing' in found) throw new Error(found.missing);
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'paperscout-pg-'));
  const dataDir = join(dir, 'data');
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const as = (command: string, args: string[]) => (root ? run('runuser', ['-u', 'postgres', '--', join(found.bin, command), ...args]) : run(join(found.bin, command), args));
  await as('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = options.port ?? (await freePort());
  // Tests throw the server away, so durability is off; a benchmark (`durable`) measures the defaults.
  const speed = options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
  const serverOptions = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', ...speed, '-c max_connections=300'].join(' ');
  const start = () => as('pg_ctl', ['-D', dataDir, '-o', serverOptions, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  let n = 0;
  return {
    url,
    port,
    dataDir,
    async createDatabase(name = `t_${process.pid}_${++n}_${Math.random().toString(36).slice(2, 8)}`) {
      await admin((c) => c.query(`CREATE DATABASE ${name}`));
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async dropDatabase(dbUrl) {
      const name = new URL(dbUrl).pathname.slice(1);
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => undefined);
    },
    async kill() {
      await as('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
    },
    start: async () => {
      await start();
    },
    async stop() {
      await as('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
