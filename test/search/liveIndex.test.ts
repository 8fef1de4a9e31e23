/**
 * The index across processes: a paper imported by one process is found by the next query of a
 * running app (through Library, and through the terminal adapter of a spawned `npm start`), and
 * a merge killed half way leaves an index that loads and answers.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openSnapshot, readSnapshotInfo } from '../../src/search/index/format.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TSX = ['--import', 'tsx'];

let app: TestApp | undefined;
afterEach(() => app?.dispose());

function cli(dataDir: string, args: string[]) {
  return spawnSync(process.execPath, [...TSX, join(root, 'adapters/cli/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

function paperFile(dir: string, name: string, titles: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, titles.map((title, i) => JSON.stringify({ id: `${name}-${i}`, title, authors: ['Ann Lee'], abstract: `${title}. Marsupials.`, venue: 'arXiv', year: 2026 })).join('\n'));
  return file;
}

/** Sends a line to a running terminal adapter and resolves the output up to the next prompt-free pause. */
function ask(child: ChildProcessWithoutNullStreams, line: string, expect: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no answer matching ${expect} to ${line}; got ${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (expect.test(out)) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(out);
      }
    };
    child.stdout.on('data', onData);
    child.stdin.write(`${line}\n`);
  });
}

describe('a running app and other processes', () => {
  it('finds a paper another process imported with its next query', async () => {
    app = await createTestApp();
    expect((await app.library.search('quokka marsupial')).hits).toHaveLength(0);
    const imported = cli(app.dataDir, ['ingest', paperFile(app.dataDir, 'new.jsonl', ['Quokka Marsupial Language Models'])]);
    expect(imported.status).toBe(0);
    // A command catches up first: the paper is there, found as a delta, not through a rebuild.
    const reply = await app.registry.runText(app.context('terminal', { id: 'u1', name: 'u1' }), 'paper', 'quokka marsupial');
    expect(JSON.stringify(reply)).toContain('Quokka Marsupial Language Models');
    expect((await app.library.search('quokka marsupial')).hits[0]?.title).toBe('Quokka Marsupial Language Models');
  });

  it('answers through the terminal adapter of npm start with papers imported while it runs', async () => {
    app = await createTestApp();
    const child = spawn(process.execPath, [...TSX, join(root, 'adapters/main.ts')], {
      cwd: root,
      env: { ...process.env, DATA_DIR: app.dataDir, LOG_LEVEL: 'warn', DISCORD_TOKEN: '', SLACK_BOT_TOKEN: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      expect(await ask(child, '/paper wombat burrowing', /No papers|nothing|found/i)).not.toContain('Wombat Burrowing');
      expect(cli(app.dataDir, ['ingest', paperFile(app.dataDir, 'wombat.jsonl', ['Wombat Burrowing with Diffusion Models'])]).status).toBe(0);
      expect(await ask(child, '/paper wombat burrowing', /Wombat Burrowing with Diffusion Models/)).toContain('Wombat Burrowing with Diffusion Models');
    } finally {
      child.stdin.end();
      child.kill();
    }
  }, 60_000);

  it('keeps a loadable index when a merge is killed half way, and the next merge takes over', async () => {
    app = await createTestApp();
    const path = app.config.indexPath;
    const before = readSnapshotInfo(path)!;
    expect(cli(app.dataDir, ['ingest', paperFile(app.dataDir, 'more.jsonl', ['Kangaroo Locomotion Policies'])]).status).toBe(0);
    // A small import is a delta: the snapshot is still the one from before.
    expect(readSnapshotInfo(path)).toEqual(before);
    // The merge writes slowly here (a pause after each piece), so that it can be killed half way.
    const child = spawn(process.execPath, [...TSX, join(root, 'adapters/cli/cli.ts'), 'reindex', '--merge', '--pause-ms', '50'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: app.dataDir, LOG_LEVEL: 'warn' },
    });
    const temp = () => readdirSync(app!.dataDir).some((f) => f.endsWith('.tmp'));
    const started = Date.now();
    while (!temp() && Date.now() - started < 30_000 && child.exitCode === null) await new Promise((r) => setTimeout(r, 2));
    expect(temp()).toBe(true);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // The snapshot in place is the one before the merge, whole; the app still answers from it.
    expect(() => openSnapshot(path)).not.toThrow();
    expect(readSnapshotInfo(path)).toEqual(before);
    await app.library.refresh();
    expect((await app.library.search('kangaroo locomotion')).hits[0]?.title).toBe('Kangaroo Locomotion Policies');
    expect(existsSync(`${path}.lock`)).toBe(true);
    // The lock and temp files of the dead process do not block the next merge.
    const again = cli(app.dataDir, ['reindex', '--merge']);
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(temp()).toBe(false);
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(readSnapshotInfo(path)?.docCount).toBe(await app.store.count());
  }, 120_000);
});
