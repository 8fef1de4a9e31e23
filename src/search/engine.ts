/**
 * SearchEngine: answers search-box queries and title autocomplete from an in-memory index.
 *
 * Ranking, in order of precedence:
 *  1. the paper a whole-query identifier or URL names (resolved before the engine is asked, in
 *     `refs.ts`: the engine itself is pure text search);
 *  2. exactness: the query is the title, the title's short name ("BERT"), or the title's start
 *     (each word forgiving its typos);
 *  3. an author's full name;
 *  4. the share of the query's words matched: when some papers match all of them, the answer
 *     is those papers (and the title matches of 2);
 *  5. BM25F over title, authors, keywords and abstract, with the finer orders of rerank.ts
 *     (compounds as typed, all words in the title, withdrawn and anonymous records last).
 * A broad query (a field's name, which many papers match about equally: broad.ts) is answered
 * by words and the papers' standing (standing.ts) blended instead, after a title typed whole.
 * Ties break by newer year, then by the store's document number (never by how the index is
 * split into segments: a segmented index answers exactly as a full rebuild).
 */
import { msg, type Message } from '../i18n/index.js';
import type { PaperRef } from '../papers/ids.js';
import { decodeLatex } from '../papers/latex.js';
import { normalizeTitle, tokenize } from '../text.js';
import { compileFilter, type CompiledFilter, type TopicResolver } from './filter.js';
import { Field } from './index/types.js';
import type { IndexView } from './index/view.js';
import { MAX_COMPLETIONS, planWords, type Alternatives, type TermGroup } from './expand.js';
import { isEmptyQuery, parseQuery, type ParsedQuery, type SortOrder } from './query.js';
import { hasCitationCounts, mostCitedFirst, mostCitedOf } from './cited.js';
import { Scorer } from './scorer.js';
import { baseScore } from './bm25.js';
import { authorCoverageOf, coverageOf, titleCoverageOf, type QueryPlan } from './queryPlan.js';
import { matchTitle, type TitleMatch } from './titleMatch.js';
import { TopK } from './topk.js';
import type { Vocabulary } from './vocab.js';
import { authorNameForms, authorNameMatch } from './authors.js';
import { titlePrefixDocs } from './titles.js';
import { byRank } from './rerank.js';
import { blendOrder, isBroad, phraseInside, SCAN_KEEP, StandingIndex, wordSignals, BROAD, type BroadCandidate } from './broad.js';
import { isCompoundTerm } from './compounds.js';
import { MeaningSearch } from './meaning/search.js';
import { fuseByRank, isDescription, textQuery, type WeightedWord } from './meaning/stage.js';

/** Most hits one search returns. */
export const MAX_RESULTS = 200;
/** Candidates re-ranked with title and author checks. */
const RERANK_DEPTH = 200;
/** Title-prefix matches pulled in directly when there are no more than this many. */
const PREFIX_PULL_LIMIT = 300;
/** Completions of the word being typed that autocomplete looks at. */
const SUGGEST_COMPLETIONS = 10;
/** Most candidates checked for a quoted phrase. */
const PHRASE_CHECK_LIMIT = 400;

/** The score of an exact title match, and of the paper a whole-query identifier names (`refs.ts`). */
export const TIER_EXACT = 40_000;
const TIER_NAME = 30_000;
const TIER_PREFIX = 20_000;
const TIER_AUTHOR = 10_000;
const TIER_AUTHOR_EXACT = 12_000;
/** Within a title tier, how much a query that covers the whole title beats one that covers half. */
const TITLE_SHARE_BONUS = 400;
const TYPO_COST = 500;

export interface SearchHit {
  /** The store's document number. */
  storeDoc: number;
  id: string;
  title: string;
  score: number;
}

/** A query word and the index words that stood for it, for highlighting. */
export interface MatchedWord {
  word: string;
  forms: string[];
}

export interface SearchResult {
  query: ParsedQuery;
  hits: SearchHit[];
  /**
   * How many papers the answer holds, never fewer than the hits, whatever the limit: every paper
   * matching all the words (in any field; the best are listed) and those whose title the query
   * is or begins; when none matches all the words, the partial matches listed.
   */
  total: number;
  /** Whether the hits only match some of the words. */
  partial: boolean;
  words: MatchedWord[];
  /** What the user should know: filters not understood, nothing found for a venue, ... */
  notes: Message[];
  /** Set when the query was an identifier or URL. */
  ref?: PaperRef;
  /**
   * Set when the query was read as a description (meaning/stage.ts): its words and their
   * associates, each with its weight, for the snippet that shows the sentence closest to it.
   */
  meaning?: WeightedWord[];
}


