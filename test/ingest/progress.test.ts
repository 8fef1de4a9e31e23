import { describe, expect, it } from 'vitest';
import { createProgressBar, renderProgressLine, PROGRESS_INTERVAL_MS } from '../../src/ingest/progress.js';
import { formatSummary } from '../../src/ingest/summary.js';
import { messages } from '../../src/i18n/index.js';
import type { IngestProgress, IngestSummary } from '../../src/ingest/ingest.js';

function fakeStream(isTTY: boolean, columns = 100) {
  const writes: string[] = [];
  const stream = { isTTY, columns, write: (s: string) => writes.push(s) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, writes };
}

const at = (bytesDone: number, records: number): IngestProgress => ({ file: '/data/icml/icml2019.json', bytesDone, bytesTotal: 10_000_000, records });

describe('renderProgressLine', () => {
  it('shows the bar, percentage, megabytes, records and file name', () => {
    expect(renderProgressLine(at(5_000_000, 1234), 100)).toBe('[############------------]  50%  5.0/10.0 MB  1,234 records  icml2019.json');
    expect(renderProgressLine(at(10_000_000, 95_652), 100)).toBe('[########################] 100%  10.0/10.0 MB  95,652 records  icml2019.json');
    expect(renderProgressLine(at(5_000_000, 1234), 100, '条记录')).toBe('[############------------]  50%  5.0/10.0 MB  1,234 条记录  icml2019.json');
  });

  it('fits the width it is given', () => {
    expect(renderProgressLine(at(0, 0), 20)).toBe('[' + '-'.repeat(19));
  });

  it('shows a full bar when there are no bytes at all', () => {
    expect(renderProgressLine({ file: 'x', bytesDone: 0, bytesTotal: 0, records: 0 }, 100)).toMatch(/^\[#{24}\] 100%/);
  });
});

describe('createProgressBar', () => {
  it('draws in place at most once per interval, then the last state and a line break', () => {
    const { stream, writes } = fakeStream(true);
    let now = 1_000;
    const bar = createProgressBar(stream, { now: () => now });
    bar.update(at(1_000_000, 10));
    now += PROGRESS_INTERVAL_MS - 1;
    bar.update(at(2_000_000, 20));
    now += 1;
    bar.update(at(3_000_000, 30));
    bar.update(at(4_000_000, 40));
    bar.done();
    expect(writes).toEqual([
      `\r${renderProgressLine(at(1_000_000, 10), 99)}\x1b[K`,
      `\r${renderProgressLine(at(3_000_000, 30), 99)}\x1b[K`,
      `\r${renderProgressLine(at(4_000_000, 40), 99)}\x1b[K`,
      '\n',
    ]);
  });

  it('is silent when the stream is not a terminal', () => {
    const { stream, writes } = fakeStream(false);
    const bar = createProgressBar(stream);
    bar.update(at(1, 1));
    bar.done();
    expect(writes).toEqual([]);
  });

  it('writes nothing when done without any update', () => {
    const { stream, writes } = fakeStream(true);
    createProgressBar(stream).done();
    expect(writes).toEqual([]);
  });
});

describe('formatSummary', () => {
  const base: IngestSummary = {
    files: 246, added: 95_126, updated: 0, unchanged: 0, merged: 436, rejected: 90, rejects: [], apart: 0, apartGroups: [], failedFiles: [], emptyFiles: [], aborted: false,
  };

  it('gives the counts on one line, duplicates within the import apart from papers the library had', () => {
    expect(formatSummary({ ...base, rejected: 0 })).toBe('95,562 records from 246 files: 95,126 added, 0 updated, 0 unchanged, 436 duplicates merged, 0 rejected');
    expect(formatSummary({ ...base, files: 1, added: 0, unchanged: 1, merged: 1, rejected: 0 })).toBe('2 records from 1 file: 0 added, 0 updated, 1 unchanged, 1 duplicate merged, 0 rejected');
    expect(formatSummary({ ...base, files: 1, added: 1, merged: 0, rejected: 0 }, { messages: messages('zh-CN') })).toBe('1 个文件中的 1 条记录：新增 1，更新 0，未变 0，合并重复 0 条，拒收 0');
  });

  it('lists failed files and the first 20 rejects, then how many more and the file that lists them all', () => {
    const rejects = Array.from({ length: 25 }, (_, i) => ({ file: 'a.json', line: i * 4 + 2, index: i, reason: 'title: title is empty' }));
    const summary = { ...base, rejects, failedFiles: [{ file: 'notes.json', reason: 'unrecognized format' }] };
    const lines = formatSummary(summary, { detailsFile: '/data/ingest-details.txt' }).split('\n');
    expect(lines[0]).toBe('95,652 records from 246 files: 95,126 added, 0 updated, 0 unchanged, 436 duplicates merged, 90 rejected');
    expect(lines[1]).toBe('  notes.json: unrecognized format');
    expect(lines[2]).toBe('  a.json:2 [index 0]: title: title is empty');
    expect(lines[21]).toBe('  a.json:78 [index 19]: title: title is empty');
    expect(lines[22]).toBe('  … and 70 more: all 90 are listed in /data/ingest-details.txt');
    expect(lines).toHaveLength(23);
    // Without a details file (the library's own imports), they are counted.
    expect(formatSummary(summary).split('\n')[22]).toBe('  … and 70 more');
  });

  it('groups the records kept apart by the identifier they share, and says a shared link identifies none', () => {
    const first = (n: number) => ({ file: 'or.jsonl', line: n + 1, index: n });
    const text = formatSummary({
      ...base,
      rejected: 0,
      apart: 1_502,
      apartGroups: [
        { alias: 'url:openreview.net/attachment/x.pdf', records: 1_499, first: { ...first(1), alias: 'url:openreview.net/attachment/x.pdf', paper: 'openreview:Or0', differs: 'openreview' } },
        { alias: 'title:withdrawn|withdrawn', records: 2, first: { ...first(7), alias: 'title:withdrawn|withdrawn', paper: 'arxiv:1801.00001', differs: 'arxiv' } },
        { alias: 'url:neurips.cc', records: 1, first: { ...first(9), alias: 'url:neurips.cc' } },
      ],
    });
    expect(text.split('\n').slice(1)).toEqual([
      'Kept apart: 1,502 records share an identifier with a paper they are not (another arXiv id, DOI or OpenReview id, or only a link in common), so they were not merged into it:',
      '  url:openreview.net/attachment/x.pdf: 1,499 records, the first at or.jsonl:2 [index 1] (not openreview:Or0: another OpenReview id)',
      '  title:withdrawn|withdrawn: 2 records, the first at or.jsonl:8 [index 7] (not arxiv:1801.00001: another arXiv id)',
      '  url:neurips.cc: 1 record, at or.jsonl:10 [index 9] (a link papers that differ share)',
      'A link that papers which differ share identifies none of them from now on: a record finds its paper by its other identifiers.',
    ]);
  });

  it('lists the first 10 identifiers of records kept apart, then how many more records and where they are', () => {
    const groups = Array.from({ length: 12 }, (_, i) => ({
      alias: `openreview:Or${i}`,
      records: 2,
      first: { file: 'or.jsonl', line: i + 1, index: i, alias: `openreview:Or${i}`, paper: 'openreview:Or', differs: 'openreview' as const },
    }));
    const lines = formatSummary({ ...base, rejected: 0, apart: 1_489, apartGroups: groups }, { detailsFile: '/data/ingest-details.txt' }).split('\n');
    expect(lines).toHaveLength(1 + 1 + 10 + 1);
    expect(lines[11]).toBe('  openreview:Or9: 2 records, the first at or.jsonl:10 [index 9] (not openreview:Or: another OpenReview id)');
    expect(lines[12]).toBe('  … and 1,469 more records kept apart over other identifiers: every one is listed in /data/ingest-details.txt');
  });

  it('says when the import stopped early', () => {
    expect(formatSummary({ ...base, rejected: 0, aborted: true }).split('\n')[1]).toBe(
      'Stopped before the end: run the same command again to finish (what is in is kept).',
    );
  });
});
