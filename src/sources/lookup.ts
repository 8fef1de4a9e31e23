/**
 * Lookups of papers the library lacks: when `/paper`, a Slack mention or a Slack unfurl names
 * an arXiv id, a DOI or an OpenReview forum the store does not hold, fetch it from arXiv's API,
 * OpenAlex or OpenReview, add it to the library (so later searches, similar papers and digests
 * know it) and give it back at once. Each lookup has a deadline, so chat platforms get an
 * answer in time; an id a service does not know is remembered for a while, so a pasted bad
 * link does not hammer it. Built only when LOOKUP_UPSTREAM is on.
 */
import type { Logger } from 'pino';
import { networkReason } from '../causes.js';
import type { Config } from '../config.js';
import { msg, type Message } from '../i18n/index.js';
import type { PaperRef } from '../papers/ids.js';
import type { Paper, PaperRecord } from '../papers/model.js';
import type { PaperStore, UpsertOptions } from '../store/papers.js';
import { fetchApiPage } from './arxiv/api.js';
import { ArxivClient } from './arxiv/client.js';
import { entryToRecord } from './arxiv/record.js';
import type { Clock } from '../clock.js';
import { FetchError, PoliteClient, fetchHttp, type HttpRequest, type PoliteOptions } from './http.js';
import { OpenAlexError, parseWork, workToRecord } from './openalex/work.js';
import { OpenReviewClient } from './openreview/client.js';
import { noteToRecord } from './openreview/record.js';

/** How long a lookup may take in all, waiting for its turn at arXiv included. */
export const LOOKUP_TIMEOUT_MS = 10_000;
/** How long "no such paper" is remembered. */
export const MISS_TTL_MS = 10 * 60_000;
/** Few, quick retries: someone is waiting for the answer. */
const LOOKUP_POLITENESS: PoliteOptions = { maxAttempts: 2, backoffMs: 1000, maxRetryAfterMs: 5000 };

export type LookupOutcome =
  | { kind: 'found'; paper: Paper; doc: number; /** Fetched now (not already held). */ added: boolean; source: string }
  | { kind: 'missing'; message: Message }
  | { kind: 'failed'; message: Message };

/** What commands and adapters need: the paper a reference names, fetched when the library lacks it. */
export interface PaperLookup {
  find(ref: PaperRef, signal?: AbortSignal): Promise<LookupOutcome>;
}

export interface LookupDeps {
  store: PaperStore;
  classify: UpsertOptions['classify'];
  clock: Clock;
  log: Logger;
  config: Pick<Config, 'arxiv' | 'openreview' | 'lookup' | 'openalex' | 'userAgent'>;
  /** The network (default: fetch with Paper Scout's User-Agent). */
  http?: HttpRequest;
  timeoutMs?: number;
}

type Fetched = { record: PaperRecord; source: string } | { missing: Message };

/**
 * @example
 * const lookup = new UpstreamLookup({ store, classify, clock: systemClock, log, config });
 * const outcome = await lookup.find({ kind: 'arxiv', id: '1706.03762' });
 * if (outcome.kind === 'found') showPaper(ctx, outcome.doc);
 */
export class UpstreamLookup implements PaperLookup {
  private readonly arxiv: ArxivClient;
  private readonly openalex: PoliteClient;
  private readonly openreview: OpenReviewClient;
  private readonly misses = new Map<string, { until: number; message: Message }>();
  private readonly inflight = new Map<string, Promise<LookupOutcome>>();

  constructor(private readonly deps: LookupDeps) {
    const http = deps.http ?? fetchHttp({ userAgent: deps.config.userAgent, timeoutMs: deps.timeoutMs ?? LOOKUP_TIMEOUT_MS });
    const { clock, log, config } = deps;
    this.arxiv = new ArxivClient({ http, clock, log }, LOOKUP_POLITENESS);
    this.openalex = new PoliteClient({ http, clock, log, service: 'OpenAlex' }, { minIntervalMs: 100, ...LOOKUP_POLITENESS });
    this.openreview = new OpenReviewClient(
      { http, clock, log, apiUrl: config.openreview.apiUrl, ...(config.openreview.username && { username: config.openreview.username }), ...(config.openreview.password && { password: config.openreview.password }) },
      LOOKUP_POLITENESS,
    );
  }

  /** The paper `ref` names: from the store, else fetched and added. Throws only what the store throws (unreachable). */
  async find(ref: PaperRef, signal?: AbortSignal): Promise<LookupOutcome> {
    const held = await this.held(ref);
    if (held) return held;
    if (ref.kind === 'url') return { kind: 'missing', message: msg('lookup.notInLibrary', { id: ref.id }) };
    const key = `${ref.kind}:${ref.id}`;
    const miss = this.misses.get(key);
    if (miss && miss.until > this.deps.clock.now().getTime()) return { kind: 'missing', message: miss.message };
    let running = this.inflight.get(key);
    if (!running) {
      running = this.fetchAndStore(ref, key, signal).finally(() => this.inflight.delete(key));
      this.inflight.set(key, running);
    }
    return running;
  }

  private async held(ref: PaperRef): Promise<LookupOutcome | undefined> {
    const found = await this.deps.store.findByRef(ref);
    return found && { kind: 'found', paper: found.paper, doc: found.doc, added: false, source: 'library' };
  }

