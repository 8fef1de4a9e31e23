/**
 * A sync summary as text for people: one paragraph a category, then the totals.
 */
import type { HarvestSummary, SetSummary } from './harvest.js';
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

/**
 * A backfill's summary: a paragraph a set, then the totals.
 * @example
 * formatHarvestSummary(summary)
 * // 'arXiv OAI-PMH from 2024-01-01 to now, categories cs.LG, cs.CL\n'
 * // + '  set cs, from 2024-01-01: 3 pages, 7 records: 4 added, 0 updated, 0 unchanged, 1 in other categories, 1 deleted, 1 skipped\n…'
 */
export function formatHarvestSummary(summary: HarvestSummary): string {
  const lines = [`arXiv OAI-PMH from ${summary.from} to ${summary.until ?? 'now'}, categories ${summary.categories.join(', ')}`];
  for (const set of summary.sets) lines.push(...setLines(set));
  const total = `Total: ${summary.added} added, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.removed} removed, ${summary.skipped} skipped`;
  const failed = summary.failed.length > 0 ? `; ${summary.failed.length} of ${summary.sets.length} ${plural(summary.sets.length, 'set', 'sets')} stopped early` : '';
  const rerun = summary.failed.length > 0 || summary.aborted ? '. Run the same command again to resume where it stopped.' : '';
  lines.push(`${total}${failed}${summary.aborted ? ' (stopped before the end)' : ''}${rerun}`);
  return lines.join('\n');
}

function setLines(s: SetSummary): string[] {
  const start =
    s.start.kind === 'token' ? 'resumed at the stored resumption token' : s.start.kind === 'datestamp' ? `again from ${s.start.from}, the last datestamp stored` : `from ${s.start.from}`;
  const parts = [`${s.added} added`, `${s.updated} updated`, `${s.unchanged} unchanged`];
  if (s.outside > 0) parts.push(`${s.outside} in other categories`);
  if (s.duplicates > 0) parts.push(`${s.duplicates} cross-listed and already stored`);
  if (s.deleted > 0) parts.push(`${s.deleted} deleted by arXiv (${s.removed} removed from the library)`);
  parts.push(`${s.skipped.length} skipped`);
  const size = s.completeListSize !== undefined ? ` of ${s.completeListSize}` : '';
  const lines = [`  set ${s.set}, ${start}: ${s.pages} ${plural(s.pages, 'page', 'pages')}, ${s.records}${size} records: ${parts.join(', ')}`];
  for (const r of s.restarts) lines.push(`    arXiv refused the resumption token at page ${r.page} (${r.reason}): started the list again from ${r.from}`);
  for (const p of s.skipped.slice(0, MAX_SKIPPED_SHOWN)) {
    const where = `page ${p.page}${p.index !== undefined ? `, record ${p.index}` : ''}${p.id ? ` (arXiv ${p.id})` : ''}`;
    lines.push(`    ${where} skipped: ${p.reason}`);
  }
  if (s.skipped.length > MAX_SKIPPED_SHOWN) lines.push(`    … and ${s.skipped.length - MAX_SKIPPED_SHOWN} more skipped`);
  if (s.error) lines.push(`    stopped: ${s.error}`);
  else if (!s.done) lines.push('    stopped before the end of the list');
  return lines;
}
