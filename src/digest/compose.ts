/**
 * What a digest holds and how it reads: the subscription's papers first seen since the
 * channel's last digest, best first, minus anything the channel was ever sent; rendered as a
 * header with topic and date, the papers as result cards, and a "More" button.
 */
import type { Library } from '../library.js';
import { action, type Block, type Reply } from '../reply.js';
import type { StateStore } from '../store/stateStore.js';
import { paperKeys } from './keys.js';
import type { DigestStore, Subscription } from './store.js';

/** Papers in one digest message (a Discord message holds 10 embeds, a Slack one 50 blocks). */
export const DIGEST_PART_SIZE = 5;
/** Candidates looked at before the ledger filters out what was sent. */
const CANDIDATES = 200;

export interface DigestPlan {
  papers: Array<{ id: string; keys: string[] }>;
  /** Nothing was new, and the subscription asked for the best unsent papers instead. */
  fill: boolean;
  since: string;
}

/**
 * Chooses the papers for a subscription's next digest.
 * @example choosePapers(library, digests, sub, new Date(sub.lastDigestAt ?? sub.createdAt))
 */
export function choosePapers(library: Library, digests: DigestStore, sub: Subscription, since: Date): DigestPlan {
  const pick = (firstSeenAfter?: Date) => {
    const result = library.search(sub.query, { limit: CANDIDATES, ...(firstSeenAfter && { firstSeenAfter }) });
    const chosen: DigestPlan['papers'] = [];
    const taken = new Set<string>();
    for (const hit of result.hits) {
      if (chosen.length >= sub.count) break;
      const paper = library.paperByDoc(hit.storeDoc);
      if (!paper) continue;
      const keys = paperKeys(paper);
      if (keys.some((k) => taken.has(k)) || digests.wasSent(sub.platform, sub.channel, keys)) continue;
      for (const k of keys) taken.add(k);
      chosen.push({ id: paper.id, keys });
    }
    return chosen;
  };
  const fresh = pick(since);
  if (fresh.length > 0 || !sub.fill) return { papers: fresh, fill: false, since: since.toISOString() };
  return { papers: pick(), fill: true, since: since.toISOString() };
}

/** How many messages a digest of `paperCount` papers takes (an empty digest is one line). */
export function partCount(paperCount: number): number {
  return Math.max(1, Math.ceil(paperCount / DIGEST_PART_SIZE));
}

export interface RenderDeps {
  library: Library;
  states: StateStore;
  now: Date;
}

/**
 * The messages of a digest. The same plan gives the same papers in the same parts, so a resumed
 * digest sends the parts it has not sent as they would have been.
 */
export function renderDigest(deps: RenderDeps, sub: Subscription, plan: { papers: string[]; fill: boolean; since: string }, slot: Date): Reply[] {
  const { library } = deps;
  const date = formatDate(slot, sub.timezone);
  const heading = `${sub.label} · ${date}`;
  const cards = plan.papers.flatMap((id, i) => {
    const doc = library.docOf(id);
    const paper = doc === undefined ? undefined : library.paperByDoc(doc);
    return paper && doc !== undefined ? [library.card(paper, doc, { position: i + 1 })] : [];
  });
  const sinceText = formatDate(new Date(plan.since), sub.timezone);
  if (cards.length === 0) {
    const text = `No new papers on ${sub.label} since ${sinceText}.`;
    return [{ fallback: `${heading}: ${text}`, blocks: [{ kind: 'text', text: `${heading} — ${text}` }] }];
  }
  const note = plan.fill
    ? `Nothing new since ${sinceText}; here are the best papers on it this channel has not been sent yet.`
    : `${cards.length} new paper${cards.length === 1 ? '' : 's'} since ${sinceText}, best first.`;
  const more = deps.states.put({ query: `${sub.query} sort:new`, heading: sub.label }, deps.now);
  const parts: Reply[] = [];
  for (let i = 0; i < cards.length; i += DIGEST_PART_SIZE) {
    const slice = cards.slice(i, i + DIGEST_PART_SIZE);
    const blocks: Block[] = i === 0 ? [{ kind: 'heading', text: heading }, { kind: 'note', text: note }] : [];
    blocks.push(...slice.map((paper): Block => ({ kind: 'paper', paper })));
    const last = i + DIGEST_PART_SIZE >= cards.length;
    parts.push({
      fallback: `${i === 0 ? `${heading}: ` : ''}${slice.map((c) => c.title).join('; ')}`,
      blocks,
      ...(last && { buttons: [[{ label: `More on ${sub.label}`.slice(0, 75), action: action('paper', 'page', more, 0) }]] }),
    });
  }
  return parts;
}

/**
 * A date as people in `timeZone` read it.
 * @example formatDate(new Date('2026-11-29T08:00:00Z'), 'Europe/Paris') // 'Sunday, 29 November 2026'
 */
export function formatDate(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(date);
}
