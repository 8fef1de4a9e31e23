/**
 * The library: the paper store, its search index and the topic taxonomy behind one small
 * surface that commands use. It turns search hits into paper cards (snippets, links, topic
 * labels) and keeps the index in step with the store.
 */
import type { Logger } from 'pino';
import { parsePaperRef } from './papers/ids.js';
import type { Paper } from './papers/model.js';
import type { PaperCard, PaperLink } from './reply.js';
import { SearchEngine, type MatchedWord, type SearchOptions, type SearchResult, type Suggestion } from './search/engine.js';
import { loadOrBuildIndex, type IndexSource } from './search/indexFile.js';
import { readSnapshotInfo } from './search/index/snapshot.js';
import { buildSnippet } from './search/snippet.js';
import type { PaperStore } from './store/paperStore.js';
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
  log: Logger;
}

/** Words a "similar papers" query is made of. */
const SIMILAR_QUERY_WORDS = 8;
/** Words in more than this share of papers say nothing about similarity. */
const SIMILAR_MAX_SHARE = 0.05;

export class Library {
  private engine: SearchEngine | undefined;
  private newest: { data: SearchEngine['data']; at: Date } | undefined;

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

  /** Loads the index (or builds it when the store has changed since it was saved). */
  open(): this {
    this.engine = this.createEngine(loadOrBuildIndex(this.indexSource(), this.options.indexPath, this.options.log));
    return this;
  }

  /**
   * Brings the index up to date after the store changed (a sync, an import by another process):
   * loads the snapshot if one was saved for the store's current state, else rebuilds it (unless
   * `rebuild: false`). Returns whether the index changed.
   */
  refresh(options: { rebuild?: boolean } = {}): boolean {
    if (this.engine_.data.generation === this.store.generation()) return false;
    const source = this.indexSource();
    if (options.rebuild === false) {
      // A running bot must not stall for a rebuild: only a snapshot someone else saved will do.
      const saved = this.options.indexPath && readSnapshotInfo(this.options.indexPath);
      if (!saved || saved.generation !== source.store.generation() || saved.taxonomyHash !== source.taxonomyHash) return false;
    }
    this.engine = this.createEngine(loadOrBuildIndex(source, this.options.indexPath, this.options.log));
    return true;
  }

  /** Whether the store has papers the index does not reflect yet. */
  get stale(): boolean {
    return this.engine_.data.generation !== this.store.generation();
  }

  /**
   * When the newest paper the index holds was first seen: what a digest has looked at, so the
   * next one takes what is newer (papers the store has but the index does not yet are newer).
   */
  newestFirstSeen(): Date {
    const data = this.engine_.data;
    if (this.newest?.data !== data) {
      let max = 0;
      for (const seconds of data.firstSeen) if (seconds > max) max = seconds;
      this.newest = { data, at: new Date(max * 1000) };
    }
    return this.newest.at;
  }

  /** How many papers the index holds. */
  get size(): number {
    return this.engine_.size;
  }

  /**
   * Runs a search-box query.
   * @example library.search('diffusion transformers', { limit: 50 }).hits.length
   */
  search(query: string, options: SearchOptions = {}): SearchResult {
    return this.engine_.search(query, options);
  }

  /** Title suggestions for an autocomplete box (at most 25). */
  suggest(prefix: string, limit = 25): Suggestion[] {
    return this.engine_.suggest(prefix, limit);
  }

  /**
   * The paper a link or identifier names (arXiv abs/pdf, doi.org, OpenReview, or one of the
   * paper's own page or pdf URLs), for link unfurls.
   * @example library.findByLink('https://arxiv.org/abs/1706.03762v5')?.paper.title
   */
  findByLink(link: string): { doc: number; paper: Paper } | undefined {
    const ref = parsePaperRef(link);
    const paper = ref && this.store.findByRef(ref);
    return paper && this.withDoc(paper);
  }

  /** A paper by id, with its document number (the handle cards and buttons use). */
  findById(id: string): { doc: number; paper: Paper } | undefined {
    const paper = this.store.get(id);
    return paper && this.withDoc(paper);
  }

  private withDoc(paper: Paper): { doc: number; paper: Paper } | undefined {
    const doc = this.store.docOf(paper.id);
    return doc === undefined ? undefined : { doc, paper };
  }

  paperByDoc(doc: number): Paper | undefined {
    return this.store.getByDoc(doc);
  }

  paperById(id: string): Paper | undefined {
    return this.store.get(id);
  }

  /** The store's document number of a paper id, for button handles. */
  docOf(id: string): number | undefined {
    return this.store.docOf(id);
  }

  /** Result cards for `result.hits[from .. from+count)`, with snippets of the matched words. */
  cards(result: SearchResult, from: number, count: number): PaperCard[] {
    return result.hits.slice(from, from + count).flatMap((hit, i) => {
      const paper = this.store.getByDoc(hit.storeDoc);
      return paper ? [this.card(paper, hit.storeDoc, { words: result.words, position: from + i + 1 })] : [];
    });
  }

