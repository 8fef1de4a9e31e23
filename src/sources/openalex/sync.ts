/**
 * `paperscout sync openalex [--refresh]`, and the daily sync of `npm start`: each library paper
 * gets its OpenAlex work, `cited_by_count`, the works it references and the date fetched
 * (`store/citations.ts` keeps them and resolves links in the library).
 *
 * *Which papers.* The store's {@link CitationStore.toFetch} names them, in document order: those
 * never asked about; with `refresh`, also counts and misses older than {@link REFRESH_DAYS}
 * days. It is also the cursor that resumes a killed sync: every paper asked about gets a row
 * (its count, or the date of the miss) in the transaction of its batch, so the next run asks
 * only what was not answered yet.
 *
 * *How, per page of papers.* Papers matched before (a refresh) are asked for by their works'
 * ids, {@link OPENALEX_BATCH} in one request (`filter=openalex:W1|W2|…`). Papers with a DOI or an
 * arXiv id, by those (an arXiv id as arXiv's DOI `10.48550/arxiv.<id>`), up to 50 values a
 * request (`filter=doi:a|b|…`). The rest, and those the first two did not find but a paper
 * with a DOI (OpenAlex lacking the DOI lacks the paper), with one request each: the title as a
 * title search within a year of the paper's. Every work that comes back is
 * matched by the library's rule (`papers/matchWork.ts`: DOI, arXiv id, then title with the year
 * within one and agreeing authors); a title that fits two papers gives neither a count, and is
 * reported. A paper that was asked about and matched nothing is recorded as such
 * ({@link CitationStore.markUnmatched}), so it is not asked again every run.
 *
 * *Failures.* A request that cannot be made (OpenAlex down past the retries, a daily limit) stops
 * the sync: what was stored stays, no count is lost, and the next run resumes. A title query
 * OpenAlex refuses (400) skips that paper. With job leases, one process syncs at a time.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { OpenAlexConfig } from '../../config.js';
import { arxivDoi, normalizeArxivId, normalizeDoi } from '../../papers/ids.js';
import { matchWorks } from '../../papers/matchWork.js';
import type { Paper } from '../../papers/model.js';
import type { CitationEntry, CitationStore, FetchTarget } from '../../store/citations.js';
import type { JobLeases } from '../../store/jobs.js';
import type { PaperStore } from '../../store/papers.js';
import { FetchError, type HttpRequest, type PoliteOptions } from '../http.js';
import { runOncePerSlot } from '../jobs.js';
import { assignWorks, entryOf, type Assignment } from './assign.js';
import type { CitedWork } from './citedWork.js';
import { OPENALEX_BATCH, OpenAlexClient } from './client.js';
import { OpenAlexError } from './work.js';

/** Counts and misses older than this are asked again by a refresh. */
export const REFRESH_DAYS = 30;
/** Papers read from the store at a time. */
const PAGE = 500;
/** Papers asked by title between two writes: a kill loses at most their answers. */
const TITLE_GROUP = 50;
/** Works a title search reads: the paper is among the first few when OpenAlex has it. */
export const TITLE_RESULTS = 10;
/** Ambiguous works, refusals and skipped papers described in a summary; all are counted. */
export const MAX_DESCRIBED = 20;
/** The job lease a sync holds (the daily job's too): one process syncs at a time. */
export const OPENALEX_JOB = 'openalex-sync';
const DAY_MS = 86_400_000;

export interface OpenAlexSyncDeps {
  papers: PaperStore;
  citations: CitationStore;
  /** Leases, so that one process at a time syncs (none: no such check; the daily job holds its own). */
  jobs?: JobLeases;
  config: Pick<OpenAlexConfig, 'apiUrl' | 'mailto'>;
  http: HttpRequest;
  clock: Clock;
  log: Logger;
  /** Politeness; the defaults are what OpenAlex asks for. */
  politeness?: PoliteOptions;
}

export interface OpenAlexSyncOptions {
  /** Also ask again about counts and misses older than {@link REFRESH_DAYS} days. */
  refresh?: boolean;
  /** Stops before the next request; what was stored stays, and a rerun resumes. */
  signal?: AbortSignal;
  onProgress?: (progress: OpenAlexProgress) => void;
}

