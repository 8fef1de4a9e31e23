/**
 * The counts every source's sync summary shows, in the reader's language, and what a sync's
 * records did to the papers the library had, told as `paperscout ingest` tells it: records
 * merged into a paper the library held under another identifier, and records kept apart from a
 * paper they share an identifier with (`src/ingest/summary.ts` words both).
 */
import type { Messages } from '../i18n/index.js';
import { apartLines, apartReason } from '../ingest/summary.js';
import type { KeptApart, UpsertOutcome } from '../store/papers.js';

/** Identifiers records were kept apart over that a summary keeps (all records are counted). */
export const MAX_APART_GROUPS = 1000;

/** The records of a sync kept apart over one identifier: how many, and the first. */
export interface SyncApartGroup {
  alias: string;
  records: number;
  /** The first record, as the source names it ("arXiv 2504.09003"), and what it was kept apart from. */
  first: KeptApart & { record: string };
}

/** How a sync's records met the papers the library had. */
export interface MergeCounts {
  /**
   * Records that went into a paper the library held, but not under this source's identifier
   * for them (another source's paper with the same DOI, title and first author, or arXiv id):
   * counted in updated or unchanged too.
   */
  merged: number;
  /** Records kept apart from a paper one of their identifiers names: papers of their own (counted in added… too). */
  apart: number;
}

export interface MergeSummary extends MergeCounts {
  /** The identifiers records were kept apart over, as first met (the first {@link MAX_APART_GROUPS}). */
  apartGroups: SyncApartGroup[];
}

/**
 * Counts merged and kept-apart records over a whole sync, and for the part (category, set,
 * venue) under way.
 * @example
 * const tally = new MergeTally();
 * tally.count(result, { known: existing !== undefined, record: `arXiv ${id}` }, category);
 * summary = { ...summary, ...tally.summary() };
 */
export class MergeTally {
  private merged = 0;
  private apart = 0;
  private readonly groups = new Map<string, SyncApartGroup>();

  /**
   * Counts one written record: `known` whether the store held it under the source's own
   * identifier before the write, `record` its name in the summary. Adds to `part` too.
   */
  count(result: { outcome: UpsertOutcome; apart?: KeptApart }, record: { known: boolean; name: string }, part?: MergeCounts): void {
    if (result.outcome !== 'added' && !record.known) {
      this.merged++;
      if (part) part.merged++;
    }
    if (!result.apart) return;
    this.apart++;
    if (part) part.apart++;
    const group = this.groups.get(result.apart.alias);
    if (group) group.records++;
    else if (this.groups.size < MAX_APART_GROUPS) this.groups.set(result.apart.alias, { alias: result.apart.alias, records: 1, first: { ...result.apart, record: record.name } });
  }

  summary(): MergeSummary {
    return { merged: this.merged, apart: this.apart, apartGroups: [...this.groups.values()] };
  }
}

/**
 * "4 added, 1 updated, 0 unchanged, 1 skipped" (and `removed` when given), then `extra` phrases,
 * in `m`'s language. Shared by the arXiv and OpenReview summaries.
 * @example syncCounts(messages('en'), { added: 4, updated: 1, unchanged: 0, skipped: 1 }) // '4 added, 1 updated, 0 unchanged, 1 skipped'
 */
export function syncCounts(
  m: Messages,
  counts: { added: number; updated: number; unchanged: number; skipped: number; removed?: number },
  extra: { beforeSkipped?: readonly string[]; after?: readonly string[] } = {},
): string {
  const parts = [m.t('sync.count.added', { count: counts.added }), m.t('sync.count.updated', { count: counts.updated }), m.t('sync.count.unchanged', { count: counts.unchanged })];
  if (counts.removed !== undefined) parts.push(m.t('sync.count.removed', { count: counts.removed }));
  parts.push(...(extra.beforeSkipped ?? []), m.t('sync.count.skipped', { count: counts.skipped }), ...(extra.after ?? []));
  return parts.join(m.t('text.listSeparator'));
}

/**
 * The merged and kept-apart counts as phrases for {@link syncCounts}: always in a total, only
 * when not nothing for a part.
 * @example mergePhrases(messages('en'), { merged: 2, apart: 0 }, { always: true }) // ['2 merged into papers held under another identifier', '0 kept apart']
 */
export function mergePhrases(m: Messages, counts: MergeCounts, options: { always?: boolean } = {}): string[] {
  const phrases: string[] = [];
  if (options.always || counts.merged > 0) phrases.push(m.t('sync.count.merged', { count: counts.merged }));
  if (options.always || counts.apart > 0) phrases.push(m.t('sync.count.apart', { count: counts.apart }));
  return phrases;
}

/**
 * The records kept apart, by the identifier they share, as `paperscout ingest` lists them:
 * nothing when none was.
 * @example keptApartLines(messages('en'), summary) // ['Kept apart: 1 record shares an identifier with a paper it is not (…):', '  doi:10.5555/x: 1 record, arXiv 2504.09003 (not arxiv:2411.00001: another arXiv id)']
 */
export function keptApartLines(m: Messages, summary: MergeSummary): string[] {
  return apartLines(summary, m, (g: SyncApartGroup) =>
    m.t('sync.apartGroup', { alias: g.alias, records: g.records, record: g.first.record, why: apartReason(g.first, m) }),
  );
}
