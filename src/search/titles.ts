/**
 * Lookups in the index's title order (documents sorted by normalized title): titles that are,
 * or start with, what was typed.
 */
import { normalizeTitle } from '../text.js';
import type { IndexData } from './index/types.js';

/**
 * Documents whose normalized title starts with `key`, in title order (exact titles first), at
 * most `max` of them.
 * @example titlePrefixDocs(data, 'attention is all', 25)
 */
export function titlePrefixDocs(data: Pick<IndexData, 'titleOrder' | 'titles'>, key: string, max: number): number[] {
  if (key.length === 0) return [];
  const from = lowerBound(data, key);
  const to = lowerBound(data, `${key}\uffff`);
  const out: number[] = [];
  for (let i = from; i < to && out.length < max; i++) out.push(data.titleOrder[i]!);
  return out;
}

function lowerBound(data: Pick<IndexData, 'titleOrder' | 'titles'>, key: string): number {
  const { titleOrder, titles } = data;
  let lo = 0;
  let hi = titleOrder.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (normalizeTitle(titles[titleOrder[mid]!]!) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
