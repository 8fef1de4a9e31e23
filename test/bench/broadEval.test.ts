/**
 * `npm run eval -- --broad`: the MRR of the first target in the top 20 and hit@5, per query as
 * listed, and a first target past the top 20 counted as not found.
 */
import { describe, expect, it } from 'vitest';
import { broadLine, scoreBroad } from '../../bench/broadEval.js';
import type { SearchResult } from '../../src/search/engine.js';

/** A search answering each query with these titles. */
const answers = (lists: Record<string, string[]>) => async (query: string) =>
  ({ hits: (lists[query] ?? []).map((title, i) => ({ storeDoc: i, id: `p${i}`, title, score: 1 })), total: 0 }) as unknown as SearchResult;

describe('scoreBroad', () => {
  it('scores the first target of each query, by normalized title', async () => {
    const filler = Array.from({ length: 25 }, (_, i) => `Other ${i}`);
    const search = answers({
      a: ['Fully Convolutional Networks for Semantic Segmentation', 'x'],
      b: ['x', 'y', 'z', 'Pyramid Scene  Parsing Network!', 'w'],
      c: [...filler.slice(0, 6), 'Target C'],
      d: [...filler.slice(0, 20), 'Target D'],
    });
    const cases = [
      { query: 'a', targets: ['Fully Convolutional Networks for Semantic Segmentation'] },
      { query: 'b', targets: ['Deep Lab', 'pyramid scene parsing network'] },
      { query: 'c', targets: ['Target C'] },
      { query: 'd', targets: ['Target D'] },
    ];
    const lines: string[] = [];
    const score = await scoreBroad(cases, search, { verbose: true, out: (l) => lines.push(l) });
    expect(score.ranks).toEqual([1, 4, 7, 0]);
    expect(score.mrr).toBeCloseTo((1 + 1 / 4 + 1 / 7) / 4, 12);
    expect(score.hit5).toBe(0.5);
    expect(lines.length).toBe(4);
    expect(broadLine('broad', score)).toMatch(/^broad +n=4 +MRR@20 0\.348  hit@5 0\.500 /);
  });
});
