/**
 * The library: what commands, digests and front ends use of the papers, behind one small
 * surface. It holds the paper store, the topic taxonomy and the live search index
 * (`search/liveIndex.ts`, which follows the store), and puts them together: searches with
 * Chinese read as English and each one reported to the observer, papers by id or document
 * number, cards (`papers/cards.ts`), citations in the library (`papers/citationLists.ts`) and
 * recommendations (`recommend/`). Everything here
 * is a line or two; the work is in those modules.
 */
import type { Logger } from 'pino';
import { readQuery, withCedict, type Dictionary, type Messages, type QueryReading } from './i18n/index.js';
import { silentObserver, type Observer } from './observer.js';
import { paperCard, resultCards, type CardOptions } from './papers/cards.js';
import { citationLists, type CitationDirection, type CitationLists } from './papers/citationLists.js';
import type { Paper } from './papers/model.js';
import type { PaperCard } from './reply.js';
import type { SearchOptions, SearchResult, Suggestion } from './search/engine.js';
import type { Reason } from './recommend/reason.js';
import { explainByIds, recommendByIds, similarPapers, type RecommendByIdsOptions, type Recommendations, type SeedSource } from './recommend/seeds.js';
import type { TopicResolver } from './search/filter.js';
import { LiveIndex } from './search/liveIndex.js';
import { relatedWork } from './search/meaning/related.js';
import type { RebuildPolicy } from './search/rebuildPolicy.js';
import { siteLinks, type SiteLinks } from './site/links.js';
import type { IndexStats } from './search/stats.js';
import type { CitationStore } from './store/citations.js';
import type { PaperStore, StoredPaper } from './store/papers.js';
import { topicFilter, type TopicFinder } from './topics/resolve.js';
import type { Taxonomy } from './topics/taxonomy.js';

export interface LibraryOptions {
  store: PaperStore;
  /** The papers' citations (`store/citations.ts`), read only; none for the demo library, whose papers are not the store's. */
  citations?: Pick<CitationStore, 'references' | 'citedBy'>;
  taxonomy: Taxonomy;
  taxonomyHash: string;
  topics: TopicFinder;
  /** Where the index snapshot lives; undefined keeps it in memory only. */
  indexPath?: string;
  /** Chinese terms and topic names, to read Chinese queries as English (none: queries are searched as typed); other words are read through CC-CEDICT. */
  dictionary?: Dictionary;
  /**
   * What happens while the index snapshot cannot be served: `rebuildHere()` (a batch tool, or
   * `rebuildHere({ save: false })` for a library opened read-only) or `rebuildElsewhere` (the
   * serving bot, whose child process rebuilds it); see `search/rebuildPolicy.ts`.
   */
  rebuild: RebuildPolicy;
  log: Logger;
  /** Hears of every search and how long it took (metrics). */
  observer?: Observer;
  /** The search site's address (PUBLIC_URL): cards and replies link to its pages. */
  publicUrl?: string;
}

export class Library {
  private readonly index: LiveIndex;
  /** Links to the search site, when PUBLIC_URL names one. */
  readonly site: SiteLinks | undefined;
  /** The engine's reading of `topic:` filters, through {@link topics}. */
  private readonly resolveTopic: TopicResolver;
  /** Where recommendations look their seeds up: the store, and the index's current view. */
  private readonly seeds: SeedSource;
  /** The glossary and topic names, then CC-CEDICT with the English this library uses most. */
  private readonly dictionary: Dictionary | undefined;

  constructor(private readonly options: LibraryOptions) {
    const { store, taxonomy, taxonomyHash, indexPath, rebuild, log } = options;
    this.site = options.publicUrl === undefined ? undefined : siteLinks(options.publicUrl);
    this.resolveTopic = topicFilter(options.topics);
    this.index = new LiveIndex({
      source: { store, topicIds: taxonomy.topics.map((t) => t.id), taxonomyHash },
      ...(indexPath !== undefined && { path: indexPath }),
      rebuild,
      resolveTopic: this.resolveTopic,
      log,
    });
    this.seeds = { store, currentView: () => this.index.currentView() };
    this.dictionary = options.dictionary && withCedict(options.dictionary, (word) => this.index.documentFrequency(word));
  }

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
   * Loads the search index (see {@link LiveIndex.open}).
   * @example const library = await new Library({ store, taxonomy, taxonomyHash, topics, rebuild: rebuildHere(), log }).open();
   */
  async open(): Promise<this> {
    await this.index.open();
    return this;
  }

