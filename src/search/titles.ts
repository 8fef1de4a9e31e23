/**
 * Lookups in the index's title order (documents sorted by normalized title): titles that are,
 * or start with, what was typed.
 */
import type { IndexView } from './index/view.js';

/**
 * Documents whose normalized title starts with `key`, in title order (exact titles first), at
 * most `max` of them.
 * @example titlePrefixDocs(view, 'attention is all', 25)
 */
export function titlePrefixDocs(view: IndexView, key: string, max: number): number[] {
  if (key.length === 0) return [];
  return view.titlePrefix(Buffer.from(key, 'utf8'), max);
}
