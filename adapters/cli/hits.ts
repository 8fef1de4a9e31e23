/**
 * Papers as `search --json` prints them: one object a hit, the same fields wherever the command
 * line lists papers (search, topic, library, recommend).
 */
import type { App } from '../../src/app.js';
import { paperLinks } from '../../src/papers/cards.js';
import type { Paper } from '../../src/papers/model.js';
import { UserError } from '../../src/errors.js';
import type { SearchHit } from '../../src/search/engine.js';

/** A hit of `--json` output. */
export interface HitJson {
  id: string;
  title: string;
  authors: string[];
  venue: string;
  year: number | null;
  status: string;
  /** The search's score (null where papers are listed, not ranked). */
  score: number | null;
  topics: string[];
  url: string | null;
}

/** The hits as `search --json` prints them, their papers read in one go. */
export async function hitsJson(app: App, hits: readonly SearchHit[]) {
  const papers = await app.library.papersByDocs(hits.map((h) => h.storeDoc));
  return hits.map((hit) => hitJson(hit, papers.get(hit.storeDoc)));
}

export function hitJson(hit: Pick<SearchHit, 'id' | 'title'> & { score?: number }, paper: Paper | undefined): HitJson {
  return {
    id: hit.id,
    title: hit.title,
    authors: paper?.authors ?? [],
    venue: paper?.venue ?? '',
    year: paper?.year ?? null,
    status: paper?.status ?? '',
    score: hit.score === undefined ? null : Math.round(hit.score * 1000) / 1000,
    topics: paper?.topics ?? [],
    url: (paper && paperLinks(paper)[0]?.url) ?? null,
  };
}


/** `--limit`'s value: a whole number from 1 to 200. */
export function parseLimit(value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 200) throw new UserError('cli.badLimit');
  return n;
}