export interface SearchOptions {
  /** Most hits to return (default 50, at most {@link MAX_RESULTS}). */
  limit?: number;
  /** Only papers the store first saw after this instant (digests: "new since the last one"). */
  firstSeenAfter?: Date;
  /** Only these papers (store document numbers): searching within a reading list. */
  within?: readonly number[];
  /** Other words a query word stands for (a Chinese word's other senses), matched and scored as that word. */
  alternatives?: Alternatives;
  /**
   * The query was read from another language (Chinese through the glossary and CC-CEDICT): its
   * words are already a dictionary's choices, and it is not read as a description.
   */
  translated?: boolean;
}

export interface EngineDeps {
  resolveTopic: TopicResolver;
  /** Papers' abstracts by store document number, for phrase checks: one read for all candidates. */
  lookupAbstracts: (storeDocs: readonly number[]) => Promise<Map<number, string>>;
}

export interface EngineOptions {
  /** Score every posting instead of pruning (the reference that pruned answers are tested against). */
  exhaustive?: boolean;
  /** Documents per block of the walk (default: the scorer's BLOCK; tests use small blocks). */
  blockSize?: number;
  /** Let standing weigh in on broad queries (default true; false ranks by words alone, the A of an A/B). */
  standing?: boolean;
}

export interface Suggestion {
  id: string;
  title: string;
  /** The paper's store document number (what a button or an autocomplete value carries). */
  storeDoc: number;
}

export class SearchEngine {
  readonly vocab: Vocabulary;
  private readonly scorer: Scorer;
  private readonly standing: StandingIndex;
  private readonly meaning: MeaningSearch;
  private excludedMark = new Uint32Array(0);
  private candidateMark = new Uint32Array(0);
  private stamp = 0;

  constructor(
    readonly view: IndexView,
    private readonly deps: EngineDeps,
    private readonly options: EngineOptions = {},
  ) {
    this.vocab = view.vocab;
    this.scorer = new Scorer(view, options.blockSize);
    this.standing = new StandingIndex(view);
    this.meaning = new MeaningSearch(view);
  }

  get size(): number {
    return this.view.liveCount;
  }

  /** In how many papers a (folded) word occurs. */
  documentFrequency(word: string): number {
    const term = this.vocab.id(word);
    return term === undefined ? 0 : this.vocab.df(term);
  }

  /** Grows the per-document scratch space after the view gained documents. */
  private prepare(): void {
    if (this.excludedMark.length < this.view.docCount) {
      this.excludedMark = new Uint32Array(Math.ceil(this.view.docCount * 1.25) + 1024);
      this.candidateMark = new Uint32Array(this.excludedMark.length);
    }
  }

  /**
   * Runs a search-box query. The work is synchronous; it waits only for the store, to read the
   * abstracts a quoted phrase is checked in.
   * @example (await engine.search('author:"Yoshua Bengio" attention', { limit: 10 })).hits[0]?.title
   */
  async search(input: string, options: SearchOptions = {}): Promise<SearchResult> {
    const limit = Math.max(1, Math.min(options.limit ?? 50, MAX_RESULTS));
    // Titles are stored with their LaTeX decoded; one pasted as written must read the same.
    const text = decodeLatex(input);

    const query = parseQuery(text);
    const result: SearchResult = { query, hits: [], total: 0, partial: false, words: [], notes: [...query.notes] };
    if (isEmptyQuery(query)) return result;

    this.prepare();
    this.stamp = (this.stamp + 1) >>> 0 || 1;
    const filter = compileFilter(query, this.view, this.deps.resolveTopic, this.excludedMark, this.stamp, options.firstSeenAfter, options.within);
    if (filter.impossible.length > 0) {
      result.notes.push(...filter.impossible);
      return result;
    }
    const groups = planWords(query, this.vocab, this.view.liveCount, MAX_COMPLETIONS, options.alternatives);
    // (A compound's term is no word of the text to mark.)
    result.words = groups
      .filter((g) => !g.compound)
      .map((g) => ({ word: g.word, forms: g.variants.map((v) => this.vocab.term(v.term)).filter((form) => !isCompoundTerm(form)) }));

    const ranked = query.words.length === 0 ? this.filterOnly(filter, query.phrases.length > 0 ? Infinity : MAX_RESULTS, result, query.sort) : this.rank(query, groups, filter, result, text, options);
    let ordered = query.sort === 'new' ? this.newestFirst(ranked) : query.sort === 'cited' ? mostCitedFirst(this.view, ranked) : ranked;
    if (query.phrases.length > 0) ordered = await this.withPhrases(ordered, query.phrases, result);
    result.hits = ordered.slice(0, limit).map(({ doc, score }) => this.hit(doc, score));
    if (result.total === 0) result.total = ordered.length;
    if (result.hits.length === 0 && query.cited && !hasCitationCounts(this.view)) result.notes.push(msg('search.noCounts'));
    return result;
  }

