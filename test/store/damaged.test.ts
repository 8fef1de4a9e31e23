/**
 * A database file SQLite cannot read (damaged, or another file under its name) is refused with
 * one line that names it and the ways on, by the library calls, the CLI and `npm start`, never
 * with a stack trace; the file itself is left as it was.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SetupError } from '../../src/errors.js';
import { openDatabase } from '../../src/store/sqlite/db.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

let dataDir: string;
let dbPath: string;
/** Not a database: what a disk failure or a wrong copy leaves. */
const garbage = Buffer.from('this is not an SQLite file\n'.repeat(400));

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-damaged-'));
  dbPath = join(dataDir, 'paperscout.db');
  writeFileSync(dbPath, garbage);
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

function expectExplained(message: string): void {
  expect(message).toContain(`The database ${dbPath} is damaged or is not a Paper Scout database (SQLITE_NOTADB)`);
  expect(message).toContain(`mv ${dbPath} ${dbPath}.damaged`);
  expect(message).toContain('Restore it from a backup');
}

describe('a damaged database', () => {
  it.each([
    ['to write', {}],
    ['to read', { readOnly: true }],
  ])('is a SetupError that names the file and the ways on, opened %s', (_how, options) => {
    let thrown: unknown;
    try {
      openDatabase(dbPath, options).close();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SetupError);
    expectExplained((thrown as Error).message);
    expect(readFileSync(dbPath)).toEqual(garbage);
  });

  it.each([
    ['the CLI', 'adapters/cli/cli.ts', ['search', 'diffusion']],
    ['npm start', 'adapters/main.ts', []],
  ])('stops %s with that one line', (_who, script, args) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DISCORD_TOKEN: '', SLACK_BOT_TOKEN: '', SLACK_APP_TOKEN: '', SLACK_CLIENT_ID: '', DATABASE_URL: '', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expectExplained(lines[0]!);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});
