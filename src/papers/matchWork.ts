/**
 * Which library paper an OpenAlex work is: the rule that decides where a citation count goes,
 * for `sync openalex` and for a works file alike. Never a count on the wrong paper: a work is
 * matched by its DOI, then by its arXiv id (OpenAlex knows arXiv papers by the DOI
 * `10.48550/arxiv.<id>`; both are tried both ways), and only then by title, where the year
 * agrees within one and an author agrees (`sameWork.ts`). An identifier that names a paper
 * whose own identifier of that kind differs (another DOI, another arXiv id) matches nothing. A
 * title that fits several papers equally well is *ambiguous*: no count, and the caller reports
 * it.
 *
 * Pure ({@link workLookups}, {@link decideMatch}) around one store read per batch
 * ({@link matchWorks}): the identifiers and title keys of every work of the batch, looked up at
 * once. Title keys are the store's title aliases (`title:<title>|<first author's last word>`),
 * asked for with every word of every author's name, so a paper is found when its first author
 * is any of the work's authors; one whose first author the work does not list is not found by
 * title (a miss, never a wrong match).
 */
import { arxivDoi, arxivIdOfDoi, normalizeArxivId, normalizeDoi, titleAuthorAlias } from './ids.js';
import type { Paper } from './model.js';
import { MAX_AUTHORS_COMPARED, fitByTitle, isGenericTitle, nameLookupWords, rankFits } from './sameWork.js';

/** What a work says of itself that matching reads (an `OpenAlexWork` is one). */
export interface WorkKeys {
  /** Any DOI form: bare, `doi:`, a resolver URL; an arXiv DOI is read as the arXiv id. */
  doi?: string;
  /** The arXiv id, when a location of the work is arXiv. */
  arxiv?: string;
  title: string;
  year?: number | null;
  authors: readonly string[];
}

/** A library paper as the store gives it back (a `StoredPaper`). */
export interface HeldPaper {
  doc: number;
  paper: Paper;
}

/** What matching needs of the store: the papers filed under identifiers, in one read (`PaperStore.papersByAliases`). */
export interface PaperLookup {
  papersByAliases(aliases: readonly string[]): Promise<Map<string, HeldPaper>>;
}

/** How a work was matched. */
export type MatchedBy = 'doi' | 'arxiv' | 'title';

/**
 * Where a work's count goes: one paper, or none, because nothing fits or because what fits
 * cannot be told apart (`ambiguous`: its identifiers name papers that differ, or its title fits
 * several papers equally well).
 */
export type WorkMatch =
  | { kind: 'matched'; doc: number; id: string; by: MatchedBy }
  | { kind: 'ambiguous'; /** ascending */ docs: number[]; by: 'ids' | 'title' }
  | { kind: 'unmatched' };

/** The strong identifiers of a work or a paper: a DOI that is not arXiv's, and the arXiv id (from either field). */
interface StrongIds {
  doi?: string;
  arxiv?: string;
}

function workIds(work: WorkKeys): StrongIds {
  const doi = typeof work.doi === 'string' ? normalizeDoi(work.doi) : undefined;
  const fromDoi = doi && arxivIdOfDoi(doi);
  const arxiv = fromDoi ?? (typeof work.arxiv === 'string' ? normalizeArxivId(work.arxiv) : undefined);
  return { ...(doi && !fromDoi && { doi }), ...(arxiv && { arxiv }) };
}

function paperIds(paper: Paper): StrongIds {
  return workIds({ title: '', authors: [], ...(paper.externalIds.doi && { doi: paper.externalIds.doi }), ...(paper.externalIds.arxiv && { arxiv: paper.externalIds.arxiv }) });
}

function conflicts(a: StrongIds, b: StrongIds): boolean {
  return (a.doi !== undefined && b.doi !== undefined && a.doi !== b.doi) || (a.arxiv !== undefined && b.arxiv !== undefined && a.arxiv !== b.arxiv);
}

