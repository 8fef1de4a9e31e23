/**
 * scripts/run-built.sh, which `npm start` and `npm run cli` are: it builds dist/ when there is
 * none, refuses (exit 1, one line) when a source is newer than the build, runs the build with
 * the arguments given, and keeps npm's echo of the script to one short line.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
let dir: string;

/** A checkout in miniature: one source in src/ and one in adapters/, and `npm run build`. */
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paperscout-run-built-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'adapters'));
  writeFileSync(join(dir, 'src/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'adapters/main.ts'), "import { a } from '../src/a.js';\ndeclare const process: { argv: string[] };\nconsole.log(a, process.argv.slice(2).join('|'));\n");
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', scripts: { build: `node ${tsc} -p tsconfig.build.json` } }));
  writeFileSync(
    join(dir, 'tsconfig.build.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', outDir: 'dist', rootDir: '.', types: [] }, include: ['src', 'adapters'] }),
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) => spawnSync('sh', [join(root, 'scripts/run-built.sh'), 'dist/adapters/main.js', ...args], { cwd: dir, encoding: 'utf8' });

describe('scripts/run-built.sh', () => {
  it('builds dist/ when there is none, then runs it with the arguments given', () => {
    const first = run('a b', 'c');
    expect(first).toMatchObject({ status: 0, stdout: '1 a b|c\n' });
    expect(run()).toMatchObject({ status: 0, stdout: '1 \n', stderr: '' });
  });

  it('refuses in one line when a source is newer than the build', () => {
    expect(run().status).toBe(0);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'src/a.ts'), later, later);
    expect(run()).toMatchObject({
      status: 1,
      stdout: '',
      stderr: 'Paper Scout: dist/ is older than the TypeScript sources (a git pull or an edit since the build): run npm run build, then this again.\n',
    });
  });
});

describe('npm run cli', () => {
  it('echoes one short line for its script, not the build check', () => {
    const result = spawnSync('npm', ['run', 'cli', '--', 'help'], { cwd: root, encoding: 'utf8', env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: '' } });
    expect(result.status).toBe(0);
    const echoed = (result.stdout + result.stderr).split('\n').filter((l) => l.startsWith('> '));
    expect(echoed).toEqual([`> paper-scout@${version} cli`, '> exec sh scripts/run-built.sh dist/adapters/cli/cli.js help']);
    expect(result.stdout).toContain('Usage: paperscout <command> [options]');
  });
});