  /**
   * Related work for a pasted text (an abstract, a paragraph): the papers closest to its most
   * telling words and their associates, by the meaning stage alone (meaning/stage.ts).
   * @example engine.related(abstract, { limit: 10 }).hits[0]?.title
   */
  related(text: string, options: Pick<SearchOptions, 'limit' | 'alternatives'> = {}): SearchResult {
    const limit = Math.max(1, Math.min(options.limit ?? 10, MAX_RESULTS));
    const query = parseQuery(textQuery(decodeLatex(text), this.view));
    const result: SearchResult = { query, hits: [], total: 0, partial: false, words: [], notes: [] };
    if (query.words.length === 0) return result;
    this.prepare();
    const found = this.meaning.find(planWords(query, this.vocab, this.view.liveCount, 0, options.alternatives), limit);
    result.meaning = found.words;
    result.hits = found.hits.map(({ doc, score }) => this.hit(doc, score));
    result.total = result.hits.length;
    return result;
  }

  /**
   * Titles for an autocomplete box: titles that start with what was typed, then titles that
   * contain its words (the last one as a prefix), at most `limit`.
   * @example engine.suggest('attention is all', 25)[0]?.title // 'Attention Is All You Need'
   */
  suggest(input: string, limit = 25): Suggestion[] {
    const n = Math.max(0, Math.min(limit, 25));
    const text = input.slice(0, 200);
    const key = normalizeTitle(text);
    if (n === 0 || key.length === 0) return [];
    this.prepare();
    const out: Suggestion[] = [];
    const seen = new Set<number>();
    const prefixed = titlePrefixDocs(this.view, key, n);
    for (const d of prefixed) {
      seen.add(d);
      out.push({ id: this.view.id(d), title: this.view.title(d), storeDoc: this.view.storeDoc(d) });
    }
    if (out.length < n) {
      const query = parseQuery(text);
      // Titles only, and fewer completions of the word being typed than a search takes: an
      // autocomplete box answers on every keystroke.
      const groups = planWords(query, this.vocab, this.view.liveCount, SUGGEST_COMPLETIONS);
      const required = groups.filter((group) => !group.optional).length;
      if (required > 0) {
        const scorer = this.scorer;
        // The best n + |seen| titles hold the best n not listed already.
        const keep = n + seen.size;
        scorer.scoreGroups(groups.map((g) => ({ ...g, fields: [Field.Title] })), { requireAll: true, keep, exhaustive: this.options.exhaustive });
        const top = new TopK(keep, (d) => this.view.storeDoc(d));
        for (let i = 0; i < scorer.touchedCount; i++) {
          const d = scorer.touched[i]!;
          if (coverageOf(scorer.covs[i]!) !== required || seen.has(d)) continue;
          top.offer(scorer.scores[i]!, d);
        }
        for (const { doc } of top.sorted()) {
          if (out.length >= n) break;
          out.push({ id: this.view.id(doc), title: this.view.title(doc), storeDoc: this.view.storeDoc(doc) });
        }
      }
    }
    return out;
  }

