/**
 * A search-box query that is one identifier or link (an arXiv id, a DOI, an OpenReview forum, a
 * paper's own page or pdf) names a paper rather than words: it is answered before the text
 * search, by the paper the store files under it (the store may be newer than the index), alone
 * and first; or by a note that the library has no such paper. This is rank 1 of the precedence
 * in `engine.ts`, kept out of the engine so that the engine stays pure text search and every
 * reference is resolved one way ({@link resolveRef}). Search never fetches what the library
 * lacks: `/paper` and unfurls do that before they search.
 */
import { msg, type Message } from '../i18n/index.js';
import { parsePaperRef, type PaperRef } from '../papers/ids.js';
import { resolveRef } from '../papers/resolve.js';
import type { PaperStore } from '../store/papers.js';
import { TIER_EXACT, type SearchEngine, type SearchOptions, type SearchResult } from './engine.js';
import { parseQuery } from './query.js';

/**
 * Runs a search-box query: the paper a whole-query identifier or link names, else the engine's
 * text search.
 * @example (await searchWithRefs(engine, store, 'arXiv:1706.03762')).hits[0]?.title // 'Attention Is All You Need'
 */
export async function searchWithRefs(engine: Pick<SearchEngine, 'search'>, store: Pick<PaperStore, 'findByRef'>, input: string, options?: SearchOptions): Promise<SearchResult> {
  const ref = parsePaperRef(input);
  if (!ref) return engine.search(input, options);
  const query = parseQuery('');
  query.text = input.trim();
  const result: SearchResult = { query, hits: [], total: 0, partial: false, words: [], notes: [], ref };
  const resolved = await resolveRef(ref, { store });
  if (resolved.kind === 'held') {
    result.hits = [{ storeDoc: resolved.doc, id: resolved.paper.id, title: resolved.paper.title, score: TIER_EXACT }];
    result.total = 1;
  } else {
    result.notes.push(msg('search.noSuchRef', { ref: [describeRef(ref)] }));
  }
  return result;
}

function describeRef(ref: PaperRef): Message {
  switch (ref.kind) {
    case 'arxiv':
      return msg('search.ref.arxiv', { id: ref.id });
    case 'doi':
      return msg('search.ref.doi', { id: ref.id });
    case 'openreview':
      return msg('search.ref.openreview', { id: ref.id });
    default:
      return msg('search.ref.link', { id: ref.id });
  }
}
