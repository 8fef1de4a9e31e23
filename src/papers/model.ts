/**
 * The paper model every part of Paper Scout shares. Sources map their records to a
 * {@link PaperRecord}; the store turns records into {@link Paper}s with a stable id.
 */
import { z } from 'zod';
import { collapseWhitespace } from '../text.js';
import { decodeLatex } from './latex.js';
import { canonicalStatus } from './status.js';

const httpUrl = z
  .string()
  .max(2048)
  .refine((s) => /^https?:\/\/\S+$/i.test(s), 'must be an http(s) URL');

export const PaperLinksSchema = z.object({
  /** The paper's landing page (proceedings, OpenReview forum, arXiv abstract). */
  page: httpUrl.optional(),
  pdf: httpUrl.optional(),
  code: httpUrl.optional(),
  project: httpUrl.optional(),
});

export const ExternalIdsSchema = z.object({
  /** Version-less arXiv id, e.g. `2401.01234`. */
  arxiv: z.string().optional(),
  /** Lowercase DOI without resolver, e.g. `10.1609/aaai.v36i6.20617`. */
  doi: z.string().optional(),
  /** OpenReview forum id, e.g. `B11bwYgfM`. */
  openreview: z.string().optional(),
});

/**
 * Titles, author names and abstracts as a reader sees them: LaTeX decoded (`Gr\"obner` →
 * Gröbner, `CeAg$_2$Ge$_2$` → CeAg₂Ge₂), whitespace collapsed where decoding touched it.
 * @example decodeRecordText("Koll\\'ar~et al.") // 'Kollár et al.'
 */
export function decodeRecordText(text: string): string {
  const decoded = decodeLatex(text);
  return decoded === text ? text : collapseWhitespace(decoded);
}

/**
 * What a source says about a paper, before the store has given it an id. Every source's
 * mapper ends in this schema (`validate` in `src/ingest/formats/fields.ts`), so it is where
 * LaTeX in titles, authors and abstracts is decoded, and statuses put in one vocabulary, once,
 * for every way into the store.
 */
export const PaperRecordSchema = z.object({
  /** The source's own stable key, e.g. `icml2019:3768`; used when no external id exists. */
  sourceKey: z.string().min(1).max(300).regex(/^[^\u0000-\u001f]+$/, 'must not contain control characters').optional(),
  title: z.string().overwrite(decodeRecordText).trim().min(1, 'title is empty').max(1000),
  authors: z.array(z.string().overwrite(decodeRecordText).trim().min(1).max(300)).max(1000),
  abstract: z.string().max(100_000).overwrite(decodeRecordText).default(''),
  /** Display name of the venue: `ICML`, `NeurIPS`, `arXiv`. */
  venue: z.string().max(200).default(''),
  year: z.number().int().min(1900).max(2100).nullable().default(null),
  /** Oral, Poster, Rejected, Withdrawn, ...: in the store's vocabulary (`canonicalStatus`), whatever the source called it. */
  status: z.string().max(100).overwrite(canonicalStatus).default(''),
  keywords: z.array(z.string().max(300)).max(200).default([]),
  /** Subject labels given by the source (a venue's primary area, arXiv categories). */
  labels: z.array(z.string().max(300)).max(50).default([]),
  links: PaperLinksSchema.default({}),
  externalIds: ExternalIdsSchema.default({}),
  /** When the source says the paper appeared (ISO date); digests fall back to first-seen. */
  published: z.string().max(40).optional(),
  /** The authors' one-sentence summary, where the venue asks for one (OpenReview's TL;DR). */
  tldr: z.string().max(5000).overwrite(decodeRecordText).optional(),
});
export type PaperRecord = z.infer<typeof PaperRecordSchema>;
export type PaperRecordInput = z.input<typeof PaperRecordSchema>;

/**
 * A paper's standing as OpenAlex counts it, where the library has matched the paper to an
 * OpenAlex work (`src/store/citations.ts`): kept beside the paper, never part of its record.
 */
export interface PaperCitations {
  /** How many works cite it (OpenAlex's `cited_by_count`) when it was fetched. */
  count: number;
  /** The OpenAlex work it is, `W2741809807`. */
  openalex: string;
  /** When the count was fetched (ISO instant). */
  fetched: string;
}

/** A paper as the store holds it. */
export interface Paper extends PaperRecord {
  /** Stable across re-ingest: `arxiv:2401.01234`, `openreview:B11bwYgfM`, `doi:…` or `icml2019:3768`. */
  id: string;
  /** Topic ids from the taxonomy, computed at ingest. */
  topics: string[];
  /** When the store first saw this paper (ISO 8601); digests select "new since" on it. */
  firstSeen: string;
  /** Its citation count and OpenAlex work, once matched (see {@link PaperCitations}); absent until then. */
  citations?: PaperCitations;
}

const VENUE_NAMES: ReadonlyMap<string, string> = new Map(Object.entries({
  '3dv': '3DV', aaai: 'AAAI', acl: 'ACL', acml: 'ACML', acmmm: 'ACM MM', ai4x: 'AI4X',
  aistats: 'AISTATS', alt: 'ALT', automl: 'AutoML', coling: 'COLING', colm: 'COLM', colt: 'COLT',
  corl: 'CoRL', cvpr: 'CVPR', eccv: 'ECCV', emnlp: 'EMNLP', iccv: 'ICCV', iclr: 'ICLR', icml: 'ICML',
  icra: 'ICRA', ijcai: 'IJCAI', iros: 'IROS', kdd: 'KDD', naacl: 'NAACL', nips: 'NeurIPS',
  neurips: 'NeurIPS', rss: 'RSS', siggraph: 'SIGGRAPH', siggraphasia: 'SIGGRAPH Asia', uai: 'UAI',
  wacv: 'WACV', www: 'WWW', arxiv: 'arXiv', tmlr: 'TMLR', jmlr: 'JMLR',
}));

/**
 * The display name of a venue code as paperlists names its folders.
 * @example venueDisplayName('nips') // 'NeurIPS'
 */
export function venueDisplayName(code: string): string {
  return VENUE_NAMES.get(code.toLowerCase()) ?? code.toUpperCase();
}

/**
 * The comparison key of a venue, so `venue:neurips`, `venue:NIPS` and "NeurIPS" agree.
 * @example venueKey('NeurIPS') // 'neurips'
 */
export function venueKey(venue: string): string {
  const key = venue.toLowerCase().replace(/[^a-z0-9]+/g, '');
  return key === 'nips' ? 'neurips' : key;
}

/**
 * How a venue distinguished a paper, from its status: 0 for a paper it did not (or not yet)
 * accept, 2 for an oral, spotlight or award, 1 otherwise.
 * @example standingOf('Oral') // 2
 * @example standingOf('Under review') // 0
 */
export function standingOf(status: string): number {
  const s = status.toLowerCase();
  if (/reject|withdraw|desk|under review|submitted/.test(s)) return 0;
  if (/oral|spotlight|award|best|highlight|outstanding/.test(s)) return 2;
  return 1;
}
