/**
 * BENCH-ONLY: citation counts from an OpenAlex works file (bench/works.ts writes one) put into
 * the rows a search index is built from, so that ranking with counts can be measured before the
 * store holds them. The real path is the store's: `IndexRow.citedBy`, filled by both stores from
 * the OpenAlex citation store (`paperscout sync openalex`, `paperscout ingest <works.jsonl>`).
 * When that is there, `--works` in eval.ts gives way to a library synced from the file, and this
 * module goes.
 *
 * Matching is the simple one a benchmark needs, not the store's: the paper's id (arXiv or DOI),
 * then its normalized title and year.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { Library } from '../src/library.js';
import { chineseDictionary, loadTopics, type App } from '../src/app.js';
import { rebuildHere } from '../src/search/rebuildPolicy.js';
import type { IndexRow, PaperStore } from '../src/store/papers.js';
import { normalizeTitle } from '../src/text.js';

/** Counts by the keys a paper is matched with. */
export interface WorkCounts {
  byId: Map<string, number>;
  byTitle: Map<string, number>;
  works: number;
}

/** Reads a works file (`.gz` or not): each work's count under its DOI (or arXiv id) and its title and year. */
export async function readWorkCounts(path: string): Promise<WorkCounts> {
  const input = createReadStream(path);
  const lines = createInterface({ input: path.endsWith('.gz') ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
  const counts: WorkCounts = { byId: new Map(), byTitle: new Map(), works: 0 };
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const work = JSON.parse(line) as { doi?: string | null; title?: string; publication_year?: number | null; cited_by_count?: number };
    if (typeof work.cited_by_count !== 'number') continue;
    counts.works++;
    const doi = work.doi?.replace(/^https:\/\/doi\.org\//i, '').toLowerCase();
    if (doi) {
      const arxiv = /^10\.48550\/arxiv\.(.+)$/.exec(doi)?.[1];
      counts.byId.set(arxiv ? `arxiv:${arxiv}` : `doi:${doi}`, work.cited_by_count);
    }
    if (work.title) counts.byTitle.set(`${normalizeTitle(work.title.replace(/\.$/, ''))}|${work.publication_year ?? ''}`, work.cited_by_count);
  }
  return counts;
}

/** A row's count in `counts`, or null. */
export function countOf(row: IndexRow, counts: WorkCounts): number | null {
  return counts.byId.get(row.id.toLowerCase()) ?? counts.byTitle.get(`${normalizeTitle(row.title)}|${row.year ?? ''}`) ?? null;
}

/**
 * The store, its index rows given counts from `counts` (or none at all, with `undefined`):
 * every other method is the store's own.
 */
export function withCounts(store: PaperStore, counts: WorkCounts | undefined): PaperStore {
  const fill = (row: IndexRow): IndexRow => ({ ...row, citedBy: counts ? countOf(row, counts) : null });
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name === 'rowsForIndex') {
        return async function* () {
          for await (const row of target.rowsForIndex()) yield fill(row);
        };
      }
      if (name === 'rowsChanged') return async (...args: Parameters<PaperStore['rowsChanged']>) => (await target.rowsChanged(...args)).map(fill);
      const value = Reflect.get(target, name, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * A library over the app's store whose index (built in memory) has the counts of `counts`, or
 * none with `undefined`.
 */
export async function libraryWithCounts(app: App, counts: WorkCounts | undefined): Promise<Library> {
  const { taxonomy, taxonomyHash } = loadTopics();
  const library = new Library({
    store: withCounts(app.store, counts),
    taxonomy,
    taxonomyHash,
    topics: app.library.topics,
    dictionary: chineseDictionary(taxonomy),
    rebuild: rebuildHere({ save: false }),
    log: app.log,
  });
  return library.open();
}
