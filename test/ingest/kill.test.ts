import { afterEach, beforeEach, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../src/store/sqlite/papers.js';
import { ingestPaths } from '../../src/ingest/ingest.js';
import { openTestStore, type TestStore } from './helpers/testStore.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const CHILD = join(HERE, 'helpers/ingestChild.ts');
const ROOT = join(HERE, '../..');
const RECORDS = 20_000;
const BATCH = 200;

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.cleanup());

async function writeBigFile(path: string): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < RECORDS; i++) {
    const line = JSON.stringify({ id: i, title: `Generated paper ${i}`, authors: [`Author ${i % 97}`], abstract: 'Words about the paper. '.repeat(10), year: 2000 + (i % 25) });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

it('leaves whole batches behind when killed mid-ingest, and a rerun completes it', async () => {
  const input = join(t.dir, 'big.jsonl');
  await writeBigFile(input);
  const dbPath = join(t.dir, 'killed.sqlite');

  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dbPath, input, String(BATCH)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString();
      // Kill it once a few batches are in: it is then in the middle of writing the next ones.
      if ((stdout.match(/^committed /gm) ?? []).length >= 3) resolve();
    });
    void exited.then(() => reject(new Error(`child exited before it was killed:\n${stdout}\n${stderr}`)));
  });
  child.kill('SIGKILL');
  const [, signal] = await exited;
  expect(signal).toBe('SIGKILL');
  expect(stdout).not.toMatch(/^done$/m);

  const db = openDatabase(dbPath);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const store = new SqlitePaperStore(db);
    const landed = await store.count();
    expect(landed).toBeGreaterThanOrEqual(3 * BATCH);
    expect(landed).toBeLessThan(RECORDS);
    expect(landed % BATCH).toBe(0);
    expect(await store.generation()).toBe(landed / BATCH);

    const rest = await ingestPaths([input], { store, classify: () => [], batchSize: 1000 });
    expect(rest).toMatchObject({ added: RECORDS - landed, unchanged: landed, updated: 0, rejected: 0, aborted: false });
    expect(await store.count()).toBe(RECORDS);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  } finally {
    db.close();
  }
}, 60_000);
