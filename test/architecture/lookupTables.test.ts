/**
 * Tables the code looks words up in are Maps (or Sets): a key from outside (a button's value, a
 * paper's LaTeX, a venue, a column name) found on a plain object could be what every object
 * inherits (`constructor`, `toString`, `__proto__`). A module-level constant typed
 * `Record<string, …>` is such a table, and is refused here; tables keyed by a closed union
 * (`Record<ExportFormat, …>`) are checked by the compiler instead.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './importGraph.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The module-level constants of a file's text typed as tables keyed by any string, as `name: type`. */
function stringKeyedTables(text: string): string[] {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  return file.statements.flatMap((statement) => {
    if (!ts.isVariableStatement(statement)) return [];
    return statement.declarationList.declarations.flatMap((d) => {
      const type = d.type?.getText(file) ?? '';
      return ts.isIdentifier(d.name) && /\bRecord<\s*string\s*,|\[\s*\w+\s*:\s*string\s*\]/.test(type) ? [`${d.name.text}: ${type}`] : [];
    });
  });
}

describe('lookup tables', () => {
  it('finds a table typed by any string, and only such a table', () => {
    expect(stringKeyedTables("const A: Readonly<Record<string, string>> = { a: 'b' };\nconst B: { [key: string]: number } = {};")).toEqual([
      'A: Readonly<Record<string, string>>',
      'B: { [key: string]: number }',
    ]);
    expect(stringKeyedTables("const A: ReadonlyMap<string, string> = new Map();\nconst B: Record<Locale, string> = { en: 'x' };\nfunction f() { const c: Record<string, string> = {}; }")).toEqual([]);
  });

  it('keeps every module-level table of src/ and adapters/ keyed by any string in a Map', () => {
    const found = ['src', 'adapters'].flatMap((dir) =>
      tsFiles(join(ROOT, dir)).flatMap((path) => stringKeyedTables(readFileSync(path, 'utf8')).map((t) => `${relative(ROOT, path).split('\\').join('/')}: ${t}`)),
    );
    expect(found).toEqual([]);
  });
});
