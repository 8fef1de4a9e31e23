import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { ingestPaths, MAX_REJECT_DETAILS, type IngestDeps, type IngestProgress, type IngestSummary } from '../../src/ingest/ingest.js';
import { FIXTURES, NOW, openTestStore, type TestStore } from './helpers/testStore.js';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.cleanup());

const classify = () => [];

function ingest(paths: string[], deps: Partial<IngestDeps> = {}): Promise<IngestSummary> {
  return ingestPaths(paths, { store: t.store, classify, now: NOW, ...deps });
}

function counts(summary: IngestSummary) {
  const { files, added, updated, unchanged, merged, rejected } = summary;
  return { files, added, updated, unchanged, merged, rejected };
}

function allRows(): unknown[] {
  return t.db.prepare('SELECT * FROM papers ORDER BY doc').all();
}

describe('ingestPaths: formats', () => {
  it('imports paperlists with venue and year from the file name', async () => {
    const summary = await ingest([join(FIXTURES, 'paperlists')]);
    expect(counts(summary)).toEqual({ files: 3, added: 6, updated: 0, unchanged: 0, merged: 0, rejected: 1 });
    expect(summary.rejects).toEqual([
      { file: join(FIXTURES, 'paperlists/siggraphasia/siggraphasia2023.json'), line: 10, index: 1, reason: 'title: title is empty' },
    ]);
    expect(await t.store.get('arxiv:1901.04321')).toEqual({
      id: 'arxiv:1901.04321',
      title: 'Sparse Gradient Echoes in Deep Networks',
      authors: ['Mara Quill', 'Tobias Renfrew', 'Ilse Okonkwo'],
      abstract: 'We study echoes of sparse gradients. They are everywhere.',
      venue: 'ICML',
      year: 2019,
      status: 'Oral',
      topics: [],
      keywords: ['sparsity', 'gradients', 'optimization'],
      labels: ['Optimization'],
      links: {
        code: 'https://github.com/example/echoes',
        page: 'https://icml.cc/virtual/2019/poster/4101',
        pdf: 'http://proceedings.mlr.press/v97/quill19a/quill19a.pdf',
      },
      externalIds: { arxiv: '1901.04321', doi: '10.5555/icml.2019.4101' },
      firstSeen: '2025-01-15T12:00:00.000Z',
    });
    expect((await t.store.findByRef({ kind: 'openreview', id: 'Hk9xQvT2b' }))?.paper.title).toBe('Reviewed in the Open');
    expect((await t.store.findByRef({ kind: 'doi', id: '10.5555/icml.2019.4102' }))?.paper.id).toBe('openreview:Hk9xQvT2b');
    const noId = (await t.store.findByTitle('A Paper Without an Identifier', 'Nadia Fenwick'))!;
    expect(noId.id).toMatch(/^icml2019:t:[0-9a-f]{12}$/);
    expect(noId.links).toEqual({ page: 'https://proceedings.mlr.press/v97/fenwick19a.html' });
    expect((await t.store.get('iros2010:5600001'))?.authors).toEqual(['Kenji Arata', 'Lucia Moreau', 'Sven Dahl']);
    expect((await t.store.get('iros2010:5600002'))?.authors).toEqual(['Ana Belo', 'Piero Sala', 'Antonio Bicci']);
    expect(await t.store.get('doi:10.5555/sa23.0001')).toMatchObject({
      venue: 'SIGGRAPH Asia',
      year: 2023,
      authors: ['Axelle Parisot', 'Eric Guerrand', 'Paula Colin'],
    });
  });

  it('imports the arXiv snapshot, without versions in ids', async () => {
    const summary = await ingest([join(FIXTURES, 'arxiv/arxiv-sample.jsonl')]);
    expect(counts(summary)).toEqual({ files: 1, added: 3, updated: 0, unchanged: 0, merged: 0, rejected: 0 });
    expect((await t.store.findByRef({ kind: 'arxiv', id: '1901.04321' }))?.paper).toMatchObject({
      id: 'arxiv:1901.04321',
      title: 'Sparse Gradient Echoes in Deep Networks',
      authors: ['Mara Quill', 'Tobias Renfrew', 'Ilse Okonkwo'],
      venue: 'arXiv',
      year: 2019,
      published: '2019-01-09',
      labels: ['cs.LG', 'stat.ML'],
      links: { page: 'https://arxiv.org/abs/1901.04321', pdf: 'https://arxiv.org/pdf/1901.04321' },
    });
    expect(await t.store.get('arxiv:hep-th/9901001')).toMatchObject({ authors: ['L. Kord', 'P. Amsel Jr'], externalIds: { doi: '10.5555/plb.1999.1' } });
    expect(await t.store.get('arxiv:2402.00007')).toMatchObject({ authors: ['Zoe Ng'], year: 2024, published: '2024-02-20' });
  });

  it('imports generic JSON Lines and CSV with quotes, doubled quotes and line breaks', async () => {
    const summary = await ingest([join(FIXTURES, 'generic')]);
    expect(counts(summary)).toEqual({ files: 2, added: 5, updated: 0, unchanged: 0, merged: 0, rejected: 0 });
    const quoted = (await t.store.findByTitle('Commas, Quotes and "Escapes"', 'Ada Brook'))!;
    expect(quoted).toMatchObject({
      title: 'Commas, Quotes and "Escapes"',
      authors: ['Ada Brook', 'Ben Cole'],
      year: 2021,
      venue: 'ACL',
      abstract: 'Line one line two',
      links: { page: 'https://example.org/csv/1' },
    });
    expect(await t.store.findByTitle('Plain Title', 'Cy Dunn')).toMatchObject({ year: 2020, venue: '', abstract: '' });
    expect(await t.store.get('papers:1')).toMatchObject({ authors: ['Ruth Adeyemi', 'Kai Lindqvist'], venue: 'NeurIPS', year: 2023 });
    expect(await t.store.get('doi:10.5555/graphs.2022')).toMatchObject({ year: 2022, status: 'Spotlight', keywords: ['graphs', 'recursion'] });
    expect(await t.store.get('arxiv:2310.05555')).toMatchObject({ authors: ['Lena Fischer'], published: '2023-10-09' });
  });
});

