/**
 * What an import counts and which records it keeps apart, through real files and the SQLite
 * store: records sharing a pdf link or a venue page are papers of their own when they differ, and
 * a record of a paper an earlier record of the same import wrote is a duplicate, merged, never
 * "updated" or "unchanged" in a library that was empty.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ingestPaths, type IngestDeps, type IngestSummary } from '../../src/ingest/ingest.js';
import { NOW, openTestStore, type TestStore } from './helpers/testStore.js';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.cleanup());

function ingest(paths: string[], deps: Partial<IngestDeps> = {}): Promise<IngestSummary> {
  return ingestPaths(paths, { store: t.store, classify: () => [], now: NOW, ...deps });
}

const counts = ({ added, updated, unchanged, merged, rejected, apart }: IngestSummary) => ({ added, updated, unchanged, merged, rejected, apart });

/** An OpenReview-like listing: 1,500 submissions whose records all give one pdf link. */
function sharedPdfListing(): string {
  const lines = Array.from({ length: 1500 }, (_, i) =>
    JSON.stringify({
      title: `Submission ${i}: sparse things, variant ${i * 7}`,
      authors: [`Author ${i}`, 'Common Coauthor'],
      venue: 'ICLR',
      year: 2024,
      status: i % 3 ? 'Reject' : 'Poster',
      openreview: `Or${String(i).padStart(6, '0')}xQ`,
      page: `https://openreview.net/forum?id=Or${String(i).padStart(6, '0')}xQ`,
      pdf: 'https://openreview.net/attachment/shared-supplement.pdf',
    }),
  );
  return t.file('submissions.jsonl', `${lines.join('\n')}\n`);
}

describe('ingestPaths: identity', () => {
  it('imports 1,500 submissions sharing one pdf link as 1,500 papers, and says which were kept apart', async () => {
    const path = sharedPdfListing();
    const first = await ingest([path], { batchSize: 400 });
    expect(counts(first)).toEqual({ added: 1500, updated: 0, unchanged: 0, merged: 0, rejected: 0, apart: 1499 });
    expect(first.apartGroups).toEqual([
      {
        alias: 'url:openreview.net/attachment/shared-supplement.pdf',
        records: 1499,
        first: { file: path, line: 2, index: 1, alias: 'url:openreview.net/attachment/shared-supplement.pdf', paper: 'openreview:Or000000xQ', differs: 'openreview' },
      },
    ]);
    expect(await t.store.count()).toBe(1500);
    expect((await t.store.get('openreview:Or001234xQ'))!.status).toBe('Rejected');
    const again = await ingest([path], { batchSize: 400 });
    expect(counts(again)).toEqual({ added: 0, updated: 0, unchanged: 1500, merged: 0, rejected: 0, apart: 0 });
  });

  it('imports CSV rows that give a venue page as their link as papers of their own, with or without DOIs', async () => {
    const rows = (header: string, row: (i: number) => string) => [header, ...Array.from({ length: 40 }, (_, i) => row(i))].join('\n');
    t.file('volume.csv', rows('title,authors,year,doi,url', (i) => `"Paper ${i} of volume 202: kernels ${i}",Author ${i},2023,10.5555/icml.2023.${1000 + i},https://proceedings.mlr.press/v202/`));
    t.file('talks.csv', rows('title,authors,url', (i) => `"Talk ${i} at the venue: flows ${i}",Speaker ${i},https://neurips.cc/Conferences/2023`));
    const summary = await ingest([join(t.dir, 'in')]);
    expect(counts(summary)).toEqual({ added: 80, updated: 0, unchanged: 0, merged: 0, rejected: 0, apart: 78 });
    expect(summary.apartGroups.map((g) => [g.alias, g.records, g.first.differs])).toEqual([
      ['url:neurips.cc/Conferences/2023', 39, 'title'],
      ['url:proceedings.mlr.press/v202', 39, 'doi'],
    ]);
    expect(await t.store.count()).toBe(80);
  });

  it('counts a record of a paper an earlier record of the import wrote as a duplicate, across batches too', async () => {
    const record = (id: number, title: string, abstract = '') => JSON.stringify({ id, title, authors: ['Ann Lee'], abstract });
    const path = t.file(
      'dups.jsonl',
      [record(1, 'Alpha'), record(2, 'Beta'), record(1, 'Alpha'), record(3, 'Gamma'), record(2, 'Beta', 'Now with an abstract.')].join('\n'),
    );
    expect(counts(await ingest([path], { batchSize: 2 }))).toEqual({ added: 3, updated: 0, unchanged: 0, merged: 2, rejected: 0, apart: 0 });
    expect((await t.store.findByTitle('Beta', 'Ann Lee'))!.abstract).toBe('Now with an abstract.');
    // Read again: the first record of each paper is unchanged, the others are still duplicates.
    expect(counts(await ingest([path], { batchSize: 2 }))).toEqual({ added: 0, updated: 0, unchanged: 3, merged: 2, rejected: 0, apart: 0 });
  });
});