export interface OpenAlexProgress {
  asked: number;
  matched: number;
  requests: number;
}

/** A work the sync could not attach to one paper: its title fits several. */
export interface AmbiguityNote {
  work: string;
  title: string;
  /** The papers' ids. */
  papers: string[];
}

export interface OpenAlexSyncSummary {
  refresh: boolean;
  /** Papers asked about. */
  asked: number;
  /** Papers given a count (new or confirmed). */
  matched: number;
  /** Of those, papers whose count is new or changed. */
  countsChanged: number;
  /** Papers OpenAlex had no work for (recorded: not asked again before a refresh). */
  unmatched: number;
  /** Papers left without a count because what fits them could not be told apart. */
  ambiguous: number;
  /** Counts refused (negative, past 10 million, not whole, missing). */
  refused: number;
  /** HTTP requests made, retries included. */
  requests: number;
  /** How the papers were found: by their works' ids, their DOIs or arXiv ids, their titles. */
  by: { work: number; ids: number; title: number };
  ambiguities: AmbiguityNote[];
  refusals: Array<{ work: string; paper?: string; reason: string }>;
  /** Papers OpenAlex refused the query of (asked again at the next run). */
  skipped: Array<{ paper: string; reason: string }>;
  /** How many of each the lists above would hold without their limit ({@link MAX_DESCRIBED}). */
  noted: { ambiguities: number; refusals: number; skipped: number };
  /** Why the sync stopped early; what was stored stays, and a rerun resumes. */
  error?: string;
  aborted: boolean;
  /** Counts changed: the search index needs refreshing. */
  changed: boolean;
}

/**
 * Syncs the library's citation counts from OpenAlex.
 * @example
 * const summary = await syncOpenAlex({ papers, citations, jobs, config: config.openalex, http: fetchHttp({ userAgent }), clock: systemClock, log }, { refresh: true });
 */
export async function syncOpenAlex(deps: OpenAlexSyncDeps, options: OpenAlexSyncOptions = {}): Promise<OpenAlexSyncSummary> {
  const sync = new Sync(deps, options);
  if (!deps.jobs) return sync.run();
  const ran = await runOncePerSlot({ jobs: deps.jobs, job: OPENALEX_JOB }, deps.clock.now().toISOString(), deps, () => sync.run(), options.signal);
  if (!ran) sync.summary.error = 'another process is syncing citation counts from OpenAlex right now; what it stores stays, and running this command again after it has finished resumes from there';
  return sync.summary;
}

/** A paper being asked about. */
interface Asked {
  doc: number;
  paper: Paper;
  target: FetchTarget;
}

class Sync {
  readonly summary: OpenAlexSyncSummary;
  private readonly client: OpenAlexClient;
  private readonly cutoff: Date | undefined;
  /** Papers with ids held over from the page before, to fill a batch of {@link OPENALEX_BATCH}. */
  private waiting: Asked[] = [];

  constructor(
    private readonly deps: OpenAlexSyncDeps,
    private readonly options: OpenAlexSyncOptions,
  ) {
    this.client = new OpenAlexClient({ http: deps.http, clock: deps.clock, log: deps.log, apiUrl: deps.config.apiUrl, ...(deps.config.mailto && { mailto: deps.config.mailto }) }, deps.politeness);
    this.cutoff = options.refresh ? new Date(deps.clock.now().getTime() - REFRESH_DAYS * DAY_MS) : undefined;
    this.summary = {
      refresh: options.refresh === true, asked: 0, matched: 0, countsChanged: 0, unmatched: 0, ambiguous: 0, refused: 0, requests: 0,
      by: { work: 0, ids: 0, title: 0 }, ambiguities: [], refusals: [], skipped: [], noted: { ambiguities: 0, refusals: 0, skipped: 0 }, aborted: false, changed: false,
    };
  }

