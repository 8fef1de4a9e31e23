/**
 * The arXiv backfill: `paperscout sync arxiv --from YYYY-MM-DD [--until …] [--categories …]`
 * harvests arXiv's OAI-PMH interface, one set (archive) at a time: `ListRecords` with
 * `metadataPrefix=arXiv`, then `resumptionToken` after `resumptionToken` until the list ends.
 *
 * Each page is stored in one transaction together with the harvest's state (token, cursor, the
 * latest datestamp stored), so a killed harvest resumes at its token; a token arXiv no longer
 * honours (`badResumptionToken`: they expire daily) restarts the list from the last datestamp
 * stored, never from the beginning. Records of none of the asked categories are left out, a
 * cross-listed paper is stored once, and a deleted record is removed from the library when
 * it holds it as an arXiv preprint. With the store's job leases, one process at a time harvests a
 * given list (two backfills of the same set and dates, on one machine or two, do not interleave).
 */
import type { Logger } from 'pino';
import type { PaperRecord } from '../../papers/model.js';
import type { HarvestStore } from '../../store/harvests.js';
import type { JobLeases } from '../../store/jobs.js';
import type { PaperStore, UpsertOptions } from '../../store/papers.js';
import type { Clock } from '../../clock.js';
import type { HttpRequest } from '../http.js';
import { runOncePerSlot } from '../jobs.js';
import { ArxivClient, ArxivFetchError, type ArxivClientOptions } from './client.js';
import { OaiPageError, oaiSetOf, parseListRecords, type OaiPage } from './oai.js';
import { oaiRecordToRecord } from './record.js';
import { MergeTally, type MergeCounts, type MergeSummary } from '../summary.js';

export interface HarvestDeps {
  store: PaperStore;
  harvests: HarvestStore;
  /** Leases, so that one process at a time harvests a list (none: no such check). */
  jobs?: JobLeases;
  classify: UpsertOptions['classify'];
  /** ARXIV_OAI_URL. */
  oaiUrl: string;
  http: HttpRequest;
  clock: Clock;
  log: Logger;
  /** Politeness settings; the defaults are what arXiv asks for. */
  politeness?: ArxivClientOptions;
}

export interface HarvestOptions {
  /** First datestamp, `YYYY-MM-DD`. */
  from: string;
  /** Last datestamp, `YYYY-MM-DD` (default: up to now). */
  until?: string;
  /** Categories to keep (`cs.LG`), or whole archives (`cs`). */
  categories: string[];
  /** Stops before the next request; pages already stored stay stored, and a rerun resumes. */
  signal?: AbortSignal;
  /** Hears about progress after every stored page. */
  onProgress?: (progress: HarvestProgress) => void;
  /** Re-requests of a page that came back unreadable before giving up on the set (default 2). */
  pageRetries?: number;
}

export interface HarvestProgress {
  set: string;
  /** Pages of the current list stored so far. */
  pages: number;
  /** Records of the current list read so far. */
  records: number;
  /** How many records the list holds, when arXiv says (it stopped saying in 2025). */
  completeListSize?: number;
  /** The latest datestamp stored. */
  datestamp?: string;
}

/** A record or page that was skipped, and where. */
export interface HarvestProblem {
  /** 1-based page of the list. */
  page: number;
  /** 0-based position in the page, when it is one record. */
  index?: number;
  id?: string;
  reason: string;
}

export interface SetSummary extends MergeCounts {
  set: string;
  /** How this run began: a new list, at a stored token, or again from a stored datestamp. */
  start: { kind: 'fresh' | 'token' | 'datestamp'; from: string };
  /** Pages stored in this run. */
  pages: number;
  /** Records read in this run: stored, left out, deleted and malformed ones together. */
  records: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Records of none of the asked categories. */
  outside: number;
  /** Cross-listed papers already stored from an earlier set of this run. */
  duplicates: number;
  /** Deleted records seen, and those removed from the library. */
  deleted: number;
  removed: number;
  skipped: HarvestProblem[];
  /** Lists begun again from a datestamp after arXiv refused a token. */
  restarts: Array<{ page: number; from: string; reason: string }>;
  completeListSize?: number;
  /** The list was read to its end. */
  done: boolean;
  /** Why the set stopped early; what was stored stays, and a rerun resumes. */
  error?: string;
}