  // The live index's upkeep: what a running bot and the command line call (see search/liveIndex.ts).

  /** Brings the index up to date at once; resolves whether it changed ({@link LiveIndex.refresh}). */
  refresh(): Promise<boolean> {
    return this.index.refresh();
  }

  /** Folds the store's changes in, in slices ({@link LiveIndex.catchUp}). */
  catchUp(): Promise<boolean> {
    return this.index.catchUp();
  }

  /** Catches up before a command, waiting only for a small change ({@link LiveIndex.catchUpForCommand}). */
  catchUpForCommand(): Promise<void> {
    return this.index.catchUpForCommand();
  }

  /** Checks the whole snapshot; resolves the problem found, or undefined ({@link LiveIndex.verify}). */
  verify(): Promise<string | undefined> {
    return this.index.verify();
  }

  /** Loads the snapshot on disk in place of the one in use (after a rebuild of a damaged one). */
  reload(): Promise<boolean> {
    return this.index.reload();
  }

  /** Reads the store's generation; resolves whether the index is behind it. */
  checkStore(): Promise<boolean> {
    return this.index.checkStore();
  }

  /** Whether the store had papers the index does not reflect yet (or there is no index), as of the last {@link checkStore}. */
  get stale(): boolean {
    return this.index.stale;
  }

  /** The store's generation as last read. */
  get knownStoreGeneration(): number {
    return this.index.knownStoreGeneration;
  }

  /** Whether there is an index to search; false while the serving bot waits for a rebuild. */
  get ready(): boolean {
    return this.index.ready;
  }

  /** Whether the index's deltas have grown enough to be merged into a new snapshot (or it is far behind). */
  needsMerge(): Promise<boolean> {
    return this.index.needsMerge();
  }

  /** When the newest paper the index holds was first seen: where the next digest starts. */
  newestFirstSeen(): Date {
    return this.index.newestFirstSeen();
  }

  /** How many papers the index holds (0 while there is none). */
  get size(): number {
    return this.index.size;
  }

  /** The store generation the loaded index reflects; 0 while there is none. */
  get generation(): number {
    return this.index.generation;
  }

  /** Papers per topic id, from the index. */
  topicCounts(): Map<string, number> {
    return this.index.topicCounts();
  }

  /** What the library holds: counts by venue, year range, topic coverage. */
  stats(): IndexStats {
    return this.index.stats();
  }

  // Searching.

  /**
   * Runs a search-box query. Chinese in it is read as English terms and topics first (see
   * {@link readQuery}), with a note on how it was read.
   * @example (await library.search('diffusion transformers', { limit: 50 })).hits.length
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    const started = performance.now();
    const reading = this.readQuery(query);
    const found = await this.index.search(reading.query, reading.read ? { ...options, translated: true, ...(reading.senses.size > 0 && { alternatives: reading.senses }) } : options);
    return this.observed(started, reading.notes.length > 0 ? { ...found, notes: [...reading.notes, ...found.notes] } : found);
  }

  /** Related work for a pasted text, by meaning (`search/meaning/related.ts`): `(await library.related(abstract)).hits`. */
  async related(text: string, options: { limit?: number } = {}): Promise<SearchResult> {
    return this.observed(performance.now(), relatedWork({ related: (t, o) => this.index.related(t, o), readQuery: (t) => this.readQuery(t) }, text, options));
  }

  /** Tells the observer of a search and how long it took. */
  private observed(started: number, result: SearchResult): SearchResult {
    (this.options.observer ?? silentObserver).search({ seconds: (performance.now() - started) / 1000, hits: result.hits.length });
    return result;
  }

  /**
   * A query with its Chinese read as English (unchanged without Chinese or a dictionary).
   * @example library.readQuery('扩散模型 视频生成').query // 'diffusion model video generation'
   */
  readQuery(query: string): QueryReading {
    return this.dictionary ? readQuery(query, this.dictionary) : { query, notes: [], read: false, senses: new Map() };
  }

