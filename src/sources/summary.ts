/**
 * The counts every source's sync summary shows, in the reader's language.
 */
import type { Messages } from '../i18n/index.js';

/**
 * "4 added, 1 updated, 0 unchanged, 1 skipped" (and `removed` when given), then `extra` phrases,
 * in `m`'s language. Shared by the arXiv and OpenReview summaries.
 * @example syncCounts(messages('en'), { added: 4, updated: 1, unchanged: 0, skipped: 1 }) // '4 added, 1 updated, 0 unchanged, 1 skipped'
 */
export function syncCounts(
  m: Messages,
  counts: { added: number; updated: number; unchanged: number; skipped: number; removed?: number },
  extra: { beforeSkipped?: readonly string[]; after?: readonly string[] } = {},
): string {
  const parts = [m.t('sync.count.added', { count: counts.added }), m.t('sync.count.updated', { count: counts.updated }), m.t('sync.count.unchanged', { count: counts.unchanged })];
  if (counts.removed !== undefined) parts.push(m.t('sync.count.removed', { count: counts.removed }));
  parts.push(...(extra.beforeSkipped ?? []), m.t('sync.count.skipped', { count: counts.skipped }), ...(extra.after ?? []));
  return parts.join(m.t('text.listSeparator'));
}
