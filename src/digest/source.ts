/**
 * Digests whose source is the channel's library (`/digest subscribe source:library`): the papers
 * that arrived since the last digest, ranked by how much they are like the channel's reading
 * list and the papers shared in it (optionally within a topic), each saying why. Such a
 * subscription keeps its source in its query, as `source:library` before the filters, so that
 * it needs nothing the stores do not already keep. A member's own library never enters: the
 * profile is the channel's list and archive (`profilePaperIds`).
 */
import type { ListOwner, ReadingListStore } from '../store/readingLists.js';
import { profilePaperIds } from '../store/readingLists.js';
import type { Subscription } from '../store/digests.js';

/** What marks a subscription's query as ranked by the channel's library. */
export const LIBRARY_SOURCE = 'source:library';
/** The team of a channel outside any workspace, as reading lists key it (`commands/lists.ts`). */
const NO_TEAM = 'dm';

/**
 * The filters of a library-sourced query (`''` for none), or undefined for any other query.
 * @example libraryFilters('source:library topic:"llm"') // 'topic:"llm"'
 */
export function libraryFilters(query: string): string | undefined {
  if (query !== LIBRARY_SOURCE && !query.startsWith(`${LIBRARY_SOURCE} `)) return undefined;
  return query.slice(LIBRARY_SOURCE.length).trim();
}

/**
 * The query of a library-sourced subscription with these filters.
 * @example libraryQuery('topic:"llm"') // 'source:library topic:"llm"'
 */
export function libraryQuery(filters: string): string {
  return filters.trim() === '' ? LIBRARY_SOURCE : `${LIBRARY_SOURCE} ${filters.trim()}`;
}

/** The paper ids a library-sourced subscription ranks by: its channel's list and shares, newest first. */
export function channelProfile(lists: Pick<ReadingListStore, 'list' | 'archive'>, sub: Pick<Subscription, 'platform' | 'workspace' | 'channel'>): Promise<string[]> {
  const owner: ListOwner = { platform: sub.platform, team: sub.workspace || NO_TEAM, kind: 'channel', id: sub.channel };
  return profilePaperIds(lists, owner);
}
