/**
 * An OpenAlex sync's summary for people: the counts (asked, matched, not found, ambiguous,
 * refused, requests), how the papers were found, then the works that could not be told apart,
 * the counts refused and the papers skipped, and why the sync stopped if it did.
 */
import { messages, type Messages } from '../../i18n/index.js';
import { REFRESH_DAYS, type OpenAlexSyncSummary } from './sync.js';

/**
 * @example
 * formatOpenAlexSummary(summary)
 * // 'OpenAlex: 120 papers asked about: 100 matched (100 with a new or changed count), 18 not found, 1 ambiguous, 1 count refused; 40 requests\n'
 * // + '  found by their OpenAlex work 0, by DOI or arXiv id 50, by title 50\n'
 * // + '  ambiguous: W42 "Deep Learning" fits doi:10.1/a, doi:10.1/b: no count given to any of them\n' …
 */
export function formatOpenAlexSummary(summary: OpenAlexSyncSummary, m: Messages = messages('en')): string {
  const s = summary;
  const lines =
    s.asked === 0
      ? [m.t('sync.openalex.nothing', { refresh: s.refresh ? 'yes' : 'no', days: REFRESH_DAYS, requests: s.requests })]
      : [
          m.t('sync.openalex.summary', { asked: s.asked, matched: s.matched, changed: s.countsChanged, unmatched: s.unmatched, ambiguous: s.ambiguous, refused: s.refused, requests: s.requests }),
          `  ${m.t('sync.openalex.by', s.by)}`,
        ];
  const listed = <T>(items: readonly T[], total: number, line: (item: T) => string) => {
    for (const item of items) lines.push(`  ${line(item)}`);
    if (total > items.length) lines.push(`  ${m.t('sync.openalex.more', { count: total - items.length })}`);
  };
  listed(s.ambiguities, s.noted.ambiguities, (a) => m.t('sync.openalex.ambiguous', { work: a.work, title: a.title, papers: a.papers.join(', ') }));
  listed(s.refusals, s.noted.refusals, (r) => m.t('sync.openalex.refused', { work: r.work, paper: r.paper ?? '?', reason: r.reason }));
  listed(s.skipped, s.noted.skipped, (k) => m.t('sync.openalex.skipped', { paper: k.paper, reason: k.reason }));
  if (s.error) lines.push(`  ${m.t('sync.openalex.stopped', { error: s.error })}`);
  else if (s.aborted) lines.push(`  ${m.t('sync.openalex.aborted')}`);
  return lines.join('\n');
}
