/**
 * Importing an OpenAlex works file (`paperscout ingest works.jsonl.gz [--add]`): how a big
 * library gets its citation counts in minutes instead of hours of requests. Each work is
 * matched to the library's papers by the rule a sync uses (`papers/matchWork.ts`: DOI, arXiv id,
 * then title with the year within one and agreeing authors) and gives the paper it matches its
 * work, count and references (`sources/openalex/assign.ts`: a paper several works match takes
 * the most cited, over the whole file). A work that matches nothing adds nothing, unless `--add`:
 * then it becomes a paper through the record path every import takes (which knows a paper the
 * library holds by its ids, or by title, year and authors, and merges into it). A work whose
 * title fits several papers gives none a count; a count that cannot be believed is refused;
 * both are reported with the file and line.
 *
 * Streamed in batches of {@link WORKS_BATCH} lines: one store read to match a batch, one
 * transaction for its counts. What is kept across batches is a count per document (4 bytes a
 * paper), whatever the file's size.
 */
import { matchWorks } from '../papers/matchWork.js';
import type { CitationEntry, CitationStore } from '../store/citations.js';
import type { PaperStore, UpsertOptions } from '../store/papers.js';
import { assignWorks, entryOf } from '../sources/openalex/assign.js';
import { citedWorkOf, type CitedWork } from '../sources/openalex/citedWork.js';
import { OpenAlexError, workOf, workToRecord } from '../sources/openalex/work.js';
import type { SourceItem } from './types.js';

/** Works matched per store read and written per transaction. */
export const WORKS_BATCH = 1000;
/** Ambiguous works and refused counts described in a summary; all are counted. */
export const MAX_WORK_NOTES = 1000;

/** Where a work is in its file. */
export interface WorkPlace {
  file: string;
  /** 1-based line. */
  line: number;
}

export interface WorksSummary {
  /** Works read (lines that are not works are rejected records, not counted here). */
  works: number;
  /** Works whose count went to a paper of the library (with `--add`, also those the record path merged into one). */
  matched: number;
  /** Papers whose count is new or changed. */
  countsChanged: number;
  /** Works that match no paper (with `--add`: that the record path refused too). */
  unmatched: number;
  /** Works whose title fits several papers equally well: no count given. */
  ambiguous: number;
  /** Counts refused (negative, past 10 million, not whole, missing). */
  refused: number;
  /** With `--add`: works that became new papers. */
  added: number;
  /** Lines of works files that are not works (counted in the import's rejected records too). */
  rejected: number;
  /** Whether `--add` was given. */
  adding: boolean;
  ambiguities: Array<WorkPlace & { work: string; title: string; papers: string[] }>;
  refusals: Array<WorkPlace & { work: string; reason: string }>;
}

export function emptyWorksSummary(adding: boolean): WorksSummary {
  return { works: 0, matched: 0, countsChanged: 0, unmatched: 0, ambiguous: 0, refused: 0, added: 0, rejected: 0, adding, ambiguities: [], refusals: [] };
}

export interface WorksDeps {
  store: PaperStore;
  citations: CitationStore;
  classify: UpsertOptions['classify'];
  now: () => Date;
  /** `--add`: works that match no paper become papers. */
  add: boolean;
}

interface Pending {
  work: CitedWork;
  raw: unknown;
  place: WorkPlace;
}

/**
 * The works of one import (all its works files): fed item by item, written a batch at a time.
 * @example
 * const works = new WorksImport(deps, summary.works, (place, reason) => reject(place, reason));
 * for await (const item of readJsonLines(chunks)) await works.push(file, item);
 * await works.flush();
 */
export class WorksImport {
  private batch: Pending[] = [];
  /** The count each paper got from this import so far (count + 1; 0: none): the most cited work wins over the file. */
  private given = new Uint32Array(1 << 12);

  constructor(
    private readonly deps: WorksDeps,
    private readonly summary: WorksSummary,
    /** Hears of a line that is not a work, or a work the record path refused. */
    private readonly reject: (item: Pick<SourceItem, 'line' | 'index'>, file: string, reason: string) => void,
  ) {}

  /** Takes one line of a works file; writes the batch when it is full. */
  async push(file: string, item: SourceItem): Promise<void> {
    if (item.error !== undefined) return this.notAWork(item, file, item.error);
    let work: CitedWork;
    try {
      work = citedWorkOf(item.value);
    } catch (error) {
      if (!(error instanceof OpenAlexError)) throw error;
      return this.notAWork(item, file, error.message);
    }
    this.summary.works++;
    this.batch.push({ work, raw: this.deps.add ? item.value : undefined, place: { file, line: item.line } });
    if (this.batch.length >= WORKS_BATCH) await this.flush();
  }

