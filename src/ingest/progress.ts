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

export interface ProgressBar {
  update(progress: IngestProgress): void;
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
export function createProgressBar(stream: NodeJS.WriteStream, options: { now?: () => number } = {}): ProgressBar {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  const now = options.now ?? Date.now;
  let last: IngestProgress | undefined;
  let drawnAt = -Infinity;
  let drawn = false;
  const draw = (progress: IngestProgress) => {
    stream.write(`\r${renderProgressLine(progress, (stream.columns || 80) - 1)}${CLEAR_TO_END}`);
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
 * The text of the progress line, cut to `width` characters.
 * @example
 * renderProgressLine({ file: 'a/icml2019.json', bytesDone: 5e6, bytesTotal: 1e7, records: 1234 }, 80)
 * // '[############------------]  50%  5.0/10.0 MB  1,234 records  icml2019.json'
 */
export function renderProgressLine(progress: IngestProgress, width: number): string {
  const ratio = progress.bytesTotal > 0 ? Math.min(1, progress.bytesDone / progress.bytesTotal) : 1;
  const filled = Math.round(ratio * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
  const size = `${megabytes(progress.bytesDone)}/${megabytes(progress.bytesTotal)} MB`;
  const line = `${bar} ${percent}  ${size}  ${progress.records.toLocaleString('en-US')} records  ${basename(progress.file)}`;
  return line.length > width ? line.slice(0, Math.max(0, width)) : line;
}

function megabytes(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}