  async run(): Promise<OpenAlexSyncSummary> {
    const { citations, papers, log } = this.deps;
    let after = 0;
    try {
      for (;;) {
        if (this.options.signal?.aborted) break;
        const targets = await citations.toFetch({ afterDoc: after, limit: PAGE, ...(this.cutoff && { countsBefore: this.cutoff, unmatchedBefore: this.cutoff }) });
        if (targets.length === 0) break;
        after = targets.at(-1)!.doc;
        const held = await papers.papersByDocs(targets.map((t) => t.doc));
        const asked = targets.flatMap((target) => (held.has(target.doc) ? [{ doc: target.doc, paper: held.get(target.doc)!, target }] : []));
        await this.page(asked, targets.length < PAGE);
      }
      if (this.waiting.length > 0) await this.page([], true);
    } catch (error) {
      if (!(error instanceof FetchError || error instanceof OpenAlexError)) {
        if (!this.options.signal?.aborted) throw error;
      } else {
        this.summary.error = error.message;
        log.warn({ err: error, asked: this.summary.asked }, 'OpenAlex sync stopped; the next run resumes');
      }
    }
    this.summary.aborted = this.options.signal?.aborted === true && this.summary.error === undefined;
    this.summary.requests = this.client.requests;
    this.summary.changed = this.summary.countsChanged > 0;
    return this.summary;
  }

  /**
   * One page of papers: by work id, then by DOI or arXiv id, then by title, each stage passing on
   * what it did not find. Unless it is the `last`, a batch of ids short of 50 waits for the next
   * page's ({@link waiting}): a library whose DOIs are spread thin would otherwise spend a request
   * a page on a few of them. They are not stored yet, so a sync stopped meanwhile asks them again.
   */
  private async page(asked: Asked[], last: boolean): Promise<void> {
    const byWork = asked.filter((a) => a.target.openalex !== undefined);
    let rest = asked.filter((a) => a.target.openalex === undefined);
    for (let i = 0; i < byWork.length && !this.stopped(); i += OPENALEX_BATCH) rest.push(...(await this.byWorks(byWork.slice(i, i + OPENALEX_BATCH))));
    rest = [...this.waiting, ...rest].sort((a, b) => a.doc - b.doc);
    this.waiting = [];
    const withIds = rest.filter((a) => filterValues(a.paper).length > 0);
    const byTitle = rest.filter((a) => filterValues(a.paper).length === 0);
    const batches = idBatches(withIds);
    const short = batches.at(-1);
    if (!last && short && short.reduce((n, a) => n + filterValues(a.paper).length, 0) < OPENALEX_BATCH && short.every((a) => filterValues(a.paper).every(filterSafe))) this.waiting = batches.pop()!;
    for (const batch of batches) {
      if (this.stopped()) return;
      const { notFound, unasked } = await this.byIds(batch);
      // A DOI is the paper's identity: OpenAlex lacking it lacks the paper (a refresh asks again). An
      // arXiv id is not: OpenAlex files a preprint under its published version's DOI, found by title.
      const [missed, arxivOnly] = partition(notFound, (a) => hasDoi(a.paper));
      if (missed.length > 0) await this.write(missed, { entries: [], refused: [], ambiguous: [], unmatched: [] }, 'ids', new Set());
      byTitle.push(...arxivOnly, ...unasked);
    }
    for (let i = 0; i < byTitle.length && !this.stopped(); i += TITLE_GROUP) await this.byTitles(byTitle.slice(i, i + TITLE_GROUP));
  }

  /** Papers matched before, asked for by their works' ids; resolves those OpenAlex did not give back. */
  private async byWorks(batch: Asked[]): Promise<Asked[]> {
    const ids = [...new Set(batch.map((a) => a.target.openalex!))];
    const { works } = await this.client.list({ filter: `openalex:${ids.join('|')}`, perPage: OPENALEX_BATCH, allPages: true }, this.options.signal);
    const byId = new Map(works.map((w) => [w.id, w]));
    const found = batch.filter((a) => byId.has(a.target.openalex!));
    const entries: CitationEntry[] = [];
    const refused: Assignment['refused'] = [];
    const now = this.deps.clock.now();
    for (const a of found) {
      const work = byId.get(a.target.openalex!)!;
      if (work.count === undefined) refused.push({ work, doc: a.doc, reason: work.refused ?? 'no count' });
      else entries.push(entryOf(a.doc, work, now));
    }
    await this.write(found, { entries, refused, ambiguous: [], unmatched: [] }, 'work', new Set());
    return batch.filter((a) => !byId.has(a.target.openalex!));
  }

