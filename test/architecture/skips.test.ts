/**
 * Every skip in the suite says why (test/helpers/skip.ts): a test or suite skipped on a
 * condition takes it from `skipping()`, which writes the reason to stderr (and, for what CI
 * installs, fails under REQUIRE_TEST_TOOLS=1), or from the PostgreSQL global setup, which says
 * once why the PostgreSQL tests are skipped. No `.todo`, no `.only`, no unconditional `.skip`
 * without "skipped: why" in its name. Read from the test files' syntax (TypeScript's parser).
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './importGraph.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

const RUNNERS = new Set(['describe', 'it', 'test']);
/** Reasons said elsewhere: the PostgreSQL global setup (test/setup/postgres.ts) prints why once. */
const SAID_BY_SETUP = new Set(['postgresMissing']);

/** The runner a call hangs off (`it` in `it.skipIf`, `it.each(...).skipIf`), if any. */
function runnerOf(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return RUNNERS.has(expression.text) ? expression.text : undefined;
  if (ts.isPropertyAccessExpression(expression)) return runnerOf(expression.expression);
  if (ts.isCallExpression(expression)) return runnerOf(expression.expression);
  return undefined;
}

/** Names bound in `source` to what `skipping(...)` returns, and names bound to a PostgreSQL reason (`skip: postgresMissing`). */
function explainedNames(source: ts.SourceFile): Set<string> {
  const names = new Set(SAID_BY_SETUP);
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && /\bskipping\(/.test(node.initializer.getText(source))) names.add(node.name.text);
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && /\bpostgresMissing\b/.test(node.initializer.getText(source))) names.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** The skips in one file that do not say why, as `file:line: text`. */
function silentSkips(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const explained = explainedNames(source);
  const found: string[] = [];
  const report = (node: ts.Node) => found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${node.getText(source).split('\n')[0]}`);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && runnerOf(node.expression.expression)) {
      const method = node.expression.name.text;
      const [first] = node.arguments;
      if (method === 'skipIf' || method === 'runIf') {
        const condition = first?.getText(source) ?? '';
        const words = condition.match(/[A-Za-z_$][\w$]*/g) ?? [];
        if (!/\bskipping\(/.test(condition) && !words.some((word) => explained.has(word))) report(node);
      } else if (method === 'skip') {
        if (!first || !/skipped: /.test(first.getText(source))) report(node);
      } else if (method === 'todo' || method === 'only') {
        report(node);
      }
    }
    // A test that asks its context to skip itself (`ctx.skip()`) does so without a reason here.
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'skip' && /^(ctx|context|t)$/.test(node.expression.expression.getText(source))) report(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('skips', () => {
  it('say why, everywhere in the suite', () => {
    const files = tsFiles(join(ROOT, 'test')).filter((path) => path.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(100);
    const silent = files.flatMap((path) => silentSkips(relative(ROOT, path), readFileSync(path, 'utf8')));
    expect(silent, 'skip through skipping() (test/helpers/skip.ts), which says why').toEqual([]);
  });

  it.each([
    ['it.runIf(canMap())(\'x\', () => {});', 1],
    ['describe.skipIf(!canMountReadOnly)(\'x\', () => {});', 1],
    ['it.each([1])(\'x %d\', () => {}); it.each([1]).skipIf(flag)(\'y\', () => {});', 1],
    ['it.todo(\'later\'); describe.only(\'x\', () => {});', 2],
    ['it(\'x\', (ctx) => { ctx.skip(); });', 1],
    ['it.skip(\'x\', () => {});', 1],
    ['it.skip(`skipped: ${backend.skip}`, () => undefined);', 0],
    ['const none = skipping(\'X\', reason); it.skipIf(none)(\'x\', () => {});', 0],
    ['it.skipIf(skipping(\'X\', reason))(\'x\', () => {});', 0],
    ['describe.skipIf(postgresMissing)(\'x\', () => {});', 0],
    ['describe.each([{ skip: postgresMissing }])(\'x\', ({ skip }) => { it.skipIf(skip !== undefined)(\'y\', () => {}); });', 0],
  ])('are read from the syntax: %s', (text, count) => {
    expect(silentSkips('x.test.ts', text)).toHaveLength(count);
  });
});
