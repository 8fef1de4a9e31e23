/**
 * The text upgrade's plan, which both stores carry out (the stores themselves are held to it by
 * textUpgrade.test.ts and the papers contract suite): which keys go, which rows are rewritten,
 * which keys are filed and in what order.
 */
import { describe, expect, it } from 'vitest';
import type { PaperRow } from '../../src/store/paperRecords.js';
import { TextUpgradePlanner, sharedAliases } from '../../src/store/paperUpgrades.js';
import { TEXT_VERSION } from '../../src/text.js';

const titles = (doc: number, id: string, title: string, authors: string[]) => ({ doc, id, title, authors: JSON.stringify(authors) });

function fullRow(doc: number, id: string, title: string, authors: string[]): PaperRow {
  return {
    ...titles(doc, id, title, authors),
    abstract: 'An abstract.',
    venue: 'V',
    year: 2020,
    status: '',
    topics: '[]',
    keywords: '[]',
    labels: '[]',
    links: '{}',
    external_ids: '{}',
    published: null,
    tldr: null,
    source: 'test',
    content_hash: 'old',
    first_seen: '2020-01-01T00:00:00.000Z',
  };
}

describe('TextUpgradePlanner', () => {
  it('re-keys titles refolding cannot redo, refolds the other old keys, and leaves current ones', () => {
    const planner = new TextUpgradePlanner(2, () => []);
    expect(planner.readsAll).toBe(false);
    planner.add(titles(1, 'p1', 'ℒ1 Regularization Revisited', ['Ann Lee']));
    planner.add(titles(2, 'p2', 'Łódź Street Scenes', ['Paweł Dłotko']));
    const plan = planner.plan([
      { alias: 'title:1 regularization revisited|lee', paper_id: 'p1' },
      { alias: 'title:łodz street scenes|dłotko', paper_id: 'p2' },
      { alias: 'title:lodz street scenes|dlotko', paper_id: 'p3' },
    ]);
    expect(plan).toEqual({
      result: { from: 2, to: TEXT_VERSION, papers: 2, decoded: 0, aliases: 2 },
      removeAliases: ['title:1 regularization revisited|lee', 'title:łodz street scenes|dłotko'],
      decoded: [],
      fileAliases: [
        ['title:l1 regularization revisited|lee', 'p1'],
        ['title:lodz street scenes|dlotko', 'p2'],
      ],
    });
    // p3 had the refolded key first: p2's claim stays with it.
    expect(sharedAliases(plan.fileAliases, new Map([['title:l1 regularization revisited|lee', 'p1'], ['title:lodz street scenes|dlotko', 'p3']]))).toBe(1);
  });

  it('decodes the LaTeX of a library written before decoding at import, and files its new title key last', () => {
    const classified: string[] = [];
    const planner = new TextUpgradePlanner(1, (paper) => {
      classified.push(paper.title);
      return ['algebra'];
    });
    expect(planner.readsAll).toBe(true);
    planner.add(fullRow(7, 'p7', 'Gr\\"obner Bases', ['J\\\'anos Koll\\\'ar']));
    planner.add(fullRow(8, 'p8', 'Plain Title', ['Ann Lee']));
    const plan = planner.plan([]);
    expect(classified).toEqual(['Gröbner Bases']);
    expect(plan.result).toEqual({ from: 1, to: TEXT_VERSION, papers: 2, decoded: 1, aliases: 0 });
    expect(plan.decoded).toHaveLength(1);
    expect(plan.decoded[0]).toMatchObject({ doc: 7, columns: { title: 'Gröbner Bases', authors: '["János Kollár"]', topics: '["algebra"]' } });
    expect(plan.decoded[0]!.columns.content_hash).not.toBe('old');
    expect(plan.fileAliases).toEqual([['title:grobner bases|kollar', 'p7']]);
  });
});
