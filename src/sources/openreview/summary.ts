/**
 * An OpenReview sync's summary for people: a paragraph a venue (statuses counted, decisions
 * changed, skipped notes), then the totals.
 */
import { messages, type Messages } from '../../i18n/index.js';
import { keptApartLines, mergePhrases, syncCounts } from '../summary.js';
import { DECISIONS } from './record.js';
import type { OpenReviewSyncSummary, VenueSummary } from './sync.js';

/** Skipped notes described per venue; all are counted. */
export const MAX_SKIPPED_SHOWN = 20;

/**
 * @example
 * formatOpenReviewSummary(summary)
 * // 'OpenReview ICLR.cc/2025/Conference: 5 of 5 submissions: 5 added, 0 updated, 0 unchanged, 0 skipped\n'
 * // + '  Oral 1, Spotlight 1, Poster 1, Rejected 1, Withdrawn 1; rejected and withdrawn submissions are kept with that status, never shown as accepted\n'
 * // + 'Total: 5 added, 0 updated, 0 unchanged, 0 skipped, 0 merged into papers held under another identifier, 0 kept apart'
 */
export function formatOpenReviewSummary(summary: OpenReviewSyncSummary, m: Messages = messages('en')): string {
  const lines = summary.venues.flatMap((v) => venueLines(v, m));
  const { added, updated, unchanged, skipped } = summary;
  const total = m.t('sync.total', { counts: syncCounts(m, { added, updated, unchanged, skipped }, { after: mergePhrases(m, summary, { always: true }) }) });
  const failed = summary.failed.length > 0 ? m.t('sync.openreview.venuesFailed', { failed: summary.failed.length, total: summary.venues.length }) : '';
  lines.push(`${total}${failed}${summary.aborted ? m.t('sync.stoppedEarly') : ''}`, ...keptApartLines(m, summary));
  return lines.join('\n');
}

function venueLines(v: VenueSummary, m: Messages): string[] {
  const counts = syncCounts(m, { added: v.added, updated: v.updated, unchanged: v.unchanged, skipped: v.skipped.length }, { after: mergePhrases(m, v) });
  const lines = [
    v.count !== undefined
      ? m.t('sync.openreview.venueOf', { venue: v.venue, notes: v.notes, total: v.count, counts })
      : m.t('sync.openreview.venue', { venue: v.venue, notes: v.notes, counts }),
  ];
  // Decisions are the venue's own words, as stored: data, not translated.
  const statuses = DECISIONS.filter((d) => (v.byStatus[d] ?? 0) > 0).map((d) => m.t('sync.openreview.status', { status: d, count: v.byStatus[d] ?? 0 }));
  if (statuses.length > 0) {
    const kept = DECISIONS.some((d) => (d === 'Rejected' || d === 'Desk Rejected' || d === 'Withdrawn') && (v.byStatus[d] ?? 0) > 0);
    const list = statuses.join(m.t('text.listSeparator'));
    lines.push(`  ${kept ? m.t('sync.openreview.keptRejected', { statuses: list }) : list}`);
  }
  if (v.decisionsChanged > 0) lines.push(`  ${m.t('sync.openreview.decisionsChanged', { count: v.decisionsChanged })}`);
  for (const s of v.skipped.slice(0, MAX_SKIPPED_SHOWN)) {
    const values = { page: s.page, index: String(s.index), id: s.id ?? '', reason: s.reason };
    lines.push(`  ${m.t(s.id ? 'sync.openreview.skippedId' : 'sync.openreview.skipped', values)}`);
  }
  if (v.skipped.length > MAX_SKIPPED_SHOWN) lines.push(`  ${m.t('sync.moreSkipped', { count: v.skipped.length - MAX_SKIPPED_SHOWN })}`);
  if (v.error) lines.push(`  ${m.t('sync.openreview.failed', { error: v.error })}`);
  return lines;
}
