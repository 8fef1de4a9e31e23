import type { IndexRow } from '../../../src/store/papers.js';

/** A paper as the index reads it from the store: by Ann Lee, arXiv 2024, first seen 2026-01-01. */
export function indexRow(doc: number, title: string, over: Partial<IndexRow> = {}): IndexRow {
  return {
    doc,
    id: `p${doc}`,
    title,
    authors: ['Ann Lee'],
    abstract: '',
    keywords: [],
    venue: 'arXiv',
    year: 2024,
    status: '',
    topics: [],
    firstSeen: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    citedBy: null,
    ...over,
  };
}
