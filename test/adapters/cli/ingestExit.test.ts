/**
 * `paperscout ingest` exit codes, through the real command line: 0 when every input gave
 * something; 2, with the reason on stderr, when an input could not be used in whole or in part;
 * the counts on stdout, what did not go in on stderr; and the details file of the last good
 * import kept when an import fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dir: string;
let dataDir: string;

function ingest(...paths: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), 'ingest', ...paths], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LANG: 'C', LC_ALL: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const good = (title: string) => JSON.stringify({ title, authors: ['Ann Lee'] });

/** Writes a file (or a folder of files, for an object) under the test's directory; gives its path. */
function input(name: string, content: string | Buffer | Record<string, string>): string {
  const path = join(dir, name);
  if (typeof content === 'string' || Buffer.isBuffer(content)) writeFileSync(path, content);
  else {
    mkdirSync(path);
    for (const [file, text] of Object.entries(content)) writeFileSync(join(path, file), text);
  }
  return path;
}

const details = () => readFileSync(join(dataDir, 'ingest-details.txt'), 'utf8');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paperscout-ingest-exit-'));
  dataDir = join(dir, 'data');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('paperscout ingest exit codes', () => {
  it('exits 0 when every input gave something: counts on stdout, the rejected record on stderr and in the details file', () => {
    const file = input('mostly-good.jsonl', `${good('A Good Paper')}\n{"title": ""}\n`);
    const result = ingest(file);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^2 records from 1 file: 1 added, 0 updated, 0 unchanged, 0 duplicates merged, 1 rejected\nLibrary: 1 paper in /);
    expect(result.err).toBe(`  ${file}:2 [index 1]: title: title is empty\n`);
    expect(details()).toBe(`${file}:2 [index 1]: title: title is empty\n`);
  });

  const NOTHING = 'Nothing was imported: no input gave a usable record (see above). Fix or replace the inputs and run the command again.';
  const PART = (count: number) =>
    `${count} input${count === 1 ? '' : 's'} could not be used, in whole or in part (see above); the rest of what was read is imported.`;

  it.each<[string, () => string[], RegExp, string]>([
    ['an array of numbers', () => [input('numbers.json', '[1,2,3,4]')], /numbers\.json:1 \[index 3\]: record: expected an object, got the number 4/, NOTHING],
    ['a 0-byte file', () => [input('empty.json', '')], /empty\.json: nothing usable: no records in it/, NOTHING],
    ['a file of a byte order mark only', () => [input('bom.jsonl', '\ufeff')], /bom\.jsonl: nothing usable: no records in it/, NOTHING],
    [
      'a CSV with an unterminated quote',
      () => [input('quote.csv', 'title,authors\n"Unclosed,Ann Lee\nAnother,Bo Li\n')],
      /quote\.csv: the file ends inside a quoted field of the row starting on line 2 \(an unbalanced quote, or a truncated file\)/,
      NOTHING,
    ],
    [
      'a folder whose files were all rejected',
      () => [input('rejected', { 'a.jsonl': '{"title": ""}\n', 'b.json': '[{"authors": ["Ann Lee"]}]' })],
      /rejected\/a\.jsonl: nothing usable: its one record was rejected\n {2}.*rejected\/b\.json: nothing usable: its one record was rejected/,
      NOTHING,
    ],
    ['a folder with no file to import', () => [input('notes', { 'README.md': '# not papers' })], /notes: no file to import in this folder/, NOTHING],
    ['a JSON array without its closing bracket', () => [input('cut.json', `[${good('Cut Short')},\n`)], /cut\.json: the file ends before the array's closing '\]'/, PART(1)],
    [
      'a JSON array cut inside an element',
      () => [input('cut-inside.json', `[{"title": "Cut`)],
      /cut-inside\.json: the file ends inside the element starting on line 1/,
      NOTHING,
    ],
    ['a binary file', () => [input('binary.json', Buffer.from([0x00, 0xff, 0x1b, 0x5b, 0x32, 0x4a, 0x89, 0x50]))], /binary\.json: unrecognized format/, NOTHING],
    ['a missing file', () => [join(dir, 'missing.json')], /missing\.json: no such file or directory/, NOTHING],
    ['a good file and a missing one', () => [input('fine.jsonl', `${good('A Fine Paper')}\n`), join(dir, 'gone.json')], /gone\.json: no such file or directory/, PART(1)],
    [
      'a JSON array cut after good records',
      () => [input('half.json', `[${good('First Half')},\n${good('Second Half')},\n{"title": "Thi`)],
      /half\.json: the file ends inside the element starting on line 3/,
      PART(1),
    ],
  ])('exits 2 for %s, the reason on stderr, the last good details file kept', (_name, paths, reason, last) => {
    const before = details();
    const result = ingest(...paths());
    expect({ code: result.code, out: result.out }).toEqual({ code: 2, out: expect.stringMatching(/^\d+ records? from \d+ files?: .*\nLibrary: \d+ papers? in .*\n$/) });
    expect(result.err).toMatch(reason);
    expect(result.err.trimEnd().split('\n').at(-1)).toBe(last === NOTHING ? NOTHING : `${last} Fix or replace it and run the command again.`);
    expect(details()).toBe(before);
  });

  it("puts a failed import's rejected records apart from the last good import's", () => {
    const bad = input('all-bad.jsonl', `${Array.from({ length: 25 }, () => '{"title": ""}').join('\n')}\n`);
    const result = ingest(bad);
    expect(result.code).toBe(2);
    const failed = join(dataDir, 'ingest-details.failed.txt');
    expect(result.err).toContain(`  … and 5 more: all 25 are listed in ${failed}\n`);
    expect(readFileSync(failed, 'utf8').trimEnd().split('\n')).toHaveLength(25);
    expect(details()).toMatch(/mostly-good\.jsonl:2/);
  });
});
