/**
 * The short human report `paperscout ingest` prints when it is done, in the reader's language.
 */
import { en } from '../i18n/catalog/en.js';
import { messages, type MessageKey, type Messages } from '../i18n/index.js';
import type { IngestSummary } from './ingest.js';

/** Rejected records listed one per line; the rest are counted. */
export const SUMMARY_REJECT_LINES = 20;

const COUNT_PREFIX = 'ingest.count.';
/**
 * The counts the first line shows: each `ingest.count.<field>` message of the catalog, in its
 * order, for a numeric field of the summary. A new count is one catalog message.
 */
const COUNT_KEYS = (Object.keys(en) as MessageKey[]).filter((key) => key.startsWith(COUNT_PREFIX));

/**
 * The summary as a few lines of text: the counts, the files that could not be read, and the
 * first {@link SUMMARY_REJECT_LINES} rejected records as `file:line [index N]: reason`.
 * @example
 * formatSummary({ files: 2, added: 3, updated: 0, unchanged: 1, rejected: 1, aborted: false, failedFiles: [],
 *   rejects: [{ file: 'a.jsonl', line: 4, index: 3, reason: 'title: title is empty' }] })
 * // '5 records from 2 files: 3 added, 0 updated, 1 unchanged, 1 rejected\n  a.jsonl:4 [index 3]: title: title is empty'
 */
export function formatSummary(summary: IngestSummary, m: Messages = messages('en')): string {
  const records = summary.added + summary.updated + summary.unchanged + summary.rejected;
  const counts = COUNT_KEYS.flatMap((key) => {
    const count = (summary as unknown as Record<string, unknown>)[key.slice(COUNT_PREFIX.length)];
    const text = typeof count === 'number' ? m.t(key, { count }) : '';
    return text === '' ? [] : [text];
  });
  const lines = [m.t('ingest.summary', { records, files: summary.files, counts: counts.join(m.t('text.listSeparator')) })];
  if (summary.aborted) lines.push(m.t('ingest.stopped'));
  for (const { file, reason } of summary.failedFiles) lines.push(`  ${file}: ${reason}`);
  const shown = summary.rejects.slice(0, SUMMARY_REJECT_LINES);
  for (const r of shown) lines.push(`  ${m.t('ingest.reject', { file: r.file, line: String(r.line), index: String(r.index), reason: r.reason })}`);
  if (summary.rejected > shown.length) lines.push(`  ${m.t('ingest.moreRejected', { count: summary.rejected - shown.length })}`);
  return lines.join('\n');
}
