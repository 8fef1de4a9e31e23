/**
 * The import graph of the code, as TypeScript reads it (`ts.preProcessFile`): every `import`,
 * `import type`, `export … from` and dynamic `import()` of every `.ts` file under the folders
 * given. Relative specifiers are resolved to files (`./x.js` is `x.ts`, a folder its
 * `index.ts`); package names are kept as they are written.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ImportGraph {
  /** Each file (relative to the root, `/`-separated) and the files of the tree it imports. */
  files: Map<string, string[]>;
  /** Each file and the packages it imports (`discord.js`, `node:fs`, `@slack/bolt`). */
  packages: Map<string, string[]>;
}

/** The `.ts` files under `dir`, recursively. */
export function tsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) tsFiles(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The file a relative specifier names, as written on disk. */
function resolveSpecifier(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts'), base];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? base;
}

/**
 * The imports of every `.ts` file under `dirs` (relative to `root`).
 * @example importGraph('/repo', ['src', 'adapters']).files.get('src/app.ts') // ['src/commands/registry.ts', …]
 */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const name = (path: string) => relative(root, path).split('\\').join('/');
  const files = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  for (const dir of dirs) {
    for (const path of tsFiles(join(root, dir))) {
      const info = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
      const local: string[] = [];
      const external: string[] = [];
      for (const { fileName } of info.importedFiles) {
        if (fileName.startsWith('.')) local.push(name(resolveSpecifier(path, fileName)));
        else external.push(fileName);
      }
      files.set(name(path), [...new Set(local)]);
      packages.set(name(path), [...new Set(external)]);
    }
  }
  return { files, packages };
}

/**
 * The import circles of a graph: its strongly connected components of more than one file (or
 * one file importing itself), each as its files sorted, in a stable order.
 * @example circles(new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']]])) // [['a.ts', 'b.ts']]
 */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so that a long chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = (graph.get(frame.node) ?? []).filter((to) => graph.has(to));
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfImport = component.length === 1 && (graph.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfImport) found.push(component.sort());
    }
  }
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * One way round a circle, for a message: `a.ts → b.ts → a.ts`.
 * @example cyclePath(graph, ['a.ts', 'b.ts']) // 'a.ts → b.ts → a.ts'
 */
export function cyclePath(graph: ReadonlyMap<string, readonly string[]>, circle: readonly string[]): string {
  const members = new Set(circle);
  const start = circle[0]!;
  // Breadth-first from the start's imports back to the start, inside the circle.
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to) || cameFrom.has(to)) continue;
      cameFrom.set(to, node);
      if (to === start) queue.length = 0;
      else queue.push(to);
    }
  }
  const path = [start];
  for (let node = cameFrom.get(start); node !== undefined && node !== start; node = cameFrom.get(node)) path.unshift(node);
  path.unshift(start);
  return path.join(' → ');
}