  /** Papers asked for by their DOIs and arXiv ids, up to 50 values a request; resolves those not found, and those OpenAlex would not take. */
  private async byIds(batch: Asked[]): Promise<{ notFound: Asked[]; unasked: Asked[] }> {
    const values = [...new Set(batch.flatMap((a) => filterValues(a.paper)))];
    let works: CitedWork[];
    try {
      works = values.every(filterSafe)
        ? (await this.client.list({ filter: `doi:${values.join('|')}`, perPage: OPENALEX_BATCH, allPages: true }, this.options.signal)).works
        : await this.singles(values);
    } catch (error) {
      if (!(error instanceof FetchError && error.status === 400)) throw error;
      // A DOI OpenAlex cannot take in a filter: the papers are asked by title instead.
      this.deps.log.warn({ values, reason: error.message }, 'OpenAlex refused a batch of DOIs; asking for those papers by title');
      return { notFound: [], unasked: batch };
    }
    const assignment = await this.assign(works);
    const found = new Set([...assignment.entries.map((e) => e.doc), ...assignment.ambiguous.flatMap((x) => x.docs), ...assignment.refused.flatMap((r) => (r.doc === undefined ? [] : [r.doc]))]);
    const missing = new Set(batch.map((a) => a.doc).filter((doc) => !found.has(doc)));
    const settled = batch.filter((a) => !missing.has(a.doc));
    await this.write(settled, assignment, 'ids', new Set());
    return { notFound: batch.filter((a) => missing.has(a.doc)), unasked: [] };
  }

  /** Papers asked for by title, one request each; every paper of the group is settled by one write. */
  private async byTitles(group: Asked[]): Promise<void> {
    const works: CitedWork[] = [];
    const skipped = new Set<number>();
    const answered: Asked[] = [];
    for (const a of group) {
      if (this.stopped()) break;
      const query = titleQuery(a.paper);
      try {
        if (query) works.push(...(await this.client.list(query, this.options.signal)).works);
        answered.push(a);
      } catch (error) {
        if (!(error instanceof FetchError && error.status === 400)) {
          await this.write(answered, await this.assign(works), 'title', skipped);
          throw error;
        }
        skipped.add(a.doc);
        answered.push(a);
        this.note('skipped', { paper: a.paper.id, reason: error.detail ?? error.message });
      }
    }
    await this.write(answered, await this.assign(works), 'title', skipped);
  }

  /** Works asked for one DOI at a time (`/works/doi:…`): a paper whose DOI a filter cannot carry. */
  private async singles(values: string[]): Promise<CitedWork[]> {
    const works: CitedWork[] = [];
    for (const value of values) {
      const work = await this.client.work(`doi:${value}`, this.options.signal);
      if (work) works.push(work);
    }
    return works;
  }

  private async assign(works: CitedWork[]): Promise<Assignment> {
    const matches = await matchWorks(works, this.deps.papers);
    return assignWorks(works, matches, this.deps.clock.now());
  }

  /**
   * Writes what a stage learned of the papers it settles (`asked`): their counts in one
   * transaction, then the misses. A paper left without a count because its count was refused,
   * or its query was (`skipped`), is not recorded, so the next run asks again.
   */
  private async write(asked: Asked[], assignment: Assignment, stage: keyof OpenAlexSyncSummary['by'], skipped: ReadonlySet<number>): Promise<void> {
    const docs = new Set(asked.map((a) => a.doc));
    const ids = new Map(asked.map((a) => [a.doc, a.paper.id]));
    const entries = assignment.entries.filter((e) => docs.has(e.doc));
    const written = entries.length > 0 ? await this.deps.citations.put(entries) : undefined;
    const refusedDocs = new Set(written?.refused.map((r) => r.doc));
    for (const r of written?.refused ?? []) this.note('refusals', { work: entries.find((e) => e.doc === r.doc)?.openalex ?? '', paper: ids.get(r.doc), reason: r.reason });
    for (const r of assignment.refused) {
      if (r.doc === undefined || !docs.has(r.doc)) continue;
      refusedDocs.add(r.doc);
      this.note('refusals', { work: r.work.id, paper: ids.get(r.doc), reason: r.reason });
    }
    const matched = new Set(entries.map((e) => e.doc).filter((doc) => !written?.refused.some((r) => r.doc === doc)));
    const ambiguous = new Set<number>();
    for (const x of assignment.ambiguous) {
      const mine = x.docs.filter((doc) => docs.has(doc) && !matched.has(doc));
      if (mine.length === 0) continue;
      mine.forEach((doc) => ambiguous.add(doc));
      this.note('ambiguities', { work: x.work.id, title: x.work.title, papers: x.docs.map((doc) => ids.get(doc) ?? `#${doc}`) });
    }
    const misses = [...docs].filter((doc) => !matched.has(doc) && !refusedDocs.has(doc) && !skipped.has(doc));
    if (misses.length > 0) await this.deps.citations.markUnmatched(misses, this.deps.clock.now());
    const refusedCount = [...refusedDocs].filter((doc) => !matched.has(doc)).length;
    this.summary.asked += docs.size;
    this.summary.matched += matched.size;
    this.summary.countsChanged += written?.countsChanged.length ?? 0;
    this.summary.ambiguous += [...ambiguous].filter((doc) => !refusedDocs.has(doc)).length;
    this.summary.unmatched += misses.filter((doc) => !ambiguous.has(doc)).length;
    this.summary.refused += refusedCount;
    this.summary.by[stage] += matched.size;
    this.options.onProgress?.({ asked: this.summary.asked, matched: this.summary.matched, requests: this.client.requests });
  }

