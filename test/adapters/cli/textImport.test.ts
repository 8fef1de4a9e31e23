/**
 * Names, LaTeX and CSV dialects through the real command line: `paperscout ingest`, then
 * `search --json` and `show --json`, on a fresh library and on one the previous version wrote.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { TEXT_VERSION } from '../../../src/text.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const NAMES = join(root, 'test/fixtures/ingest/text/names-latex.jsonl');
const CSV = join(root, 'test/fixtures/ingest/csv');
const LIBRARY_V1 = join(root, 'test/fixtures/store/library-v1.sql');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paperscout-text-'));
  dirs.push(dir);
  return dir;
}

function cli(dir: string, args: string[], input?: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

interface Hit {
  id: string;
  title: string;
  authors: string[];
}

/** Runs each query through `search --stdin --json` (one process) and returns the hits per query. */
function search(dir: string, queries: string[]): Map<string, Hit[]> {
  const result = cli(dir, ['search', '--stdin', '--json', '--limit', '20'], `${queries.join('\n')}\n`);
  expect(result.code).toBe(0);
  const lines = result.out.trim().split('\n');
  expect(lines).toHaveLength(queries.length);
  return new Map(queries.map((q, i) => [q, JSON.parse(lines[i]!) as Hit[]]));
}

const titles = (hits: Hit[] | undefined) => (hits ?? []).map((h) => h.title).sort();

describe('paperscout ingest and search: names, LaTeX and CSV dialects', () => {
  it('finds names typed without their letters, and formulas typed plainly, as published', () => {
    const dir = dataDir();
    const ingest = cli(dir, ['ingest', NAMES, CSV]);
    // One file of the folder has no title column: the others go in, and the exit code says one could not be used.
    expect(ingest.code).toBe(2);
    expect(ingest.out).toMatch(/13 records from 7 files: 13 added, 0 updated, 0 unchanged, 0 duplicates merged, 0 rejected/);
    expect(ingest.err).toMatch(/no-title\.csv: no title column\. Columns found: "Name", "Author", "Year"\./);
    expect(ingest.err).toContain('1 input could not be used, in whole or in part (see above); the rest of what was read is imported.');

    const hits = search(dir, [
      'author:"Lukasz Wrobel"',
      'author:"Łukasz Wróbel"',
      'Soren Dalgaard',
      'Søren Dalgaard',
      'CeAg2Ge2',
      'CeAg$_2$Ge$_2$',
      'Grobner bases Kollar',
      'lodz pedestrians',
      'strasse',
      'author:"Anna Aebelo"',
      'author:"Kare Odegard"',
      'author:"Thora Sigurdardottir"',
      'author:"Dorde Ilic"',
    ]);
    const heavy = 'Heavy Fermions in CeAg₂Ge₂ Revisited';
    expect(titles(hits.get('author:"Lukasz Wrobel"'))).toEqual(['A Plain Paper About Gradients', heavy]);
    expect(titles(hits.get('author:"Łukasz Wróbel"'))).toEqual(titles(hits.get('author:"Lukasz Wrobel"')));
    expect(titles(hits.get('Soren Dalgaard'))).toEqual([heavy]);
    expect(titles(hits.get('Søren Dalgaard'))).toEqual([heavy]);
    expect(hits.get('Soren Dalgaard')![0]!.authors).toEqual(['Łukasz Wróbel', 'Søren Dalgaard']);
    expect(titles(hits.get('CeAg2Ge2'))).toEqual([heavy, 'Phonons in CeAg₂Ge₂']);
    expect(titles(hits.get('CeAg$_2$Ge$_2$'))).toEqual(titles(hits.get('CeAg2Ge2')));
    expect(hits.get('Grobner bases Kollar')![0]).toMatchObject({ title: 'Gröbner Bases for Kollár-Type Bounds', authors: ['Mirela Košir', 'János Erdődi'] });
    expect(hits.get('lodz pedestrians')![0]!.title).toBe('Łódź Street Scenes: A Dataset of Pedestrians');
    expect(titles(hits.get('strasse'))).toEqual(['Modelle, Daten und Straßen', 'Sparse Priors for Straße Detection']);
    expect(titles(hits.get('author:"Anna Aebelo"'))).toEqual(['Modelle, Daten und Straßen']);
    expect(titles(hits.get('author:"Kare Odegard"'))).toEqual(['Tabs Between Us, Quietly']);
    expect(titles(hits.get('author:"Thora Sigurdardottir"'))).toEqual(['Sparse Priors for Straße Detection']);
    expect(titles(hits.get('author:"Dorde Ilic"'))).toEqual(['Sparse Priors for Straße Detection']);
  });

  it('upgrades a library the previous version wrote: LaTeX decoded, aliases recomputed, nothing duplicated', () => {
    const dir = dataDir();
    const db = new Database(join(dir, 'paperscout.db'));
    db.exec(readFileSync(LIBRARY_V1, 'utf8'));
    db.close();

    const hits = search(dir, ['CeAg2Ge2', 'author:"Lukasz Wrobel"', 'Grobner']);
    expect(titles(hits.get('CeAg2Ge2'))).toEqual(['Heavy Fermions in CeAg₂Ge₂ Revisited']);
    expect(hits.get('author:"Lukasz Wrobel"')).toHaveLength(2);
    expect(hits.get('Grobner')![0]!.title).toBe('Gröbner Bases for Kollár-Type Bounds');

    const shown = cli(dir, ['show', 't:043d31e855fc6c1e', '--json']);
    expect(JSON.parse(shown.out)).toMatchObject({ title: 'Heavy Fermions in CeAg₂Ge₂ Revisited', authors: ['Łukasz Wróbel', 'Søren Dalgaard'] });

    // The same file again finds every paper it wrote before, Łódź, Straße and CeAg₂Ge₂ included.
    const again = cli(dir, ['ingest', NAMES]);
    expect(again.out).toMatch(/5 records from 1 file: 0 added, 0 updated, 5 unchanged, 0 duplicates merged, 0 rejected/);
    expect(again.out).toMatch(/Library: 5 papers/);
  });

  it('says in the log that it upgraded the library, once', () => {
    const dir = dataDir();
    const db = new Database(join(dir, 'paperscout.db'));
    db.exec(readFileSync(LIBRARY_V1, 'utf8'));
    db.close();
    const first = cli(dir, ['stats']);
    expect(first.err).toMatch(new RegExp(`library upgraded to text normalization ${TEXT_VERSION}: LaTeX decoded in 3 of 5 papers, 2 title aliases recomputed`));
    expect(cli(dir, ['stats']).err).not.toMatch(/library upgraded/);
  });
});