export interface HarvestSummary extends MergeSummary {
  from: string;
  until?: string;
  categories: string[];
  sets: SetSummary[];
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  skipped: number;
  failed: Array<{ set: string; reason: string }>;
  /** Papers were added, changed or removed: the search index needs refreshing. */
  changed: boolean;
  aborted: boolean;
}

/** What is kept between runs, per harvest (command) and set. */
export interface OaiHarvestState {
  set: string;
  from: string;
  until?: string;
  categories: string[];
  /** The token of the next page, while the list is unfinished. */
  token?: string;
  cursor?: number;
  completeListSize?: number;
  /** The latest datestamp among the records stored. */
  datestamp?: string;
  pages: number;
  records: number;
  done: boolean;
  updatedAt: string;
}

/** The harvest store's source name for OAI harvests. */
export const OAI_SOURCE = 'arxiv-oai';
/** Times a list is begun again from its datestamp after a refused token, per run. */
const MAX_RESTARTS = 3;

/**
 * The key a harvest's state is kept under: the command's from, until and categories, and the set.
 * @example harvestKey({ from: '2024-01-01', categories: ['cs.LG', 'cs.CL'] }, 'cs') // 'arxiv-oai:cs:2024-01-01..:cs.CL,cs.LG'
 */
export function harvestKey(options: Pick<HarvestOptions, 'from' | 'until' | 'categories'>, set: string): string {
  return `${OAI_SOURCE}:${set}:${options.from}..${options.until ?? ''}:${[...options.categories].sort().join(',')}`;
}

/**
 * Harvests the sets of the asked categories into the store.
 * @example
 * const summary = await harvestArxiv({ store, harvests, classify, oaiUrl, http: fetchHttpGet(), clock: systemClock, log },
 *   { from: '2024-01-01', categories: ['cs.LG', 'cs.CL'] });
 */
export async function harvestArxiv(deps: HarvestDeps, options: HarvestOptions): Promise<HarvestSummary> {
  const client = new ArxivClient({ http: deps.http, clock: deps.clock, log: deps.log }, deps.politeness);
  const categories = [...new Set(options.categories)];
  const sets = [...new Set(categories.map(oaiSetOf))];
  const seen = new Set<string>();
  const merges = new MergeTally();
  const summary: HarvestSummary = {
    from: options.from,
    ...(options.until && { until: options.until }),
    categories,
    sets: [],
    added: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    skipped: 0,
    merged: 0,
    apart: 0,
    apartGroups: [],
    failed: [],
    changed: false,
    aborted: false,
  };
  for (const set of sets) {
    if (options.signal?.aborted) {
      summary.aborted = true;
      break;
    }
    const result = await harvestSet(deps, client, options, categories, set, { seen, merges });
    summary.sets.push(result);
    summary.added += result.added;
    summary.updated += result.updated;
    summary.unchanged += result.unchanged;
    summary.removed += result.removed;
    summary.skipped += result.skipped.length;
    if (result.error) summary.failed.push({ set, reason: result.error });
    if (options.signal?.aborted && !result.done) summary.aborted = true;
  }
  Object.assign(summary, merges.summary());
  summary.changed = summary.added + summary.updated + summary.removed > 0;
  return summary;
}

/**
 * One set's list, under a lease of its harvest key when the store has job leases: a list another
 * process is harvesting right now is left to it, and said so.
 */