  private async fetchAndStore(ref: PaperRef, key: string, signal: AbortSignal | undefined): Promise<LookupOutcome> {
    const { log, clock } = this.deps;
    const deadline = AbortSignal.timeout(this.deps.timeoutMs ?? LOOKUP_TIMEOUT_MS);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const kind = ref.kind as Kind;
    let fetched: Fetched;
    try {
      fetched = await this.fetch(ref, combined);
    } catch (error) {
      if (error instanceof FetchError && error.status === 400) {
        return this.remember(key, { kind: 'missing', message: msg(`lookup.refused.${kind}`, { id: ref.id, detail: error.detail ?? error.message }) });
      }
      const timedOut = deadline.aborted || (error instanceof Error && error.name === 'TimeoutError');
      log.warn({ err: error, ref }, 'lookup of a missing paper failed');
      const seconds = (this.deps.timeoutMs ?? LOOKUP_TIMEOUT_MS) / 1000;
      const message = timedOut ? msg(`lookup.timeout.${kind}`, { id: ref.id, seconds }) : msg(`lookup.failed.${kind}`, { id: ref.id, reason: reason(error) });
      return { kind: 'failed', message };
    }
    if ('missing' in fetched) return this.remember(key, { kind: 'missing', message: fetched.missing });
    const { store, classify } = this.deps;
    const options: UpsertOptions = { source: fetched.source, classify, now: clock.now() };
    const [result] = await store.write((tx) => tx.upsertBatch([fetched.record], options));
    if (!result || 'refused' in result) {
      log.warn({ ref, reason: result?.refused }, 'the store refused a fetched paper');
      return { kind: 'failed', message: msg(`lookup.failed.${kind}`, { id: ref.id, reason: result?.refused ?? 'not stored' }) };
    }
    const stored = (await store.papersByIds([result.id])).get(result.id)!;
    log.info({ ref, id: result.id, source: fetched.source }, 'a missing paper was fetched and added to the library');
    return { kind: 'found', paper: stored.paper, doc: stored.doc, added: true, source: LABEL.get(fetched.source) ?? fetched.source };
  }

  private remember(key: string, outcome: Extract<LookupOutcome, { kind: 'missing' }>): LookupOutcome {
    this.misses.set(key, { until: this.deps.clock.now().getTime() + MISS_TTL_MS, message: outcome.message });
    if (this.misses.size > 10_000) this.misses.delete(this.misses.keys().next().value!);
    return outcome;
  }

  private fetch(ref: PaperRef, signal: AbortSignal): Promise<Fetched> {
    switch (ref.kind) {
      case 'arxiv':
        return this.fromArxiv(ref.id, signal);
      case 'doi':
        return this.fromOpenAlex(ref.id, signal);
      case 'openreview':
        return this.fromOpenReview(ref.id, signal);
      default:
        return Promise.resolve({ missing: msg('lookup.notInLibrary', { id: ref.id }) });
    }
  }

  private async fromArxiv(id: string, signal: AbortSignal): Promise<Fetched> {
    const url = `${this.deps.config.arxiv.apiUrl}?${new URLSearchParams({ id_list: id, max_results: '1' })}`;
    const missing = { missing: msg('lookup.notFound.arxiv', { id }) };
    let page;
    try {
      page = await fetchApiPage(this.arxiv, url, 0, { signal, retries: 1, emptyIsAnswer: true });
    } catch (error) {
      if (error instanceof FetchError && error.status === 404) return missing;
      throw error;
    }
    const entry = page.entries.find((e) => e.id === id);
    if (!entry) return missing;
    const mapped = entryToRecord(entry);
    return mapped.ok ? { record: mapped.record, source: 'arxiv' } : { missing: msg('lookup.unusable', { service: 'arXiv', id, reason: mapped.reason }) };
  }

  private async fromOpenAlex(doi: string, signal: AbortSignal): Promise<Fetched> {
    const { mailto } = this.deps.config.openalex;
    const query = mailto ? `?${new URLSearchParams({ mailto })}` : '';
    const url = `${this.deps.config.lookup.openalexUrl}/works/doi:${doi.split('/').map(encodeURIComponent).join('/')}${query}`;
    const { status, body } = await this.openalex.lookup(url, signal);
    if (status === 404) return { missing: msg('lookup.notFound.doi', { id: doi }) };
    const mapped = workToRecord(parseWork(body));
    return mapped.ok ? { record: mapped.record, source: 'openalex' } : { missing: msg('lookup.unusable', { service: 'OpenAlex', id: doi, reason: mapped.reason }) };
  }

  private async fromOpenReview(id: string, signal: AbortSignal): Promise<Fetched> {
    let page = await this.openreview.note(id, signal);
    let note = page.notes[0];
    if (note && note.forum !== note.id) {
      // A link to a review or comment: the paper is its forum.
      page = await this.openreview.note(note.forum, signal);
      note = page.notes[0];
    }
    if (!note) return { missing: msg('lookup.notFound.openreview', { id }) };
    const mapped = noteToRecord(note);
    return mapped.ok ? { record: mapped.record, source: 'openreview' } : { missing: msg('lookup.unusable', { service: 'OpenReview', id, reason: mapped.reason }) };
  }
}

/** The kinds of reference a service can look up. */
type Kind = 'arxiv' | 'doi' | 'openreview';
const LABEL: ReadonlyMap<string, string> = new Map(Object.entries({ arxiv: 'arXiv', openalex: 'OpenAlex', openreview: 'OpenReview' }));

function reason(error: unknown): string {
  if (error instanceof FetchError) return error.status !== undefined ? `HTTP ${error.status}` : error.message.replace(/^.*\(last: (.*)\)$/, '$1');
  if (error instanceof OpenAlexError) return error.message;
  return networkReason(error);
}
