/**
 * The import pipeline behind `paperscout ingest <file-or-dir-or-URL>...`: find the files (local,
 * or at an http(s) URL; gzip either way), recognize each one's format, stream its records through
 * a mapper and write them to the store in batches, one transaction a batch, so an interrupted
 * import leaves whole batches behind and a rerun finishes it.
 */
import type { CitationStore } from '../store/citations.js';
import type { KeptApart, PaperStore, PreparedRecord, UpsertOptions } from '../store/papers.js';
import type { PaperRecord } from '../papers/model.js';
import { detectFormat, planFile } from './detect.js';
import { describeFsError, listInputFiles } from './files.js';
import { InputError, isUrl, localInput, remoteInput, type Input, type Opened } from './inputs.js';
import { readJsonArray } from './jsonArray.js';
import { readJsonLines } from './jsonLines.js';
import { FormatError, type SourceItem } from './types.js';
import { WorksImport, emptyWorksSummary, type WorksSummary } from './works.js';

/** Records written per store transaction unless told otherwise. */
export const DEFAULT_BATCH_SIZE = 1000;
/** Rejected records described in a summary (and identifiers of records kept apart); all of them are counted. */
export const MAX_REJECT_DETAILS = 1000;

export interface IngestProgress {
  /** The file being read. */
  file: string;
  /** Bytes read so far over all files, and the size of all files together. */
  bytesDone: number;
  bytesTotal: number;
  /** Records read so far over all files, rejected ones included. */
  records: number;
}

export interface IngestDeps {
  store: PaperStore;
  classify: UpsertOptions['classify'];
  now?: () => Date;
  /** Hears about progress after every committed batch and at the end of every file. */
  onProgress?: (progress: IngestProgress) => void;
  /** Once aborted, the import commits the records it holds (less than a batch; with `prepareAhead`, also the batch handed on) and stops. */
  signal?: AbortSignal;
  /** Records written per transaction (default {@link DEFAULT_BATCH_SIZE}). */
  batchSize?: number;
  /** The User-Agent for files fetched from URLs. */
  userAgent?: string;
  /**
   * Prepares a batch's records elsewhere (another thread) while the next batch is read: what
   * `prepareRecord` gives with the topics `classify` gives, or undefined to leave it to the store.
   */
  prepareAhead?: (records: readonly PaperRecord[]) => Promise<PreparedRecord[] | undefined>;
  /** Hears of every rejected record and every record kept apart, as the import meets them (the summary keeps the first). */
  details?: IngestDetails;
  /** Where an OpenAlex works file's counts go; without it, such a file cannot be imported. */
  citations?: CitationStore;
  /** `--add`: the works of a works file that match no paper become papers. */
  addWorks?: boolean;
}

/** Where every rejected record and every record kept apart goes (`DetailsFile`), not only those a summary keeps. */
export interface IngestDetails {
  rejected(record: RejectedRecord): void;
  apart(record: KeptApartRecord): void;
}

/** A record that did not go in, and why. */
export interface RejectedRecord {
  file: string;
  /** 1-based line where the record starts. */
  line: number;
  /** 0-based index of the record in its file. */
  index: number;
  reason: string;
}

/**
 * A record that did not merge into the paper one of its identifiers names, as they differ (an
 * arXiv id, DOI or OpenReview id, or all they share is a link): a paper of its own instead.
 */
export type KeptApartRecord = Omit<RejectedRecord, 'reason'> & KeptApart;

/** The records kept apart over one shared identifier: how many, and the first. */
export interface ApartGroup {
  alias: string;
  records: number;
  first: KeptApartRecord;
}

export interface IngestSummary {
  /** Files read, including those that failed. */
  files: number;
  /** Records that became new papers. */
  added: number;
  /** Records of a paper the library had before the import, which they changed. */
  updated: number;
  /** Records of a paper the library had before the import, which they left as it was. */
  unchanged: number;
  /** Records of a paper an earlier record of this import added, changed or read: duplicates within the import. */
  merged: number;
  rejected: number;
  /** The first {@link MAX_REJECT_DETAILS} rejected records. */
  rejects: RejectedRecord[];
  /** Records kept apart from a paper that one of their identifiers names (counted in added, updated… too). */
  apart: number;
  /** The records kept apart, by the identifier they share, as first met (the first {@link MAX_REJECT_DETAILS} identifiers). */
  apartGroups: ApartGroup[];
  /** Files that could not be read at all, or stopped being readable part way. */
  failedFiles: Array<{ file: string; reason: string }>;
  /** Files read to their end without one record going in: empty, or every record rejected. */
  emptyFiles: Array<{ file: string; records: number }>;
  /** The signal stopped the import before every file was read. */
  aborted: boolean;
  /** What OpenAlex works files gave (`works.ts`), when the import read one. */
  works?: WorksSummary;
}

