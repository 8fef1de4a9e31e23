import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/db.js';
import { SqlitePaperStore } from '../../src/store/sqlite/papers.js';
import { TEXT_VERSION } from '../../src/text.js';

/** A library the previous version wrote (test/fixtures/store/README.md says how). */
const LIBRARY_V1 = fileURLToPath(new URL('../fixtures/store/library-v1.sql', import.meta.url));

function libraryV1(): { store: SqlitePaperStore; db: Database.Database } {
  // The previous version's schema and rows, then this version's migrations, as an upgrade goes.
  const path = join(mkdtempSync(join(tmpdir(), 'paperscout-v1-')), 'paperscout.db');
  const raw = new Database(path);
  raw.exec(readFileSync(LIBRARY_V1, 'utf8'));
  raw.close();
  const db = openDatabase(path);
  return { store: new SqlitePaperStore(db), db };
}

const aliases = (db: Database.Database) =>
  (db.prepare("SELECT alias FROM paper_aliases WHERE alias LIKE 'title:%' ORDER BY alias").all() as Array<{ alias: string }>).map((r) => r.alias);

describe('SqlitePaperStore.upgradeText on a library the previous version wrote', () => {
  it('decodes the LaTeX a previous version stored and recomputes its title aliases, once', async () => {
    const { store, db } = libraryV1();
    expect(await store.findByTitle('Łódź Street Scenes: A Dataset of Pedestrians', 'Paweł Dłotko')).toBeUndefined();
    const before = await store.generation();

    const classified: string[] = [];
    const upgrade = await store.upgradeText((paper) => {
      classified.push(paper.title);
      return paper.title.includes('CeAg') ? ['physics'] : [];
    });

    expect(upgrade).toEqual({ from: 1, to: TEXT_VERSION, papers: 5, decoded: 3, aliases: 2, shared: 0 });
    expect(classified.sort()).toEqual(['Gröbner Bases for Kollár-Type Bounds', 'Heavy Fermions in CeAg₂Ge₂ Revisited', 'Łódź Street Scenes: A Dataset of Pedestrians']);
    expect(await store.generation()).toBe(before + 1);
    const ceag = (await store.findByTitle('Heavy Fermions in CeAg₂Ge₂ Revisited', 'Łukasz Wróbel'))!;
    expect(ceag).toMatchObject({ title: 'Heavy Fermions in CeAg₂Ge₂ Revisited', topics: ['physics'] });
    expect(ceag.abstract).toContain('compound CeAg₂Ge₂ with Gröbner-basis bookkeeping');
    expect((await store.findByTitle('Gröbner Bases for Kollár-Type Bounds', 'Mirela Košir'))?.authors).toEqual(['Mirela Košir', 'János Erdődi']);
    // Keys with ł, ß or ð in them are refolded; a new record with those names finds its paper.
    expect((await store.findByTitle('Łódź Street Scenes: A Dataset of Pedestrians', 'Paweł Dłotko'))?.id).toBe('t:e560094310279e28');
    expect((await store.findByTitle('Sparse Priors for Strasse Detection', 'Thora Sigurdardottir'))?.id).toBe('t:8e3a51a0da4aeb5a');
    expect(aliases(db)).toEqual([
      'title:a plain paper about gradients|wrobel',
      'title:gr obner bases for koll ar type bounds|ir',
      'title:grobner bases for kollar type bounds|kosir',
      'title:heavy fermions in ceag 2 ge 2 revisited|wrobel',
      'title:heavy fermions in ceag2ge2 revisited|wrobel',
      'title:lodz street scenes a dataset of pedestrians|dlotko',
      'title:sparse priors for strasse detection|sigurdardottir',
    ]);
    expect(await store.getMeta('text_version')).toBe(String(TEXT_VERSION));

    expect(await store.upgradeText(() => [])).toBeUndefined();
    expect(await store.generation()).toBe(before + 1);
  });

  it('leaves a key two papers now share with the one that had it, and counts it', async () => {
    const { store, db } = libraryV1();
    // Another paper, from a listing that spelled the title in ASCII, already holds the new key.
    db.prepare("INSERT INTO paper_aliases (alias, paper_id) VALUES ('title:lodz street scenes a dataset of pedestrians|dlotko', 'other')").run();
    expect(await store.upgradeText(() => [])).toMatchObject({ aliases: 2, shared: 1 });
    expect(db.prepare("SELECT paper_id FROM paper_aliases WHERE alias = 'title:lodz street scenes a dataset of pedestrians|dlotko'").get()).toEqual({ paper_id: 'other' });
    expect(db.prepare("SELECT count(*) AS n FROM paper_aliases WHERE alias LIKE 'title:łodz%'").get()).toEqual({ n: 0 });
  });

  it('stamps a new, empty library without scanning it, and leaves a current one alone', async () => {
    const store = new SqlitePaperStore(openDatabase(':memory:'));
    expect(await store.upgradeText(() => [])).toBeUndefined();
    expect(await store.getMeta('text_version')).toBe(String(TEXT_VERSION));
    expect(await store.generation()).toBe(0);
  });

  it('never takes a library a newer version wrote back to an older normalization', async () => {
    const { store, db } = libraryV1();
    (await store.setMeta('text_version', String(TEXT_VERSION + 1)));
    const before = aliases(db);
    expect(await store.upgradeText(() => [])).toBeUndefined();
    expect(aliases(db)).toEqual(before);
    expect(await store.getMeta('text_version')).toBe(String(TEXT_VERSION + 1));
  });
});