  /** Ranks by relevance; returns candidates best first. */
  private rank(query: ParsedQuery, groups: TermGroup[], filter: CompiledFilter, result: SearchResult, input: string, options: SearchOptions) {
    const { scorer, view } = this;
    const g = groups.filter((group) => !group.optional).length;
    const admits = (d: number) => (!filter.active || filter.allows(d)) && (!filter.candidates || binaryHas(filter.candidates, d));
    const depth = Math.max(RERANK_DEPTH, query.sort !== 'relevance' ? MAX_RESULTS * 5 : 0);
    // Only the best `depth` are re-ranked: documents that cannot be among them need not be scored.
    const filtered = filter.active || filter.candidates !== undefined;
    const score = (typedWords: number, coverAll: boolean | 'unlessFull') =>
      scorer.scoreGroups(groups, { typedWords, keep: depth, ...(filtered && { admits }), exhaustive: this.options.exhaustive, coverAll });
    const typed = query.text.split(/\s+/).filter(Boolean).length;
    // Where no paper has all the words, the answer is the papers that have the most: the
    // abstracts common words are left out of count for every one (known before the walk where
    // that is quick, else from the walk, then walked again).
    score(typed, 'unlessFull');
    // Common words left out of abstracts must not leave a query with nothing: where only
    // abstracts have them all, they are scored there after all.
    if (scorer.plan?.abstractsLeftOut && scorer.touchedCount === 0 && !scorer.unlisted.any) score(0, false);
    else if (scorer.plan?.covering && !scorer.plan.coverAll && !this.anyFull(g, admits)) score(typed, true);
    const { touched, scores, covs } = scorer;
    const plan = scorer.plan!;
    const nameForms = query.words.length >= 2 ? authorNameForms(query.words, this.vocab) : undefined;
    const best = this.best(depth, g, admits, nameForms);
    const { top, authorLevel, exactAuthorMatches } = best;
    let { fullCount, bestCoverage } = best;
    // Papers matching every word that cannot be among the best were counted, not listed.
    const unlisted = scorer.unlisted;
    fullCount += unlisted.admitted;
    if (unlisted.any) bestCoverage = g;
    // Papers whose title is or starts with the query, even if words alone ranked them low.
    const pulled = query.words.length > 0 ? titlePrefixDocs(view, normalizeTitle(query.text), PREFIX_PULL_LIMIT) : [];
    let ranked: BroadCandidate[] = [];
    // The candidates so far, marked with this search's stamp.
    const { candidateMark: seen, stamp } = this;
    const compounds = query.compounds.length > 0 ? plan : undefined;
    const titleMatch = (doc: number) => matchTitle(query.words, view.title(doc), tokenize, query.lastIsPrefix);
    for (const { doc: i } of top.sorted()) {
      const doc = touched[i]!;
      const cov = covs[i]!;
      const author = authorLevel.get(doc);
      const named = author === undefined ? 0 : author === 2 ? TIER_AUTHOR_EXACT : TIER_AUTHOR;
      seen[doc] = stamp;
      const match = titleMatch(doc);
      ranked.push(this.candidate(doc, baseScore(scores[i]!, coverageOf(cov), titleCoverageOf(cov), g), cov, named + tierOf(match, query.words.length), g, compounds, match?.kind));
    }
    for (const d of pulled) {
      if (seen[d] === stamp || !admits(d)) continue;
      // A title match the pruned walk left out is scored on its own, exactly as the walk would.
      const at = scorer.indexOf(d);
      const { score, cov } = at >= 0 ? { score: scorer.scores[at]!, cov: scorer.covs[at]! } : scorer.evaluate(d);
      seen[d] = stamp;
      const match = titleMatch(d);
      ranked.push(this.candidate(d, baseScore(score, coverageOf(cov), titleCoverageOf(cov), g), cov, tierOf(match, query.words.length), g, compounds, match?.kind));
    }
    // A title pasted whole is that paper, even where its text reads as query syntax
    // ("… System, -Development of …" is not an exclusion).
    const rawKey = normalizeTitle(input);
    if (rawKey !== normalizeTitle(query.text)) {
      for (const d of titlePrefixDocs(view, rawKey, PREFIX_PULL_LIMIT)) {
        if (normalizeTitle(view.title(d)) === rawKey && seen[d] !== stamp) ranked.push(this.candidate(d, 0, scorer.evaluate(d).cov, TIER_EXACT, g, compounds, 'exact'));
      }
    }
    if (authorLevel.size > 0 && query.phrases.length === 0) {
      // The words name an author: the answer is that author's papers, not papers that happen to
      // contain the words. A name written exactly so ("Balazs Vagvolgyi") is that person; names
      // that only contain the words ("Balazs P. Vagvolgyi") are offered through author:.
      const level = exactAuthorMatches > 0 ? 2 : 1;
      ranked = ranked.filter((r) => (authorLevel.get(r.doc) ?? 0) >= level);
      fullCount = level === 2 ? exactAuthorMatches : authorLevel.size;
      const name = query.text.trim();
      if (level === 1) result.notes.push(msg('search.byAuthorsNamed', { name }));
      else if (exactAuthorMatches < authorLevel.size) result.notes.push(msg('search.byAuthorMore', { name }));
      else result.notes.push(msg('search.byAuthor', { name }));
    } else if (fullCount > 0) {
      // Some paper matches every word: the answer is those papers (every one of them counted,
      // the best listed), and those whose title the query is or begins. Papers matching only
      // some of the words are listed only when none matches them all, and then every one listed
      // is counted. A broad query's answer also holds the papers of high standing that lack
      // one of three words or more (broad.ts).
      const broad = this.broad(query, groups, g, ranked, fullCount, admits, compounds, options);
      if (broad) {
        result.total = fullCount + broad.partial;
        return broad.ranked;
      }
      ranked = ranked.filter((r) => r.coverage === g || r.tier > 0);
      for (const r of ranked) if (r.coverage < g) fullCount++;
    }
    ranked.sort(byRank);
    // A description (meaning/stage.ts): its words' answer and the meaning stage's, fused by rank.
    if (!options.translated && isDescription(groups, query.compounds, authorLevel.size > 0 || ranked.some((r) => r.tier >= TIER_PREFIX))) {
      const found = this.meaning.find(groups, depth, filtered ? admits : undefined);
      result.meaning = found.words;
      const fused = fuseByRank(ranked, found.hits.map((h) => this.candidate(h.doc, h.score, 0, 0, g, undefined)), (d) => view.storeDoc(d));
      result.total = fused.length;
      result.partial = fullCount === 0 && bestCoverage < g;
      result.notes.push(msg('search.described'));
      return fused;
    }
    result.total = fullCount > 0 ? fullCount : ranked.length;
    result.partial = fullCount === 0 && bestCoverage < g;
    if (result.partial && ranked.length > 0) {
      result.notes.push(msg('search.partial'));
    }
    return ranked;
  }