interface PendingRecord {
  record: PaperRecord;
  line: number;
  index: number;
}

/**
 * Imports every record of the files under `paths` (directories are walked recursively for
 * .json, .jsonl, .ndjson and .csv files). Bad records and unreadable files are reported in the
 * summary and the import carries on; only failures of the store or of `classify` throw.
 * @example
 * const summary = await ingestPaths(['corpus/paperlists'], { store, classify: taxonomy.classify });
 * console.log(formatSummary(summary)); // '95,652 records from 246 files: 95,126 added, 0 updated, 0 unchanged, 436 duplicates merged, 90 rejected…'
 */
export async function ingestPaths(paths: readonly string[], deps: IngestDeps): Promise<IngestSummary> {
  const summary: IngestSummary = {
    files: 0, added: 0, updated: 0, unchanged: 0, merged: 0, rejected: 0, rejects: [], apart: 0, apartGroups: [], failedFiles: [], emptyFiles: [], aborted: false,
  };
  const { files, problems } = await listInputFiles(paths.filter((p) => !isUrl(p)));
  summary.failedFiles.push(...problems);
  const inputs: Input[] = [
    ...files.map((file) => localInput(file.path, file.bytes)),
    ...[...new Set(paths.filter(isUrl))].map((url) => remoteInput(url, { ...(deps.userAgent && { userAgent: deps.userAgent }) })),
  ];
  const run = new Run(deps, summary, files.reduce((total, file) => total + file.bytes, 0));
  for (const input of inputs) {
    if (deps.signal?.aborted) {
      summary.aborted = true;
      break;
    }
    summary.files++;
    const outcome = await run.file(input);
    if (outcome === 'aborted') {
      summary.aborted = true;
      break;
    }
  }
  await run.drain();
  summary.emptyFiles.push(...run.emptyFiles());
  return summary;
}

/**
 * The inputs that gave nothing usable: files that could not be read (missing, unreadable, not
 * in a known format, cut short, a folder without a file to import) and files read without one
 * record going in. An import with any is not a success, whatever the others gave.
 * @example unusableInputs(await ingestPaths(['[1,2,3].json'], deps)) // 1
 */
export function unusableInputs(summary: Pick<IngestSummary, 'failedFiles' | 'emptyFiles'>): number {
  return summary.failedFiles.length + summary.emptyFiles.length;
}

/** The state of one import: where it is and what it has counted. */
class Run {
  private bytesBefore = 0;
  private records = 0;
  private readonly batchSize: number;
  /** The writes of the batches handed on so far, in order. */
  private pending: Promise<void> = Promise.resolve();
  /** The papers records of this import went into, by document number: a later record of one is a duplicate. */
  private readonly touched = new DocSet();
  private readonly apartGroups = new Map<string, ApartGroup>();
  /** Files read to their end, in order, with the records read in each. */
  private readonly readWhole = new Map<string, number>();
  /** Records that went in, by file. */
  private readonly used = new Map<string, number>();
  /** Files that failed: not counted as read to their end. */
  private readonly failed = new Set<string>();
  /** The works of the import's OpenAlex works files, once one is met. */
  private worksImport: WorksImport | undefined;

  constructor(
    private readonly deps: IngestDeps,
    private readonly summary: IngestSummary,
    /** Raw bytes of all inputs, remote ones counted once opened (0 while none is known). */
    private bytesTotal: number,
  ) {
    this.batchSize = Math.max(1, deps.batchSize ?? DEFAULT_BATCH_SIZE);
  }

