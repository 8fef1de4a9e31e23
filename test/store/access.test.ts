/**
 * A library the bot's user cannot write, as deployments meet it: a database, or its -wal and
 * -shm, created by root while the bot runs as another user, and a DATA_DIR that cannot be
 * created. The CLI and `npm start` run as that other user (uid 65534 when the tests run as root,
 * as here; otherwise chmod takes write permission away from the test's own user). Commands that
 * write, and `npm start`, must say in one line which file, which user, and the fix; commands that
 * only read (stats, search) read it without writing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../src/store/sqlite/papers.js';
import { ingestPaths } from '../../src/ingest/ingest.js';
import { ensureLibraryCurrent, loadTopics } from '../../src/app.js';
import { FIXTURE_PAPERS, silentLog } from '../helpers/corpus.js';
import { skipping } from '../helpers/skip.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const asRoot = process.getuid?.() === 0;
/** The bot's user: nobody when we are root, else ourselves with write permission taken away. */
const BOT = asRoot ? { uid: 65534, gid: 65534, label: 'nobody (uid 65534)', name: 'nobody' } : { label: `${userInfo().username} (uid ${process.getuid?.()})`, name: userInfo().username };

/** Makes `path` something the bot's user cannot write. */
function lockAgainstBot(path: string, mode: number): void {
  if (asRoot) {
    chownSync(path, 0, 0);
    chmodSync(path, mode);
  } else {
    chmodSync(path, mode & 0o555);
  }
}

/** Gives `path` to the bot's user. */
function giveToBot(path: string): void {
  if (asRoot) chownSync(path, 65534, 65534);
}

function runAsBot(script: string, args: string[], dataDir: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(asRoot && { uid: 65534, gid: 65534 }),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end();
  });
}

let base: string;
let dataDir: string;
let dbPath: string;

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'paperscout-access-'));
  chmodSync(base, 0o755);
  dataDir = join(base, 'data');
  dbPath = join(dataDir, 'paperscout.db');
  const db = openDatabase(dbPath);
  const store = new SqlitePaperStore(db);
  await ingestPaths([FIXTURE_PAPERS], { store, classify: () => [], now: () => new Date('2026-01-01T00:00:00Z') });
  // Topics for the current taxonomy, as an import by the CLI leaves them.
  await ensureLibraryCurrent(store, loadTopics(), silentLog);
  db.close();
});
afterEach(() => {
  chmodSync(base, 0o755);
  rmSync(base, { recursive: true, force: true });
});

