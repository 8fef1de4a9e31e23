/**
 * The statuses papers are stored with: one vocabulary whatever the source called them
 * (paperlists' "Reject", "Withdraw" and "Active" are Rejected, Withdrawn and Under review, as
 * OpenReview's decisions are named), canonical in the store and in search, put in the reader's
 * language only when shown (`status.*` keys of the catalogs).
 *
 * The table covers every status the paperlists corpus and the OpenReview and arXiv mappers give;
 * a word it does not know is kept as the source wrote it (whitespace collapsed) and shown as is.
 * Changing the table changes what {@link canonicalStatus} gives: raise {@link STATUS_VERSION} so
 * that libraries written before are upgraded when opened (`PaperStore.upgradeStatuses`).
 */
import { collapseWhitespace } from '../text.js';

/** The version of the vocabulary below a library's statuses are in (`meta.status_version`). */
export const STATUS_VERSION = 1;

/** Each canonical status and the catalog key it is shown with. */
export const STATUS_KEYS = {
  // Decisions (OpenReview's, `DECISIONS` in src/sources/openreview/record.ts), accepted ones first.
  Oral: 'status.oral',
  Spotlight: 'status.spotlight',
  Poster: 'status.poster',
  Accepted: 'status.accepted',
  'Under review': 'status.underReview',
  Rejected: 'status.rejected',
  'Desk Rejected': 'status.deskRejected',
  Withdrawn: 'status.withdrawn',
  // Tracks and kinds of paper, as venues in the paperlists corpus name them.
  Workshop: 'status.workshop',
  'Oral Workshop': 'status.oralWorkshop',
  'Poster Workshop': 'status.posterWorkshop',
  Main: 'status.main',
  Long: 'status.long',
  Short: 'status.short',
  Findings: 'status.findings',
  Industry: 'status.industry',
  'System Demonstrations': 'status.demonstrations',
  Technical: 'status.technical',
  'Technical Paper': 'status.technicalPaper',
  'TOG Paper': 'status.togPaper',
} as const;

export type CanonicalStatus = keyof typeof STATUS_KEYS;

/** Other words for the canonical statuses, by {@link comparisonForm}. */
const SYNONYMS: ReadonlyMap<string, CanonicalStatus> = new Map(Object.entries<CanonicalStatus>({
  reject: 'Rejected',
  withdraw: 'Withdrawn',
  'withdrawn submission': 'Withdrawn',
  'desk reject': 'Desk Rejected',
  'desk rejected submission': 'Desk Rejected',
  active: 'Under review',
  submitted: 'Under review',
  pending: 'Under review',
  'in review': 'Under review',
  accept: 'Accepted',
  'accept oral': 'Oral',
  'accept spotlight': 'Spotlight',
  'accept poster': 'Poster',
}));

const CANONICAL: ReadonlyMap<string, CanonicalStatus> = new Map([
  ...(Object.keys(STATUS_KEYS) as CanonicalStatus[]).map((status) => [comparisonForm(status), status] as const),
  ...SYNONYMS,
]);

/**
 * The status in the store's vocabulary: a known word in its canonical spelling, anything else
 * as given with its whitespace collapsed. Idempotent.
 * @example canonicalStatus('Withdraw') // 'Withdrawn'
 * @example canonicalStatus('Accept (Oral)') // 'Oral'
 * @example canonicalStatus('Technical  Paper') // 'Technical Paper'
 */
export function canonicalStatus(raw: string): string {
  if (raw === '') return raw;
  return CANONICAL.get(comparisonForm(raw)) ?? collapseWhitespace(raw);
}

/**
 * The catalog key a status is shown with, or undefined for a status outside the vocabulary
 * (shown as stored).
 * @example statusKey('Under review') // 'status.underReview'
 */
export function statusKey(status: string): (typeof STATUS_KEYS)[CanonicalStatus] | undefined {
  return Object.hasOwn(STATUS_KEYS, status) ? STATUS_KEYS[status as CanonicalStatus] : undefined;
}

/** Lowercase words separated by single spaces: "Accept (Oral)" → "accept oral". */
function comparisonForm(status: string): string {
  return status.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
