/**
 * The library: the paper store, its search index and the topic taxonomy behind one small
 * surface that commands use. It turns search hits into paper cards (snippets, links, topic
 * labels) and keeps the index in step with the store.
 */
import type { Logger } from 'pino';
import { messages as messagesFor, msg, readQuery, type Dictionary, type Messages, type QueryReading } from './i18n/index.js';
import { UserError } from './errors.js';
import { silentObserver, type Observer } from './observer.js';
import type { Paper } from './papers/model.js';
import { statusKey } from './papers/status.js';
import type { LinkKind, PaperCard, PaperLink } from './reply.js';
import { SearchEngine, type MatchedWord, type SearchOptions, type SearchResult, type Suggestion } from './search/engine.js';
import { catchUp, catchUpNow, damagedLine, isStale, loadSnapshot, mergeThreshold, openIndex, snapshotGeneration, type IndexSource } from './search/indexFile.js';
import { IndexView } from './search/index/view.js';
import { verifySnapshot } from './search/index/format.js';
import { searchWithRefs } from './search/refs.js';
import { buildSnippet } from './search/snippet.js';
import type { PaperStore, StoredPaper } from './store/papers.js';
import { STOPWORDS, tokenize } from './text.js';
import type { Taxonomy, Topic } from './topics/taxonomy.js';

/** Forgiving topic lookup ("llm", "causal") over the taxonomy. */
export interface TopicFinder {
  resolve(input: string): { topic: Topic } | { suggestions: Topic[] };
  suggest(prefix: string, limit: number): Topic[];
}

export interface LibraryOptions {
  store: PaperStore;
  taxonomy: Taxonomy;
  taxonomyHash: string;
  topics: TopicFinder;
  /** Where the index snapshot lives; undefined keeps it in memory only. */
  indexPath?: string;
  /** Chinese terms and topic names, to read Chinese queries as English (none: queries are searched as typed). */
  dictionary?: Dictionary;
  /**
   * `inline` (default): a missing, outdated or damaged snapshot is rebuilt here and now, as a
   * batch tool does. `memory`: likewise, but kept in memory, not saved (a library opened
   * read-only). `elsewhere`: the serving bot only loads snapshots; until a child process
   * has written one it can use, searches answer the catalog's `error.indexRebuilding`.
   */
  rebuild?: 'inline' | 'memory' | 'elsewhere';
  log: Logger;
  /** Hears of every search and how long it took (metrics). */
  observer?: Observer;
}

/** A command waits for a catch-up of at most this many changed papers (1,000 take ~0.3 s at 1M)… */
const COMMAND_WAIT_ROWS = 2_000;
/** …and for at most this long, well inside the platforms' 3 s to answer. */
const COMMAND_WAIT_MS = 1_000;

/** Words a "similar papers" query is made of. */
const SIMILAR_QUERY_WORDS = 8;
/** Words in more than this share of papers say nothing about similarity. */
const SIMILAR_MAX_SHARE = 0.05;

export class Library {
  private engine: SearchEngine | undefined;
  private catching: Promise<boolean> | undefined;
  /** Commands waiting for the index to reach a store generation (see catchUpForCommand). */
  private readonly generationWaiters = new Set<{ generation: number; resolve: () => void }>();
  /** The store's generation when last read (see {@link checkStore}). */
  private storeGeneration = 0;

  constructor(private readonly options: LibraryOptions) {}

  get store(): PaperStore {
    return this.options.store;
  }

  get taxonomy(): Taxonomy {
    return this.options.taxonomy;
  }

  get topics(): TopicFinder {
    return this.options.topics;
  }

  /**
   * Loads the index: the snapshot (mapped) and a delta of what the store changed since. Inline,
   * the index is built when there is no usable snapshot. Elsewhere (the serving bot), a missing
   * or damaged snapshot leaves the library without an index until a child process has built
   * one (see {@link ready}); a snapshot far behind the store is served while the bot catches up.
   */
  async open(): Promise<this> {
    const { indexPath, log } = this.options;
    await this.checkStore();
    if (!indexPath || this.options.rebuild !== 'elsewhere') {
      this.engine = this.createEngine(await openIndex(this.indexSource(), indexPath, log, { save: this.options.rebuild !== 'memory' }));
      return this;
    }
    const load = await loadSnapshot(this.indexSource(), indexPath);
    if (load.ok && load.usable) {
      const view = new IndexView(load.segment);
      // A small gap is a delta built now; a large one is left to the background (a merge).
      const threshold = mergeThreshold(view.base.docCount);
      if ((await this.store.countChanged(view.generation, threshold + 1)) <= threshold) await catchUpNow(view, this.store);
      else log.info('the search index is far behind the library: serving it until a fresh one is merged');
      this.engine = this.createEngine(view);
    } else if (load.ok) {
      log.info('the search index was built for another taxonomy: searches say it is being rebuilt until a child process has rebuilt it');
    } else if (load.problem === 'damaged') {
      log.error(`${damagedLine(indexPath, load.reason)}: searches say it is being rebuilt until a child process has rebuilt it`);
    } else {
      log.info(`${load.reason}: searches say the index is being rebuilt until a child process has built it`);
    }
    return this;
  }