describe('ingestPaths: bad input', () => {
  it('reports each malformed record with file, line, index and reason, and imports the rest', async () => {
    const array = t.file(
      'icml2020.json',
      [
        '[',
        ' {"id": "1", "title": "Good One", "author": "A B"},',
        ' {"id": "2", "title": "Broken" "author": "C D"},',
        ' {"id": "3", "title": "", "author": "E F"},',
        ' {"id": "4", "title": ["not", "a string"], "author": "G H"},',
        ' {"id": "5", "title": "Good Two", "author": "I J"}',
        ']',
      ].join('\n'),
    );
    const lines = t.file(
      'mine.jsonl',
      '{"title": "Line One", "year": 2020}\n{"title": "Line Two", "year": "abc"}\n{"title": "Line Three"\n{"title": "Line Four", "authors": "K L"}\n',
    );
    const csv = t.file('rows.csv', 'title,year\nRow One,2019\n"Row, Two",2018,extra\nRow Three,2017\n');
    const summary = await ingest([join(t.dir, 'in')]);
    expect(counts(summary)).toEqual({ files: 3, added: 6, updated: 0, unchanged: 0, merged: 0, rejected: 6 });
    expect(summary.rejects).toEqual([
      { file: array, line: 3, index: 1, reason: expect.stringMatching(/^invalid JSON: /) },
      { file: array, line: 4, index: 2, reason: 'title: title is empty' },
      { file: array, line: 5, index: 3, reason: 'title: expected a string, got an array' },
      { file: lines, line: 2, index: 1, reason: 'year: expected a year such as 2024, got "abc"' },
      { file: lines, line: 3, index: 2, reason: expect.stringMatching(/^invalid JSON: /) },
      { file: csv, line: 3, index: 1, reason: 'expected 2 fields as in the header, got 3' },
    ]);
    expect(summary.failedFiles).toEqual([]);
    expect(await t.store.count()).toBe(6);
    expect((await t.store.get('icml2020:5'))?.title).toBe('Good Two');
  });

  it('reports files it cannot read and carries on with the others', async () => {
    const missing = join(t.dir, 'nowhere.json');
    const notes = t.file('notes.json', 'hello');
    const object = t.file('object.json', '{\n  "papers": []\n}\n');
    t.file('empty.jsonl', '');
    const trailing = t.file('icml2021.json', '[{"title": "Kept", "author": "A"}]\n]');
    t.file('good.jsonl', '{"title": "Good"}\n');
    const summary = await ingest([missing, join(t.dir, 'in')]);
    expect(counts(summary)).toEqual({ files: 5, added: 2, updated: 0, unchanged: 0, merged: 0, rejected: 0 });
    expect(summary.failedFiles).toEqual([
      { file: missing, reason: 'no such file or directory' },
      { file: trailing, reason: `unexpected "]" on line 2 after the array's closing ']'` },
      { file: notes, reason: 'unrecognized format: starts with "hello"; expected a JSON array ("["), JSON Lines ("{") or a .csv file' },
      { file: object, reason: expect.stringMatching(/^starts with "\{" but its first lines are not complete JSON objects/) },
    ]);
    expect(await t.store.findByTitle('Kept', 'A')).toBeDefined();
  });

  it('counts every rejected record but keeps only the first details', async () => {
    const extra = 5;
    t.file('blank.jsonl', '{"title": ""}\n'.repeat(MAX_REJECT_DETAILS + extra));
    const summary = await ingest([join(t.dir, 'in')]);
    expect(summary.rejected).toBe(MAX_REJECT_DETAILS + extra);
    expect(summary.rejects).toHaveLength(MAX_REJECT_DETAILS);
    expect(summary.rejects.at(-1)).toMatchObject({ line: MAX_REJECT_DETAILS, index: MAX_REJECT_DETAILS - 1 });
  });

  it('rejects a record the store refuses instead of failing the batch', async () => {
    // Titles without a letter or digit give no title alias, so the store derives the same id twice.
    t.file('odd.jsonl', '{"title": "???"}\n{"title": "Fine"}\n{"title": "???"}\n');
    const summary = await ingest([join(t.dir, 'in')]);
    expect(counts(summary)).toMatchObject({ added: 2, rejected: 1 });
    expect(summary.rejects).toEqual([
      { file: join(t.dir, 'in/odd.jsonl'), line: 3, index: 2, reason: expect.stringMatching(/^store refused the record: another paper already has the id t:[0-9a-f]+, and nothing else identifies this record$/) },
    ]);
  });
});