async function harvestSet(deps: HarvestDeps, client: ArxivClient, options: HarvestOptions, categories: string[], set: string, run: HarvestRun): Promise<SetSummary> {
  const harvest = await SetHarvest.open(deps, client, options, categories, set, run);
  if (!deps.jobs) return harvest.run();
  let result: SetSummary | undefined;
  // Any time after the last run of this list is a new slot; the lease keeps a second one out meanwhile.
  const slot = deps.clock.now().toISOString();
  await runOncePerSlot({ jobs: deps.jobs, job: harvest.key }, slot, deps, async () => (result = await harvest.run()), options.signal);
  return (
    result ?? {
      ...harvest.summary,
      error: `another process is harvesting set ${set} with these dates and categories right now; what it stores stays, and running this command again after it has finished resumes from there`,
    }
  );
}

/** What the sets of one harvest share: the papers stored (a cross-listing is stored once) and the merges counted. */
interface HarvestRun {
  seen: Set<string>;
  merges: MergeTally;
}

/** One set's list, from wherever the stored state says, to its end. */
class SetHarvest {
  readonly key: string;
  private readonly wanted: (category: string) => boolean;
  private state: OaiHarvestState;
  private readonly result: SetSummary;

  /** The harvest of `set` as the stored state has it. */
  static async open(deps: HarvestDeps, client: ArxivClient, options: HarvestOptions, categories: string[], set: string, run: HarvestRun): Promise<SetHarvest> {
    const stored = (await deps.harvests.get<OaiHarvestState>(harvestKey(options, set)))?.state;
    return new SetHarvest(deps, client, options, categories, set, run, stored);
  }

  private constructor(
    private readonly deps: HarvestDeps,
    private readonly client: ArxivClient,
    private readonly options: HarvestOptions,
    categories: string[],
    private readonly set: string,
    private readonly shared: HarvestRun,
    stored: OaiHarvestState | undefined,
  ) {
    this.key = harvestKey(options, set);
    const exact = new Set(categories);
    const archives = categories.filter((c) => !c.includes('.'));
    this.wanted = (c) => exact.has(c) || archives.some((a) => c.startsWith(`${a}.`));
    const base = { set, from: options.from, ...(options.until && { until: options.until }), categories };
    let start: SetSummary['start'];
    if (stored?.token && !stored.done) {
      this.state = { ...stored, ...base };
      start = { kind: 'token', from: stored.datestamp ?? options.from };
    } else if (stored?.datestamp) {
      // A finished list, or one whose token is gone: again from the last datestamp stored.
      this.state = { ...base, datestamp: stored.datestamp, pages: 0, records: 0, done: false, updatedAt: stored.updatedAt };
      start = { kind: 'datestamp', from: stored.datestamp };
    } else {
      this.state = { ...base, pages: 0, records: 0, done: false, updatedAt: deps.clock.now().toISOString() };
      start = { kind: 'fresh', from: options.from };
    }
    this.result = {
      set, start, pages: 0, records: 0, added: 0, updated: 0, unchanged: 0, merged: 0, apart: 0, outside: 0, duplicates: 0, deleted: 0, removed: 0, skipped: [], restarts: [], done: false,
    };
  }

  /** The summary so far (nothing done yet before {@link run}). */
  get summary(): SetSummary {
    return this.result;
  }

  async run(): Promise<SetSummary> {
    const { log } = this.deps;
    const { signal } = this.options;
    let url = this.state.token ? this.tokenUrl(this.state.token) : this.listUrl(this.result.start.from);
    try {
      for (;;) {
        const page = await this.fetchPage(url);
        if (page.error) {
          const next = this.onError(page.error);
          if (next === undefined) break;
          url = next;
          continue;
        }
        const asked = this.state.token;
        await this.store(page);
        const token = page.token?.value;
        if (!token) {
          this.result.done = true;
          break;
        }
        if (token === asked) throw new OaiError('sameToken', `arXiv answered the resumption token ${token} with the same token again (set ${this.set}, page ${this.state.pages}); stopped so as not to loop`);
        if (signal?.aborted) break;
        url = this.tokenUrl(token);
      }
    } catch (error) {
      if (signal?.aborted && !(error instanceof ArxivFetchError || error instanceof OaiPageError)) return this.result;
      this.result.error = describe(error, this.set);
      log.warn({ err: error, set: this.set }, 'arXiv OAI harvest of a set stopped');
    }
    if (this.result.done) await this.save({ done: true });
    log.info({ set: this.set, ...counts(this.result) }, 'arXiv OAI set harvested');
    return this.result;
  }

