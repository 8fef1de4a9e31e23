/**
 * The short human report `paperscout ingest` prints when it is done, in the reader's language,
 * and the lines of its details file (`details.ts`), in the same words.
 */
import { messages as messagesFor, type Messages } from '../i18n/index.js';
import type { KeptApart } from '../store/papers.js';
import type { ApartGroup, IngestSummary, KeptApartRecord, RejectedRecord } from './ingest.js';
import type { WorksSummary } from './works.js';

/** Rejected records listed one per line; the rest are counted (and listed in the details file). */
export const SUMMARY_REJECT_LINES = 20;
/** Identifiers of records kept apart listed one per line. */
export const SUMMARY_APART_LINES = 10;

export interface SummaryOptions {
  messages?: Messages;
  /** The file every rejected record and every record kept apart is listed in, if one was written. */
  detailsFile?: string;
}

/**
 * The summary as a few lines of text: {@link summaryHeadline}, then {@link summaryNotes}.
 * @example
 * formatSummary({ files: 2, added: 3, updated: 0, unchanged: 0, merged: 1, rejected: 1, apart: 0, apartGroups: [], aborted: false,
 *   failedFiles: [], emptyFiles: [], rejects: [{ file: 'a.jsonl', line: 4, index: 3, reason: 'title: title is empty' }] })
 * // '5 records from 2 files: 3 added, 0 updated, 0 unchanged, 1 duplicate merged, 1 rejected\n  a.jsonl:4 [index 3]: title: title is empty'
 */
export function formatSummary(summary: IngestSummary, options: SummaryOptions = {}): string {
  return [summaryHeadline(summary, options.messages), ...summaryNotes(summary, options)].join('\n');
}

/**
 * What went in, in one line: the counts.
 * @example summaryHeadline(summary) // '5 records from 2 files: 3 added, 0 updated, 0 unchanged, 1 duplicate merged, 1 rejected'
 */
export function summaryHeadline(summary: IngestSummary, m: Messages = messagesFor()): string {
  const { added, updated, unchanged, merged, works } = summary;
  const rejected = summary.rejected - (works?.rejected ?? 0);
  const records = added + updated + unchanged + merged + rejected;
  const lines: string[] = [];
  if (!works || records > 0) lines.push(m.t('ingest.summary', { records, files: summary.files, added, updated, unchanged, merged, rejected }));
  if (works) lines.push(worksHeadline(works, m));
  return lines.join('\n');
}

/**
 * What OpenAlex works files gave, in one line.
 * @example worksHeadline(works, m) // '3 OpenAlex works: 1 matched to papers (1 with a new or changed count), 1 unmatched, 1 ambiguous, 0 counts refused'
 */
export function worksHeadline(works: WorksSummary, m: Messages = messagesFor()): string {
  const { matched, countsChanged, unmatched, ambiguous, refused } = works;
  const line = m.t('ingest.works', { works: works.works, matched, changed: countsChanged, unmatched, ambiguous, refused });
  return works.adding ? `${line}${m.t('ingest.works.added', { count: works.added })}` : line;
}

/** The works that gave no count, and why: those that fit several papers, the counts refused; and how to add the rest. */
function worksNotes(works: WorksSummary, m: Messages): string[] {
  const lines: string[] = [];
  const listed = <T>(items: readonly T[], total: number, line: (item: T) => string) => {
    const shown = items.slice(0, SUMMARY_REJECT_LINES);
    for (const item of shown) lines.push(`  ${line(item)}`);
    if (total > shown.length) lines.push(`  ${m.t('ingest.works.more', { count: total - shown.length })}`);
  };
  listed(works.ambiguities, works.ambiguous, (a) => m.t('ingest.works.ambiguous', { file: a.file, line: String(a.line), work: a.work, title: a.title, papers: a.papers.join(', ') }));
  listed(works.refusals, works.refused, (r) => m.t('ingest.works.refused', { file: r.file, line: String(r.line), work: r.work, reason: r.reason }));
  if (!works.adding && works.unmatched > 0) lines.push(m.t('ingest.works.addTip'));
  return lines;
}

/**
 * What did not go in, and why (for stderr): an import stopped early; the files that could not
 * be read or gave no record; the first {@link SUMMARY_REJECT_LINES} rejected records as
 * `file:line [index N]: reason`; the records kept apart from a paper they share an identifier
 * with, by identifier; and where the rest are.
 * @example summaryNotes(summary) // ['  a.jsonl:4 [index 3]: title: title is empty']
 */
