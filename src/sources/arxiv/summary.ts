/**
 * A sync summary as text for people: one paragraph a category, then the totals.
 */
import type { CategorySummary, SyncSummary } from './sync.js';

/** Skipped entries described per category; all are counted. */
export const MAX_SKIPPED_SHOWN = 20;

/**
 * @example
 * formatSyncSummary(summary)
 * // 'arXiv cs.LG, feed of 2025-04-14: 7 entries: 4 added, 1 updated, 0 unchanged, 1 skipped, 1 duplicate\n'
 * // + '  RSS item 5 skipped: no title (arXiv 2504.09007)\n…\nTotal: 4 added, 1 updated, 0 unchanged, 1 skipped'
 */
export function formatSyncSummary(summary: SyncSummary): string {
  const lines = summary.categories.flatMap(categoryLines);
  const total = `Total: ${summary.added} added, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.skipped} skipped`;
  const failed = summary.failed.length > 0 ? `; ${summary.failed.length} of ${summary.categories.length} ${plural(summary.categories.length, 'category', 'categories')} failed` : '';
  lines.push(`${total}${failed}${summary.aborted ? ' (stopped before the end)' : ''}`);
  return lines.join('\n');
}

function categoryLines(c: CategorySummary): string[] {
  if (c.error) return [`arXiv ${c.category} failed: ${c.error}`];
  const head = `arXiv ${c.category}${c.feedDate ? `, feed of ${c.feedDate}` : ''}`;
  const lines: string[] = [];
  if (c.empty && !c.catchUp) {
    lines.push(`${head}: no announcements (a weekend or holiday feed)`);
  } else {
    const parts = [`${c.added} added`, `${c.updated} updated`, `${c.unchanged} unchanged`, `${c.skipped.length} skipped`];
    if (c.duplicates > 0) parts.push(`${c.duplicates} ${plural(c.duplicates, 'duplicate', 'duplicates')} (cross-listed or already fetched)`);
    if (c.replacementsIgnored > 0) parts.push(`${c.replacementsIgnored} new ${plural(c.replacementsIgnored, 'version', 'versions')} of papers not in the library left out`);
    lines.push(`${head}: ${c.fetched} ${plural(c.fetched, 'entry', 'entries')}: ${parts.join(', ')}`);
  }
  if (c.catchUp) {
    const { since, pages, entries, truncated, error } = c.catchUp;
    const outcome = error
      ? `failed (${error}); retried at the next sync`
      : `${pages} ${plural(pages, 'page', 'pages')}, ${entries} ${plural(entries, 'entry', 'entries')}${truncated ? ' (stopped at the page limit: older papers were not fetched)' : ''}`;
    lines.push(`  missed announcements caught up through the API from ${since}: ${outcome}`);
  }
  for (const s of c.skipped.slice(0, MAX_SKIPPED_SHOWN)) lines.push(`  ${s.source === 'rss' ? 'RSS item' : 'API entry'} ${s.index} skipped: ${s.reason}`);
  if (c.skipped.length > MAX_SKIPPED_SHOWN) lines.push(`  … and ${c.skipped.length - MAX_SKIPPED_SHOWN} more skipped`);
  return lines;
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}
