/**
 * The details file of an import: every rejected record and every record kept apart, one line
 * each, in the words of the summary. A summary shows the first few; an import with more names
 * this file, so that none is out of sight. The lines are written to `<file>.partial` as they
 * come (an import with nothing to report writes none) and the file is put in place when the
 * import ends: a good import replaces the one the last left; an import that failed (an input
 * gave nothing usable, the store failed) leaves it as it was and puts its own lines in
 * `ingest-details.failed.txt` next to it.
 */
import { closeSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Messages } from '../i18n/index.js';
import type { IngestDetails, KeptApartRecord, RejectedRecord } from './ingest.js';
import { apartLine, rejectLine } from './summary.js';

/** Characters held before they are written. */
const FLUSH_CHARS = 1 << 16;

/**
 * @example
 * const details = new DetailsFile(join(dataDir, DETAILS_FILE_NAME), messages('en'));
 * const summary = await ingestPaths(paths, { store, classify, details });
 * console.log(formatSummary(summary, { detailsFile: details.finish(unusableInputs(summary) === 0) }));
 */
export class DetailsFile implements IngestDetails {
  private fd: number | undefined;
  private buffer = '';
  private finished: string | undefined;
  private readonly partial: string;

  constructor(
    readonly path: string,
    private readonly m: Messages,
    /** Where a failed import's lines go. */
    readonly failedPath = join(dirname(path), FAILED_DETAILS_FILE_NAME),
  ) {
    this.partial = `${path}.partial`;
  }

  rejected(record: RejectedRecord): void {
    this.write(rejectLine(record, this.m));
  }

  apart(record: KeptApartRecord): void {
    this.write(apartLine(record, this.m));
  }

  /**
   * Writes what is held and puts the file in place: over the last import's when this one is
   * `good`, at {@link failedPath} otherwise. Gives where the lines are, or undefined when there
   * was nothing to write. Once finished, later calls give the same answer.
   */
  finish(good: boolean): string | undefined {
    if (this.fd === undefined) return this.finished;
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
    this.finished = good ? this.path : this.failedPath;
    renameSync(this.partial, this.finished);
    return this.finished;
  }

  /** Finishes as a failed import unless finished already (for a `finally`: an import that threw failed). */
  close(): string | undefined {
    return this.finish(false);
  }

  private write(line: string): void {
    if (this.fd === undefined) {
      // DATA_DIR holds only the search index with PostgreSQL, and may not be there yet.
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.partial, 'w');
    }
    this.buffer += `${line}\n`;
    if (this.buffer.length >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    if (this.fd !== undefined && this.buffer.length > 0) writeSync(this.fd, this.buffer);
    this.buffer = '';
  }
}

/** The details file's name in DATA_DIR, and that of the last failed import's. */
export const DETAILS_FILE_NAME = 'ingest-details.txt';
export const FAILED_DETAILS_FILE_NAME = 'ingest-details.failed.txt';
