/**
 * Files one can read in a sitting (STYLE.md, "Small pieces"): no file under src/ or adapters/
 * is over 600 lines, the message catalogs (data, one line a message) excepted, and the library
 * facade commands use (src/library.ts) stays at 300 or under. A file that outgrows its limit is
 * split along a seam (docs/design.md, "Architecture", says where things live); it is not given
 * an exception here. The check reads the real tree; the code behind it is tried on a small tree
 * written here.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Lines a file under src/ or adapters/ may have. */
const MAX_LINES = 600;
/** Files held to a limit of their own. */
const OWN_LIMITS: ReadonlyMap<string, number> = new Map([['src/library.ts', 300]]);
/** Files that are data, not code: the message catalogs grow with every message. */
const EXEMPT = /^src\/i18n\/catalog\//;

/** Every file under `dirs` of `root` (paths relative to it, with `/`), with its number of lines. */
function lineCounts(root: string, dirs: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const text = readFileSync(path, 'utf8');
        const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
        counts.set(relative(root, path).split('\\').join('/'), lines);
      }
    }
  };
  for (const dir of dirs) walk(join(root, dir));
  return counts;
}

/** The files over their limit, as `path: lines (limit)`. */
function oversized(root: string, dirs: readonly string[]): string[] {
  const over: string[] = [];
  for (const [path, lines] of lineCounts(root, dirs)) {
    if (EXEMPT.test(path)) continue;
    const limit = OWN_LIMITS.get(path) ?? MAX_LINES;
    if (lines > limit) over.push(`${path}: ${lines} lines (at most ${limit})`);
  }
  return over.sort();
}

describe('file sizes', () => {
  it('keeps every file under src/ and adapters/ within its limit', () => {
    const counts = lineCounts(ROOT, ['src', 'adapters']);
    // The check is only as good as the listing: it must see the tree, nested folders included.
    expect(counts.size).toBeGreaterThan(150);
    expect(counts.get('src/search/index/view.ts')).toBeGreaterThan(100);
    expect(oversized(ROOT, ['src', 'adapters']), 'split these along a seam (docs/design.md, "Architecture")').toEqual([]);
  });
});

describe('oversized', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  function tree(files: Record<string, number>): string {
    const root = mkdtempSync(join(tmpdir(), 'paperscout-sizes-'));
    dirs.push(root);
    for (const [path, lines] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), 'x;\n'.repeat(lines));
    }
    return root;
  }

  it('names the files over 600 lines, and the library facade over 300', () => {
    const root = tree({
      'src/a.ts': 600,
      'src/deep/b.ts': 601,
      'adapters/web/c.ts': 700,
      'src/library.ts': 301,
      'src/i18n/catalog/en.ts': 2000,
    });
    expect(oversized(root, ['src', 'adapters'])).toEqual([
      'adapters/web/c.ts: 700 lines (at most 600)',
      'src/deep/b.ts: 601 lines (at most 600)',
      'src/library.ts: 301 lines (at most 300)',
    ]);
  });

  it('counts a last line without a newline, and an empty file as none', () => {
    const root = tree({ 'src/library.ts': 0, 'src/empty.ts': 0 });
    writeFileSync(join(root, 'src/library.ts'), `${'x;\n'.repeat(300)}x;`);
    expect(lineCounts(root, ['src'])).toEqual(new Map([['src/library.ts', 301], ['src/empty.ts', 0]]));
    expect(oversized(root, ['src'])).toEqual(['src/library.ts: 301 lines (at most 300)']);
  });
});
