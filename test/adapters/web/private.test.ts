/**
 * Nothing private on the site: it reads the public library through the Library and nothing else.
 * Members' subscriptions, reading lists, button state and event ledgers live in stores the site's
 * code cannot reach: no module it imports, directly or through others, is one of them. The stores
 * it may reach hold the public library: the papers, and their citations (OpenAlex's counts and
 * references, which a paper's page lists).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../architecture/importGraph.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('the search site', () => {
  it('reaches no store but the papers’ and their citations’ (no subscriptions, reading lists, states or ledgers)', () => {
    const graph = importGraph(ROOT, ['src', 'adapters']);
    const site = [...graph.files.keys()].filter((f) => f.startsWith('adapters/web/'));
    expect(site).toContain('adapters/web/site.ts');
    const reached = new Set<string>();
    const stack = [...site];
    while (stack.length > 0) {
      const file = stack.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      stack.push(...(graph.files.get(file) ?? []));
    }
    expect(reached).toContain('src/library.ts');
    const stores = [...reached].filter((f) => f.startsWith('src/store/') || f === 'src/app.ts' || f.startsWith('src/digest/'));
    expect(stores.sort()).toEqual(['src/store/citations.ts', 'src/store/papers.ts']);
  });
});