  async file(input: Input): Promise<'done' | 'aborted'> {
    const path = input.name;
    let fileBytes = 0;
    let records = 0;
    const done = (outcome: 'done' | 'aborted') => {
      this.bytesBefore += input.bytes ?? fileBytes;
      if (outcome === 'done' && !this.failed.has(path)) this.readWhole.set(path, records);
      return outcome;
    };
    let opened: Opened;
    try {
      opened = await input.open((bytes) => (fileBytes += bytes), this.deps.signal);
    } catch (error) {
      if (error instanceof InputError) return done(this.fail(path, error.message));
      if (!isFsError(error)) throw error;
      return done(this.fail(path, describeFsError(error)));
    }
    if (input.bytes === undefined && opened.bytes !== undefined) {
      // A remote file's size is known once it answers: the total grows by it.
      input.bytes = opened.bytes;
      this.bytesTotal += opened.bytes;
    }
    const detection = detectFormat(input.fileName, opened.head);
    if (detection.kind === 'empty' || detection.kind === 'unknown' || (detection.kind === 'openalex-works' && !this.deps.citations)) {
      // Nothing more will be read: close the file or download now rather than when it is collected.
      await opened.close();
      if (detection.kind === 'openalex-works') return done(this.fail(path, 'an OpenAlex works file, whose counts go to the papers it matches: this library keeps no citations'));
      return done(detection.kind === 'empty' ? 'done' : this.fail(path, detection.reason));
    }
    if (detection.kind === 'openalex-works') {
      const outcome = await this.worksFile(path, opened, detection.container, () => (records += 1), () =>
        this.deps.onProgress?.({ file: path, bytesDone: this.bytesBefore + fileBytes, bytesTotal: this.bytesTotal, records: this.records }),
      );
      return done(outcome);
    }
    const plan = planFile(input.fileName, detection);
    const report = () =>
      this.deps.onProgress?.({ file: path, bytesDone: this.bytesBefore + fileBytes, bytesTotal: this.bytesTotal, records: this.records });
    const batch: PendingRecord[] = [];
    try {
      for await (const item of plan.read(opened.chunks)) {
        this.records++;
        records++;
        const mapped = item.error === undefined ? plan.map(item.value) : { ok: false as const, reason: item.error };
        if (mapped.ok) batch.push({ record: mapped.record, line: item.line, index: item.index });
        else this.reject(path, item, mapped.reason);
        if (batch.length >= this.batchSize) await this.queue(path, plan.source, batch.splice(0), report);
        if (this.deps.signal?.aborted) {
          if (batch.length > 0) await this.queue(path, plan.source, batch, report);
          await this.drain();
          return done('aborted');
        }
      }
    } catch (error) {
      // The records read before the file went bad are still good: write them below.
      if (error instanceof FormatError || error instanceof InputError) this.fail(path, error.message);
      else if (isFsError(error)) this.fail(path, describeFsError(error));
      else throw error;
    }
    await this.queue(path, plan.source, batch, report);
    return done('done');
  }

  /**
   * Reads an OpenAlex works file: its works are matched to the library's papers and give them
   * counts (works.ts), in batches; a line that is not a work is rejected as a record is.
   */
  private async worksFile(path: string, opened: Opened, container: 'json-array' | 'jsonl', counted: () => void, report: () => void): Promise<'done' | 'aborted'> {
    this.summary.works ??= emptyWorksSummary(this.deps.addWorks === true);
    this.worksImport ??= new WorksImport(
      { store: this.deps.store, citations: this.deps.citations!, classify: this.deps.classify, now: this.deps.now ?? (() => new Date()), add: this.deps.addWorks === true },
      this.summary.works,
      (item, file, reason) => this.reject(file, { line: item.line, index: item.index }, reason),
    );
    const works = this.worksImport;
    const before = this.summary.works.works;
    // Papers of the files before are written first: a work may be theirs.
    await this.drain();
    let read = 0;
    try {
      for await (const item of (container === 'jsonl' ? readJsonLines : readJsonArray)(opened.chunks)) {
        this.records++;
        counted();
        await works.push(path, item);
        if (++read % this.batchSize === 0) report();
        if (this.deps.signal?.aborted) {
          await works.flush();
          return 'aborted';
        }
      }
    } catch (error) {
      if (error instanceof InputError) this.fail(path, error.message);
      else if (isFsError(error)) this.fail(path, describeFsError(error));
      else throw error;
    } finally {
      if (this.summary.works.works > before) this.used.set(path, this.summary.works.works - before);
    }
    await works.flush();
    report();
    return 'done';
  }

