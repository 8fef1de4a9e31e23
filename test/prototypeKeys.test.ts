/**
 * Text from outside (a paper's LaTeX, an arXiv feed's entities, a venue, a CSV header, a locale
 * tag) is looked up in tables that hold only their own entries: a word that names what every
 * object inherits (`\constructor`, `&toString;`, a venue "constructor", a column "__proto__")
 * is unknown like any other word, and never comes out as "function Object() { [native code] }".
 */
import { describe, expect, it } from 'vitest';
import { csvColumns } from '../src/ingest/formats/generic.js';
import { resolveLocale } from '../src/i18n/index.js';
import { exportPapers } from '../src/papers/export/index.js';
import { venueInfo } from '../src/papers/export/venues.js';
import { decodeLatex } from '../src/papers/latex.js';
import { venueDisplayName } from '../src/papers/model.js';
import { decodeEntities } from '../src/sources/arxiv/xml.js';
import { PROTOTYPE_NAMES } from './commands/hostileHandles.js';
import { rawPaper } from './papers/export/papers.js';

describe.each(PROTOTYPE_NAMES)('%s', (name) => {
  it('is no LaTeX command: kept as written, in text and in math', () => {
    // `\_` is an underscore, so `\__proto__` is "__proto__"; a name of letters stays a command.
    const written = name.startsWith('_') ? name : `\\${name}`;
    expect(decodeLatex(`a \\${name} b`)).toBe(`a ${written} b`);
    expect(decodeLatex(`\\${name}{x}`)).toBe(`${written}{x}`);
    expect(decodeLatex(`$x \\${name} y$`)).not.toMatch(/native code|\[object/);
    expect(decodeLatex(`$x^{\\${name}}$`)).not.toMatch(/native code|\[object/);
  });

  it('is no XML entity: kept as written', () => {
    expect(decodeEntities(`Q&${name};A`)).toBe(`Q&${name};A`);
  });

  it('is no venue the export knows, nor one paperlists names', () => {
    expect(venueInfo(name)).toBeUndefined();
    expect(venueDisplayName(name)).toBe(name.toUpperCase());
    // Exported as a venue nobody knows is: the same entry, with the venue's own name.
    const bibtex = (venue: string) => exportPapers([rawPaper({ id: 'x:1', title: 'A paper', authors: ['Ada Lovelace'], venue, year: 2024, status: 'Poster' })], 'bibtex').content;
    const unknown = bibtex('Qqzzx');
    expect(bibtex(name).split('\n')[0]).toBe(unknown.split('\n')[0]);
    expect(bibtex(name)).toContain(unknown.split('\n').find((l) => l.includes('Qqzzx'))!.replace('Qqzzx', name.replaceAll('_', '\\_')));
  });

  it('is no column alias: a CSV column so named keeps its name', () => {
    expect(csvColumns([name, 'title'])).toEqual([name, 'title']);
  });

  it('is no language', () => {
    expect(resolveLocale(name)).toBe('en');
  });
});
