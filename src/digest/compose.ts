/**
 * What a digest holds and how it reads: the subscription's papers first seen since the
 * channel's last digest, best first, minus anything the channel was ever sent; rendered as a
 * header with topic and date, the papers as result cards, and a "More" button.
 */
import { messages as messagesFor, type Localized, type Messages } from '../i18n/index.js';
import type { Library } from '../library.js';
import { MIN_PROFILE_PAPERS, whyLine, type Reason } from '../recommend/reason.js';
import { libraryFilters } from './source.js';
import { action, type Block, type Reply } from '../reply.js';
import { saveSearchAt } from '../search/state.js';
import { shorten } from '../text.js';
import type { StateStore } from '../store/states.js';
import type { Taxonomy } from '../topics/taxonomy.js';
import { paperKeys } from './keys.js';
import type { DigestStore, Subscription } from '../store/digests.js';

/** Papers in one digest message (a Discord message holds 10 embeds, a Slack one 50 blocks). */
export const DIGEST_PART_SIZE = 5;
/** Candidates looked at before the ledger filters out what was sent. */
const CANDIDATES = 200;

export interface DigestPlan {
  papers: Array<{ id: string; keys: string[] }>;
  /** Nothing was new, and the subscription asked for the best unsent papers instead. */
  fill: boolean;
  /** Papers first seen after this were new. */
  since: string;
  /** The newest first-seen time the index held: the next digest's `since`. */
  until: string;
}

/**
 * Chooses the papers for a subscription's next digest.
 * @example await choosePapers(library, digests, sub, new Date(sub.lastDigestAt ?? sub.createdAt))
 */
export async function choosePapers(library: Library, digests: DigestStore, sub: Subscription, since: Date, profile: readonly string[] = []): Promise<DigestPlan> {
  const filters = libraryFilters(sub.query);
  const ranked = async (firstSeenAfter?: Date): Promise<Array<{ storeDoc: number }>> => {
    if (filters === undefined) return (await library.search(sub.query, { limit: CANDIDATES, ...(firstSeenAfter && { firstSeenAfter }) })).hits;
    // Ranked by the channel's library: nothing while it is too small to go on.
    if (profile.length < MIN_PROFILE_PAPERS) return [];
    const found = await library.recommend(profile, { where: filters, limit: CANDIDATES, explain: false, ...(firstSeenAfter && { firstSeenAfter }) });
    return found.ok ? found.hits : [];
  };
  const pick = async (firstSeenAfter?: Date) => {
    const result = { hits: await ranked(firstSeenAfter) };
    const chosen: DigestPlan['papers'] = [];
    const taken = new Set<string>();
    // Candidates in slices, each one read of papers and one of the ledger (most were never sent).
    const slice = Math.max(10, sub.count * 2);
    for (let i = 0; i < result.hits.length && chosen.length < sub.count; i += slice) {
      const hits = result.hits.slice(i, i + slice);
      const papers = await library.papersByDocs(hits.map((h) => h.storeDoc));
      const candidates = hits.flatMap((hit) => {
        const paper = papers.get(hit.storeDoc);
        return paper ? [{ paper, keys: paperKeys(paper) }] : [];
      });
      const sent = await digests.sentAmong(sub.platform, sub.channel, candidates.flatMap((c) => c.keys));
      for (const { paper, keys } of candidates) {
        if (chosen.length >= sub.count) break;
        if (keys.some((k) => taken.has(k) || sent.has(k))) continue;
        for (const k of keys) taken.add(k);
        chosen.push({ id: paper.id, keys });
      }
    }
    return chosen;
  };
  const newest = library.newestFirstSeen();
  const until = (newest > since ? newest : since).toISOString();
  const fresh = await pick(since);
  if (fresh.length > 0 || !sub.fill) return { papers: fresh, fill: false, since: since.toISOString(), until };
  return { papers: await pick(), fill: true, since: since.toISOString(), until };
}

/** How many messages a digest of `paperCount` papers takes (an empty digest is one line). */
export function partCount(paperCount: number): number {
  return Math.max(1, Math.ceil(paperCount / DIGEST_PART_SIZE));
}

export interface RenderDeps {
  library: Library;
  states: StateStore;
  now: Date;
  /** The language of the digest (the subscription's); English when absent. */
  messages?: Messages;
  /** For a digest ranked by the channel's library: the papers of that library (`source.ts`). */
  profile?: readonly string[];
}

/** One message of a digest, and the papers it carries. */
export interface DigestPart {
  reply: Reply;
  paperIds: string[];
}

