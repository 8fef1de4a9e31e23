/**
 * The details file of an import: every rejected record and every record kept apart, one line
 * each, in the words of the summary. A summary shows the first few; an import with more names
 * this file, so that none is out of sight. The file is made when the first line comes (an
 * import with nothing to report leaves none) and replaces the one a previous import left.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Messages } from '../i18n/index.js';
import type { IngestDetails, KeptApartRecord, RejectedRecord } from './ingest.js';
import { apartLine, rejectLine } from './summary.js';

/** Characters held before they are written. */
const FLUSH_CHARS = 1 << 16;

/**
 * @example
 * const details = new DetailsFile(join(dataDir, DETAILS_FILE_NAME), messages('en'));
 * const summary = await ingestPaths(paths, { store, classify, details });
 * console.log(formatSummary(summary, { detailsFile: details.close() }));
 */
export class DetailsFile implements IngestDetails {
  private fd: number | undefined;
  private buffer = '';

  constructor(
    readonly path: string,
    private readonly m: Messages,
  ) {}

  rejected(record: RejectedRecord): void {
    this.write(rejectLine(record, this.m));
  }

  apart(record: KeptApartRecord): void {
    this.write(apartLine(record, this.m));
  }

  /** Writes what is held and closes the file: its path, or undefined when there was nothing to write. */
  close(): string | undefined {
    if (this.fd === undefined) return undefined;
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
    return this.path;
  }

  private write(line: string): void {
    if (this.fd === undefined) {
      // DATA_DIR holds only the search index with PostgreSQL, and may not be there yet.
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.path, 'w');
    }
    this.buffer += `${line}\n`;
    if (this.buffer.length >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    if (this.fd !== undefined && this.buffer.length > 0) writeSync(this.fd, this.buffer);
    this.buffer = '';
  }
}

/** The details file's name in DATA_DIR. */
export const DETAILS_FILE_NAME = 'ingest-details.txt';
