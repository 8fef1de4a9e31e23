/**
 * The live index: the search engine over an index that follows the store. It is a snapshot
 * (mapped) plus delta segments built from what the store changed since, searched as one (see
 * docs/design.md, "Segments"); callers see the engine's surface (search, suggest, sizes) and
 * never a segment. It catches up with the store in slices that leave the event loop free, lets a
 * command wait briefly for papers added a moment ago, and swaps in a snapshot another process
 * merged. What happens when there is no snapshot it can serve is its {@link RebuildPolicy}'s
 * answer: rebuilt here, or by another process while searches say so.
 */
import type { Logger } from 'pino';
import { SearchEngine, type SearchOptions, type SearchResult, type Suggestion } from './engine.js';
import type { TopicResolver } from './filter.js';
import { catchUp, catchUpNow, damagedLine, isStale, learnMeaning, loadSnapshot, mergeThreshold, openIndex, snapshotGeneration, type IndexSource } from './indexFile.js';
import { verifySnapshot } from './index/format.js';
import { IndexView } from './index/view.js';
import type { RebuildPolicy } from './rebuildPolicy.js';
import { searchWithRefs } from './refs.js';
import { indexStats, topicCounts, type IndexStats } from './stats.js';

export interface LiveIndexOptions {
  /** The store followed, and the taxonomy the index's topic bits are for. */
  source: IndexSource;
  /** Where the snapshot lives; undefined keeps the index in memory only (always built here). */
  path?: string;
  /** What happens while there is no snapshot that can be served. */
  rebuild: RebuildPolicy;
  /** Reads the name in a `topic:` filter. */
  resolveTopic: TopicResolver;
  log: Logger;
}

/** A command waits for a catch-up of at most this many changed papers (1,000 take ~0.3 s at 1M)… */
const COMMAND_WAIT_ROWS = 2_000;
/** …and for at most this long, well inside the platforms' 3 s to answer. */
const COMMAND_WAIT_MS = 1_000;

export class LiveIndex {
  private engine: SearchEngine | undefined;
  private catching: Promise<boolean> | undefined;
  /** Commands waiting for the index to reach a store generation (see catchUpForCommand). */
  private readonly generationWaiters = new Set<{ generation: number; resolve: () => void }>();
  /** The store's generation when last read (see {@link checkStore}). */
  private storeGeneration = 0;

  constructor(private readonly options: LiveIndexOptions) {}

  /**
   * Loads the index: the snapshot (mapped) and a delta of what the store changed since; without
   * a snapshot it can serve, what the rebuild policy says (built now, or none until another
   * process has written one: see {@link ready}).
   * @example await index.open(); index.ready // true
   */
  async open(): Promise<void> {
    await this.checkStore();
    await this.load('open');
  }

  /**
   * Brings the index up to date at once: swaps in a newer snapshot if another process wrote one,
   * then folds in what the store changed since as a delta. Without an index, it tries again as
   * the rebuild policy says (the serving bot only takes a snapshot someone else saved). Returns
   * whether the index changed.
   */
  async refresh(): Promise<boolean> {
    // One catch-up at a time: a sliced one under way finishes first.
    await this.catching?.catch(() => undefined);
    await this.checkStore();
    if (!this.engine) return this.load('retry');
    const swapped = await this.swapToNewerSnapshot();
    return (await catchUpNow(this.engine.view, this.store)) || swapped;
  }

  /**
   * Brings the index up to date without blocking the event loop for long: the store's changes
   * since the index's generation become a small delta segment, built in slices. What a running
   * bot calls before a command when the store has moved on, and every few seconds (and at once
   * when PostgreSQL announces a write). Returns whether the index changed.
   */
  catchUp(): Promise<boolean> {
    if (!this.catching) {
      const run = this.runCatchUp();
      this.catching = run;
      const clear = () => {
        if (this.catching === run) this.catching = undefined;
      };
      run.then(clear, clear);
    }
    return this.catching;
  }