  /** Title suggestions for an autocomplete box (at most 25; none while there is no index). */
  suggest(prefix: string, limit = 25): Suggestion[] {
    return this.index.suggest(prefix, limit);
  }

  /**
   * "More like this": the papers most like `paper`, as {@link recommend} finds them for a
   * profile of that one paper (none while there is no index; see {@link similarPapers}).
   * @example (await library.similar(paper, 5)).map((p) => p.paper.title)
   */
  async similar(paper: Paper, count: number): Promise<StoredPaper[]> {
    return this.index.ready ? similarPapers(this.seeds, this.resolveTopic, paper, count) : [];
  }

  /**
   * Papers like the seeds (paper ids), best first, within `/paper`'s filters (see
   * `recommend/recommend.ts`). Seeds the library does not hold are left out and listed in
   * `unknown`; when none is known the result says so (`ok: false`).
   * @example (await library.recommend(['arxiv:1706.03762'], { where: 'year:2024', limit: 10 })).hits
   */
  recommend(seedIds: readonly string[], options: RecommendByIdsOptions = {}): Promise<Recommendations> {
    return recommendByIds(this.seeds, this.resolveTopic, seedIds, options);
  }

  /**
   * Why each of `paperIds` is like the seeds (paper ids), as {@link recommend} says it; papers
   * or seeds the index lacks are left out.
   * @example (await library.explain(channelPapers, digestPapers)).get(digestPapers[0])?.words
   */
  explain(seedIds: readonly string[], paperIds: readonly string[]): Promise<Map<string, Reason>> {
    return explainByIds(this.seeds, seedIds, paperIds);
  }

  // Papers and their cards.

  /** A paper by id, with its document number (the handle cards and buttons use). */
  async findById(id: string): Promise<StoredPaper | undefined> {
    return (await this.store.papersByIds([id])).get(id);
  }

  /** Papers by id with their document numbers, read together (one query where the store is remote). */
  papersByIds(ids: readonly string[]): Promise<Map<string, StoredPaper>> {
    return this.store.papersByIds(ids);
  }

  /** The document numbers of the ids the library holds, without reading the papers (a list's count, a search within it). */
  docsOf(ids: readonly string[]): Promise<Map<string, number>> {
    return this.store.docsOf(ids);
  }

  /** The papers with these document numbers, read together (one query where the store is remote). */
  papersByDocs(docs: readonly number[]): Promise<Map<number, Paper>> {
    return this.store.papersByDocs(docs);
  }

  async paperByDoc(doc: number): Promise<Paper | undefined> {
    return (await this.store.papersByDocs([doc])).get(doc);
  }

  /**
   * "References in the library" and "Cited by, in the library" of the paper `doc`, most cited
   * first: a page of each (or of `directions`), the papers read in one go ({@link citationLists}).
   * @example (await library.citations(doc, { offset: 0, limit: 5 })).citedBy?.total
   */
  citations(doc: number, page: { offset: number; limit: number }, directions?: readonly CitationDirection[]): Promise<CitationLists> {
    return citationLists(this.options.citations, this.store, doc, page, directions);
  }

  /**
   * Result cards for `result.hits[from .. from+count)` in the language of `messages`, the papers
   * read in one go (see {@link resultCards}); their titles lead to `site` (by default the search
   * site PUBLIC_URL names, if any).
   * @example await library.cards(result, 0, 5, ctx.i18n)
   */
  cards(result: SearchResult, from: number, count: number, messages?: Messages, site: SiteLinks | undefined = this.site): Promise<PaperCard[]> {
    return resultCards(this.store, this.taxonomy, result, from, count, messages, site);
  }

  /**
   * A paper as a card, its topics labelled from this library's taxonomy (see {@link paperCard}),
   * its title leading to the search site PUBLIC_URL names, if any (unless `options.site` says otherwise).
   * @example library.card(paper, doc, { detail: true, messages: ctx.i18n })
   */
  card(paper: Paper, doc: number, options: CardOptions = {}): PaperCard {
    return paperCard(this.taxonomy, paper, doc, this.site && !('site' in options) ? { ...options, site: this.site } : options);
  }
}
