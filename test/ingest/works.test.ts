/**
 * `paperscout ingest` of an OpenAlex works file, on both stores: recognized among the formats
 * (never read as new papers, which turned a 95k library into 184k), each work matched by the
 * library's rule, counts, works and references given to the papers matched, the most cited of
 * several works for one paper over the whole file, a title that fits two papers giving neither
 * a count, counts refused, lines that are not works rejected with file and line, and with
 * `--add` the unmatched works made papers through the record path.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/ingest/detect.js';
import { ingestPaths, type IngestDeps } from '../../src/ingest/ingest.js';
import { formatSummary } from '../../src/ingest/summary.js';
import { WORKS_BATCH } from '../../src/ingest/works.js';
import type { PaperRecord } from '../../src/papers/model.js';
import { BACKENDS, type Instance, type TestStore } from '../store/contract/backends.js';
import { openAlexWork, type Work } from '../sources/helpers/fakeOpenAlex.js';

const NOW = new Date('2026-03-01T00:00:00Z');
const paper = (title: string, over: Partial<PaperRecord> = {}): PaperRecord => ({
  title,
  authors: ['Aino Virtanen', 'Rahul Iyer'],
  abstract: '',
  venue: 'NeurIPS',
  year: 2021,
  status: 'Poster',
  keywords: [],
  labels: [],
  links: {},
  externalIds: {},
  ...over,
});

const LIBRARY: PaperRecord[] = [
  paper('Invented Residual Learning for Image Recognition', { externalIds: { doi: '10.5555/resnet' } }),
  paper('Invented Attention Is Enough', { externalIds: { arxiv: '1706.03762' } }),
  paper('Graph Convolutions for Invented Node Labels', { authors: ['Thomas Kipf', 'Max Welling'] }),
  paper('Generative Adversarial Invented Nets', { authors: ['Ian Goodfellow', 'Yoshua Bengio'], externalIds: { openreview: 'GanFirst01' } }),
  paper('Generative Adversarial Invented Nets', { authors: ['Yoshua Bengio', 'Ian Goodfellow'], externalIds: { openreview: 'GanSecond2' } }),
];

const WORKS: Work[] = [
  openAlexWork({ n: 1, title: 'Invented Residual Learning for Image Recognition', year: 2021, authors: ['Aino Virtanen'], cited: 200000, doi: '10.5555/resnet', refs: [3, 77] }),
  openAlexWork({ n: 2, title: 'Invented Attention Is Enough', year: 2021, authors: ['Aino Virtanen'], cited: 90000, doi: '10.48550/arxiv.1706.03762', refs: [1] }),
  // By title: a year later, authors written otherwise.
  openAlexWork({ n: 3, title: 'Graph Convolutions for Invented Node Labels', year: 2022, authors: ['Thomas N. Kipf', 'M. Welling'], cited: 20000 }),
  // The same title with other authors: not the library's paper.
  openAlexWork({ n: 30, title: 'Graph Convolutions for Invented Node Labels', year: 2021, authors: ['Somebody Else'], cited: 7 }),
  // Fits two papers.
  openAlexWork({ n: 5, title: 'Generative Adversarial Invented Nets', year: 2021, authors: ['Ian Goodfellow', 'Yoshua Bengio'], cited: 60000 }),
  // A count nobody should believe, for the paper of W1: refused, W1's stays.
  openAlexWork({ n: 10, title: 'Invented Residual Learning for Image Recognition', year: 2021, authors: ['Aino Virtanen', 'Rahul Iyer'], cited: -3, doi: '10.5555/resnet' }),
  // A paper the library lacks.
  openAlexWork({ n: 40, title: 'An Invented Paper Only OpenAlex Knows', year: 2020, authors: ['Mei Chen'], cited: 12, doi: '10.5555/only.openalex' }),
];

const lines = (works: readonly unknown[]) => `${works.map((w) => (typeof w === 'string' ? w : JSON.stringify(w))).join('\n')}\n`;

it('recognizes a works file among the formats, and nothing else as one', () => {
  expect(detectFormat('part_000', lines(WORKS))).toEqual({ kind: 'openalex-works', container: 'jsonl' });
  expect(detectFormat('works.jsonl', lines([{ id: 'W42', cited_by_count: 1 }]))).toEqual({ kind: 'openalex-works', container: 'jsonl' });
  // A query's results saved as an array (jq .results) are works too.
  expect(detectFormat('results.json', JSON.stringify(WORKS))).toEqual({ kind: 'openalex-works', container: 'json-array' });
  expect(detectFormat('mine.json', JSON.stringify([{ id: 'W42', title: 'A paper' }]))).toEqual({ kind: 'generic', container: 'json-array' });
  // A file of papers whose ids happen to look like a work's, and the arXiv snapshot, stay what they were.
  expect(detectFormat('mine.jsonl', lines([{ id: 'W42', title: 'A paper', authors: ['A. B.'] }]))).toEqual({ kind: 'generic', container: 'jsonl' });
  expect(detectFormat('arxiv.json', lines([{ id: '0704.0001', authors_parsed: [['Balázs', 'C.', '']], title: 'T' }]))).toEqual({ kind: 'arxiv' });
});

describe.each(BACKENDS)('ingest of an OpenAlex works file on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let db: Instance;
  let dir: string;
  let docs: number[];
  let ids: string[];

  beforeEach(async () => {
    store = await backend.create();
    db = await store.instance();
    dir = mkdtempSync(join(tmpdir(), 'paperscout-works-'));
    const results = await db.papers.write((tx) => tx.upsertBatch(LIBRARY, { source: 'test', classify: () => [], now: NOW }));
    docs = results.map((r) => ('doc' in r ? r.doc : 0));
    ids = results.map((r) => ('id' in r ? r.id : ''));
  });
  afterEach(async () => {
    await store.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const deps = (over: Partial<IngestDeps> = {}): IngestDeps => ({ store: db.papers, citations: db.citations, classify: () => [], now: () => NOW, ...over });
  const write = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, name.endsWith('.gz') ? gzipSync(content) : content);
    return path;
  };

  it('gives the papers it matches their counts, works and references, and adds no paper', async () => {
    const file = write('part_000.gz', lines([...WORKS, '{"not json', { id: 'A5000', display_name: 'an author' }]));
    const summary = await ingestPaths([file], deps());
    expect(await db.papers.count()).toBe(LIBRARY.length);
    expect(summary.works).toMatchObject({ works: 7, matched: 3, countsChanged: 3, unmatched: 2, ambiguous: 1, refused: 1, added: 0, rejected: 2 });
    expect(summary).toMatchObject({ added: 0, updated: 0, rejected: 2, failedFiles: [], emptyFiles: [] });
    const counts = await db.citations.counts(docs);
    expect(docs.map((d) => counts.get(d)?.count ?? null)).toEqual([200000, 90000, 20000, null, null]);
    expect(docs.map((d) => counts.get(d)?.openalex ?? null)).toEqual(['W1', 'W2', 'W3', null, null]);
    expect((await db.citations.references(docs[0]!, { offset: 0, limit: 5 })).entries.map((e) => e.doc)).toEqual([docs[2]]);
    expect((await db.citations.citedBy(docs[0]!, { offset: 0, limit: 5 })).entries.map((e) => e.doc)).toEqual([docs[1]]);

    const text = formatSummary(summary);
    expect(text).toContain('7 OpenAlex works: 3 matched to papers (3 with a new or changed count), 2 unmatched, 1 ambiguous, 1 count refused');
    expect(text).not.toMatch(/records from/);
    expect(text).toContain(`ambiguous: ${file}:5 W5 "Generative Adversarial Invented Nets" fits ${ids[3]}, ${ids[4]}: no count given to any of them`);
    expect(text).toContain(`refused: ${file}:6 W10: cited_by_count -3 is not a whole number from 0 to 10,000,000`);
    expect(text).toContain(`${file}:8 [index 7]: invalid JSON`);
    expect(text).toContain(`${file}:9 [index 8]: expected an OpenAlex work id (https://openalex.org/W…), got "A5000"`);
    expect(text).toContain('--add makes them papers of the library');

    // The same file again changes nothing.
    const again = await ingestPaths([file], deps());
    expect(again.works).toMatchObject({ matched: 3, countsChanged: 0 });
    expect(await db.papers.count()).toBe(LIBRARY.length);
  });

  it('reads works saved as a JSON array the same way', async () => {
    const summary = await ingestPaths([write('results.json', JSON.stringify(WORKS))], deps());
    expect(await db.papers.count()).toBe(LIBRARY.length);
    expect(summary.works).toMatchObject({ works: 7, matched: 3, unmatched: 2, ambiguous: 1, refused: 1 });
  });

  it('keeps the most cited of the works that are one paper, over the whole file', async () => {
    const filler = Array.from({ length: WORKS_BATCH }, (_, i) => openAlexWork({ n: 1000 + i, title: `Invented Filler ${i}`, year: 2021, authors: ['Nobody'], cited: 1 }));
    const preprint = openAlexWork({ n: 11, title: 'Invented Residual Learning for Image Recognition', year: 2021, authors: ['Aino Virtanen', 'Rahul Iyer'], cited: 500 });
    const file = write('versions.jsonl', lines([WORKS[0]!, ...filler, preprint]));
    const summary = await ingestPaths([file], deps());
    expect(summary.works).toMatchObject({ works: WORKS_BATCH + 2, matched: 2 });
    expect((await db.citations.counts([docs[0]!])).get(docs[0]!)).toMatchObject({ openalex: 'W1', count: 200000 });
  });

  it('with --add, makes the works that match nothing papers, with their counts, and no duplicate the second time', async () => {
    const file = write('works.jsonl', lines(WORKS));
    const summary = await ingestPaths([file], deps({ addWorks: true }));
    expect(summary.works).toMatchObject({ works: 7, matched: 3, unmatched: 0, ambiguous: 1, refused: 1, added: 2 });
    expect(formatSummary(summary)).toContain('; 2 added as new papers');
    expect(await db.papers.count()).toBe(LIBRARY.length + 2);
    const added = await db.papers.findByRef({ kind: 'doi', id: '10.5555/only.openalex' });
    expect(added!.paper).toMatchObject({ title: 'An Invented Paper Only OpenAlex Knows', year: 2020, authors: ['Mei Chen'] });
    expect((await db.citations.counts([added!.doc])).get(added!.doc)).toMatchObject({ openalex: 'W40', count: 12 });

    const again = await ingestPaths([file], deps({ addWorks: true }));
    expect(again.works).toMatchObject({ matched: 5, added: 0 });
    expect(await db.papers.count()).toBe(LIBRARY.length + 2);
  });

  it('refuses counts nobody should believe, and keeps the count a paper had', async () => {
    await db.citations.put([{ doc: docs[0]!, openalex: 'W1', count: 4321, fetched: NOW, references: [] }]);
    const bad: unknown[] = [-1, 10_000_001, 2.5, '12', null, true, 1e308];
    const works = bad.map((cited, i) => ({ ...openAlexWork({ n: 100 + i, title: 'Invented Residual Learning for Image Recognition', year: 2021, authors: ['Aino Virtanen'], doi: '10.5555/resnet' }), cited_by_count: cited }));
    const summary = await ingestPaths([write('bad-counts.jsonl', lines(works))], deps());
    expect(summary.works).toMatchObject({ works: bad.length, refused: bad.length, countsChanged: 0 });
    expect(summary.works!.refusals.map((r) => r.reason)).toEqual([
      'cited_by_count -1 is not a whole number from 0 to 10,000,000',
      'cited_by_count 10000001 is not a whole number from 0 to 10,000,000',
      'cited_by_count 2.5 is not a whole number from 0 to 10,000,000',
      'cited_by_count "12" is not a whole number from 0 to 10,000,000',
      'the work has no cited_by_count',
      'cited_by_count boolean is not a whole number from 0 to 10,000,000',
      'cited_by_count 1e+308 is not a whole number from 0 to 10,000,000',
    ]);
    expect((await db.citations.counts([docs[0]!])).get(docs[0]!)).toMatchObject({ openalex: 'W1', count: 4321 });
  });

  it('reads past hostile lines: each is rejected with its line, the works around them still count', async () => {
    const hostile = [
      '',
      'null',
      '[]',
      '"https://openalex.org/W1"',
      '{"id": "https://openalex.org/W77", "__proto__": {"polluted": true}, "cited_by_count": 5, "display_name": "Invented Attention Is Enough", "authorships": {"length": 1e9}}',
      '{"id": {"toString": "W1"}, "cited_by_count": 1}',
      '{"id": "https://openalex.org/W0' + '9'.repeat(5000) + '", "cited_by_count": 1}',
      `{"id": "https://openalex.org/W78", "display_name": "${'x'.repeat(200_000)}", "cited_by_count": 1, "referenced_works": ${JSON.stringify(Array.from({ length: 50_000 }, (_, i) => `W${i}`))}}`,
      '{"id": "https://openalex.org/W79", "display_name": "Invented Attention Is Enough", "publication_year": "2021", "authorships": [null, 3, {"author": "x"}], "cited_by_count": 9, "locations": "arxiv.org/abs/1706.03762"}',
      '{' + '"a":{'.repeat(2000) + '}'.repeat(2001),
      '\u0000\ufeff{}',
    ];
    const file = write('hostile.jsonl.gz', lines([WORKS[0]!, ...hostile, WORKS[2]!]));
    const summary = await ingestPaths([file], deps());
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(await db.papers.count()).toBe(LIBRARY.length);
    const counts = await db.citations.counts(docs);
    expect(docs.map((d) => counts.get(d)?.count ?? null)).toEqual([200000, null, 20000, null, null]);
    expect(summary.works!.matched).toBe(2);
    expect(summary.works!.works + summary.works!.rejected).toBe(hostile.length - 1 + 2);
    expect(summary.failedFiles).toEqual([]);
  });

  it('never throws on lines of arbitrary JSON, and never adds a paper without --add', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.json(), fc.string(), fc.jsonValue().map((v) => JSON.stringify({ id: 'https://openalex.org/W5', cited_by_count: 1, display_name: v, authorships: v, doi: v, publication_year: v, referenced_works: v, primary_location: v }))), { maxLength: 20 }), async (raw) => {
        const summary = await ingestPaths([write('fuzz.jsonl', `${[JSON.stringify(WORKS[3]), ...raw].map((l) => l.replace(/\n/g, ' ')).join('\n')}\n`)], deps());
        expect(await db.papers.count()).toBe(LIBRARY.length);
        expect(summary.failedFiles).toEqual([]);
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  it('without a citation store, refuses a works file rather than reading it as papers', async () => {
    const file = write('works.jsonl', lines(WORKS));
    const summary = await ingestPaths([file], { store: db.papers, classify: () => [] });
    expect(summary.failedFiles).toEqual([{ file, reason: 'an OpenAlex works file, whose counts go to the papers it matches: this library keeps no citations' }]);
    expect(await db.papers.count()).toBe(LIBRARY.length);
  });
});
