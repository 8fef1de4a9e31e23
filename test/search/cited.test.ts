/**
 * `cited:` and `sort:cited` in the engine: ranges hold only papers with a known count, the
 * most cited come first with unknown counts after every known one, filters alone list the most
 * cited, and a library without counts says why `cited:` finds nothing.
 */
import { describe, expect, it } from 'vitest';
import { buildSegment } from '../../src/search/index/build.js';
import { IndexView } from '../../src/search/index/view.js';
import { SearchEngine } from '../../src/search/engine.js';
import { translate } from '../../src/i18n/index.js';
import type { IndexRow } from '../../src/store/papers.js';
import { indexRow } from './helpers/indexRow.js';

const options = { generation: 1, taxonomyHash: 'h', topicIds: ['gnn'] };

/** Diffusion papers cited 0, 50, 150, 600 and 20,000 times, one unknown; and one of another field. */
function library(counts: boolean): IndexRow[] {
  const known = [0, 50, 150, 600, 20_000];
  const rows = known.map((cited, i) => indexRow(i + 1, `Diffusion Models for Task ${String.fromCharCode(65 + i)}`, { citedBy: counts ? cited : null, year: 2020 + i }));
  rows.push(indexRow(6, 'Diffusion Models for Task Unknown', { citedBy: null, year: 2025 }));
  rows.push(indexRow(7, 'Residual Networks Revisited', { citedBy: counts ? 90_000 : null, year: 2016 }));
  return rows;
}

const engine = (rows: IndexRow[]) =>
  new SearchEngine(new IndexView(buildSegment(rows, options)), { resolveTopic: () => ({ id: 'gnn' }), lookupAbstracts: async () => new Map<number, string>() });
const search = (e: SearchEngine, q: string) => e.search(q, { limit: 10 });
const titles = async (e: SearchEngine, q: string) => (await search(e, q)).hits.map((h) => h.title.replace('Diffusion Models for Task ', ''));

describe('cited: ranges', () => {
  const e = engine(library(true));

  it('keep papers whose known count lies in the range, both ends included', async () => {
    expect((await titles(e, 'diffusion models cited:>100')).sort()).toEqual(['C', 'D', 'E']);
    expect((await titles(e, 'diffusion models cited:50..600')).sort()).toEqual(['B', 'C', 'D']);
    expect((await titles(e, 'diffusion models cited:<10')).sort()).toEqual(['A']);
    expect((await search(e, 'diffusion models cited:>100')).total).toBe(3);
  });

  it('never take an unknown count for zero', async () => {
    expect(await titles(e, 'diffusion models cited:0')).not.toContain('Unknown');
    expect(await titles(e, 'diffusion models cited:..10')).not.toContain('Unknown');
  });

  it('work without words, most cited first with sort:cited', async () => {
    expect(await titles(e, 'cited:>100 sort:cited')).toEqual(['Residual Networks Revisited', 'E', 'D', 'C']);
  });
});

describe('sort:cited', () => {
  it('orders the matches most cited first, unknown counts last', async () => {
    expect(await titles(engine(library(true)), 'diffusion models sort:cited')).toEqual(['E', 'D', 'C', 'B', 'A', 'Unknown']);
  });

  it('keeps the order by words where no count is known', async () => {
    const e = engine(library(false));
    const byWords = await titles(e, 'diffusion models');
    expect(await titles(e, 'diffusion models sort:cited')).toHaveLength(byWords.length);
  });
});

describe('a library without counts', () => {
  it('says why cited: finds nothing, and how counts are loaded', async () => {
    const result = await search(engine(library(false)), 'diffusion models cited:>10');
    expect(result.hits).toEqual([]);
    expect(result.notes.map((n) => translate('en', n))).toEqual([expect.stringContaining('paperscout sync openalex')]);
  });

  it('says nothing of counts where some are known and none is in the range', async () => {
    const result = await search(engine(library(true)), 'diffusion models cited:>1m');
    expect(result.notes.map((n) => n.key)).toEqual(['search.badCited']);
    const none = await search(engine(library(true)), 'diffusion models cited:>50000');
    expect(none.hits).toEqual([]);
    expect(none.notes.map((n) => n.key)).not.toContain('search.noCounts');
  });
});
