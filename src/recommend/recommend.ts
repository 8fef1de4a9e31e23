/**
 * Recommendations: the library's papers ranked by how much they are like a set of saved papers
 * (the seeds), within `/paper`'s filters. Pure and synchronous over the index view: the profile
 * (`profile.ts`) is read from the seeds' postings, the ranking (`rank.ts`) is one walk of the
 * profile's postings, and each hit says why (`why.ts`). No model is stored: a profile is built
 * for each call, in a few milliseconds.
 *
 * Seeds are never recommended (nor other records with a seed's title), and neither are
 * rejected or withdrawn submissions unless the caller asks for them.
 */
import { msg, type Message } from '../i18n/index.js';
import { compileFilter, type TopicResolver } from '../search/filter.js';
import type { IndexView } from '../search/index/view.js';
import { parseQuery } from '../search/query.js';
import { mostCitedFirst } from '../search/cited.js';
import { normalizeTitle } from '../text.js';
import { buildProfile, type Profile } from './profile.js';
import { rankByProfile, type Ranked } from './rank.js';
import { DEFAULT_TUNING, type RecommendTuning } from './tuning.js';
import { explain, type Why } from './why.js';

/** Most recommendations one call returns. */
export const MAX_RECOMMENDATIONS = 200;
/** Most seeds a profile is built from (the newest saved ones, when a library has more). */
export const MAX_SEEDS = 200;

export interface RecommendOptions {
  /** `/paper`'s filters (`year:2024 venue:iclr topic:llm sort:new`); free words are not allowed. */
  where?: string;
  /** Most hits (default 20, at most {@link MAX_RECOMMENDATIONS}). */
  limit?: number;
  /** Only papers first seen after this instant (a digest: what arrived since the last one). */
  firstSeenAfter?: Date;
  /** Recommend rejected and withdrawn submissions too. */
  includeRejected?: boolean;
  /** Say why for each hit (default true; a digest choosing among candidates says it later, of the few it keeps). */
  explain?: boolean;
  /** Papers the member disliked (live global documents): never recommended, and papers like them go down. */
  unlike?: readonly number[];
  /** Papers never to recommend (live global documents): what the member was shown already. */
  exclude?: readonly number[];
  tuning?: RecommendTuning;
}

export interface Recommendation {
  /** Global document of the view. */
  doc: number;
  score: number;
  why: Why;
}

export type RecommendResult =
  | { ok: true; hits: Recommendation[]; notes: Message[] }
  /** The filters cannot match anything (an unknown venue or topic), or hold free words. */
  | { ok: false; notes: Message[] };

/**
 * Papers like `seeds` (live global documents of `view`, at least one), best first.
 * @example recommendDocs(view, [seedDoc], resolveTopic, { where: 'year:2024', limit: 10 })
 */