/** The title keys a work's paper may be filed under: its title with every word of every author's name. */
function titleLookups(work: WorkKeys): string[] {
  if (typeof work.title !== 'string' || !Array.isArray(work.authors) || isGenericTitle(work.title)) return [];
  const keys = new Set<string>();
  for (const name of work.authors.slice(0, MAX_AUTHORS_COMPARED)) {
    if (typeof name !== 'string') continue;
    for (const word of nameLookupWords(name)) {
      const key = titleAuthorAlias(work.title, word);
      if (key) keys.add(key);
    }
  }
  return [...keys];
}

/**
 * The store aliases that can name a work's paper: its DOI, its arXiv id (as `arxiv:` and as
 * arXiv's DOI), and its title keys.
 * @example workLookups({ doi: '10.48550/arXiv.1706.03762', title: 'Attention Is All You Need', year: 2017, authors: ['Ashish Vaswani'] })
 * // ['arxiv:1706.03762', 'doi:10.48550/arxiv.1706.03762', 'title:attention is all you need|ashish', 'title:attention is all you need|vaswani']
 */
export function workLookups(work: WorkKeys): string[] {
  const ids = workIds(work);
  const out: string[] = [];
  if (ids.doi) out.push(`doi:${ids.doi}`);
  if (ids.arxiv) out.push(`arxiv:${ids.arxiv}`, `doi:${arxivDoi(ids.arxiv)}`);
  return [...out, ...titleLookups(work)];
}

/**
 * Decides where a work's count goes, from the papers its lookups found (`found`, keyed by
 * alias: what {@link PaperLookup.papersByAliases} gave for {@link workLookups}, or more).
 * @example decideMatch(work, await store.papersByAliases(workLookups(work))) // { kind: 'matched', doc: 42, id: 'arxiv:1706.03762', by: 'arxiv' }
 */
export function decideMatch(work: WorkKeys, found: ReadonlyMap<string, HeldPaper>): WorkMatch {
  const ids = workIds(work);
  const strong: Array<{ held: HeldPaper; by: MatchedBy }> = [];
  const byDoi = ids.doi ? found.get(`doi:${ids.doi}`) : undefined;
  if (byDoi) strong.push({ held: byDoi, by: 'doi' });
  const byArxiv = ids.arxiv ? (found.get(`arxiv:${ids.arxiv}`) ?? found.get(`doi:${arxivDoi(ids.arxiv)}`)) : undefined;
  if (byArxiv) strong.push({ held: byArxiv, by: 'arxiv' });
  const docs = [...new Set(strong.map((s) => s.held.doc))];
  if (docs.length > 1) return { kind: 'ambiguous', docs: docs.sort((x, y) => x - y), by: 'ids' };
  if (strong.length > 0) {
    const { held, by } = strong[0]!;
    if (conflicts(ids, paperIds(held.paper))) return { kind: 'ambiguous', docs, by: 'ids' };
    return { kind: 'matched', doc: held.doc, id: held.paper.id, by };
  }
  const candidates = new Map<number, HeldPaper>();
  for (const key of titleLookups(work)) {
    const held = found.get(key);
    if (held && !conflicts(ids, paperIds(held.paper))) candidates.set(held.doc, held);
  }
  const description = { title: work.title, year: work.year, authors: work.authors };
  const fits = [...candidates.values()].flatMap((held) => {
    const fit = fitByTitle(description, { ...held.paper, held });
    return fit ? [fit] : [];
  });
  const { best, tied } = rankFits(fits);
  if (best) return { kind: 'matched', doc: best.paper.held.doc, id: best.paper.id, by: 'title' };
  if (tied) return { kind: 'ambiguous', docs: tied.map((fit) => fit.paper.held.doc).sort((a, b) => a - b), by: 'title' };
  return { kind: 'unmatched' };
}

/**
 * Matches a batch of works to the library's papers, with one read of the store.
 * @example const matches = await matchWorks(works, stores.papers); // one WorkMatch per work, in order
 */
export async function matchWorks(works: readonly WorkKeys[], lookup: PaperLookup): Promise<WorkMatch[]> {
  const lookups = works.map(workLookups);
  const found = await lookup.papersByAliases([...new Set(lookups.flat())]);
  return works.map((work) => decideMatch(work, found));
}