  /**
   * What a command does first: when the store has moved on, starts a catch-up, and waits for it
   * only while the change is small ({@link COMMAND_WAIT_ROWS} papers, at most
   * {@link COMMAND_WAIT_MS}): papers added a moment ago (a lookup, a sync, a small import) are
   * found by the next command, while a large import in another process, whose catch-up runs
   * for as long as it writes, never holds a command up.
   */
  async catchUpForCommand(): Promise<void> {
    const view = this.engine?.view;
    if (!view || !(await this.checkStore())) return;
    const small = (await this.store.countChanged(view.generation, COMMAND_WAIT_ROWS + 1)) <= COMMAND_WAIT_ROWS;
    this.catchUp().catch((err: unknown) => this.options.log.warn({ err }, 'search index catch-up failed; answering from the index as it is'));
    if (!small) return;
    // Until the index holds what the store held when the command came (not for as long as
    // another process keeps writing), and never longer than COMMAND_WAIT_MS.
    const waiter = { generation: this.storeGeneration, resolve: () => undefined as void };
    let timer: NodeJS.Timeout | undefined;
    const reached = new Promise<void>((resolve) => {
      waiter.resolve = resolve;
      timer = setTimeout(resolve, COMMAND_WAIT_MS);
    });
    this.generationWaiters.add(waiter);
    try {
      await reached;
    } finally {
      clearTimeout(timer);
      this.generationWaiters.delete(waiter);
    }
  }

  /**
   * Checks the whole snapshot in the background (every checksum, every document number; ~0.3 s
   * of reads at 1M papers, in pieces): resolves the problem found, or undefined.
   */
  async verify(): Promise<string | undefined> {
    const path = this.options.path;
    if (!path || !this.engine) return undefined;
    return verifySnapshot(path);
  }

  /** Loads the snapshot on disk in place of the one in use (after a rebuild of a damaged one). */
  reload(): Promise<boolean> {
    return this.swapToNewerSnapshot(true);
  }

  /**
   * Whether the store had papers the index does not reflect yet (or there is no index), as of
   * the last {@link checkStore}.
   */
  get stale(): boolean {
    return !this.engine || isStale(this.engine.view, this.storeGeneration);
  }

  /** The store's generation as last read. */
  get knownStoreGeneration(): number {
    return this.storeGeneration;
  }

  /** Reads the store's generation; resolves whether the index is behind it ({@link stale}). */
  async checkStore(): Promise<boolean> {
    this.storeGeneration = await this.store.generation();
    return this.stale;
  }

  /** Whether there is an index to search; false while the serving bot waits for a rebuild. */
  get ready(): boolean {
    return this.engine !== undefined;
  }

  /** Whether the index's deltas have grown enough to be merged into a new snapshot (or it is far behind). */
  async needsMerge(): Promise<boolean> {
    const view = this.engine?.view;
    if (!view || this.options.path === undefined) return false;
    const threshold = mergeThreshold(view.base.docCount);
    return view.deltaDocs + view.baseMasked > threshold || (await this.store.countChanged(view.generation, threshold + 1)) > threshold;
  }

  /**
   * When the newest paper the index holds was first seen: what a digest has looked at, so the
   * next one takes what is newer (papers the store has but the index does not yet are newer).
   */
  newestFirstSeen(): Date {
    return new Date(this.engine_.view.maxFirstSeen() * 1000);
  }

  /** How many papers the index holds (0 while there is none). */
  get size(): number {
    return this.engine?.size ?? 0;
  }

  /** The store generation the loaded index reflects (it grows with every import or sync); 0 while there is none. */
  get generation(): number {
    return this.engine?.view.generation ?? 0;
  }

  /**
   * Runs a search-box query as typed (a whole-query identifier names its paper; see `refs.ts`).
   * @example (await index.search('diffusion transformers', { limit: 50 })).hits.length
   */
  search(query: string, options?: SearchOptions): Promise<SearchResult> {
    return searchWithRefs(this.engine_, this.store, query, options);
  }

