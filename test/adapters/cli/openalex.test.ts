/**
 * `paperscout sync openalex` as an operator runs it: a child process with the real clock and
 * fetch against the loopback OpenAlex, killed (SIGKILL) while a request is out, then run again:
 * the batches stored before the kill are not asked again, and the rerun finishes the job. And
 * `paperscout ingest` of a works file: counts for the papers it matches, papers only with --add.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakeOpenAlex, openAlexWork } from '../../sources/helpers/fakeOpenAlex.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const PAPERS = 120;
let dataDir: string;
let server: FakeOpenAlex;

const env = () => ({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', OPENALEX_API_URL: server.base, OPENALEX_MAILTO: 'lab-admin@example.org' });

function start(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), ...args], { cwd: root, env: env() });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const done = once(child, 'close').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null, out, err }));
  return { child, done };
}

/** Papers with a count, read as another process would. */
function counted(): number {
  const db = new Database(join(dataDir, 'paperscout.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM paper_citations WHERE cited_by IS NOT NULL').get() as { n: number }).n;
  } catch {
    return 0; // the table is not there yet
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-openalex-'));
  const lines = Array.from({ length: PAPERS }, (_, i) => JSON.stringify({ title: `Invented Killable Paper ${i}`, authors: ['Aino Virtanen'], year: 2021, doi: `10.5555/kill.${i}` }));
  writeFileSync(join(dataDir, 'papers.jsonl'), `${lines.join('\n')}\n`);
  server = await new FakeOpenAlex(Array.from({ length: PAPERS }, (_, i) => openAlexWork({ n: 7000 + i, title: `Invented Killable Paper ${i}`, year: 2021, cited: 10 + i, doi: `10.5555/kill.${i}` }))).start();
  const ingest = await start(['ingest', join(dataDir, 'papers.jsonl')]).done;
  expect(ingest.code, ingest.err).toBe(0);
}, 60_000);
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('resumes after a kill without asking again what it stored, and finishes', async () => {
  // The third batch of 50 is held: the child is killed while it waits for it.
  server.fail(null, null);
  const release = server.hold();
  const run = start(['sync', 'openalex']);
  for (let waited = 0; counted() < 100; waited += 50) {
    if (waited > 30_000) throw new Error(`the first two batches were not stored: ${counted()} counted`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  run.child.kill('SIGKILL');
  const killed = await run.done;
  expect(killed.signal).toBe('SIGKILL');
  expect(counted()).toBe(100);
  expect(server.filters.map((f) => f.split('|').length)).toEqual([50, 50]);
  // The held request is answered to nobody.
  release();
  await new Promise((resolve) => setTimeout(resolve, 50));

  server.requests.length = 0;
  const rerun = await start(['sync', 'openalex']).done;
  expect(rerun.code, rerun.err).toBe(0);
  expect(server.filters).toHaveLength(1);
  expect(server.filters[0]!.split('|')).toHaveLength(20);
  expect(rerun.out).toContain('OpenAlex: 20 papers asked about: 20 matched (20 with a new or changed count), 0 not found, 0 ambiguous, 0 counts refused; 1 request');
  expect(counted()).toBe(PAPERS);

  // Nothing left to ask: no request at all.
  server.requests.length = 0;
  const nothing = await start(['sync', 'openalex']).done;
  expect(nothing.code).toBe(0);
  expect(nothing.out).toContain('OpenAlex: no paper to ask about');
  expect(server.requests).toHaveLength(0);
}, 90_000);

it('ingests a works file: counts for the papers it matches, and new papers only with --add', async () => {
  const works = [
    ...Array.from({ length: PAPERS }, (_, i) => openAlexWork({ n: 7000 + i, title: `Invented Killable Paper ${i}`, year: 2021, authors: ['Aino Virtanen'], cited: 1000 + i, doi: `10.5555/kill.${i}` })),
    openAlexWork({ n: 9999, title: 'An Invented Work the Library Lacks', year: 2022, authors: ['Mei Chen'], cited: 3, doi: '10.5555/lacking' }),
  ];
  const file = join(dataDir, 'part_000.gz');
  writeFileSync(file, gzipSync(`${works.map((w) => JSON.stringify(w)).join('\n')}\n`));
  const plain = await start(['ingest', file]).done;
  expect(plain.code, plain.err).toBe(0);
  expect(plain.out).toContain('121 OpenAlex works: 120 matched to papers (120 with a new or changed count), 1 unmatched, 0 ambiguous, 0 counts refused');
  expect(plain.out).toMatch(/Library: 120 papers in /);
  expect(plain.err).toContain('--add makes them papers of the library');
  const added = await start(['ingest', file, '--add']).done;
  expect(added.code, added.err).toBe(0);
  expect(added.out).toContain('121 OpenAlex works: 120 matched to papers (1 with a new or changed count), 0 unmatched, 0 ambiguous, 0 counts refused; 1 added as new papers');
  expect(added.out).toMatch(/Library: 121 papers in /);
  const search = await start(['show', 'doi:10.5555/lacking', '--json']).done;
  expect(JSON.parse(search.out)).toMatchObject({ title: 'An Invented Work the Library Lacks', citations: { count: 3, openalex: 'W9999' } });
}, 60_000);