  /** Whether the last walk found a paper matching all `g` words that `admits` lets through. */
  private anyFull(g: number, admits: (d: number) => boolean): boolean {
    const { scorer } = this;
    if (scorer.unlisted.admitted > 0) return true;
    for (let i = 0; i < scorer.touchedCount; i++) if (coverageOf(scorer.covs[i]!) === g && admits(scorer.touched[i]!)) return true;
    return false;
  }

  /**
   * The `depth` best of the scorer's results that `admits` lets through (by place in the
   * results; papers matching more of the words first, see QueryPlan.rankValue, as the walk chose
   * them), those whose author names `nameForms` give, and how many match all `g` words. (A
   * method of its own: the loop over every result is where V8 compiles on the stack, and
   * compiled with {@link rank} whole, that code was thrown away at every query.)
   */
  private best(depth: number, g: number, admits: (d: number) => boolean, nameForms: ReturnType<typeof authorNameForms> | undefined) {
    const { scorer, view } = this;
    const { touched, scores, covs } = scorer;
    const plan = scorer.plan!;
    // Ties by store document, as always.
    const top = new TopK(depth, (i) => view.storeDoc(touched[i]!));
    const authorLevel = new Map<number, number>();
    let exactAuthorMatches = 0;
    let fullCount = 0;
    let bestCoverage = 0;
    for (let i = 0; i < scorer.touchedCount; i++) {
      const d = touched[i]!;
      const cov = covs[i]!;
      const c = coverageOf(cov);
      if (c > bestCoverage) bestCoverage = c;
      if (!admits(d)) continue;
      if (c === g) fullCount++;
      let value = plan.rankValue(scores[i]!, cov);
      if (nameForms && authorCoverageOf(cov) === g) {
        const level = authorNameMatch(view.authors(d), nameForms);
        if (level > 0) {
          value += level === 2 ? TIER_AUTHOR_EXACT : TIER_AUTHOR;
          authorLevel.set(d, level);
          if (level === 2) exactAuthorMatches++;
        }
      }
      top.offer(value, i);
    }
    return { top, authorLevel, exactAuthorMatches, fullCount, bestCoverage };
  }

