/**
 * A paper's citations within the library, as an opened paper and the site's pages list them:
 * "References in the library" (the library's papers it cites) and "Cited by, in the library"
 * (the library's papers that cite it), most cited first, each with its count. The citation
 * store resolves the lists (`store/citations.ts`); this reads a page of each and their papers,
 * the pages at once and the papers in one go: three reads, two of them in parallel.
 */
import type { CitationStore } from '../store/citations.js';
import type { PaperStore } from '../store/papers.js';
import type { Paper } from './model.js';

/** Which list: the papers a paper references, or those that cite it. */
export type CitationDirection = 'references' | 'citedBy';

/** Both lists, in the order an opened paper shows them. */
export const CITATION_DIRECTIONS: readonly CitationDirection[] = ['references', 'citedBy'];

/** A paper of such a list, with its own count (the list's order). */
export interface ListedPaper {
  doc: number;
  paper: Paper;
  count: number;
}

/** A page of one list, and how many papers the list holds in all. */
export interface CitationListPage {
  papers: ListedPaper[];
  total: number;
}

/** The pages asked for, by list. */
export type CitationLists = Partial<Record<CitationDirection, CitationListPage>>;

/**
 * A page of each list in `directions` for the paper `doc`; with no citation store (the demo
 * library) every list is empty. A paper removed between the two reads is left out of its page.
 * @example (await citationLists(stores.citations, store, 42, { offset: 0, limit: 5 })).references?.total // 12
 */
export async function citationLists(
  citations: Pick<CitationStore, 'references' | 'citedBy'> | undefined,
  store: Pick<PaperStore, 'papersByDocs'>,
  doc: number,
  page: { offset: number; limit: number },
  directions: readonly CitationDirection[] = CITATION_DIRECTIONS,
): Promise<CitationLists> {
  if (!citations) return Object.fromEntries(directions.map((d) => [d, { papers: [], total: 0 }]));
  const pages = await Promise.all(directions.map((d) => (d === 'references' ? citations.references(doc, page) : citations.citedBy(doc, page))));
  const docs = [...new Set(pages.flatMap((p) => p.entries.map((e) => e.doc)))];
  const papers = docs.length > 0 ? await store.papersByDocs(docs) : new Map<number, Paper>();
  const out: CitationLists = {};
  directions.forEach((direction, i) => {
    const { entries, total } = pages[i]!;
    out[direction] = {
      papers: entries.flatMap((e) => {
        const paper = papers.get(e.doc);
        return paper ? [{ doc: e.doc, paper, count: e.count }] : [];
      }),
      total,
    };
  });
  return out;
}