  private listUrl(from: string): string {
    const params = new URLSearchParams({ verb: 'ListRecords', metadataPrefix: 'arXiv', set: this.set, from });
    if (this.options.until) params.set('until', this.options.until);
    return `${this.deps.oaiUrl}?${params}`;
  }

  private tokenUrl(token: string): string {
    return `${this.deps.oaiUrl}?${new URLSearchParams({ verb: 'ListRecords', resumptionToken: token })}`;
  }

  /** The next page, asked again (after a backoff) when it comes back unreadable. */
  private async fetchPage(url: string): Promise<OaiPage> {
    const retries = Math.max(0, this.options.pageRetries ?? 2);
    for (let attempt = 0; ; attempt++) {
      const body = await this.client.get(url, this.options.signal);
      try {
        return parseListRecords(body);
      } catch (error) {
        if (!(error instanceof OaiPageError)) throw error;
        const page = this.state.pages + 1;
        if (attempt >= retries) throw new OaiPageError(`page ${page} of set ${this.set}: ${error.message}; stopped here (run the same command again to resume)`);
        this.deps.log.warn({ set: this.set, page, attempt: attempt + 1, reason: error.message }, 'arXiv OAI page unreadable; asking again');
        await this.client.backoff(attempt + 1, this.options.signal);
      }
    }
  }

  /** What to ask next after an OAI error: a restart from the datestamp, or nothing (done or failed). */
  private onError(error: { code: string; message: string }): string | undefined {
    const page = this.state.pages + 1;
    if (error.code === 'noRecordsMatch') {
      this.result.done = true;
      return undefined;
    }
    if (error.code === 'badResumptionToken' && this.result.restarts.length < MAX_RESTARTS) {
      const from = this.state.datestamp ?? this.options.from;
      this.result.restarts.push({ page, from, reason: error.message || error.code });
      this.deps.log.warn({ set: this.set, page, from }, 'arXiv refused the resumption token (expired?): starting the list again from the last datestamp stored');
      this.state = { ...this.state, pages: 0, records: 0 };
      delete this.state.token;
      return this.listUrl(from);
    }
    throw new OaiError(error.code, `arXiv's OAI-PMH answered error ${error.code}${error.message ? `: ${error.message}` : ''} (set ${this.set}, page ${page})`);
  }