  /** Related work for a pasted text (see {@link SearchEngine.related}). */
  related(text: string, options?: Pick<SearchOptions, 'limit' | 'alternatives'>): SearchResult {
    return this.engine_.related(text, options);
  }

  /** In how many papers a folded word occurs (0 while there is no index). */
  documentFrequency(word: string): number {
    return this.engine?.documentFrequency(word) ?? 0;
  }

  /** Title suggestions for an autocomplete box (none while there is no index). */
  suggest(prefix: string, limit: number): Suggestion[] {
    return this.engine?.suggest(prefix, limit) ?? [];
  }

  /**
   * The index as it stands, for readers that walk it themselves (recommendations); what a
   * search meets while there is none, the rebuild policy says. Valid until the next await.
   */
  currentView(): IndexView {
    return this.engine_.view;
  }

  /** Papers per topic id. */
  topicCounts(): Map<string, number> {
    return topicCounts(this.engine_.view);
  }

  /** What the index holds: counts by venue, year range, topic coverage. */
  stats(): IndexStats {
    return indexStats(this.engine_.view);
  }

  private get store() {
    return this.options.source.store;
  }

  /** The search engine, or what the rebuild policy says a search meets while there is none. */
  private get engine_(): SearchEngine {
    if (this.engine) return this.engine;
    throw this.options.rebuild.missing();
  }

  /** Loads an index as the rebuild policy says at this `step`; an index in memory only is built here. Returns whether there is one now. */
  private async load(step: 'open' | 'retry'): Promise<boolean> {
    const { source, path, rebuild, log } = this.options;
    const view = path === undefined ? await openIndex(source, undefined, log) : await rebuild[step](source, path, log);
    if (!view) return false;
    this.engine = this.createEngine(view);
    return true;
  }

  private async runCatchUp(): Promise<boolean> {
    if (!this.engine) return false;
    const swapped = await this.swapToNewerSnapshot();
    let changed = false;
    const maxDocs = Math.max(mergeThreshold(this.engine_.view.base.docCount), 50_000);
    try {
      while (await this.checkStore()) {
        const done = await catchUp(this.engine_.view, this.store, maxDocs);
        if (done !== true) break;
        changed = true;
        this.wakeWaiters(false);
      }
    } finally {
      this.wakeWaiters(true);
    }
    return changed || swapped;
  }

  /** Lets go the commands whose generation the index has reached (all of them when `all`). */
  private wakeWaiters(all: boolean): void {
    const generation = this.engine?.view.generation ?? 0;
    for (const waiter of this.generationWaiters) {
      if (all || waiter.generation <= generation) {
        this.generationWaiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  /**
   * After another process merged a new snapshot: map it, catch it up to the store, and swap it
   * in between two queries (the old mapping lives on until it is collected).
   */
  private async swapToNewerSnapshot(force = false): Promise<boolean> {
    const path = this.options.path;
    const current = this.engine?.view;
    if (!path || !current) return false;
    const generation = snapshotGeneration(path);
    if (generation === undefined || (generation <= current.base.generation && !force)) return false;
    const load = await loadSnapshot(this.options.source, path);
    if (!load.ok || !load.usable) {
      if (!load.ok) this.options.log.warn(`${damagedLine(path, load.reason)}: keeping the index already loaded`);
      return false;
    }
    learnMeaning(load.segment, this.options.log);
    const view = new IndexView(load.segment);
    await catchUpNow(view, this.store);
    this.engine = this.createEngine(view);
    this.options.log.info({ papers: view.liveCount, generation: view.generation }, 'search index snapshot loaded');
    return true;
  }

  private createEngine(view: IndexView): SearchEngine {
    const store = this.store;
    return new SearchEngine(view, { lookupAbstracts: (docs) => store.abstractsOf(docs), resolveTopic: this.options.resolveTopic });
  }
}
