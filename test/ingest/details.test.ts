/**
 * The details file: every rejected record and every record kept apart of an import, however
 * many, in a real file that the summary names.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { messages } from '../../src/i18n/index.js';
import { DetailsFile, DETAILS_FILE_NAME, FAILED_DETAILS_FILE_NAME } from '../../src/ingest/details.js';
import { ingestPaths, MAX_REJECT_DETAILS, unusableInputs } from '../../src/ingest/ingest.js';
import { formatSummary } from '../../src/ingest/summary.js';
import { NOW, openTestStore, type TestStore } from './helpers/testStore.js';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.cleanup());

describe('DetailsFile', () => {
  it('lists every rejected record and every record kept apart, past what the summary keeps, and the summary names it', async () => {
    const blank = MAX_REJECT_DETAILS + 30;
    const lines = [
      ...Array.from({ length: blank }, () => '{"title": ""}'),
      ...[0, 1, 2].map((i) => JSON.stringify({ title: `Submission ${i}`, openreview: `Or${i}xQ7z`, pdf: 'https://example.org/all.pdf' })),
    ];
    const input = t.file('mixed.jsonl', `${lines.join('\n')}\n`);
    const path = join(t.dir, 'data', DETAILS_FILE_NAME);
    const details = new DetailsFile(path, messages('en'));
    const summary = await ingestPaths([input], { store: t.store, classify: () => [], now: NOW, details, batchSize: 100 });
    expect(summary).toMatchObject({ added: 3, rejected: blank, apart: 2 });
    expect(summary.rejects).toHaveLength(MAX_REJECT_DETAILS);
    expect(details.finish(true)).toBe(path);

    const written = readFileSync(path, 'utf8').split('\n');
    expect(written).toHaveLength(blank + 2 + 1);
    expect(written[0]).toBe(`${input}:1 [index 0]: title: title is empty`);
    expect(written[blank - 1]).toBe(`${input}:${blank} [index ${blank - 1}]: title: title is empty`);
    expect(written.slice(blank)).toEqual([
      `${input}:${blank + 2} [index ${blank + 1}]: url:example.org/all.pdf (not openreview:Or0xQ7z: another OpenReview id)`,
      `${input}:${blank + 3} [index ${blank + 2}]: url:example.org/all.pdf (a link papers that differ share)`,
      '',
    ]);
    expect(formatSummary(summary, { detailsFile: path }).split('\n')[21]).toBe(`  … and 1,010 more: all 1,030 are listed in ${path}`);
  });

  it('writes no file for an import with nothing to report, and leaves the last one as it was', async () => {
    const path = join(t.dir, DETAILS_FILE_NAME);
    writeFileSync(path, 'from the import before\n');
    const details = new DetailsFile(path, messages('en'));
    const input = t.file('fine.jsonl', '{"title": "Fine"}\n');
    expect(await ingestPaths([input], { store: t.store, classify: () => [], now: NOW, details })).toMatchObject({ added: 1, rejected: 0, apart: 0 });
    expect(details.finish(true)).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('from the import before\n');
  });

  it("leaves the last good import's file as it was when an import fails, and puts its lines apart", async () => {
    const path = join(t.dir, DETAILS_FILE_NAME);
    writeFileSync(path, 'from the last good import\n');
    const details = new DetailsFile(path, messages('en'));
    const input = t.file('bad.jsonl', '{"title": ""}\n{"title": ""}\n');
    const summary = await ingestPaths([input], { store: t.store, classify: () => [], now: NOW, details });
    expect(summary).toMatchObject({ added: 0, rejected: 2, emptyFiles: [{ file: input, records: 2 }] });
    expect(unusableInputs(summary)).toBe(1);
    // Until the import ends, its lines are apart from the last good import's.
    expect(readFileSync(path, 'utf8')).toBe('from the last good import\n');
    expect(details.finish(false)).toBe(join(t.dir, FAILED_DETAILS_FILE_NAME));
    expect(details.close()).toBe(join(t.dir, FAILED_DETAILS_FILE_NAME));
    expect(readFileSync(path, 'utf8')).toBe('from the last good import\n');
    expect(readFileSync(join(t.dir, FAILED_DETAILS_FILE_NAME), 'utf8')).toBe(`${input}:1 [index 0]: title: title is empty\n${input}:2 [index 1]: title: title is empty\n`);
    expect(existsSync(`${path}.partial`)).toBe(false);
  });
});
