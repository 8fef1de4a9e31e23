import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ingestPaths } from '../../src/ingest/ingest.js';
import { FIXTURES, NOW, openTestStore, type TestStore } from './helpers/testStore.js';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.cleanup());

const CSV = join(FIXTURES, 'csv');

function byTitle(): Map<string, { authors: string[]; abstract: string; year: number | null }> {
  const rows = t.db.prepare('SELECT title, authors, abstract, year FROM papers').all() as Array<{ title: string; authors: string; abstract: string; year: number | null }>;
  return new Map(rows.map((r) => [r.title, { authors: JSON.parse(r.authors) as string[], abstract: r.abstract, year: r.year }]));
}

describe('ingestPaths: CSV dialects', () => {
  it('reads commas, semicolons, tabs, an Excel sep= line and an unnamed index column, with header aliases', async () => {
    const summary = await ingestPaths([CSV], { store: t.store, classify: () => [], now: NOW });
    expect(summary).toMatchObject({ files: 6, added: 8, updated: 0, unchanged: 0, rejected: 0 });
    const papers = byTitle();
    // comma.csv: Title, Authors, Abstract, Year, Venue.
    expect(papers.get('Tidal Tokens, Revisited')).toEqual({ authors: ['Ingrid Søberg', 'Marek Ślusarz'], abstract: 'Tokens ebb and flow, we find.', year: 2024 });
    // semicolon.csv: a byte order mark, CRLF, commas unquoted, titles;author;summary.
    expect(papers.get('Modelle, Daten und Straßen')).toEqual({
      authors: ['Jürgen Weiß', 'Anna Æbelø'],
      abstract: 'Straßen, Modelle und Daten, ohne Anführungszeichen.',
      year: 2022,
    });
    expect(papers.get('Semikolon; in Anführungszeichen')?.abstract).toBe('Ein Feld mit ; darin.');
    // tabs.csv: tab-separated under a .csv name, "paper title" and "abstracts"; LaTeX decoded.
    expect(papers.get('Tabs Between Us, Quietly')?.authors).toEqual(['Ola Nordmann', 'Kåre Ødegård']);
    expect(papers.get('Phonons in CeAg₂Ge₂')?.abstract).toBe('Lattice modes of CeAg₂Ge₂.');
    expect(papers.get('Excel Knows Its Separator')?.authors).toEqual(['Beata Żółć']);
    expect(papers.get('An Index Column From pandas')?.year).toBe(2017);
  });

  it('stops a file without a title column with one error that names the columns, not one per row', async () => {
    const summary = await ingestPaths([join(CSV, 'no-title.csv')], { store: t.store, classify: () => [], now: NOW });
    expect(summary).toMatchObject({ files: 1, added: 0, rejected: 0, rejects: [] });
    expect(summary.failedFiles).toEqual([{ file: join(CSV, 'no-title.csv'), reason: expect.stringMatching(/^no title column\. Columns found: "Name", "Author", "Year"\. Expected: "title"/) }]);
  });
});
