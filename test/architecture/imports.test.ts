/**
 * Imports run one way (docs/design.md, STYLE.md "The shape"): no import circles in src/ and
 * adapters/, type imports included; the core (src/) never imports an adapter or a chat SDK; and
 * the platform adapters never import each other. The checks read the real tree; the graph code
 * behind them is itself tried on small trees written here.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { circles, cyclePath, importGraph } from './importGraph.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const graph = importGraph(ROOT, ['src', 'adapters']);

/**
 * Circles allowed for a while, each with the change that removes it (`removedBy`). None today;
 * the test fails on an entry whose circle is gone, so none outlives its reason.
 */
const ALLOWED_CIRCLES: ReadonlyArray<{ files: string[]; removedBy: string }> = [];

/** Platform adapters: each translates for one front end, and none imports another. */
const PLATFORM_ADAPTERS = ['discord', 'slack', 'terminal', 'web'];
/**
 * What every adapter may import from adapters/ besides its own folder: the contract they share,
 * and the process's one HTTP listener that the service owns and adapters mount handlers on.
 */
const SHARED_BY_ADAPTERS = new Set(['adapters/adapter.ts', 'adapters/listener.ts']);
/** Packages only adapters may import. */
const CHAT_SDK = /^(discord\.js|@discordjs\/|@slack\/)/;

describe('the import graph', () => {
  it('reads the tree', () => {
    // The checks below are only as good as the graph: it must hold the files and their imports.
    expect(graph.files.size).toBeGreaterThan(150);
    expect(graph.files.get('src/app.ts')).toContain('src/store/open.ts');
    expect(graph.files.get('adapters/discord/index.ts')).toContain('adapters/adapter.ts');
    expect(graph.packages.get('adapters/discord/index.ts')).toContain('discord.js');
  });

  it('has no import circles but those another part of issue 29 removes', () => {
    const key = (files: readonly string[]) => files.join(' , ');
    const allowed = new Set(ALLOWED_CIRCLES.map((c) => key(c.files)));
    const found = circles(graph.files);
    const unexpected = found.filter((c) => !allowed.has(key(c))).map((c) => cyclePath(graph.files, c));
    expect(unexpected, 'import circles: make one side depend on a module both can use').toEqual([]);
    const foundKeys = new Set(found.map(key));
    const gone = ALLOWED_CIRCLES.filter((c) => !foundKeys.has(key(c.files))).map((c) => `${key(c.files)} (${c.removedBy})`);
    expect(gone, 'these allowed circles are gone or changed: delete them from ALLOWED_CIRCLES').toEqual([]);
  });

  it('keeps the core free of adapters and chat SDKs', () => {
    const offending: string[] = [];
    for (const [file, imports] of graph.files) {
      if (!file.startsWith('src/')) continue;
      for (const to of imports) if (to.startsWith('adapters/')) offending.push(`${file} → ${to}`);
    }
    for (const [file, packages] of graph.packages) {
      if (!file.startsWith('src/')) continue;
      for (const name of packages) if (CHAT_SDK.test(name)) offending.push(`${file} → ${name}`);
    }
    expect(offending, 'src/ is the platform-neutral core: move this into adapters/, or pass it in').toEqual([]);
  });

  it('keeps each platform adapter to itself', () => {
    const offending: string[] = [];
    for (const [file, imports] of graph.files) {
      const platform = PLATFORM_ADAPTERS.find((p) => file.startsWith(`adapters/${p}/`));
      if (!platform) continue;
      for (const to of imports) {
        if (!to.startsWith('adapters/') || to.startsWith(`adapters/${platform}/`) || SHARED_BY_ADAPTERS.has(to)) continue;
        offending.push(`${file} → ${to}`);
      }
    }
    expect(offending, 'adapters never import each other: move what they share into src/ (or adapters/adapter.ts, adapters/listener.ts)').toEqual([]);
  });
});

describe('circles', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A tree of files under src/, written to a temporary folder. */
  function tree(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'paperscout-imports-'));
    dirs.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, 'src', path)), { recursive: true });
      writeFileSync(join(root, 'src', path), text);
    }
    return root;
  }

  it('finds a circle made of type imports, re-exports and dynamic imports', () => {
    const root = tree({
      'a.ts': "import type { B } from './b.js';\nexport type A = B;\n",
      'b.ts': "export { c } from './dir/index.js';\nexport type B = string;\n",
      'dir/index.ts': "export const c = () => import('../a.js');\n",
      'leaf.ts': "import { c } from './dir/index.js';\nimport { z } from 'zod';\n",
    });
    const { files, packages } = importGraph(root, ['src']);
    expect(files.get('src/b.ts')).toEqual(['src/dir/index.ts']);
    expect(packages.get('src/leaf.ts')).toEqual(['zod']);
    const found = circles(files);
    expect(found).toEqual([['src/a.ts', 'src/b.ts', 'src/dir/index.ts']]);
    expect(cyclePath(files, found[0]!)).toBe('src/a.ts → src/b.ts → src/dir/index.ts → src/a.ts');
  });

  it('finds each circle apart, and a file that imports itself', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a', 'c']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['f']],
      ['g', ['a']],
    ]);
    expect(circles(graph)).toEqual([['a', 'b'], ['c', 'd', 'e'], ['f']]);
    expect(cyclePath(graph, ['f'])).toBe('f → f');
  });

  it('finds none in a tree whose imports run one way', () => {
    const chain = new Map(Array.from({ length: 20_000 }, (_, i) => [`m${i}`, i === 0 ? [] : [`m${i - 1}`]]));
    expect(circles(chain)).toEqual([]);
  });
});
