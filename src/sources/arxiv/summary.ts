/**
 * A sync summary as text for people, in their language: one paragraph a category, then the
 * totals, with the records merged into papers held under another identifier and those kept
 * apart, as `paperscout ingest` says them. (The scheduled syncs log it in English.)
 */
import { messages, type Messages } from '../../i18n/index.js';
import { keptApartLines, mergePhrases, syncCounts } from '../summary.js';
import type { HarvestSummary, SetSummary } from './harvest.js';
import type { CategorySummary, SyncSummary } from './sync.js';

/** Skipped entries described per category; all are counted. */
export const MAX_SKIPPED_SHOWN = 20;

/**
 * @example
 * formatSyncSummary(summary)
 * // 'arXiv cs.LG, feed of 2025-04-14: 7 entries: 4 added, 1 updated, 0 unchanged, 1 skipped, 1 duplicate\n'
 * // + '  RSS item 5 skipped: no title (arXiv 2504.09007)\n…\nTotal: 4 added, 1 updated, 0 unchanged, 1 skipped, 1 merged into a paper held under another identifier, 0 kept apart'
 */
export function formatSyncSummary(summary: SyncSummary, m: Messages = messages('en')): string {
  const lines = summary.categories.flatMap((c) => categoryLines(c, m));
  const { added, updated, unchanged, skipped } = summary;
  const total = m.t('sync.total', { counts: syncCounts(m, { added, updated, unchanged, skipped }, { after: mergePhrases(m, summary, { always: true }) }) });
  const failed = summary.failed.length > 0 ? m.t('sync.arxiv.categoriesFailed', { failed: summary.failed.length, total: summary.categories.length }) : '';
  lines.push(`${total}${failed}${summary.aborted ? m.t('sync.stoppedEarly') : ''}`, ...keptApartLines(m, summary));
  return lines.join('\n');
}

function categoryLines(c: CategorySummary, m: Messages): string[] {
  if (c.error) return [m.t('sync.arxiv.failed', { category: c.category, error: c.error })];
  const head = c.feedDate ? m.t('sync.arxiv.headFeed', { category: c.category, date: c.feedDate }) : m.t('sync.arxiv.head', { category: c.category });
  const lines: string[] = [];
  if (c.empty && !c.catchUp) {
    lines.push(m.t('sync.arxiv.noAnnouncements', { head }));
  } else {
    const after: string[] = [];
    if (c.duplicates > 0) after.push(m.t('sync.arxiv.duplicates', { count: c.duplicates }));
    if (c.replacementsIgnored > 0) after.push(m.t('sync.arxiv.replacementsIgnored', { count: c.replacementsIgnored }));
    after.push(...mergePhrases(m, c));
    const counts = syncCounts(m, { added: c.added, updated: c.updated, unchanged: c.unchanged, skipped: c.skipped.length }, { after });
    lines.push(m.t('sync.arxiv.entries', { head, fetched: c.fetched, counts }));
  }
  if (c.catchUp) {
    const { since, pages, entries, truncated, error } = c.catchUp;
    const outcome = error
      ? m.t('sync.arxiv.catchUpFailed', { error })
      : m.t(truncated ? 'sync.arxiv.catchUpTruncated' : 'sync.arxiv.catchUpDone', { pages, entries });
    lines.push(`  ${m.t('sync.arxiv.catchUp', { since, outcome })}`);
  }
  for (const s of c.skipped.slice(0, MAX_SKIPPED_SHOWN)) {
    lines.push(`  ${m.t(s.source === 'rss' ? 'sync.arxiv.skippedRss' : 'sync.arxiv.skippedApi', { index: String(s.index), reason: s.reason })}`);
  }
  if (c.skipped.length > MAX_SKIPPED_SHOWN) lines.push(`  ${m.t('sync.moreSkipped', { count: c.skipped.length - MAX_SKIPPED_SHOWN })}`);
  return lines;
}

/**
 * A backfill's summary: a paragraph a set, then the totals.
 * @example
 * formatHarvestSummary(summary)
 * // 'arXiv OAI-PMH from 2024-01-01 to now, categories cs.LG, cs.CL\n'
 * // + '  set cs, from 2024-01-01: 3 pages, 7 records: 4 added, 0 updated, 0 unchanged, 1 in other categories, 1 deleted, 1 skipped\n…'
 */
export function formatHarvestSummary(summary: HarvestSummary, m: Messages = messages('en')): string {
  const until = summary.until ?? m.t('sync.oai.now');
  const lines = [m.t('sync.oai.heading', { from: summary.from, until, categories: summary.categories.join(', ') })];
  for (const set of summary.sets) lines.push(...setLines(set, m));
  const { added, updated, unchanged, removed, skipped } = summary;
  const total = m.t('sync.total', { counts: syncCounts(m, { added, updated, unchanged, removed, skipped }, { after: mergePhrases(m, summary, { always: true }) }) });
  const failed = summary.failed.length > 0 ? m.t('sync.oai.setsFailed', { failed: summary.failed.length, total: summary.sets.length }) : '';
  const rerun = summary.failed.length > 0 || summary.aborted ? m.t('sync.oai.rerun') : '';
  lines.push(`${total}${failed}${summary.aborted ? m.t('sync.stoppedEarly') : ''}${rerun}`, ...keptApartLines(m, summary));
  return lines.join('\n');
}

function setLines(s: SetSummary, m: Messages): string[] {
  const start =
    s.start.kind === 'token'
      ? m.t('sync.oai.startToken')
      : s.start.kind === 'datestamp'
        ? m.t('sync.oai.startDatestamp', { from: s.start.from })
        : m.t('sync.oai.startFrom', { from: s.start.from });
  const beforeSkipped: string[] = [];
  if (s.outside > 0) beforeSkipped.push(m.t('sync.oai.outside', { count: s.outside }));
  if (s.duplicates > 0) beforeSkipped.push(m.t('sync.oai.duplicates', { count: s.duplicates }));
  if (s.deleted > 0) beforeSkipped.push(m.t('sync.oai.deleted', { count: s.deleted, removed: s.removed }));
  const counts = syncCounts(m, { added: s.added, updated: s.updated, unchanged: s.unchanged, skipped: s.skipped.length }, { beforeSkipped, after: mergePhrases(m, s) });
  const values = { set: s.set, start, pages: s.pages, records: s.records, counts };
  const lines = [`  ${s.completeListSize !== undefined ? m.t('sync.oai.setOf', { ...values, total: s.completeListSize }) : m.t('sync.oai.set', values)}`];
  for (const r of s.restarts) lines.push(`    ${m.t('sync.oai.restart', { page: r.page, reason: r.reason, from: r.from })}`);
  for (const p of s.skipped.slice(0, MAX_SKIPPED_SHOWN)) {
    const values = { page: p.page, reason: p.reason, index: String(p.index ?? ''), id: p.id ?? '' };
    const key = p.index !== undefined ? (p.id ? 'sync.oai.skippedRecordId' : 'sync.oai.skippedRecord') : p.id ? 'sync.oai.skippedId' : 'sync.oai.skipped';
    lines.push(`    ${m.t(key, values)}`);
  }
  if (s.skipped.length > MAX_SKIPPED_SHOWN) lines.push(`    ${m.t('sync.moreSkipped', { count: s.skipped.length - MAX_SKIPPED_SHOWN })}`);
  if (s.error) lines.push(`    ${m.t('sync.oai.stopped', { error: s.error })}`);
  else if (!s.done) lines.push(`    ${m.t('sync.oai.notDone')}`);
  return lines;
}