describe('a library the bot cannot write', () => {
  it('a data directory owned by another user: stats reads it; ingest says in one line the directory, the user and chown', async () => {
    lockAgainstBot(dataDir, 0o755);
    lockAgainstBot(dbPath, 0o644);
    const stats = await runAsBot('adapters/cli/cli.ts', ['stats'], dataDir);
    expect(stats).toMatchObject({ code: 0, err: '' });
    expect(stats.out).toContain(`Library: ${dbPath}, read-only (this user cannot write it)\nPapers: 29 `);
    const { code, err } = await runAsBot('adapters/cli/cli.ts', ['ingest', FIXTURE_PAPERS], dataDir);
    expect(code).toBe(1);
    const lines = err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Paper Scout runs as ${BOT.label} and cannot write the directory ${dataDir}: it belongs to uid ${asRoot ? '0 with mode 755' : ''}`);
    expect(lines[0]).toContain(`Give it to that user (sudo chown ${BOT.name} ${dataDir}) or run Paper Scout as the owner.`);
  });

  it('-wal and -shm left by root beside a database the bot owns: search reads them; reindex names the -wal file', async () => {
    giveToBot(dataDir);
    giveToBot(dbPath);
    // A process of root's keeps the database open, so its -wal and -shm stay, owned by root.
    const held = openDatabase(dbPath);
    try {
      // A paper root wrote since: in the -wal, not yet in the database file.
      await ingestPaths([FIXTURE_PAPERS], { store: new SqlitePaperStore(held), classify: () => [], now: () => new Date('2026-01-02T00:00:00Z') });
      held.prepare("UPDATE papers SET title = 'Attention Is All You Need, Walled' WHERE id = 'arxiv:1706.03762'").run();
      held.prepare("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'").run();
      lockAgainstBot(`${dbPath}-wal`, 0o644);
      lockAgainstBot(`${dbPath}-shm`, 0o644);
      const search = await runAsBot('adapters/cli/cli.ts', ['search', 'attention', '--json', '--limit', '1'], dataDir);
      expect(search).toMatchObject({ code: 0, err: '' });
      expect(JSON.parse(search.out)).toMatchObject([{ id: 'arxiv:1706.03762', title: 'Attention Is All You Need, Walled' }]);
      // Its search index was built in memory, not saved beside the library.
      expect(existsSync(join(dataDir, 'index.bin'))).toBe(false);
      const { code, err } = await runAsBot('adapters/cli/cli.ts', ['reindex'], dataDir);
      expect(code).toBe(1);
      const lines = err.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Paper Scout runs as ${BOT.label} and cannot write the file ${dbPath}-wal`);
      expect(lines[0]).toContain(`sudo chown ${BOT.name} ${dbPath}-wal, or for every file of the library: sudo chown -R ${BOT.name} ${dataDir}`);
      expect(err).not.toMatch(/SqliteError|at .*\.ts:\d+/);
    } finally {
      held.close();
    }
  });

  it('npm start on a read-only database says the same in one line, without a stack trace', async () => {
    giveToBot(dataDir);
    lockAgainstBot(dbPath, 0o644);
    const { code, err } = await runAsBot('adapters/main.ts', [], dataDir);
    expect(code).toBe(1);
    const lines = err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Paper Scout could not start: Paper Scout runs as ${BOT.label.replace(/[()]/g, '\\$&')} and cannot write the file ${dbPath}: `));
    expect(lines[0]).toContain(`sudo chown ${BOT.name} ${dbPath}`);
  });

  it('a DATA_DIR that cannot be created: stats shows the demo corpus; ingest names it, the user, and how to create it', async () => {
    const parent = join(base, 'locked');
    mkdirSync(parent);
    lockAgainstBot(parent, 0o755);
    const wanted = join(parent, 'data');
    const stats = await runAsBot('adapters/cli/cli.ts', ['stats'], wanted);
    expect(stats).toMatchObject({ code: 0, out: expect.stringContaining('Library: bundled demo corpus') });
    const { code, err } = await runAsBot('adapters/cli/cli.ts', ['ingest', FIXTURE_PAPERS], wanted);
    expect(code).toBe(1);
    expect(err.trim()).toBe(
      `DATA_DIR ${wanted} cannot be created by ${BOT.label}: its parent is not writable for that user. ` +
        `Create it for that user (sudo mkdir -p ${wanted} && sudo chown ${BOT.name} ${wanted}) or point DATA_DIR at a writable directory.`,
    );
  });
});

/** Why this process may not make a read-only bind mount in a mount namespace of its own (that takes root with CAP_SYS_ADMIN), if it may not. */
function whyNoReadOnlyMount(): string | undefined {
  if (!asRoot) return `a read-only bind mount takes root, and the tests run as uid ${process.getuid?.()}`;
  const unshare = spawnSync('unshare', ['-m', 'true'], { encoding: 'utf8' });
  if (unshare.status === 0) return undefined;
  return `unshare -m failed (${(unshare.error?.message ?? unshare.stderr.trim()) || `exit ${unshare.status}`}): a read-only bind mount takes CAP_SYS_ADMIN (a privileged container)`;
}
const noReadOnlyMount = skipping('The read-only volume test', whyNoReadOnlyMount());

/** `cli.ts args` with `dir` mounted read-only at `at` (in a mount namespace of its own). */
function runOnReadOnlyVolume(dir: string, at: string, args: string[]) {
  const script = 'mount --bind "$1" "$2" && mount -o remount,ro,bind "$2" && shift 2 && exec "$@"';
  const result = spawnSync('unshare', ['-m', 'sh', '-c', script, 'sh', dir, at, process.execPath, '--import', 'tsx', join(root, 'adapters/cli/cli.ts'), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: at, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', LANG: 'C.UTF-8' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe.skipIf(noReadOnlyMount)('a library shipped on a read-only volume (a read-only bind mount)', () => {
  it('stats, search, topic and digest list read it; ingest says the file system is read-only', { timeout: 120_000 }, () => {
    // A library as an import by the CLI leaves it: database closed cleanly (no -wal), index snapshot beside it.
    const library = join(base, 'library');
    const imported = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), 'ingest', FIXTURE_PAPERS], {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: library, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    expect(imported.status).toBe(0);
    const volume = join(base, 'volume');
    mkdirSync(volume);
    const stats = runOnReadOnlyVolume(library, volume, ['stats']);
    expect(stats).toMatchObject({ code: 0, err: '' });
    expect(stats.out).toMatch(/^Library: .*volume\/paperscout\.db, read-only \(this user cannot write it\)\nPapers: 29 /);
    const search = runOnReadOnlyVolume(library, volume, ['search', 'attention is all you need', '--json', '--limit', '1']);
    expect(search).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(search.out)).toMatchObject([{ id: 'arxiv:1706.03762' }]);
    expect(runOnReadOnlyVolume(library, volume, ['topic', 'llm', '--json'])).toMatchObject({ code: 0, err: '' });
    expect(runOnReadOnlyVolume(library, volume, ['digest', 'list', '--json'])).toMatchObject({ code: 0, out: '[]\n', err: '' });
    const ingest = runOnReadOnlyVolume(library, volume, ['ingest', FIXTURE_PAPERS]);
    expect(ingest).toMatchObject({ code: 1, out: '' });
    expect(ingest.err.trim().split('\n')).toEqual([`${volume} is on a read-only file system: remount it read-write or point DATA_DIR at a writable directory.`]);
  });
});