  /**
   * Brings the index up to date at once: swaps in a newer snapshot if another process wrote one,
   * then folds in what the store changed since as a delta. With `rebuild: false` (the serving
   * bot) nothing is built from scratch: without an index, only a snapshot someone else saved
   * will do. Returns whether the index changed.
   */
  async refresh(options: { rebuild?: boolean } = {}): Promise<boolean> {
    // One catch-up at a time: a sliced one under way finishes first.
    await this.catching?.catch(() => undefined);
    await this.checkStore();
    if (!this.engine) {
      const path = this.options.indexPath;
      if (options.rebuild !== false || !path) {
        this.engine = this.createEngine(await openIndex(this.indexSource(), path, this.options.log, { save: this.options.rebuild !== 'memory' }));
        return true;
      }
      const load = await loadSnapshot(this.indexSource(), path);
      if (!load.ok || !load.usable) {
        if (!load.ok && load.problem === 'damaged') this.options.log.error(`${damagedLine(path, load.reason)}: searches still say it is being rebuilt`);
        return false;
      }
      const view = new IndexView(load.segment);
      await catchUpNow(view, this.store);
      this.engine = this.createEngine(view);
      return true;
    }
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
   * Checks the whole snapshot in the background (every checksum, every document number; ~0.3 s
   * of reads at 1M papers, in pieces): resolves the problem found, or undefined.
   */
  async verify(): Promise<string | undefined> {
    const path = this.options.indexPath;
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
    if (!view || this.options.indexPath === undefined) return false;
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

  /** Whether an index is loaded (searching works). */
  get loaded(): boolean {
    return this.engine !== undefined;
  }

  /**
   * Runs a search-box query. Chinese in it is read as English terms and topics first (see
   * {@link readQuery}), with a note on how it was read.
   * @example (await library.search('diffusion transformers', { limit: 50 })).hits.length
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    const started = performance.now();
    const reading = this.readQuery(query);
    const found = await searchWithRefs(this.engine_, this.store, reading.query, options);
    const result = reading.notes.length > 0 ? { ...found, notes: [...reading.notes, ...found.notes] } : found;
    (this.options.observer ?? silentObserver).search({ seconds: (performance.now() - started) / 1000, hits: result.hits.length });
    return result;
  }

  /**
   * A query with its Chinese read as English (unchanged without Chinese or a dictionary).
   * @example library.readQuery('扩散模型 视频生成').query // 'diffusion model video generation'
   */
  readQuery(query: string): QueryReading {
    return this.options.dictionary ? readQuery(query, this.options.dictionary) : { query, notes: [], read: false };
  }

  /** Title suggestions for an autocomplete box (at most 25; none while there is no index). */
  suggest(prefix: string, limit = 25): Suggestion[] {
    return this.engine?.suggest(prefix, limit) ?? [];
  }

  /** A paper by id, with its document number (the handle cards and buttons use). */
  async findById(id: string): Promise<StoredPaper | undefined> {
    return (await this.store.papersByIds([id])).get(id);
  }

  /**
   * Papers by id with their document numbers, read together (one query where the store is remote).
   * @example (await library.papersByIds(run.papers)).get(run.papers[0])?.doc
   */
  papersByIds(ids: readonly string[]): Promise<Map<string, StoredPaper>> {
    return this.store.papersByIds(ids);
  }

  /**
   * The papers with these document numbers, read together (one query where the store is remote).
   * @example (await library.papersByDocs([3, 7])).get(3)?.title
   */
  papersByDocs(docs: readonly number[]): Promise<Map<number, Paper>> {
    return this.store.papersByDocs(docs);
  }

  async paperByDoc(doc: number): Promise<Paper | undefined> {
    return (await this.store.papersByDocs([doc])).get(doc);
  }

  paperById(id: string): Promise<Paper | undefined> {
    return this.store.get(id);
  }

  /** The store's document number of a paper id, for button handles. */
  docOf(id: string): Promise<number | undefined> {
    return this.store.docOf(id);
  }

  /**
   * Result cards for `result.hits[from .. from+count)`, with snippets of the matched words, topic
   * labels and link names in the language of `messages` (paper text stays as published). The
   * papers are read in one go.
   */
  async cards(result: SearchResult, from: number, count: number, messages?: Messages): Promise<PaperCard[]> {
    const hits = result.hits.slice(from, from + count);
    const papers = await this.store.papersByDocs(hits.map((h) => h.storeDoc));
    return hits.flatMap((hit, i) => {
      const paper = papers.get(hit.storeDoc);
      return paper ? [this.card(paper, hit.storeDoc, { words: result.words, position: from + i + 1, ...(messages && { messages }) })] : [];
    });
  }

  /**
   * A paper as a card: a snippet of its abstract around `words` for a result list, or with
   * `detail` its whole abstract (after the authors' TL;DR, where the venue has one). Its status,
   * topic labels and link names are in the language of `messages` (English by default); the
   * paper's own text is as published.
   */
  card(paper: Paper, doc: number, options: { words?: readonly MatchedWord[]; detail?: boolean; position?: number; messages?: Messages } = {}): PaperCard {
    const m = options.messages ?? messagesFor();
    const links = paperLinks(paper).map((l) => ({ ...l, label: m.t(`paper.link.${l.kind}`) }));
    const url = links[0]?.url;
    const card: PaperCard = {
      id: paper.id,
      doc,
      title: paper.title,
      ...(url && { url }),
      authors: paper.authors,
      venue: paper.venue,
      year: paper.year,
      status: statusText(paper.status, m),
      topics: paper.topics.flatMap((id) => {
        const topic = this.taxonomy.byId(id);
        return topic ? [this.taxonomy.label(topic, m.dataLocale)] : [];
      }),
      links: links.slice(1),
      ...(options.position !== undefined && { position: options.position }),
    };
    if (options.detail) card.abstract = paper.tldr ? `${m.t('paper.tldr', { tldr: paper.tldr })}\n\n${paper.abstract}` : paper.abstract;
    else if (paper.abstract) card.snippet = buildSnippet(paper.abstract, options.words ?? []);
    return card;
  }

  /**
   * Papers like `paper`: a search for its most distinctive title and keyword words.
   * @example (await library.similar(paper, 5)).map((p) => p.paper.title)
   */
  async similar(paper: Paper, count: number): Promise<StoredPaper[]> {
    const engine = this.engine;
    if (!engine) return [];
    // "More like this": the paper's most telling words by tf-idf (title words count most), as a
    // query; papers that share more of them rank higher.
    const weights = new Map<string, number>();
    const add = (text: string, weight: number) => {
      for (const w of tokenize(text)) if (!STOPWORDS.has(w) && w.length > 2 && !/^\d+$/.test(w)) weights.set(w, (weights.get(w) ?? 0) + weight);
    };
    add(paper.title, 3);
    add(paper.keywords.join(' '), 2);
    add(paper.abstract, 1);
    const maxDf = Math.max(2, engine.size * SIMILAR_MAX_SHARE);
    const words = [...weights]
      .map(([w, weight]) => ({ w, df: engine.documentFrequency(w), weight }))
      .filter((x) => x.df > 1 && x.df <= maxDf)
      .map((x) => ({ w: x.w, score: x.weight * Math.log(engine.size / x.df) }))
      .sort((a, b) => b.score - a.score || (a.w < b.w ? -1 : 1))
      .slice(0, SIMILAR_QUERY_WORDS)
      .map((x) => x.w);
    if (words.length === 0) return [];
    // A trailing space: the last word is complete, not a prefix.
    const result = await engine.search(`${words.join(' ')} `, { limit: count + 1, everyField: true });
    const hits = result.hits.filter((h) => h.id !== paper.id).slice(0, count);
    const papers = await this.store.papersByDocs(hits.map((h) => h.storeDoc));
    return hits.flatMap((h) => {
      const p = papers.get(h.storeDoc);
      return p ? [{ doc: h.storeDoc, paper: p }] : [];
    });
  }

  /** Papers per topic id, from the index. */
  topicCounts(): Map<string, number> {
    const view = this.engine_.view;
    return new Map(view.topics.map((id, bit) => [id, view.docsWithTopic(bit).length]));
  }

  /** What the library holds: counts by venue, year range, topic coverage. */
  stats(): { papers: number; generation: number; terms: number; years: string; venues: Array<[string, number]>; withTopic: number } {
    const view = this.engine_.view;
    const venues = new Map<string, number>();
    let minYear = Infinity;
    let maxYear = -Infinity;
    let withTopic = 0;
    view.forEachLive((d) => {
      const venue = view.venue(d);
      venues.set(venue, (venues.get(venue) ?? 0) + 1);
      const year = view.year(d);
      if (year > 0) {
        minYear = Math.min(minYear, year);
        maxYear = Math.max(maxYear, year);
      }
      const part = view.partOf(d);
      const words = part.data.topicBits.subarray((d - part.docBase) * view.topicWords, (d - part.docBase + 1) * view.topicWords);
      if (words.some((w) => w !== 0)) withTopic++;
    });
    let terms = 0;
    for (let t = 0; t < view.df.length; t++) if (view.df[t]! > 0) terms++;
    return {
      papers: view.liveCount,
      generation: view.generation,
      terms,
      years: Number.isFinite(minYear) ? `${minYear}–${maxYear}` : 'none',
      venues: [...venues].sort((a, b) => b[1] - a[1]),
      withTopic,
    };
  }

  /**
   * After another process merged a new snapshot: map it, catch it up to the store, and swap it
   * in between two queries (the old mapping lives on until it is collected).
   */
  private async swapToNewerSnapshot(force = false): Promise<boolean> {
    const path = this.options.indexPath;
    const current = this.engine?.view;
    if (!path || !current) return false;
    const generation = snapshotGeneration(path);
    if (generation === undefined || (generation <= current.base.generation && !force)) return false;
    const load = await loadSnapshot(this.indexSource(), path);
    if (!load.ok || !load.usable) {
      if (!load.ok) this.options.log.warn(`${damagedLine(path, load.reason)}: keeping the index already loaded`);
      return false;
    }
    const view = new IndexView(load.segment);
    await catchUpNow(view, this.store);
    this.engine = this.createEngine(view);
    this.options.log.info({ papers: view.liveCount, generation: view.generation }, 'search index snapshot loaded');
    return true;
  }

  private get engine_(): SearchEngine {
    if (this.engine) return this.engine;
    if (this.options.rebuild === 'elsewhere') throw new UserError('error.indexRebuilding');
    throw new Error('Library.open() must be called before searching');
  }

  private indexSource(): IndexSource {
    return {
      store: this.store,
      topicIds: this.taxonomy.topics.map((t) => t.id),
      taxonomyHash: this.options.taxonomyHash,
    };
  }

  private createEngine(view: IndexView): SearchEngine {
    const store = this.store;
    return new SearchEngine(view, {
      lookupAbstracts: (docs) => store.abstractsOf(docs),
      resolveTopic: (name) => {
        const found = this.topics.resolve(name);
        if ('topic' in found) return { id: found.topic.id };
        const shown = name.slice(0, 60);
        const suggestions = found.suggestions.slice(0, 3).map((t) => msg('search.quoted', { text: t.labels }));
        return { error: suggestions.length > 0 ? msg('search.noTopicMaybe', { name: shown, suggestions: { items: suggestions, type: 'disjunction' } }) : msg('search.noTopicList', { name: shown }) };
      },
    });
  }
}

/**
 * A paper's links, landing page first: page, PDF, code, project, then arXiv, DOI and OpenReview
 * when they add something; labelled in English (cards relabel them in the reader's language).
 * @example paperLinks(paper)[0] // { kind: 'page', label: 'Page', url: 'https://arxiv.org/abs/1706.03762' }
 */
export function paperLinks(paper: Pick<Paper, 'links' | 'externalIds'>): PaperLink[] {
  const { links, externalIds } = paper;
  const arxiv = externalIds.arxiv && `https://arxiv.org/abs/${externalIds.arxiv}`;
  const openreview = externalIds.openreview && `https://openreview.net/forum?id=${externalIds.openreview}`;
  const doi = externalIds.doi && `https://doi.org/${externalIds.doi}`;
  const candidates: Array<[LinkKind, string | undefined]> = [
    ['page', links.page ?? arxiv ?? openreview ?? doi],
    ['pdf', links.pdf ?? (externalIds.arxiv ? `https://arxiv.org/pdf/${externalIds.arxiv}` : undefined)],
    ['code', links.code],
    ['project', links.project],
    ['arxiv', arxiv],
    ['openreview', openreview],
    ['doi', doi],
  ];
  const english = messagesFor();
  const seen = new Set<string>();
  const out: PaperLink[] = [];
  for (const [kind, url] of candidates) {
    if (!url || seen.has(url)) continue;
    seen.add(url);
    out.push({ kind, label: english.t(`paper.link.${kind}`), url });
  }
  return out;
}

/** A stored status in the reader's language; one outside the vocabulary (a venue's own track name) as stored. */
function statusText(status: string, m: Messages): string {
  const key = statusKey(status);
  return key ? m.t(key) : status;
}
