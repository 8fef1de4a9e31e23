/**
 * An OpenReview submission as a {@link PaperRecord}: keyed by its forum id, venue and year from
 * the venue id (`ICLR.cc/2025/Conference` → ICLR, 2025), and the decision as the status, so a
 * rejected or withdrawn submission is never shown as accepted.
 */
import { venueDisplayName, type PaperRecordInput } from '../../papers/model.js';
import { MAX_AUTHORS, defined, httpUrl, validate, type MapResult } from '../../ingest/formats/fields.js';
import type { OpenReviewNote } from './notes.js';

/** Where forum and pdf links point. */
export const OPENREVIEW_SITE = 'https://openreview.net';

/** The statuses a submission can have, the accepted ones first. */
export const DECISIONS = ['Oral', 'Spotlight', 'Poster', 'Accepted', 'Under review', 'Rejected', 'Desk Rejected', 'Withdrawn'] as const;
export type Decision = (typeof DECISIONS)[number];

/**
 * The venue's name and year from its id: the path segment before the year, without its
 * domain (`ICLR.cc` → ICLR, `thecvf.com/ECCV/2024/…` → ECCV), in its usual spelling.
 * @example venueOf('NeurIPS.cc/2024/Conference') // { name: 'NeurIPS', year: 2024 }
 * @example venueOf('TMLR') // { name: 'TMLR', year: null }
 */
export function venueOf(venueId: string): { name: string; year: number | null } {
  const parts = venueId.split('/').filter(Boolean);
  const at = parts.findIndex((p) => /^(19|20)\d{2}$/.test(p));
  const raw = at > 0 ? parts[at - 1]! : (parts[0] ?? '');
  const name = raw.replace(/\.(cc|org|com|net|edu|io|ai)$/i, '');
  return { name: name ? venueDisplayName(name.toLowerCase()) : '', year: at > 0 ? Number(parts[at]) : null };
}

/**
 * What became of a submission, from where it stands (`content.venueid`) and its venue label.
 * @example decisionOf({ venueid: 'ICLR.cc/2025/Conference', venue: 'ICLR 2025 Spotlight' }) // 'Spotlight'
 * @example decisionOf({ venueid: 'ICLR.cc/2025/Conference/Rejected_Submission', venue: 'Submitted to ICLR 2025' }) // 'Rejected'
 */
export function decisionOf(note: Pick<OpenReviewNote, 'venueid' | 'venue'>): Decision {
  const id = note.venueid ?? '';
  const label = note.venue ?? '';
  if (/Withdrawn_Submission$/i.test(id) || /withdrawn/i.test(label)) return 'Withdrawn';
  if (/Desk_Rejected_Submission$/i.test(id) || /desk[ _-]?reject/i.test(label)) return 'Desk Rejected';
  if (/Rejected_Submission$/i.test(id) || /\breject/i.test(label)) return 'Rejected';
  if (/Submission$/i.test(id) || /^submitted to\b/i.test(label) || (!id && !label)) return 'Under review';
  if (/\boral\b/i.test(label)) return 'Oral';
  if (/\bspotlight\b/i.test(label)) return 'Spotlight';
  if (/\bposter\b/i.test(label)) return 'Poster';
  return 'Accepted';
}

/**
 * Maps a submission to a paper record. `venueId` is the venue synced (used when the note does
 * not say which it belongs to).
 * @example
 * noteToRecord({ id: 'abc12', forum: 'abc12', title: 'T', authors: ['A'], abstract: '', keywords: [], invitations: [],
 *   venue: 'ICLR 2025 Oral', venueid: 'ICLR.cc/2025/Conference', pdf: '/pdf/abc.pdf' })
 * // { ok: true, record: { venue: 'ICLR', year: 2025, status: 'Oral', externalIds: { openreview: 'abc12' },
 * //   links: { page: 'https://openreview.net/forum?id=abc12', pdf: 'https://openreview.net/pdf/abc.pdf' }, … } }
 */
export function noteToRecord(note: OpenReviewNote, venueId?: string): MapResult {
  const home = acceptedVenueId(note.venueid) ?? note.domain ?? venueId ?? '';
  const venue = venueOf(home);
  const date = published(note);
  const pdf = note.pdf && (note.pdf.startsWith('/') ? `${OPENREVIEW_SITE}${note.pdf}` : httpUrl(note.pdf));
  const record: PaperRecordInput = {
    title: note.title,
    authors: note.authors.slice(0, MAX_AUTHORS),
    abstract: note.abstract,
    venue: venue.name,
    year: venue.year ?? (date ? Number(date.slice(0, 4)) : null),
    status: decisionOf(note),
    keywords: note.keywords.slice(0, 200),
    labels: note.primaryArea ? [note.primaryArea] : [],
    links: defined({ page: `${OPENREVIEW_SITE}/forum?id=${note.forum}`, pdf, code: httpUrl(note.code) }),
    externalIds: { openreview: note.forum },
    ...(date && { published: date }),
    ...(note.tldr && { tldr: note.tldr }),
  };
  return validate(record);
}

/** The venue a `venueid` belongs to: `…/Rejected_Submission` belongs to its parent. */
function acceptedVenueId(venueid: string | undefined): string | undefined {
  if (!venueid) return undefined;
  return /\/[A-Za-z_]*Submission$/.test(venueid) ? venueid.replace(/\/[A-Za-z_]*Submission$/, '') : venueid;
}

function published(note: OpenReviewNote): string | undefined {
  const ms = note.pdate ?? note.odate ?? note.cdate;
  return ms === undefined ? undefined : new Date(ms).toISOString().slice(0, 10);
}