  /**
   * For a broad query (broad.ts), its answer: the candidates matching every word (or whose title
   * is or begins with the query) and the papers of highest standing that hold its rarest words,
   * the best of them (as many as asked for) in the blend's order, and how many papers lacking a
   * word it holds; undefined for any other query. Papers lacking one word are added only where
   * the query has three or more and their citation count is known.
   */
  private broad(query: ParsedQuery, groups: TermGroup[], g: number, ranked: BroadCandidate[], fullCount: number, admits: (d: number) => boolean, compounds: QueryPlan | undefined, options: SearchOptions): { ranked: BroadCandidate[]; partial: number } | undefined {
    // Where new papers are what is asked for, words alone rank: sort:new, digests, this week's.
    if (this.options.standing === false || query.sort === 'new' || options.firstSeenAfter !== undefined || query.phrases.length > 0) return undefined;
    if (fullCount < BROAD.minMatches || g > BROAD.maxWords) return undefined;
    const { rare, typing } = wordSignals(groups, this.view, query.lastIsPrefix);
    if (rare || typing) return undefined;
    let phraseTitles = 0;
    let wholeTitles = 0;
    for (const r of ranked) {
      if (r.inTitle === 1) wholeTitles++;
      if (r.inTitle === 1 && phraseInside(query.words, this.view.title(r.doc)) && ++phraseTitles >= BROAD.phraseTitles) break;
    }
    // Hyphenated compounds ("many-to-one knowledge-transfer") are pasted from one paper: never a description of a topic.
    const described = query.compounds.length > 0 ? undefined : wholeTitles;
    if (!isBroad({ words: g, fullCount, author: false, rare, typing, phraseTitles, wholeTitles: described })) return undefined;
    const { scorer, standing } = this;
    const { candidateMark: seen, stamp } = this;
    const answer = ranked.filter((r) => r.coverage === g || r.tier > 0);
    // Papers of high standing the walk's best by words may have missed (their counts are known).
    for (const d of standing.scan(groups, g >= 3, SCAN_KEEP, (d) => seen[d] === stamp || !admits(d))) {
      // Words held in any field or as a stem count here (StandingIndex.wordsHeld: no read of the
      // forward index for papers that lack two), and score as the words the scorer found do.
      const c = standing.wordsHeld(groups, d);
      if (c < g && (c < g - 1 || g < 3)) continue;
      const { score, cov } = scorer.evaluate(d);
      const scored = coverageOf(cov);
      seen[d] = stamp;
      const candidate = this.candidate(d, baseScore(scored > 0 && scored < c ? (score * c) / scored : score, c, titleCoverageOf(cov), g), cov, 0, g, compounds);
      candidate.coverage = c;
      answer.push(candidate);
    }
    let partial = 0;
    for (const r of answer) if (r.coverage < g) partial++;
    const keep = Math.max(1, Math.min(options.limit ?? 50, MAX_RESULTS));
    return { ranked: blendOrder(answer, g, keep, (d) => standing.standing(d), (d) => standing.known(d)), partial };
  }

  /**
   * A candidate of {@link rank}: document `doc` with `base` score and packed coverage `cov` of
   * `g` words, `tier` points of exactness (from a title match of `titleKind`), and, when the
   * query has compounds, those it holds.
   */
  private candidate(doc: number, base: number, cov: number, tier: number, g: number, compounds: QueryPlan | undefined, titleKind?: BroadCandidate['titleKind']): BroadCandidate {
    const view = this.view;
    return {
      doc,
      base,
      titleKind,
      tier,
      coverage: coverageOf(cov),
      compounds: compounds === undefined ? 0 : compounds.compoundsHeld(doc),
      inTitle: titleCoverageOf(cov) === g ? 1 : 0,
      record: view.standing(doc) > 0 ? 1 : 0,
      score: base + tier,
      year: view.year(doc),
      key: view.storeDoc(doc),
      blend: 0,
    };
  }