export function summaryNotes(summary: IngestSummary, options: SummaryOptions = {}): string[] {
  const m = options.messages ?? messagesFor();
  const file = options.detailsFile;
  const lines: string[] = [];
  if (summary.aborted) lines.push(m.t('ingest.stopped'));
  for (const failed of summary.failedFiles) lines.push(`  ${m.t('ingest.fileFailed', failed)}`);
  for (const empty of summary.emptyFiles) lines.push(`  ${m.t('ingest.fileEmpty', empty)}`);
  const shown = summary.rejects.slice(0, SUMMARY_REJECT_LINES);
  for (const r of shown) lines.push(`  ${rejectLine(r, m)}`);
  const more = summary.rejected - shown.length;
  if (more > 0) lines.push(`  ${file ? m.t('ingest.moreInFile', { count: more, total: summary.rejected, file }) : m.t('ingest.more', { count: more })}`);
  lines.push(...apartLines(summary, m, (g) => importApartGroup(g, m), file));
  if (summary.works) lines.push(...worksNotes(summary.works, m));
  return lines;
}

/**
 * The records kept apart, by the identifier they share: a heading, the first
 * {@link SUMMARY_APART_LINES} groups as `line` words them (an import's by file and line), and
 * where the rest are. Nothing when none was kept apart. A sync's summary words them too.
 * @example apartLines(summary, m) // ['Kept apart: 2 records share an identifier …:', '  url:x.org/all.pdf: 2 records, the first at a.jsonl:2 [index 1] (…)']
 */
export function apartLines<G extends { alias: string; records: number }>(
  summary: { apart: number; apartGroups: readonly G[] },
  m: Messages,
  line: (group: G) => string,
  file?: string,
): string[] {
  if (summary.apart === 0) return [];
  const lines = [m.t('ingest.apart', { count: summary.apart })];
  const groups = summary.apartGroups.slice(0, SUMMARY_APART_LINES);
  for (const g of groups) lines.push(`  ${line(g)}`);
  const moreApart = summary.apart - groups.reduce((n, g) => n + g.records, 0);
  if (moreApart > 0) lines.push(`  ${file ? m.t('ingest.apartMoreInFile', { count: moreApart, file }) : m.t('ingest.apartMore', { count: moreApart })}`);
  if (summary.apartGroups.some((g) => g.alias.startsWith('url:'))) lines.push(m.t('ingest.apartLinks'));
  return lines;
}

/** An import's group of records kept apart: the identifier, how many, and where the first is. */
function importApartGroup(g: ApartGroup, m: Messages): string {
  return m.t('ingest.apartGroup', { alias: g.alias, records: g.records, ...place(g.first), why: apartReason(g.first, m) });
}

/**
 * A rejected record as one line: `file:line [index N]: reason`.
 * @example rejectLine({ file: 'a.jsonl', line: 4, index: 3, reason: 'title: title is empty' }, m) // 'a.jsonl:4 [index 3]: title: title is empty'
 */
export function rejectLine(r: RejectedRecord, m: Messages): string {
  return m.t('ingest.rejectLine', { ...place(r), reason: r.reason });
}

/**
 * A record kept apart as one line: where it is, the identifier it shares, and with what.
 * @example apartLine({ file: 'a.jsonl', line: 2, index: 1, alias: 'url:x.org/p.pdf', paper: 'openreview:Ab1', differs: 'openreview' }, m)
 * // 'a.jsonl:2 [index 1]: url:x.org/p.pdf (not openreview:Ab1: another OpenReview id)'
 */
export function apartLine(r: KeptApartRecord, m: Messages): string {
  return m.t('ingest.apartLine', { ...place(r), alias: r.alias, why: apartReason(r, m) });
}

/** A record's place as message values (numbers as digits, as editors show line numbers). */
function place(r: Pick<RejectedRecord, 'file' | 'line' | 'index'>): { file: string; line: string; index: string } {
  return { file: r.file, line: String(r.line), index: String(r.index) };
}

/**
 * Why a record was kept apart from a paper: the identifier of the paper's that differs, or a
 * link that papers which differ share.
 * @example apartReason({ alias: 'doi:10.1/x', paper: 'arxiv:2411.00001', differs: 'arxiv' }, m) // 'not arxiv:2411.00001: another arXiv id'
 */
export function apartReason(r: KeptApart, m: Messages): string {
  if (r.differs === undefined || r.paper === undefined) return m.t('ingest.apart.shared');
  return m.t(`ingest.apart.${r.differs}`, { paper: r.paper });
}