  /**
   * A paper as a card: a snippet of its abstract around `words` for a result list, or with
   * `detail` its whole abstract (after the authors' TL;DR, where the venue has one).
   */
  card(paper: Paper, doc: number, options: { words?: readonly MatchedWord[]; detail?: boolean; position?: number } = {}): PaperCard {
    const links = paperLinks(paper);
    const url = links[0]?.url;
    const card: PaperCard = {
      id: paper.id,
      doc,
      title: paper.title,
      ...(url && { url }),
      authors: paper.authors,
      venue: paper.venue,
      year: paper.year,
      status: paper.status,
      topics: paper.topics.flatMap((id) => {
        const topic = this.taxonomy.byId(id);
        return topic ? [topic.label] : [];
      }),
      links: links.slice(1),
      ...(options.position !== undefined && { position: options.position }),
    };
    if (options.detail) card.abstract = paper.tldr ? `TL;DR: ${paper.tldr}\n\n${paper.abstract}` : paper.abstract;
    else if (paper.abstract) card.snippet = buildSnippet(paper.abstract, options.words ?? []);
    return card;
  }

  /**
   * Papers like `paper`: a search for its most distinctive title and keyword words.
   * @example library.similar(paper, 5).map((p) => p.title)
   */
  similar(paper: Paper, count: number): Array<{ doc: number; paper: Paper }> {
    const engine = this.engine_;
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
    const result = engine.search(`${words.join(' ')} `, { limit: count + 1 });
    return result.hits
      .filter((h) => h.id !== paper.id)
      .slice(0, count)
      .flatMap((h) => {
        const p = this.store.getByDoc(h.storeDoc);
        return p ? [{ doc: h.storeDoc, paper: p }] : [];
      });
  }

  /** Papers per topic id, from the index. */
  topicCounts(): Map<string, number> {
    const data = this.engine_.data;
    const counts = new Map<string, number>();
    data.topics.forEach((id, bit) => {
      const word = bit >>> 5;
      const mask = 1 << (bit & 31);
      let n = 0;
      for (let d = 0; d < data.docCount; d++) if ((data.topicBits[d * data.topicWords + word]! & mask) !== 0) n++;
      counts.set(id, n);
    });
    return counts;
  }

  /** What the library holds: counts by venue, year range, topic coverage. */
  stats(): { papers: number; generation: number; terms: number; years: string; venues: Array<[string, number]>; withTopic: number } {
    const data = this.engine_.data;
    const venues = new Map<string, number>();
    let minYear = Infinity;
    let maxYear = -Infinity;
    let withTopic = 0;
    for (let d = 0; d < data.docCount; d++) {
      const venue = data.venues[data.venueOf[d]!] ?? '';
      venues.set(venue, (venues.get(venue) ?? 0) + 1);
      const year = data.years[d]!;
      if (year > 0) {
        minYear = Math.min(minYear, year);
        maxYear = Math.max(maxYear, year);
      }
      for (let w = 0; w < data.topicWords; w++) {
        if (data.topicBits[d * data.topicWords + w] !== 0) {
          withTopic++;
          break;
        }
      }
    }
    return {
      papers: data.docCount,
      generation: data.generation,
      terms: data.terms.length,
      years: Number.isFinite(minYear) ? `${minYear}–${maxYear}` : 'none',
      venues: [...venues].sort((a, b) => b[1] - a[1]),
      withTopic,
    };
  }

  private get engine_(): SearchEngine {
    if (!this.engine) throw new Error('Library.open() must be called before searching');
    return this.engine;
  }

  private indexSource(): IndexSource {
    return {
      store: this.store,
      topicIds: this.taxonomy.topics.map((t) => t.id),
      taxonomyHash: this.options.taxonomyHash,
    };
  }

  private createEngine(data: ReturnType<typeof loadOrBuildIndex>): SearchEngine {
    const store = this.store;
    return new SearchEngine(data, {
      lookupRef: (ref) => {
        const paper = store.findByRef(ref);
        const found = paper && this.withDoc(paper);
        return found && { storeDoc: found.doc, id: found.paper.id, title: found.paper.title };
      },
      lookupAbstract: (doc) => store.abstractOf(doc),
      resolveTopic: (name) => {
        const found = this.topics.resolve(name);
        if ('topic' in found) return { id: found.topic.id };
        const hint = found.suggestions.slice(0, 3).map((t) => `"${t.label}"`).join(', ');
        return { error: `No topic called "${name.slice(0, 60)}".${hint ? ` Did you mean ${hint}?` : ' Try /topic to list them.'}` };
      },
    });
  }
}

/**
 * A paper's links, landing page first: page, PDF, code, project, then arXiv, DOI and OpenReview
 * when they add something.
 * @example paperLinks(paper)[0] // { label: 'Page', url: 'https://arxiv.org/abs/1706.03762' }
 */
export function paperLinks(paper: Pick<Paper, 'links' | 'externalIds'>): PaperLink[] {
  const { links, externalIds } = paper;
  const arxiv = externalIds.arxiv && `https://arxiv.org/abs/${externalIds.arxiv}`;
  const openreview = externalIds.openreview && `https://openreview.net/forum?id=${externalIds.openreview}`;
  const doi = externalIds.doi && `https://doi.org/${externalIds.doi}`;
  const candidates: Array<[string, string | undefined]> = [
    ['Page', links.page ?? arxiv ?? openreview ?? doi],
    ['PDF', links.pdf ?? (externalIds.arxiv ? `https://arxiv.org/pdf/${externalIds.arxiv}` : undefined)],
    ['Code', links.code],
    ['Project', links.project],
    ['arXiv', arxiv],
    ['OpenReview', openreview],
    ['DOI', doi],
  ];
  const seen = new Set<string>();
  const out: PaperLink[] = [];
  for (const [label, url] of candidates) {
    if (!url || seen.has(url)) continue;
    seen.add(url);
    out.push({ label, url });
  }
  return out;
}
