/**
 * Recommendations by paper id, as the library offers them: the seeds' ids looked up in the
 * store and mapped to the live index's documents (`recommend.ts` works on those), and what
 * comes back put in people's terms again: ids, titles and reasons. Seeds the index lacks are
 * listed, never guessed.
 */
import { msg, type Message } from '../i18n/index.js';
import type { Paper } from '../papers/model.js';
import type { TopicResolver } from '../search/filter.js';
import type { SearchHit } from '../search/engine.js';
import type { IndexView } from '../search/index/view.js';
import type { PaperStore, StoredPaper } from '../store/papers.js';
import type { Reason } from './reason.js';
import { MAX_SEEDS, explainDocs, recommendDocs, type RecommendOptions } from './recommend.js';
import type { Why } from './why.js';

/** {@link RecommendOptions} with the papers disliked and shown already by id. */
export interface RecommendByIdsOptions extends Omit<RecommendOptions, 'unlike' | 'exclude'> {
  /** Papers the member disliked: never recommended, and papers like them go down. */
  unlike?: readonly string[];
  /** Papers never to recommend (shown already). */
  exclude?: readonly string[];
}

/** Most disliked or excluded papers read for one call. */
export const MAX_FEEDBACK = 1000;

/** A recommended paper: a search hit with the reason it was recommended. */
export interface RecommendedHit extends SearchHit {
  why: Reason;
}

export type Recommendations =
  | { ok: true; hits: RecommendedHit[]; unknown: string[]; notes: Message[] }
  /** No seed is known, or the filters cannot match: `notes` say why. */
  | { ok: false; unknown: string[]; notes: Message[] };

/**
 * Where seeds are looked up: the store (ids to document numbers) and the live index's current
 * view, read after the store so that it holds what the store returned.
 */
export interface SeedSource {
  store: PaperStore;
  currentView(): IndexView;
}

/**
 * Papers like the seeds (paper ids), best first, within `/paper`'s filters (see
 * {@link recommendDocs}). Seeds the index does not hold are left out and listed in `unknown`;
 * when none is known the result says so (`ok: false`).
 * @example (await recommendByIds(source, resolveTopic, ['arxiv:1706.03762'], { limit: 10 })).hits
 */
export async function recommendByIds(source: SeedSource, resolveTopic: TopicResolver, seedIds: readonly string[], options: RecommendByIdsOptions = {}): Promise<Recommendations> {
  const { view, seeds, unknown } = await seedDocs(source, seedIds);
  if (seeds.length === 0) return { ok: false, unknown, notes: [msg('recommend.noKnownSeeds', { ids: unknown.join(', ') })] };
  // Dislikes and papers shown already the index lacks are nothing to avoid.
  const { unlike, exclude, ...rest } = options;
  const docsOf = async (ids: readonly string[] | undefined) => (ids && ids.length > 0 ? (await seedDocs(source, ids, MAX_FEEDBACK)).seeds : []);
  const result = recommendDocs(view, seeds, resolveTopic, { ...rest, unlike: await docsOf(unlike), exclude: await docsOf(exclude) });
  if (!result.ok) return { ...result, unknown };
  const hits = result.hits.map((r) => ({ storeDoc: view.storeDoc(r.doc), id: view.id(r.doc), title: view.title(r.doc), score: r.score, why: reasonOf(view, r.why) }));
  return { ok: true, hits, unknown, notes: result.notes };
}

/**
 * Why each of `paperIds` is like the seeds (paper ids), as {@link recommendByIds} says it;
 * papers or seeds the index lacks are left out.
 * @example (await explainByIds(source, channelPapers, digestPapers)).get(digestPapers[0])?.words
 */
export async function explainByIds(source: SeedSource, seedIds: readonly string[], paperIds: readonly string[]): Promise<Map<string, Reason>> {
  const out = new Map<string, Reason>();
  const { view, seeds } = await seedDocs(source, seedIds);
  if (seeds.length === 0 || paperIds.length === 0) return out;
  const { seeds: docs } = await seedDocs(source, paperIds);
  const explained = explainDocs(view, seeds, docs);
  docs.forEach((g, i) => out.set(view.id(g), reasonOf(view, explained[i]!)));
  return out;
}

/**
 * "More like this": the `count` papers most like `paper`, as {@link recommendByIds} finds them
 * for a profile of that one paper, read from the store.
 * @example (await similarPapers(source, resolveTopic, paper, 5)).map((p) => p.paper.title)
 */
export async function similarPapers(source: SeedSource, resolveTopic: TopicResolver, paper: Paper, count: number): Promise<StoredPaper[]> {
  const found = await recommendByIds(source, resolveTopic, [paper.id], { limit: count });
  if (!found.ok) return [];
  const papers = await source.store.papersByDocs(found.hits.map((h) => h.storeDoc));
  return found.hits.flatMap((h) => {
    const p = papers.get(h.storeDoc);
    return p ? [{ doc: h.storeDoc, paper: p }] : [];
  });
}

/** A reason as people read it: seeds by id and title, authors as the index keeps them. */
function reasonOf(view: IndexView, why: Why): Reason {
  return { seeds: why.seeds.map((g) => ({ id: view.id(g), title: view.title(g) })), words: why.words, authors: why.authors };
}

/** The live index documents of papers by id (distinct, at most {@link MAX_SEEDS}), and the ids the index lacks. */
async function seedDocs(source: SeedSource, ids: readonly string[], most = MAX_SEEDS) {
  const wanted = [...new Set(ids)].slice(0, most);
  const stored = await source.store.papersByIds(wanted);
  const view = source.currentView();
  const seeds: number[] = [];
  const unknown: string[] = [];
  for (const id of wanted) {
    const doc = stored.get(id)?.doc;
    const live = doc === undefined ? undefined : view.liveDocsOf([doc])[0];
    if (live === undefined) unknown.push(id);
    else if (!seeds.includes(live)) seeds.push(live);
  }
  return { view, seeds, unknown };
}