describe('ingestPaths: re-ingest and merging', () => {
  it('changes nothing when the same data comes again, not even the generation', async () => {
    const first = await ingest([FIXTURES]);
    expect(counts(first)).toEqual({ files: 13, added: 26, updated: 0, unchanged: 0, merged: 1, rejected: 1 });
    expect(first.failedFiles.map((f) => f.file)).toEqual([join(FIXTURES, 'csv/no-title.csv')]);
    const generation = await t.store.generation();
    expect(generation).toBe(12); // one batch a file, each of which changed something but no-title.csv
    const before = allRows();
    const again = await ingest([FIXTURES], { now: () => new Date('2025-06-01T00:00:00Z') });
    expect(counts(again)).toEqual({ files: 13, added: 0, updated: 0, unchanged: 26, merged: 1, rejected: 1 });
    expect(await t.store.generation()).toBe(generation);
    expect(allRows()).toEqual(before);
  });

  it('advances the generation only for batches that changed something', async () => {
    const path = t.file('five.jsonl', Array.from({ length: 5 }, (_, i) => JSON.stringify({ title: `Paper ${i}` })).join('\n'));
    await ingest([path], { batchSize: 2 });
    expect(await t.store.generation()).toBe(3);
    t.file('five.jsonl', Array.from({ length: 5 }, (_, i) => JSON.stringify({ title: `Paper ${i}`, abstract: i === 4 ? 'New.' : '' })).join('\n'));
    const summary = await ingest([path], { batchSize: 2 });
    expect(counts(summary)).toMatchObject({ updated: 1, unchanged: 4 });
    expect(await t.store.generation()).toBe(4);
  });

  it('files the same paper from two sources as one record, by arXiv id or by title and first author', async () => {
    t.file(
      'icml2024.json',
      JSON.stringify([
        { id: '11', title: 'Echo Chambers in Gradient Descent', author: 'Mara Quill; Tobias Renfrew', arxiv: '2401.01234', status: 'Poster' },
        { id: '12', title: 'Learning to Forget, Quickly', author: 'Ruth Adeyemi; Kai Lindqvist', status: 'Oral' },
      ]),
    );
    t.file(
      'snapshot.jsonl',
      JSON.stringify({
        id: '2401.01234v2', title: 'Echo chambers in gradient\n descent', abstract: 'Echoes.', categories: 'cs.LG',
        authors_parsed: [['Quill', 'Mara', '']], versions: [{ version: 'v1', created: 'Tue, 2 Jan 2024 18:00:01 GMT' }],
      }) + '\n',
    );
    t.file('mine.jsonl', JSON.stringify({ title: 'Learning to forget — quickly!', authors: ['R. Adeyemi'], abstract: 'We forget.', year: 2024 }) + '\n');
    const summary = await ingest([join(t.dir, 'in')]);
    expect(counts(summary)).toEqual({ files: 3, added: 2, updated: 0, unchanged: 0, merged: 2, rejected: 0 });
    expect(await t.store.count()).toBe(2);
    expect(await t.store.get('arxiv:2401.01234')).toMatchObject({
      venue: 'ICML', year: 2024, status: 'Poster', abstract: 'Echoes.', labels: ['cs.LG'], published: '2024-01-02',
    });
    expect(await t.store.findByTitle('Learning to Forget, Quickly', 'Ruth Adeyemi')).toMatchObject({
      id: 'icml2024:12', venue: 'ICML', status: 'Oral', abstract: 'We forget.', authors: ['Ruth Adeyemi', 'Kai Lindqvist'],
    });
    const again = await ingest([join(t.dir, 'in')]);
    expect(counts(again)).toMatchObject({ added: 0, updated: 0, unchanged: 2, merged: 2 });
  });
});