  /**
   * Filters only (no words): newest (or with `sort:cited`, most cited) first, the best `keep` of them (all of them when phrases
   * still have to be checked); `result.total` counts every match. A short candidate list is
   * sorted; otherwise the index's newest-first order is walked until `keep` are found.
   */
  private filterOnly(filter: CompiledFilter, keep: number, result: SearchResult, sort: SortOrder) {
    const view = this.view;
    const passes = (d: number) => view.dead[d] === 0 && (!filter.active || filter.allows(d));
    const list = filter.candidates;
    if (sort === 'cited') {
      const out: number[] = [];
      if (list) for (const d of list) if (passes(d)) out.push(d);
      if (!list) for (let d = 0; d < view.docCount; d++) if (passes(d)) out.push(d);
      result.total = out.length;
      return mostCitedOf(view, out, Math.min(keep, out.length));
    }
    // Sorting n candidates costs about n log n; walking the newest-first order until `keep` of
    // them turn up costs about keep × library / n.
    if (keep === Infinity || (list && list.length * list.length <= 4 * keep * view.liveCount)) {
      const out: number[] = [];
      if (list) for (const d of list) if (passes(d)) out.push(d);
      if (!list) for (let d = 0; d < view.docCount; d++) if (passes(d)) out.push(d);
      result.total = out.length;
      const sorted = view.sortNewest(out);
      return Array.from(sorted.subarray(0, Math.min(sorted.length, keep)), (doc) => ({ doc, score: 0 }));
    }
    let total = 0;
    const stamp = this.stamp;
    const mark = this.candidateMark;
    if (list) {
      for (const d of list) {
        if (!passes(d)) continue;
        total++;
        mark[d] = stamp;
      }
    } else for (let d = 0; d < view.docCount; d++) if (passes(d)) total++;
    const out: Array<{ doc: number; score: number }> = [];
    view.walkNewest((d) => {
      if (list ? mark[d] === stamp : passes(d)) out.push({ doc: d, score: 0 });
      return out.length < keep;
    });
    result.total = total;
    return out;
  }

  /** Newest year first; within a year, best first (score, then the venue's distinction). */
  private newestFirst(list: Array<{ doc: number; score: number }>) {
    const view = this.view;
    const n = list.length;
    const year = new Uint16Array(n);
    const standing = new Uint8Array(n);
    const seen = new Float64Array(n);
    const key = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const d = list[i]!.doc;
      year[i] = view.year(d);
      standing[i] = view.standing(d);
      seen[i] = view.firstSeen(d);
      key[i] = view.storeDoc(d);
    }
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => year[b]! - year[a]! || list[b]!.score - list[a]!.score || standing[b]! - standing[a]! || seen[b]! - seen[a]! || key[a]! - key[b]!);
    return order.map((i) => list[i]!);
  }

  private async withPhrases(ranked: Array<{ doc: number; score: number }>, phrases: string[][], result: SearchResult) {
    const wanted = phrases.map((p) => ` ${p.join(' ')} `);
    const out: Array<{ doc: number; score: number }> = [];
    const checked = Math.min(ranked.length, PHRASE_CHECK_LIMIT);
    const abstracts = await this.deps.lookupAbstracts(ranked.slice(0, checked).map((r) => this.view.storeDoc(r.doc)));
    for (let i = 0; i < checked; i++) {
      const { doc } = ranked[i]!;
      const text = ` ${normalizeTitle(this.view.title(doc))} ${normalizeTitle(abstracts.get(this.view.storeDoc(doc)) ?? '')} `;
      if (wanted.every((w) => text.includes(w))) out.push(ranked[i]!);
    }
    result.total = out.length;
    return out;
  }

  private hit(doc: number, score: number): SearchHit {
    return { storeDoc: this.view.storeDoc(doc), id: this.view.id(doc), title: this.view.title(doc), score };
  }
}

function tierOf(match: TitleMatch | undefined, queryWords: number): number {
  if (!match) return 0;
  const tier = match.kind === 'exact' ? TIER_EXACT : match.kind === 'name' ? TIER_NAME : TIER_PREFIX;
  return tier - match.typos * TYPO_COST + TITLE_SHARE_BONUS * Math.min(1, queryWords / match.titleWords);
}

function binaryHas(sorted: Int32Array, value: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo] === value;
}