/**
 * The messages of a digest. The same plan gives the same papers in the same parts, so a resumed
 * digest sends the parts it has not sent as they would have been.
 */
export async function renderDigest(deps: RenderDeps, sub: Subscription, plan: { papers: string[]; fill: boolean; since: string }, slot: Date): Promise<DigestPart[]> {
  const { library } = deps;
  const fromLibrary = libraryFilters(sub.query) !== undefined;
  const m = deps.messages ?? messagesFor();
  const label = subscriptionLabel(library.taxonomy, sub, m);
  const heading = m.t('digest.heading', { label, date: m.date(slot, sub.timezone) });
  const stored = await library.papersByIds(plan.papers);
  const found = plan.papers.flatMap((id) => {
    const hit = stored.get(id);
    return hit ? [{ id, ...hit }] : [];
  });
  const since = m.date(new Date(plan.since), sub.timezone);
  if (found.length === 0) {
    const text = m.t('digest.nothingNew', { label, since });
    return [{ reply: { locale: m.locale, fallback: `${heading}: ${text}`, blocks: [{ kind: 'text', text: m.t('digest.nothingNewLine', { heading, text }) }] }, paperIds: [] }];
  }
  const note = plan.fill ? m.t('digest.fill', { since }) : m.t('digest.newCount', { count: found.length, since });
  // One state for the More button of this subscription and slot, however often it is rendered.
  // Why each paper, for a digest ranked by the channel's library ("like ‹saved title›, ‹word›").
  const why = fromLibrary && deps.profile ? await library.explain(deps.profile, plan.papers) : new Map<string, Reason>();
  // A library digest's papers have no search to continue: no More button.
  const more = fromLibrary
    ? undefined
    : await saveSearchAt(
    deps.states,
    `dg-${sub.id.toString(36)}-${Math.floor(slot.getTime() / 60_000).toString(36)}`,
    { query: `${sub.query} sort:new`, heading: subscriptionLabels(library.taxonomy, sub), locale: m.locale },
    deps.now,
  );
  const parts: DigestPart[] = [];
  for (let i = 0; i < found.length; i += DIGEST_PART_SIZE) {
    const slice = found.slice(i, i + DIGEST_PART_SIZE);
    const cards = slice.map((f, j) => {
      const card = library.card(f.paper, f.doc, { position: i + j + 1, messages: m });
      const reason = why.get(f.id);
      const line = reason ? whyLine(m, reason) : '';
      return line ? { ...card, provenance: line } : card;
    });
    const blocks: Block[] = i === 0 ? [{ kind: 'heading', text: heading }, { kind: 'note', text: note }] : [];
    blocks.push(...cards.map((paper): Block => ({ kind: 'paper', paper })));
    const last = i + DIGEST_PART_SIZE >= found.length;
    parts.push({
      reply: {
        locale: m.locale,
        fallback: `${i === 0 ? `${heading}: ` : ''}${cards.map((c) => c.title).join('; ')}`,
        blocks,
        ...(last && more && { buttons: [[{ id: 'more', label: shorten(m.t('digest.more', { label }), 75), action: action('paper', 'more', more) }]] }),
      },
      paperIds: slice.map((f) => f.id),
    });
  }
  return parts;
}

/**
 * What a subscription is called in a language: its topic's label, else its words in quotes.
 * @example subscriptionLabel(taxonomy, sub, messages('zh-CN')) // '深度学习 · 大语言模型'
 */
export function subscriptionLabel(taxonomy: Taxonomy, sub: Pick<Subscription, 'query' | 'label'>, m: Messages): string {
  const filters = libraryFilters(sub.query);
  if (filters === undefined) return m.pick(subscriptionLabels(taxonomy, sub));
  if (filters === '') return m.t('digest.libraryLabel');
  return m.t('digest.libraryTopicLabel', { topic: m.pick(subscriptionLabels(taxonomy, { query: filters, label: sub.label })) });
}

/** A subscription's label in every language there is one for. */
export function subscriptionLabels(taxonomy: Taxonomy, sub: Pick<Subscription, 'query' | 'label'>): Localized {
  // A topic, less the words it excludes ("topic:"…" -medical"), named in every language.
  const [, id, less = ''] = /^topic:"([^"]+)"((?: -\S.*)?)$/.exec(sub.query) ?? [];
  const topic = id === undefined ? undefined : taxonomy.byId(id);
  if (!topic) return { en: sub.label };
  return Object.fromEntries(Object.entries(topic.labels).map(([locale, label]) => [locale, `${label}${less}`])) as unknown as Localized;
}