  private note<K extends keyof OpenAlexSyncSummary['noted']>(list: K, item: OpenAlexSyncSummary[K][number]): void {
    this.summary.noted[list]++;
    const items = this.summary[list] as Array<typeof item>;
    if (items.length < MAX_DESCRIBED) items.push(item);
  }

  private stopped(): boolean {
    return this.options.signal?.aborted === true;
  }
}

/**
 * The values a paper is asked for by in a `doi:` filter: its DOI, and its arXiv id as arXiv's DOI.
 * @example filterValues({ externalIds: { arxiv: '1706.03762' } } as Paper) // ['10.48550/arxiv.1706.03762']
 */
export function filterValues(paper: Pick<Paper, 'externalIds'>): string[] {
  const doi = paper.externalIds.doi ? normalizeDoi(paper.externalIds.doi) : undefined;
  const arxiv = paper.externalIds.arxiv ? normalizeArxivId(paper.externalIds.arxiv) : undefined;
  return [...new Set([doi, arxiv && arxivDoi(arxiv)].filter((v): v is string => typeof v === 'string'))];
}

function hasDoi(paper: Pick<Paper, 'externalIds'>): boolean {
  return paper.externalIds.doi !== undefined && normalizeDoi(paper.externalIds.doi) !== undefined;
}

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

/** Whether a DOI can stand in a filter: `,` separates filters and `|` values. */
function filterSafe(value: string): boolean {
  return !/[,|]/.test(value);
}

/**
 * Papers in batches whose filter values number at most {@link OPENALEX_BATCH}; a paper whose DOI
 * a filter cannot carry is a batch of its own (asked as a single work).
 */
function idBatches(papers: Asked[]): Asked[][] {
  const batches: Asked[][] = [];
  let batch: Asked[] = [];
  let size = 0;
  for (const a of papers) {
    const values = filterValues(a.paper);
    if (!values.every(filterSafe)) {
      batches.push([a]);
      continue;
    }
    if (size + values.length > OPENALEX_BATCH) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(a);
    size += values.length;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** Most characters of a title searched for: the words after them add little. */
const MAX_TITLE_QUERY = 250;

/**
 * The title search a paper is asked by: its title's words (lowercase, so no word reads as an
 * operator; punctuation, which filters use as syntax, as spaces), within a year of its year;
 * none for a title without a letter or digit.
 * @example titleQuery({ title: 'Attention Is All You Need', year: 2017 } as Paper).filter
 * // 'title.search:attention is all you need,from_publication_date:2016-01-01,to_publication_date:2018-12-31'
 */
export function titleQuery(paper: Pick<Paper, 'title' | 'year'>): { filter: string; perPage: number } | undefined {
  const words = paper.title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim().slice(0, MAX_TITLE_QUERY).trim();
  if (words === '') return undefined;
  const years = paper.year ? `,from_publication_date:${paper.year - 1}-01-01,to_publication_date:${paper.year + 1}-12-31` : '';
  return { filter: `title.search:${words}${years}`, perPage: TITLE_RESULTS };
}
