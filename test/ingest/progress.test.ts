import { describe, expect, it } from 'vitest';
import { createProgressBar, renderProgressLine, PROGRESS_INTERVAL_MS } from '../../src/ingest/progress.js';
import { formatSummary } from '../../src/ingest/summary.js';
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
  const base: IngestSummary = { files: 246, added: 95_410, updated: 0, unchanged: 120, rejected: 122, rejects: [], failedFiles: [], aborted: false };

  it('gives the counts on one line', () => {
    expect(formatSummary({ ...base, rejected: 0 })).toBe('95,530 records from 246 files: 95,410 added, 0 updated, 120 unchanged, 0 rejected');
    expect(formatSummary({ ...base, files: 1, added: 1, unchanged: 0, rejected: 0 })).toBe('1 record from 1 file: 1 added, 0 updated, 0 unchanged, 0 rejected');
  });

  it('lists failed files and the first 20 rejects, then how many more', () => {
    const rejects = Array.from({ length: 25 }, (_, i) => ({ file: 'a.json', line: i * 4 + 2, index: i, reason: 'title: title is empty' }));
    const text = formatSummary({ ...base, rejects, failedFiles: [{ file: 'notes.json', reason: 'unrecognized format' }] });
    const lines = text.split('\n');
    expect(lines[0]).toBe('95,652 records from 246 files: 95,410 added, 0 updated, 120 unchanged, 122 rejected');
    expect(lines[1]).toBe('  notes.json: unrecognized format');
    expect(lines[2]).toBe('  a.json:2 [index 0]: title: title is empty');
    expect(lines[21]).toBe('  a.json:78 [index 19]: title: title is empty');
    expect(lines[22]).toBe('  … and 102 more');
    expect(lines).toHaveLength(23);
  });

  it('says when the import stopped early', () => {
    expect(formatSummary({ ...base, rejected: 0, aborted: true }).split('\n')[1]).toBe(
      'Stopped before the end: run the same command again to finish (what is in is kept).',
    );
  });
});
