/**
 * A pure parser of OpenReview API v2 answers to `GET /notes`: `{ notes: [...], count }`, each
 * note's fields under `content.<name>.value`. A note that cannot be read is reported by its
 * place (and id, when it has one) and the others are kept; a body that is not such an answer is
 * an {@link OpenReviewPageError}.
 */
import { collapseWhitespace } from '../../text.js';

/** A submission as OpenReview describes it. */
export interface OpenReviewNote {
  /** The note id; for a submission, also its forum id. */
  id: string;
  forum: string;
  number?: number;
  title: string;
  authors: string[];
  abstract: string;
  keywords: string[];
  tldr?: string;
  /** The venue's subject area for the paper (`content.primary_area`). */
  primaryArea?: string;
  /** The venue label: `ICLR 2025 Oral`, `Submitted to ICLR 2025`, `ICLR 2025 Conference Withdrawn Submission`. */
  venue?: string;
  /** Where the submission stands: `ICLR.cc/2025/Conference` (accepted), `…/Rejected_Submission`, `…/Withdrawn_Submission`, `…/Submission`. */
  venueid?: string;
  /** The pdf path or URL as given (`/pdf/abc.pdf`). */
  pdf?: string;
  code?: string;
  /** The note's invitations and domain (the venue), as given. */
  invitations: string[];
  domain?: string;
  /** Publication, online and creation times, Unix milliseconds. */
  pdate?: number;
  odate?: number;
  cdate?: number;
}

export interface NoteProblem {
  index: number;
  id?: string;
  reason: string;
}

export interface NotesPage {
  notes: OpenReviewNote[];
  problems: NoteProblem[];
  /** Notes the query matches in all, when OpenReview says. */
  count?: number;
  /** Notes in this page, unreadable ones included. */
  size: number;
}

/** The body is not an answer of `GET /notes`. */
export class OpenReviewPageError extends Error {
  override readonly name = 'OpenReviewPageError';
}

type Json = Record<string, unknown>;

/**
 * Parses a `GET /notes` answer.
 * @example
 * const page = parseNotesPage('{"notes":[{"id":"abc12","forum":"abc12","content":{"title":{"value":"T"},"authors":{"value":["A"]}}}],"count":1}');
 * page.notes[0] // { id: 'abc12', forum: 'abc12', title: 'T', authors: ['A'], abstract: '', keywords: [], invitations: [] }
 */
export function parseNotesPage(body: string): NotesPage {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const start = collapseWhitespace(body.slice(0, 80));
    throw new OpenReviewPageError(`expected JSON from OpenReview, got ${JSON.stringify(start)} (${(error as Error).message})`);
  }
  if (!isObject(value) || !Array.isArray(value['notes'])) {
    throw new OpenReviewPageError(`expected {"notes": [...]} from OpenReview, got ${describe(value)}`);
  }
  const notes: OpenReviewNote[] = [];
  const problems: NoteProblem[] = [];
  value['notes'].forEach((item: unknown, index) => {
    const parsed = readNote(item);
    if ('note' in parsed) notes.push(parsed.note);
    else problems.push({ index, ...(parsed.id && { id: parsed.id }), reason: parsed.reason });
  });
  const count = value['count'];
  return { notes, problems, size: value['notes'].length, ...(typeof count === 'number' && Number.isInteger(count) && count >= 0 && { count }) };
}

function readNote(item: unknown): { note: OpenReviewNote } | { id?: string; reason: string } {
  if (!isObject(item)) return { reason: `expected a note object, got ${describe(item)}` };
  const id = typeof item['id'] === 'string' && /^[\w-]{1,100}$/.test(item['id']) ? item['id'] : undefined;
  if (!id) return { reason: 'no note id' };
  const content = isObject(item['content']) ? item['content'] : undefined;
  if (!content) return { id, reason: 'no content (the submission is not public?)' };
  const title = collapseWhitespace(text(content, 'title') ?? '');
  if (!title) return { id, reason: 'no title' };
  const forum = typeof item['forum'] === 'string' && /^[\w-]{1,100}$/.test(item['forum']) ? item['forum'] : id;
  const number = item['number'];
  const tldr = text(content, 'TLDR') ?? text(content, 'TL;DR') ?? text(content, 'tldr');
  const primaryArea = text(content, 'primary_area') ?? text(content, 'primary_areas');
  const venue = text(content, 'venue');
  const venueid = text(content, 'venueid');
  const pdf = text(content, 'pdf');
  const code = text(content, 'code');
  const invitations = Array.isArray(item['invitations']) ? item['invitations'].filter((i): i is string => typeof i === 'string') : [];
  const domain = typeof item['domain'] === 'string' ? item['domain'] : undefined;
  return {
    note: {
      id,
      forum,
      ...(typeof number === 'number' && Number.isInteger(number) && { number }),
      title,
      authors: list(content, 'authors'),
      abstract: collapseWhitespace(text(content, 'abstract') ?? ''),
      keywords: list(content, 'keywords'),
      ...(tldr && { tldr: collapseWhitespace(tldr) }),
      ...(primaryArea && { primaryArea: collapseWhitespace(primaryArea.replace(/_/g, ' ')) }),
      ...(venue && { venue: collapseWhitespace(venue) }),
      ...(venueid && { venueid: venueid.trim() }),
      ...(pdf && { pdf: pdf.trim() }),
      ...(code && { code: code.trim() }),
      invitations,
      ...(domain && { domain }),
      ...time(item, 'pdate'),
      ...time(item, 'odate'),
      ...time(item, 'cdate'),
    },
  };
}

/** `content.<name>.value` as text (API v2), or `content.<name>` itself (API v1 style). */
function text(content: Json, name: string): string | undefined {
  const field = content[name];
  const value = isObject(field) ? field['value'] : field;
  if (typeof value === 'string') return value.trim() || undefined;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ').trim() || undefined;
  return undefined;
}

/** A list field: an array of strings, or one comma-separated string. */
function list(content: Json, name: string): string[] {
  const field = content[name];
  const value = isObject(field) ? field['value'] : field;
  const items = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? value.split(',') : [];
  return [...new Set(items.map(collapseWhitespace).filter(Boolean))];
}

function time(item: Json, key: 'pdate' | 'odate' | 'cdate'): Partial<Record<typeof key, number>> {
  const value = item[key];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? { [key]: value } : {};
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isObject(value)) return `an object with ${Object.keys(value).slice(0, 5).map((k) => JSON.stringify(k)).join(', ') || 'no keys'}`;
  return typeof value;
}
