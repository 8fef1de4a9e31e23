/**
 * The live index (src/search/liveIndex.ts). Across processes: a paper imported by one process is
 * found by the next query of a running app (through Library, and through the terminal adapter of
 * a spawned `npm start`), and a merge killed half way leaves an index that loads and answers.
 * Catching up: a command waits for the index only while the change is small, so papers just
 * added are found by the next command and a large import never holds commands up; a catch-up
 * comes in slices.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaperRecord } from '../../src/papers/model.js';
import type { SearchEngine } from '../../src/search/engine.js';
import { openSnapshot, readSnapshotInfo } from '../../src/search/index/format.js';
import { SLICE_ROWS, nextSliceRows } from '../../src/search/indexFile.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TSX = ['--import', 'tsx'];

let app: TestApp | undefined;
afterEach(async () => {
  await app?.dispose();
  app = undefined;
});

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

function records(count: number, tag: string): PaperRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    title: `Quokka ${tag} Retrieval Study Number ${i}`,
    authors: [`Author ${tag} ${i}`],
    abstract: `A ${tag} study.`,
    venue: 'arXiv',
    year: 2026,
    status: '',
    keywords: [],
    labels: ['cs.IR'],
    links: {},
    externalIds: { arxiv: `2611.${tag === 'small' ? 1 : 2}${String(i).padStart(4, '0')}` },
  }));
}

/** Writes papers as another process would: the store moves on, the index does not (yet). */
async function write(target: TestApp, batch: PaperRecord[]): Promise<void> {
  await target.store.write((tx) => tx.upsertBatch(batch, { source: 'arxiv', classify: target.classify, now: new Date('2026-11-30T00:00:00Z') }));
}

const found = async (target: TestApp, title: string) => (await target.library.search(`"${title}"`, { limit: 1 })).hits[0]?.title === title;

describe('catchUpForCommand', () => {
  it('waits for a small change: the papers are found by the command that follows', async () => {
    app = await createTestApp();
    await write(app, records(20, 'small'));
    expect(await found(app, 'Quokka small Retrieval Study Number 19')).toBe(false);
    await app.library.catchUpForCommand();
    expect(await found(app, 'Quokka small Retrieval Study Number 19')).toBe(true);
  });

  it('does not wait for a large one, which goes on behind the answers until it is done', async () => {
    app = await createTestApp();
    await write(app, records(2_500, 'large'));
    await app.library.catchUpForCommand();
    // Answered at once, from the index as it was: the catch-up has not had a turn yet.
    expect(await found(app, 'Quokka large Retrieval Study Number 2499')).toBe(false);
    await app.library.catchUp();
    expect(await found(app, 'Quokka large Retrieval Study Number 2499')).toBe(true);
  });
});

describe('catchUp', () => {
  it('folds a change in as slices, the first one small (its code may not be compiled yet), each a delta of its own', async () => {
    app = await createTestApp();
    const view = (app.library as unknown as { index: { engine: SearchEngine } }).index.engine.view;
    const before = view.parts.length;
    await write(app, records(300, 'large'));
    await app.library.catchUp();
    const sizes = view.parts.slice(before).map((p) => p.data.docCount).filter((n) => n > 0);
    expect(sizes[0]).toBe(20);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(SLICE_ROWS);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(300);
    expect(await found(app, 'Quokka large Retrieval Study Number 299')).toBe(true);
  });
});

describe('nextSliceRows', () => {
  it.each([
    [20, 3, 40],
    [80, 3, 100],
    [100, 1, 100],
    [40, 8, 40],
    [40, 13, 20],
    [20, 40, 10],
    [10, 40, 10],
  ])('after %i rows whose slowest step took %i ms: %i', (rows, ms, next) => {
    expect(nextSliceRows(rows, ms)).toBe(next);
  });
});
