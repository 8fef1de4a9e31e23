/**
 * A one-line progress bar for `paperscout ingest` on a terminal: redrawn in place at most ten
 * times a second, and silent when the stream is not a TTY (logs and pipes get the summary only).
 */
import { basename } from 'node:path';
import type { IngestProgress } from './ingest.js';

/** Fewest milliseconds between two redraws. */
export const PROGRESS_INTERVAL_MS = 100;
const BAR_WIDTH = 24;
const CLEAR_TO_END = '\x1b[K';

export interface ProgressBar<T = IngestProgress> {
  update(progress: T): void;
  /** Draws the last state and ends the line; the bar is not used after this. */
  done(): void;
}

/**
 * A progress bar drawn on `stream` (normally `process.stderr`) if it is a TTY.
 * @example
 * const bar = createProgressBar(process.stderr);
 * await ingestPaths(paths, { store, classify, onProgress: bar.update });
 * bar.done();
 */
export function createProgressBar<T = IngestProgress>(
  stream: NodeJS.WriteStream,
  options: { now?: () => number; render?: (progress: T, width: number) => string } = {},
): ProgressBar<T> {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  const now = options.now ?? Date.now;
  const render = options.render ?? (renderProgressLine as unknown as (progress: T, width: number) => string);
  let last: T | undefined;
  let drawnAt = -Infinity;
  let drawn = false;
  const draw = (progress: T) => {
    stream.write(`\r${render(progress, (stream.columns || 80) - 1)}${CLEAR_TO_END}`);
    drawn = true;
  };
  return {
    update(progress) {
      last = progress;
      const time = now();
      if (time - drawnAt < PROGRESS_INTERVAL_MS) return;
      drawnAt = time;
      draw(progress);
    },
    done() {
      if (last) draw(last);
      if (drawn) stream.write('\n');
      last = undefined;
      drawn = false;
    },
  };
}

/**
 * A progress line for work counted in items: a bar when the total is known, else the count.
 * @example renderCountLine({ done: 2500, total: 10000, unit: 'records', label: 'set cs' }, 80)
 * // '[######------------------]  25%  2,500/10,000 records  set cs'
 */
export function renderCountLine(progress: { done: number; total?: number; unit: string; label: string }, width: number): string {
  const count = progress.done.toLocaleString('en-US');
  let line: string;
  if (progress.total !== undefined && progress.total > 0) {
    const ratio = Math.min(1, progress.done / progress.total);
    const filled = Math.round(ratio * BAR_WIDTH);
    line = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${`${Math.floor(ratio * 100)}%`.padStart(4)}  ${count}/${progress.total.toLocaleString('en-US')} ${progress.unit}  ${progress.label}`;
  } else {
    line = `${count} ${progress.unit}  ${progress.label}`;
  }
  return line.length > width ? line.slice(0, Math.max(0, width)) : line;
}

/**
 * The text of the progress line, cut to `width` characters; `unit` is the word for records in
 * the reader's language.
 * @example
 * renderProgressLine({ file: 'a/icml2019.json', bytesDone: 5e6, bytesTotal: 1e7, records: 1234 }, 80)
 * // '[############------------]  50%  5.0/10.0 MB  1,234 records  icml2019.json'
 */
export function renderProgressLine(progress: IngestProgress, width: number, unit = 'records'): string {
  const records = `${progress.records.toLocaleString('en-US')} ${unit}  ${basename(progress.file)}`;
  let line: string;
  if (progress.bytesTotal < progress.bytesDone) {
    // A download whose size the server did not say: no bar, just what came so far.
    line = `${megabytes(progress.bytesDone)} MB  ${records}`;
  } else {
    const ratio = progress.bytesTotal > 0 ? Math.min(1, progress.bytesDone / progress.bytesTotal) : 1;
    const filled = Math.round(ratio * BAR_WIDTH);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
    const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
    line = `${bar} ${percent}  ${megabytes(progress.bytesDone)}/${megabytes(progress.bytesTotal)} MB  ${records}`;
  }
  return line.length > width ? line.slice(0, Math.max(0, width)) : line;
}

function megabytes(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}