export function recommendDocs(view: IndexView, seeds: readonly number[], resolveTopic: TopicResolver, options: RecommendOptions = {}): RecommendResult {
  const tuning = options.tuning ?? DEFAULT_TUNING;
  const limit = Math.max(1, Math.min(options.limit ?? 20, MAX_RECOMMENDATIONS));
  const query = parseQuery(options.where ?? '');
  if (query.words.length > 0 || query.phrases.length > 0) return { ok: false, notes: [msg('recommend.whereWords', { words: query.text.trim() })] };
  const filter = compileFilter(query, view, resolveTopic, new Uint32Array(view.docCount), 1, options.firstSeenAfter);
  if (filter.impossible.length > 0) return { ok: false, notes: filter.impossible };

  // One order for the same set of seeds: sums, ties and explanations do not depend on it.
  seeds = [...new Set(seeds)].sort((a, c) => view.storeDoc(a) - view.storeDoc(c));
  const seedTitles = new Set(seeds.map((g) => normalizeTitle(view.title(g))));
  const unlike = [...new Set(options.unlike ?? [])].filter((g) => !seeds.includes(g)).sort((a, c) => view.storeDoc(a) - view.storeDoc(c));
  const admit = {
    ...(filter.candidates && { candidates: filter.candidates }),
    ...(filter.active && { allows: filter.allows }),
    includeRejected: options.includeRejected === true,
    exclude: [...seeds, ...unlike, ...(options.exclude ?? [])],
  };

  const profile = profileFor(view, seeds, tuning);
  // A few more than asked: records with a seed's title are dropped after ranking; with dislikes,
  // a pool they may reorder.
  const pool = limit + seeds.length + (unlike.length > 0 ? tuning.dislikePool : 0);
  let ranked = rankByProfile(view, profile, tuning, admit, pool).filter((r) => !seedTitles.has(normalizeTitle(view.title(r.doc))));
  if (unlike.length > 0) ranked = awayFrom(view, ranked, profileFor(view, unlike, tuning), tuning);
  let hits = ranked.slice(0, limit);
  if (query.sort === 'new') hits = [...hits].sort((a, c) => view.year(c.doc) - view.year(a.doc) || c.score - a.score || view.storeDoc(a.doc) - view.storeDoc(c.doc));
  if (query.sort === 'cited') hits = mostCitedFirst(view, hits);
  const none: Why = { seeds: [], words: [], authors: [] };
  return { ok: true, hits: hits.map((r) => ({ ...r, why: options.explain === false ? none : explain(view, profile, r.doc) })), notes: query.notes };
}

/**
 * Relevance feedback's negative half: each candidate's score less its likeness to the disliked
 * papers (the dislikes' profile ranking the candidates, the likest 1) times
 * `tuning.dislikePenalty`, re-sorted (ties by newer year, then store document, as ranking does).
 */
function awayFrom(view: IndexView, ranked: Ranked[], disliked: Profile, tuning: RecommendTuning): Ranked[] {
  if (ranked.length === 0) return ranked;
  const candidates = Int32Array.from(ranked, (r) => r.doc).sort();
  const likeness = new Map(rankByProfile(view, disliked, tuning, { candidates, includeRejected: true }, candidates.length).map((r) => [r.doc, r.score]));
  return ranked
    .map((r) => ({ doc: r.doc, score: r.score - tuning.dislikePenalty * (likeness.get(r.doc) ?? 0), year: view.year(r.doc), key: view.storeDoc(r.doc) }))
    .sort((a, c) => c.score - a.score || c.year - a.year || a.key - c.key)
    .map(({ doc, score }) => ({ doc, score }));
}

/**
 * Why each of `docs` is like `seeds` (live global documents), as {@link recommendDocs} explains
 * its hits: what a digest chosen earlier says of its papers.
 * @example explainDocs(view, seeds, [hitDoc])[0]?.words
 */
export function explainDocs(view: IndexView, seeds: readonly number[], docs: readonly number[], tuning: RecommendTuning = DEFAULT_TUNING): Why[] {
  const ordered = [...new Set(seeds)].sort((a, c) => view.storeDoc(a) - view.storeDoc(c));
  const profile = profileFor(view, ordered, tuning);
  return docs.map((d) => explain(view, profile, d));
}

/**
 * The profile of `seeds` (in their one order), one of the last few built for the view reused: a
 * digest ranks by a channel's profile and then says why of the papers it kept.
 */
function profileFor(view: IndexView, seeds: readonly number[], tuning: RecommendTuning): Profile {
  const key = `${view.generation}:${view.docCount}:${view.liveCount}:${seeds.join(',')}`;
  let recent = recentProfiles.get(view);
  if (!recent) recentProfiles.set(view, (recent = new Map()));
  const known = recent.get(key);
  if (known && known.tuning === tuning) return known.profile;
  const profile = buildProfile(view, seeds, tuning);
  recent.set(key, { tuning, profile });
  // Digests run a few at a time: the last few profiles are enough.
  if (recent.size > RECENT_PROFILES) recent.delete(recent.keys().next().value!);
  return profile;
}

/** Profiles kept per view for reuse. */
const RECENT_PROFILES = 16;
const recentProfiles = new WeakMap<IndexView, Map<string, { tuning: RecommendTuning; profile: Profile }>>();