describe('ingestPaths: interruption and progress', () => {
  function tenPapers(name: string, offset = 0): string {
    return t.file(name, Array.from({ length: 10 }, (_, i) => JSON.stringify({ id: i + offset, title: `Paper number ${i + offset}` })).join('\n'));
  }

  it('stops after the batch it is in when aborted, and a rerun completes the import', async () => {
    tenPapers('a.jsonl');
    tenPapers('b.jsonl', 10);
    const controller = new AbortController();
    const seen: IngestProgress[] = [];
    const summary = await ingest([join(t.dir, 'in')], {
      batchSize: 3,
      signal: controller.signal,
      onProgress: (p) => {
        seen.push(p);
        controller.abort();
      },
    });
    expect(summary.aborted).toBe(true);
    expect(counts(summary)).toEqual({ files: 1, added: 3, updated: 0, unchanged: 0, merged: 0, rejected: 0 });
    expect(seen).toHaveLength(1);
    expect(await t.store.count()).toBe(3);
    expect(t.db.pragma('integrity_check', { simple: true })).toBe('ok');

    const rest = await ingest([join(t.dir, 'in')], { batchSize: 3 });
    expect(rest.aborted).toBe(false);
    expect(counts(rest)).toEqual({ files: 2, added: 17, updated: 0, unchanged: 3, merged: 0, rejected: 0 });
    expect(await t.store.count()).toBe(20);
  });

  it('commits the records it holds, less than a batch, when aborted between batches', async () => {
    tenPapers('a.jsonl');
    let checks = 0;
    // Looked at once before the file, then after each record: aborted from the fifth record on.
    const signal = { get aborted() { return ++checks > 5; } } as AbortSignal;
    const summary = await ingest([join(t.dir, 'in')], { batchSize: 3, signal });
    expect(summary).toMatchObject({ aborted: true, added: 5 });
    expect(await t.store.count()).toBe(5);
    expect(counts(await ingest([join(t.dir, 'in')]))).toMatchObject({ added: 5, unchanged: 5 });
  });

  it('does nothing when aborted before it starts', async () => {
    tenPapers('a.jsonl');
    const summary = await ingest([join(t.dir, 'in')], { signal: AbortSignal.abort() });
    expect(summary).toMatchObject({ aborted: true, files: 0, added: 0 });
    expect(await t.store.count()).toBe(0);
  });

  it('walks directories in name order, picking data files only, and reports progress up to the total', async () => {
    const files = [tenPapers('b/z.jsonl'), tenPapers('a/y.ndjson', 10), tenPapers('a/x.jsonl', 20)];
    t.file('a/readme.txt', 'not data');
    t.file('.hidden/w.jsonl', '{"title": "hidden"}');
    const progress: IngestProgress[] = [];
    const summary = await ingest([join(t.dir, 'in')], { batchSize: 4, onProgress: (p) => progress.push(p) });
    expect(counts(summary)).toEqual({ files: 3, added: 30, updated: 0, unchanged: 0, merged: 0, rejected: 0 });
    expect([...new Set(progress.map((p) => p.file))]).toEqual([files[2], files[1], files[0]]);
    const total = files.reduce((sum, f) => sum + statSync(f).size, 0);
    expect(progress.every((p) => p.bytesTotal === total)).toBe(true);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.bytesDone).toBeGreaterThanOrEqual(progress[i - 1]!.bytesDone);
      expect(progress[i]!.records).toBeGreaterThanOrEqual(progress[i - 1]!.records);
    }
    expect(progress.at(-1)).toMatchObject({ bytesDone: total, records: 30 });
  });
});