  /**
   * Writes a page's papers, removals and the harvest's new state in one transaction. What it
   * did is counted once the write has committed (the store may run a write again from the start
   * after a lost connection).
   */
  private async store(page: OaiPage): Promise<void> {
    const { store, classify, clock } = this.deps;
    const pageNo = this.state.pages + 1;
    const now = clock.now();
    const options: UpsertOptions = { source: 'arxiv', classify, now };
    const result = this.result;
    let datestamp = this.state.datestamp;
    const later = (d: string) => {
      if (d && (!datestamp || d > datestamp)) datestamp = d;
    };
    // What goes in is decided before the write: records of the asked categories, each paper once.
    const pending: Array<{ id: string; record: PaperRecord }> = [];
    const skipped: HarvestProblem[] = [];
    let outside = 0;
    let duplicates = 0;
    for (const record of page.records) {
      later(record.datestamp);
      if (!record.categories.some(this.wanted)) outside++;
      else if (this.shared.seen.has(record.id)) duplicates++;
      else {
        const mapped = oaiRecordToRecord(record);
        if (mapped.ok) pending.push({ id: record.id, record: mapped.record });
        else skipped.push({ page: pageNo, id: record.id, reason: mapped.reason });
      }
    }
    for (const gone of page.deleted) later(gone.datestamp);
    const next = this.nextState({
      pages: pageNo,
      records: this.state.records + page.size,
      ...(datestamp && { datestamp }),
      ...(page.token?.value ? { token: page.token.value } : { token: undefined }),
      cursor: page.token?.cursor,
      completeListSize: page.token?.completeListSize,
    });
    const written = await store.write(async (tx) => {
      // Whether the library held each paper under its arXiv id, to tell a merge into a paper held otherwise.
      const known = await Promise.all(pending.map(async (p) => (await tx.findByRef({ kind: 'arxiv', id: p.id })) !== undefined));
      const outcomes = await tx.upsertBatch(
        pending.map((p) => p.record),
        options,
      );
      let removed = 0;
      for (const gone of page.deleted) {
        const held = await tx.findByRef({ kind: 'arxiv', id: gone.id });
        // Only an arXiv preprint goes: a venue's paper that also had a preprint stays.
        if (held && held.venue === 'arXiv' && (await tx.remove(held.id))) removed++;
      }
      await tx.putHarvest(this.key, OAI_SOURCE, next, now);
      return { outcomes, removed, known };
    });
    this.state = next;
    written.outcomes.forEach((outcome, i) => {
      const { id } = pending[i]!;
      if ('refused' in outcome) {
        skipped.push({ page: pageNo, id, reason: `store refused the record: ${outcome.refused}` });
        return;
      }
      result[outcome.outcome]++;
      this.shared.merges.count(outcome, { known: written.known[i]!, name: `arXiv ${id}` }, result);
      this.shared.seen.add(id);
    });
    result.outside += outside;
    result.duplicates += duplicates;
    result.deleted += page.deleted.length;
    result.removed += written.removed;
    result.skipped.push(...skipped);
    for (const problem of page.problems) result.skipped.push({ page: pageNo, index: problem.index, ...(problem.id && { id: problem.id }), reason: problem.reason });
    result.pages++;
    result.records += page.size;
    if (page.token?.completeListSize !== undefined) result.completeListSize = page.token.completeListSize;
    this.options.onProgress?.({
      set: this.set,
      pages: this.state.pages,
      records: this.state.records,
      ...(this.state.completeListSize !== undefined && { completeListSize: this.state.completeListSize }),
      ...(this.state.datestamp && { datestamp: this.state.datestamp }),
    });
  }

  /** The state with `changes`, stamped now, without unset fields (and without a token once done). */
  private nextState(changes: Partial<OaiHarvestState>): OaiHarvestState {
    const next: OaiHarvestState = { ...this.state, ...changes, updatedAt: this.deps.clock.now().toISOString() };
    for (const key of Object.keys(next) as Array<keyof OaiHarvestState>) if (next[key] === undefined) delete next[key];
    if (next.done) delete next.token;
    return next;
  }

  /** Writes the state on its own (the list's end). */
  private async save(changes: Partial<OaiHarvestState>): Promise<void> {
    const next = this.nextState(changes);
    await this.deps.harvests.put(this.key, OAI_SOURCE, next, new Date(next.updatedAt));
    this.state = next;
  }
}

/** An OAI-PMH error the harvest cannot work around, reported by its code. */
export class OaiError extends Error {
  override readonly name = 'OaiError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function counts(r: SetSummary) {
  return { pages: r.pages, records: r.records, added: r.added, updated: r.updated, unchanged: r.unchanged, removed: r.removed, skipped: r.skipped.length, merged: r.merged, apart: r.apart };
}

function describe(error: unknown, set: string): string {
  if (error instanceof ArxivFetchError && error.status === 400) return `${error.message} (is "${set}" an arXiv archive?)`;
  return error instanceof Error ? error.message : String(error);
}
