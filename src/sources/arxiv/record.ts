/**
 * An arXiv feed entry as a {@link PaperRecord}, the same shape the arXiv snapshot import gives
 * (`src/ingest/formats/arxiv.ts`), so a paper seen by both is one record: keyed by the
 * version-less id, venue `arXiv`, categories as labels.
 */
import type { PaperRecordInput } from '../../papers/model.js';
import { defined, MAX_AUTHORS, validate, type MapResult } from '../../ingest/formats/fields.js';
import type { ArxivEntry } from './feed.js';
import type { OaiRecord } from './oai.js';

/**
 * Whether an entry is a new version of a paper announced before (`replace`, `replace-cross`)
 * rather than a new submission or a cross-listing.
 * @example isReplacement({ announceType: 'replace-cross' } as ArxivEntry) // true
 */
export function isReplacement(entry: Pick<ArxivEntry, 'announceType'>): boolean {
  return entry.announceType === 'replace' || entry.announceType === 'replace-cross';
}

/**
 * The day the paper first appeared, `YYYY-MM-DD`: the first version's submission (API), or the
 * announcement of a new submission or cross-listing (RSS). A replacement's announcement says
 * nothing about when the paper first appeared, so it gives none.
 * @example firstAppeared({ published: '2025-04-11T17:59:01Z' } as ArxivEntry) // '2025-04-11'
 */
export function firstAppeared(entry: Pick<ArxivEntry, 'published' | 'announced' | 'announceType'>): string | undefined {
  if (entry.published) return entry.published.slice(0, 10);
  return isReplacement(entry) ? undefined : entry.announced;
}

/**
 * Maps a feed entry to a paper record (validated against the model).
 * @example
 * entryToRecord({ id: '2504.09001', title: 'Sparse Experts', authors: ['Ana Ruiz'], abstract: '…',
 *   categories: ['cs.LG'], announceType: 'new', announced: '2025-04-14' })
 * // { ok: true, record: { sourceKey: 'arxiv:2504.09001', venue: 'arXiv', year: 2025, published: '2025-04-14',
 * //   labels: ['cs.LG'], links: { page: 'https://arxiv.org/abs/2504.09001', pdf: 'https://arxiv.org/pdf/2504.09001' }, … } }
 */
export function entryToRecord(entry: ArxivEntry): MapResult {
  return arxivRecord(entry, firstAppeared(entry));
}

/**
 * Maps an OAI-PMH record (`metadataPrefix=arXiv`) to a paper record: the same shape as a feed
 * entry or the arXiv snapshot, so the paper is one record whichever way it came; the first
 * version's date gives the year.
 * @example
 * oaiRecordToRecord({ id: '2401.00001', datestamp: '2024-01-03', sets: ['cs'], title: 'Sparse Experts',
 *   authors: ['Ana Ruiz'], abstract: '…', categories: ['cs.LG', 'stat.ML'], created: '2023-12-29' })
 * // { ok: true, record: { sourceKey: 'arxiv:2401.00001', venue: 'arXiv', year: 2023, published: '2023-12-29', labels: ['cs.LG', 'stat.ML'], … } }
 */
export function oaiRecordToRecord(entry: OaiRecord): MapResult {
  return arxivRecord(entry, entry.created);
}

/** A paper record from what a feed entry and an OAI-PMH record share, dated by the first version (`YYYY-MM-DD`). */
function arxivRecord(entry: ArxivEntry | OaiRecord, date: string | undefined): MapResult {
  const record: PaperRecordInput = {
    sourceKey: `arxiv:${entry.id}`,
    title: entry.title,
    authors: entry.authors.slice(0, MAX_AUTHORS),
    abstract: entry.abstract,
    venue: 'arXiv',
    year: date ? Number(date.slice(0, 4)) : null,
    labels: entry.categories.slice(0, 50),
    links: { page: `https://arxiv.org/abs/${entry.id}`, pdf: `https://arxiv.org/pdf/${entry.id}` },
    externalIds: defined({ arxiv: entry.id, doi: entry.doi }),
    ...(date ? { published: date } : {}),
  };
  return validate(record);
}