  /** Matches and writes the works held. */
  async flush(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0) return;
    const { store, citations, now } = this.deps;
    const fetched = now();
    const works = batch.map((p) => p.work);
    const placeOf = new Map(batch.map((p) => [p.work, p]));
    const assignment = assignWorks(works, await matchWorks(works, store), fetched);
    const entries = assignment.entries.filter((e) => this.better(e));
    this.summary.matched += works.length - assignment.unmatched.length - assignment.ambiguous.length - assignment.refused.length;
    for (const x of assignment.ambiguous) {
      this.summary.ambiguous++;
      if (this.summary.ambiguities.length < MAX_WORK_NOTES) {
        const papers = await store.papersByDocs(x.docs);
        this.summary.ambiguities.push({ ...placeOf.get(x.work)!.place, work: x.work.id, title: x.work.title, papers: x.docs.map((doc) => papers.get(doc)?.id ?? `#${doc}`) });
      }
    }
    const refused = [...assignment.refused];
    if (this.deps.add) entries.push(...(await this.add(assignment.unmatched.map((w) => placeOf.get(w)!), fetched, refused)));
    else this.summary.unmatched += assignment.unmatched.length;
    for (const r of refused) this.refuse(placeOf.get(r.work)!.place, r.work.id, r.reason);
    if (entries.length === 0) return;
    const written = await citations.put(entries);
    this.summary.countsChanged += written.countsChanged.length;
    for (const r of written.refused) {
      const entry = entries.find((e) => e.doc === r.doc);
      const work = works.find((w) => w.id === entry?.openalex);
      this.refuse(work ? placeOf.get(work)!.place : { file: '', line: 0 }, entry?.openalex ?? '', r.reason);
    }
  }

  /** `--add`: the works that matched nothing, as papers through the record path; their entries. */
  private async add(unmatched: Pending[], fetched: Date, refused: Array<{ work: CitedWork; reason: string }>): Promise<CitationEntry[]> {
    const mapped = unmatched.flatMap((p) => {
      const result = workToRecord(workOf(p.raw));
      if (result.ok) return [{ pending: p, record: result.record }];
      this.summary.unmatched++;
      this.reject({ line: p.place.line, index: p.place.line - 1 }, p.place.file, result.reason);
      return [];
    });
    if (mapped.length === 0) return [];
    const { store, classify } = this.deps;
    const results = await store.write((tx) => tx.upsertBatch(mapped.map((m) => m.record), { source: 'openalex', classify, now: fetched }));
    const entries: CitationEntry[] = [];
    results.forEach((result, i) => {
      const { pending } = mapped[i]!;
      if ('refused' in result) {
        this.summary.unmatched++;
        this.reject({ line: pending.place.line, index: pending.place.line - 1 }, pending.place.file, `store refused the record: ${result.refused}`);
        return;
      }
      if (result.outcome === 'added') this.summary.added++;
      else this.summary.matched++;
      if (pending.work.count === undefined) refused.push({ work: pending.work, reason: pending.work.refused ?? 'no count' });
      else {
        const entry = entryOf(result.doc, pending.work, fetched);
        if (this.better(entry)) entries.push(entry);
      }
    });
    return entries;
  }

  /** Whether an entry's count beats what this import gave its paper so far; if so, it is noted as given. */
  private better(entry: CitationEntry): boolean {
    const { doc, count } = entry;
    if (doc >= this.given.length) {
      const grown = new Uint32Array(Math.max(doc + 1, this.given.length * 2));
      grown.set(this.given);
      this.given = grown;
    }
    const before = this.given[doc]!;
    if (before !== 0 && before - 1 >= count) return false;
    this.given[doc] = count + 1;
    return true;
  }

  private notAWork(item: Pick<SourceItem, 'line' | 'index'>, file: string, reason: string): void {
    this.summary.rejected++;
    this.reject(item, file, reason);
  }

  private refuse(place: WorkPlace, work: string, reason: string): void {
    this.summary.refused++;
    if (this.summary.refusals.length < MAX_WORK_NOTES) this.summary.refusals.push({ ...place, work, reason });
  }
}