  /**
   * Hands a batch on, to be written after the batches before it. With `prepareAhead` it is
   * prepared at once, on another thread, while the caller reads the next batch: this waits
   * only until the batch before it is written, so at most two batches are held (and an abort
   * still writes the one handed on). Without, it waits until this batch is written.
   */
  private async queue(file: string, source: string, batch: readonly PendingRecord[], report: () => void): Promise<void> {
    const ahead = this.deps.prepareAhead;
    const prepared = ahead && batch.length > 0 ? ahead(batch.map((item) => item.record)) : undefined;
    const before = this.pending;
    this.pending = before.then(async () => {
      await this.write(file, source, batch, await prepared);
      report();
    });
    // A failed write is thrown by the next queue() or drain(); this keeps it from counting as unhandled meanwhile.
    this.pending.catch(() => undefined);
    await (ahead ? before : this.pending);
  }

  /** Resolves once every batch handed on is written (rejects with a store failure). */
  drain(): Promise<void> {
    return this.pending;
  }

  /** The files read to their end without one record going in (once drained). */
  emptyFiles(): Array<{ file: string; records: number }> {
    return [...this.readWhole].filter(([file]) => !this.used.has(file)).map(([file, records]) => ({ file, records }));
  }

  /**
   * Writes a batch in one transaction, under one new generation when it changed anything. A
   * record the store refuses is rejected, not fatal.
   */
  private async write(file: string, source: string, batch: readonly PendingRecord[], prepared?: PreparedRecord[]): Promise<void> {
    if (batch.length === 0) return;
    const { store, classify } = this.deps;
    // Prepared ahead is the records as read; a record merged into a stored paper is classified here.
    const ahead = prepared && new Map<PaperRecord, PreparedRecord>(batch.map((item, i) => [item.record, prepared[i]!]));
    const options: UpsertOptions = { source, classify, now: this.deps.now?.() ?? new Date(), ...(ahead && { prepared: (record: PaperRecord) => ahead.get(record) }) };
    const results = await store.write((tx) => tx.upsertBatch(batch.map((item) => item.record), options));
    results.forEach((result, i) => {
      if ('refused' in result) return this.reject(file, batch[i]!, `store refused the record: ${result.refused}`);
      this.used.set(file, (this.used.get(file) ?? 0) + 1);
      if (result.apart) this.keptApart({ file, line: batch[i]!.line, index: batch[i]!.index, ...result.apart });
      if (this.touched.has(result.doc)) this.summary.merged++;
      else {
        this.touched.add(result.doc);
        this.summary[result.outcome]++;
      }
    });
  }

  private reject(file: string, item: Pick<SourceItem, 'line' | 'index'>, reason: string): void {
    const rejected = { file, line: item.line, index: item.index, reason };
    this.summary.rejected++;
    if (this.summary.rejects.length < MAX_REJECT_DETAILS) this.summary.rejects.push(rejected);
    this.deps.details?.rejected(rejected);
  }

  private keptApart(record: KeptApartRecord): void {
    this.summary.apart++;
    this.deps.details?.apart(record);
    const group = this.apartGroups.get(record.alias);
    if (group) group.records++;
    else if (this.apartGroups.size < MAX_REJECT_DETAILS) {
      const created = { alias: record.alias, records: 1, first: record };
      this.apartGroups.set(record.alias, created);
      this.summary.apartGroups.push(created);
    }
  }

  private fail(file: string, reason: string): 'done' {
    this.failed.add(file);
    this.summary.failedFiles.push({ file, reason });
    return 'done';
  }
}

/** A set of document numbers, one bit each: an import of millions of records holds a few hundred kilobytes. */
class DocSet {
  private bits = new Uint8Array(1 << 14);

  has(doc: number): boolean {
    const at = Math.floor(doc / 8);
    return at < this.bits.length && (this.bits[at]! & (1 << doc % 8)) !== 0;
  }

  add(doc: number): void {
    const at = Math.floor(doc / 8);
    if (at >= this.bits.length) {
      const grown = new Uint8Array(Math.max(at + 1, this.bits.length * 2));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[at]! |= 1 << doc % 8;
  }
}

/** An error from a file-system call (the file vanished, cannot be read, is a directory). */
function isFsError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}
