/**
 * What an index holds, counted over its live documents (every segment, masked ones left out):
 * for `paperscout stats` and `paperscout topics`.
 */
import type { IndexView } from './index/view.js';

export interface IndexStats {
  papers: number;
  generation: number;
  terms: number;
  /** `2017–2026`, or `none` when no paper has a year. */
  years: string;
  /** Papers per venue, most first. */
  venues: Array<[string, number]>;
  /** Papers with at least one topic. */
  withTopic: number;
}

/**
 * Counts by venue, year range, topic coverage.
 * @example indexStats(view).venues[0] // ['arXiv', 61234]
 */
export function indexStats(view: IndexView): IndexStats {
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
 * Papers per topic id.
 * @example topicCounts(view).get('deep-learning/large-language-models') // 812
 */
export function topicCounts(view: IndexView): Map<string, number> {
  return new Map(view.topics.map((id, bit) => [id, view.docsWithTopic(bit).length]));
}
