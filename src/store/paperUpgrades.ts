/**
 * What bringing a stored library up to date does to a paper's row, whichever store keeps it:
 * topics recomputed for a new taxonomy, text and title aliases for a new text normalization,
 * statuses for a new status vocabulary. Pure functions; each store runs them over its rows in
 * one transaction (`reclassify`, `upgradeText`, `upgradeStatuses` in `papers.ts`).
 */
import { decodeRecordText } from '../papers/model.js';
import { titleAuthorAlias, titleAuthorAliasAs } from '../papers/ids.js';
import { canonicalStatus } from '../papers/status.js';
import { isAscii } from '../text.js';
import { toColumns, toPaper, type PaperRow } from './paperRecords.js';
import type { PaperColumns, UpsertOptions } from './papers.js';

/**
 * A paper's topics recomputed: the new topics and content hash, or undefined when they are the same.
 * @example const changed = reclassified(row, classify);
 */
export function reclassified(row: PaperRow, classify: UpsertOptions['classify']): { topics: string; contentHash: string } | undefined {
  const paper = toPaper(row);
  const topics = JSON.stringify(classify(paper));
  if (topics === row.topics) return undefined;
  return { topics, contentHash: toColumns(paper.id, paper, JSON.parse(topics) as string[]).content_hash };
}

/**
 * For a library of text normalization 1 or 2, the title alias a stored paper was filed under and
 * the one it is filed under now, where they differ: a title or first author with a compatibility
 * character ("ℒ1", "ℝ", "Whegs™") that normalization 3 reads otherwise, in a way refolding the
 * key cannot undo (1 read such characters as 2 did). Undefined otherwise.
 */
export function realiasedRow(row: Pick<PaperRow, 'title' | 'authors'>, from: number): { old: string | undefined; now: string } | undefined {
  if (from >= 3 || (isAscii(row.title) && isAscii(row.authors))) return undefined;
  const first = (JSON.parse(row.authors) as string[])[0];
  const now = titleAuthorAlias(row.title, first);
  const old = titleAuthorAliasAs(2, row.title, first);
  return now === undefined || now === old ? undefined : { old, now };
}

/**
 * A stored paper with the LaTeX left in its title, authors and abstract decoded (what the text
 * upgrade does to a library written before decoding at import): its new row columns and title
 * alias, or undefined when nothing needed decoding.
 * @example const decoded = decodedRow(row, classify);
 */
export function decodedRow(row: Omit<PaperRow, 'doc'>, classify: UpsertOptions['classify']): { columns: PaperColumns; titleAlias: string | undefined } | undefined {
  const paper = toPaper(row);
  const title = decodeRecordText(paper.title);
  const authors = paper.authors.map(decodeRecordText);
  const abstract = decodeRecordText(paper.abstract);
  if (title === paper.title && abstract === paper.abstract && authors.every((a, i) => a === paper.authors[i])) return undefined;
  const next = { ...paper, title, authors, abstract };
  return { columns: toColumns(paper.id, next, classify(next)), titleAlias: titleAuthorAlias(title, authors[0]) };
}

/**
 * The stored statuses that the current vocabulary names otherwise, from the library's status
 * counts: [as stored, canonical, papers].
 * @example statusRenames([['Poster', 9], ['Reject', 4]]) // [['Reject', 'Rejected', 4]]
 */
export function statusRenames(counts: ReadonlyArray<readonly [string, number]>): Array<[string, string, number]> {
  return counts.flatMap(([status, n]): Array<[string, string, number]> => {
    const canonical = canonicalStatus(status);
    return canonical === status ? [] : [[status, canonical, n]];
  });
}

/**
 * A stored paper with its status in the current vocabulary: the new status and content hash (the
 * hash a record with that status now gives, so that importing it again changes nothing), or
 * undefined when the status is current.
 * @example restatusedRow(row) // { status: 'Withdrawn', contentHash: '…' } for a row stored as "Withdraw"
 */
export function restatusedRow(row: Omit<PaperRow, 'doc'>): { status: string; contentHash: string } | undefined {
  const status = canonicalStatus(row.status);
  if (status === row.status) return undefined;
  const paper = toPaper(row);
  return { status, contentHash: toColumns(paper.id, { ...paper, status }, paper.topics).content_hash };
}
