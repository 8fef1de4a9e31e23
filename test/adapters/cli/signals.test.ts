/**
 * Stopping a long CLI job as people do: Ctrl-C on a terminal, which signals the whole process
 * group, npm and the CLI alike, under `npm run cli`. npm passes its copy on, so the CLI sees the
 * one request twice; it must still stop at its next safe point and say what it did, not quit at
 * once as if asked a second time.
 */
import Database from 'better-sqlite3';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { spawnNpm, type SpawnedBot } from '../ops/helpers/spawned.js';

const RECORDS = 20_000;

let dir: string;
let run: SpawnedBot | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paperscout-cli-signals-'));
});
afterEach(() => {
  run?.kill();
  run = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function writeRecords(path: string): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < RECORDS; i++) {
    const line = JSON.stringify({ id: i, title: `Generated paper ${i}`, authors: [`Author ${i % 97}`], abstract: 'Words about the paper. '.repeat(10), year: 2000 + (i % 25) });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Papers stored so far, read as another process would (0 before the table exists). */
function stored(dataDir: string): number {
  try {
    const db = new Database(join(dataDir, 'paperscout.db'), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM papers').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

it('npm run cli -- ingest: one Ctrl-C to the process group stops after the current batch, with the summary', async () => {
  const input = join(dir, 'big.jsonl');
  await writeRecords(input);
  const dataDir = join(dir, 'data');
  run = spawnNpm(['run', 'cli', '--', 'ingest', input], { DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, { group: true });
  await vi.waitFor(() => expect(stored(dataDir)).toBeGreaterThan(0), { timeout: 30_000, interval: 10 });
  run.signalGroup('SIGINT');
  const exit = await run.exited;
  expect(run.stderr.match(/Stopping after the current batch/g)).toHaveLength(1);
  expect(run.stderr).toContain('Stopped before the end: run the same command again to finish (what is in is kept).');
  expect(exit).toEqual({ code: 0, signal: null });
  const kept = stored(dataDir);
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(RECORDS);
  expect(run.stdout).toContain(`Library: ${kept.toLocaleString('en-US')} papers`);
}, 60_000);
