/**
 * An OpenReview sync's summary for people: a paragraph a venue (statuses counted, decisions
 * changed, skipped notes), then the totals.
 */
import { DECISIONS } from './record.js';
import type { OpenReviewSyncSummary, VenueSummary } from './sync.js';

/** Skipped notes described per venue; all are counted. */
export const MAX_SKIPPED_SHOWN = 20;

/**
 * @example
 * formatOpenReviewSummary(summary)
 * // 'OpenReview ICLR.cc/2025/Conference: 5 of 5 submissions: 5 added, 0 updated, 0 unchanged, 0 skipped\n'
 * // + '  Oral 1, Spotlight 1, Poster 1, Rejected 1, Withdrawn 1; rejected and withdrawn submissions are kept with that status, never shown as accepted\n'
 * // + 'Total: 5 added, 0 updated, 0 unchanged, 0 skipped'
 */
export function formatOpenReviewSummary(summary: OpenReviewSyncSummary): string {
  const lines = summary.venues.flatMap(venueLines);
  const total = `Total: ${summary.added} added, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.skipped} skipped`;
  const failed = summary.failed.length > 0 ? `; ${summary.failed.length} of ${summary.venues.length} ${summary.venues.length === 1 ? 'venue' : 'venues'} failed` : '';
  lines.push(`${total}${failed}${summary.aborted ? ' (stopped before the end)' : ''}`);
  return lines.join('\n');
}

function venueLines(v: VenueSummary): string[] {
  const head = `OpenReview ${v.venue}`;
  const of = v.count !== undefined ? ` of ${v.count}` : '';
  const lines = [`${head}: ${v.notes}${of} submissions: ${v.added} added, ${v.updated} updated, ${v.unchanged} unchanged, ${v.skipped.length} skipped`];
  const statuses = DECISIONS.filter((d) => (v.byStatus[d] ?? 0) > 0).map((d) => `${d} ${v.byStatus[d]}`);
  if (statuses.length > 0) {
    const kept = DECISIONS.some((d) => (d === 'Rejected' || d === 'Desk Rejected' || d === 'Withdrawn') && (v.byStatus[d] ?? 0) > 0)
      ? '; rejected and withdrawn submissions are kept with that status, never shown as accepted'
      : '';
    lines.push(`  ${statuses.join(', ')}${kept}`);
  }
  if (v.decisionsChanged > 0) lines.push(`  ${v.decisionsChanged} ${v.decisionsChanged === 1 ? 'decision' : 'decisions'} changed since the last sync`);
  for (const s of v.skipped.slice(0, MAX_SKIPPED_SHOWN)) lines.push(`  page ${s.page}, note ${s.index}${s.id ? ` (${s.id})` : ''} skipped: ${s.reason}`);
  if (v.skipped.length > MAX_SKIPPED_SHOWN) lines.push(`  … and ${v.skipped.length - MAX_SKIPPED_SHOWN} more skipped`);
  if (v.error) lines.push(`  failed: ${v.error}`);
  return lines;
}
