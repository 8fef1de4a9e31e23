/**
 * What bringing a stored library up to date does to a paper's row, whichever store keeps it:
 * topics recomputed for a new taxonomy, text and title aliases for a new text normalization,
 * statuses for a new status vocabulary. Pure functions; each store runs them over its rows in
 * one transaction (`reclassify`, `upgradeText`, `upgradeStatuses` in `papers.ts`). The text
 * upgrade is planned whole here ({@link TextUpgradePlanner}), so that a store only reads the rows
 * and aliases it asks for and writes what the plan says.
 */
import { decodeRecordText } from '../papers/model.js';
import { refoldTitleAlias, titleAuthorAlias, titleAuthorAliasAs } from '../papers/ids.js';
import { canonicalStatus } from '../papers/status.js';
import { TEXT_VERSION, isAscii } from '../text.js';
import { toColumns, toPaper, type PaperRow } from './paperRecords.js';
import type { PaperColumns, TextUpgrade, UpsertOptions } from './papers.js';

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

/** A paper as the text upgrade reads it: every column before normalization 2, else {@link TITLE_COLUMNS}. */
export type TextUpgradeRow = PaperRow | Pick<PaperRow, 'doc' | 'id' | 'title' | 'authors'>;

/** The columns the text upgrade reads of a library written with normalization 2 or later. */
export const TITLE_COLUMNS = 'doc, id, title, authors';

/** What the text upgrade writes, in this order: aliases removed, rows updated, aliases filed. */
export interface TextUpgradePlan {
  /** The counts of {@link TextUpgrade}, all but `shared`, which filing the aliases tells. */
  result: Omit<TextUpgrade, 'shared'>;
  /** Title aliases to delete: keys of the old folding, and keys re-made from the papers' titles. */
  removeAliases: string[];
  /** Rows whose LaTeX was decoded, written under one new generation. */
  decoded: Array<{ doc: number; columns: PaperColumns }>;
  /**
   * Aliases to file, [alias, paper id], in order: the first paper to claim an alias gets it, and
   * an alias another paper already has stays with it (see {@link sharedAliases}).
   */
  fileAliases: Array<[string, string]>;
}

/**
 * Plans the text upgrade of a library written with normalization `from` (`TEXT_VERSION` in
 * `text.ts`): each paper's row goes through {@link add} (every column when {@link readsAll}, else
 * {@link TITLE_COLUMNS}), then {@link plan} takes the library's title aliases. Reads nothing and
 * writes nothing itself.
 * @example const planner = new TextUpgradePlanner(1, classify); for (const row of rows) planner.add(row); const plan = planner.plan(titleAliases);
 */
export class TextUpgradePlanner {
  private papers = 0;
  private readonly decoded: Array<{ doc: number; id: string; columns: PaperColumns; titleAlias: string | undefined }> = [];
  private readonly realiased: Array<{ id: string; old: string | undefined; now: string }> = [];

  constructor(
    readonly from: number,
    private readonly classify: UpsertOptions['classify'],
  ) {}

  /** Whether rows must have every column: LaTeX has been decoded at import since normalization 2. */
  get readsAll(): boolean {
    return this.from < 2;
  }

  add(row: TextUpgradeRow): void {
    this.papers++;
    const change = this.readsAll ? decodedRow(row as PaperRow, this.classify) : undefined;
    if (change) this.decoded.push({ doc: row.doc, id: row.id, ...change });
    const keys = change ? undefined : realiasedRow(row, this.from);
    if (keys) this.realiased.push({ id: row.id, ...keys });
  }

  /** The plan, given every title alias of the library (`title:` keys) and the paper it names. */
  plan(titleAliases: ReadonlyArray<{ alias: string; paper_id: string }>): TextUpgradePlan {
    // Keys refolding cannot redo are made again from the papers' titles, before the others are
    // refolded: every old one goes first (one paper's new key may be another's old one).
    const stale = new Set(this.realiased.flatMap(({ id, old }) => (old === undefined ? [] : [`${old}\n${id}`])));
    const removeAliases: string[] = [];
    const fileAliases: Array<[string, string]> = this.realiased.map(({ id, now }): [string, string] => [now, id]);
    let refolds = 0;
    for (const { alias, paper_id } of titleAliases) {
      if (stale.has(`${alias}\n${paper_id}`)) {
        removeAliases.push(alias);
        continue;
      }
      const refolded = refoldTitleAlias(alias);
      if (refolded === alias) continue;
      removeAliases.push(alias);
      refolds++;
      if (refolded !== undefined) fileAliases.push([refolded, paper_id]);
    }
    for (const { id, titleAlias } of this.decoded) if (titleAlias !== undefined) fileAliases.push([titleAlias, id]);
    return {
      result: { from: this.from, to: TEXT_VERSION, papers: this.papers, decoded: this.decoded.length, aliases: this.realiased.length + refolds },
      removeAliases,
      decoded: this.decoded.map(({ doc, columns }) => ({ doc, columns })),
      fileAliases,
    };
  }
}

/**
 * How many of the aliases filed stayed with another paper (it had the key already, or claimed it
 * first): two papers that now read alike.
 * @example sharedAliases([['title:a|b', 'p1'], ['title:a|b', 'p2']], new Map([['title:a|b', 'p1']])) // 1
 */
export function sharedAliases(filed: ReadonlyArray<readonly [string, string]>, owners: ReadonlyMap<string, string>): number {
  return new Set(filed.filter(([alias, id]) => owners.get(alias) !== id).map(([alias]) => alias)).size;
}
