/**
 * A library the bot's user cannot write, as deployments meet it: a database, or its -wal and
 * -shm, created by root while the bot runs as another user, and a DATA_DIR that cannot be
 * created. The CLI and `npm start` run as that other user (uid 65534 when the tests run as root,
 * as here; otherwise chmod takes write permission away from the test's own user) and must say in
 * one line which file, which user, and the fix.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../src/store/sqlite/papers.js';
import { ingestPaths } from '../../src/ingest/ingest.js';
import { FIXTURE_PAPERS } from '../helpers/corpus.js';

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

function runAsBot(script: string, args: string[], dataDir: string): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
      stdio: ['pipe', 'ignore', 'pipe'],
      ...(asRoot && { uid: 65534, gid: 65534 }),
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, err }));
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
  await ingestPaths([FIXTURE_PAPERS], { store: new SqlitePaperStore(db), classify: () => [], now: () => new Date('2026-01-01T00:00:00Z') });
  db.close();
});
afterEach(() => {
  chmodSync(base, 0o755);
  rmSync(base, { recursive: true, force: true });
});

describe('a library the bot cannot write', () => {
  it('a data directory owned by another user: one line naming it, the user and chown', async () => {
    lockAgainstBot(dataDir, 0o755);
    lockAgainstBot(dbPath, 0o644);
    const { code, err } = await runAsBot('adapters/cli/cli.ts', ['stats'], dataDir);
    expect(code).toBe(1);
    const lines = err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Paper Scout runs as ${BOT.label} and cannot write the directory ${dataDir}: it belongs to uid ${asRoot ? '0 with mode 755' : ''}`);
    expect(lines[0]).toContain(`Give it to that user (sudo chown ${BOT.name} ${dataDir}) or run Paper Scout as the owner.`);
  });

  it('-wal and -shm left by root beside a database the bot owns: names the -wal file', async () => {
    giveToBot(dataDir);
    giveToBot(dbPath);
    // A process of root's keeps the database open, so its -wal and -shm stay, owned by root.
    const held = openDatabase(dbPath);
    try {
      held.prepare("INSERT INTO meta (key, value) VALUES ('touched', 'by root')").run();
      lockAgainstBot(`${dbPath}-wal`, 0o644);
      lockAgainstBot(`${dbPath}-shm`, 0o644);
      const { code, err } = await runAsBot('adapters/cli/cli.ts', ['search', 'attention'], dataDir);
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

  it('a DATA_DIR that cannot be created: names it, the user, and how to create it', async () => {
    const parent = join(base, 'locked');
    mkdirSync(parent);
    lockAgainstBot(parent, 0o755);
    const wanted = join(parent, 'data');
    const { code, err } = await runAsBot('adapters/cli/cli.ts', ['stats'], wanted);
    expect(code).toBe(1);
    expect(err.trim()).toBe(
      `DATA_DIR ${wanted} cannot be created by ${BOT.label}: its parent is not writable for that user. ` +
        `Create it for that user (sudo mkdir -p ${wanted} && sudo chown ${BOT.name} ${wanted}) or point DATA_DIR at a writable directory.`,
    );
  });
});
