/**
 * The short human report `paperscout ingest` prints when it is done.
 */
import type { IngestSummary } from './ingest.js';

/** Rejected records listed one per line; the rest are counted. */
export const SUMMARY_REJECT_LINES = 20;

/**
 * The summary as a few lines of text: the counts, the files that could not be read, and the
 * first {@link SUMMARY_REJECT_LINES} rejected records as `file:line [index N]: reason`.
 * @example
 * formatSummary({ files: 2, added: 3, updated: 0, unchanged: 1, rejected: 1, aborted: false, failedFiles: [],
 *   rejects: [{ file: 'a.jsonl', line: 4, index: 3, reason: 'title: title is empty' }] })
 * // '5 records from 2 files: 3 added, 0 updated, 1 unchanged, 1 rejected\n  a.jsonl:4 [index 3]: title: title is empty'
 */
export function formatSummary(summary: IngestSummary): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const records = summary.added + summary.updated + summary.unchanged + summary.rejected;
  const lines = [
    `${n(records)} record${records === 1 ? '' : 's'} from ${n(summary.files)} file${summary.files === 1 ? '' : 's'}: ` +
      `${n(summary.added)} added, ${n(summary.updated)} updated, ${n(summary.unchanged)} unchanged, ${n(summary.rejected)} rejected`,
  ];
  if (summary.aborted) lines.push('Stopped before the end: run the same command again to finish (what is in is kept).');
  for (const { file, reason } of summary.failedFiles) lines.push(`  ${file}: ${reason}`);
  const shown = summary.rejects.slice(0, SUMMARY_REJECT_LINES);
  for (const r of shown) lines.push(`  ${r.file}:${r.line} [index ${r.index}]: ${r.reason}`);
  if (summary.rejected > shown.length) lines.push(`  … and ${n(summary.rejected - shown.length)} more`);
  return lines.join('\n');
}
