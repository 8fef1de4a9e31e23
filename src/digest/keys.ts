/**
 * The keys a paper is known by for "never twice": every identifier it has. A v2, a cross-list
 * or the same paper from another source shares at least one of them with the original.
 */
import type { Paper } from '../papers/model.js';
import { normalizeTitle } from '../text.js';

/**
 * @example paperKeys({ externalIds: { arxiv: '2401.01234' }, title: 'A Title' }) // ['arxiv:2401.01234', 'title:a title']
 */
export function paperKeys(paper: Pick<Paper, 'externalIds' | 'title'>): string[] {
  const keys: string[] = [];
  const { arxiv, doi, openreview } = paper.externalIds;
  if (arxiv) keys.push(`arxiv:${arxiv}`);
  if (doi) keys.push(`doi:${doi}`);
  if (openreview) keys.push(`openreview:${openreview}`);
  const title = normalizeTitle(paper.title);
  if (title) keys.push(`title:${title}`);
  return keys;
}
