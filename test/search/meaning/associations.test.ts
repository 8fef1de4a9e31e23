/**
 * Title associations (src/search/meaning/associations.ts) on a small library written as words:
 * a word used by papers whose titles share a word is tied to it, chance co-occurrence and rare
 * pairs are not, weights sum to one, and the table does not depend on the papers' order.
 */
import { describe, expect, it } from 'vitest';
import { buildAssociations, expandWithAssociates, type AssociationSource, type AssociationTable } from '../../../src/search/meaning/associations.js';

interface Paper {
  title: string;
  abstract: string;
}

/** A source over papers given as words, with the term ids it gave them. */
function sourceOf(papers: readonly Paper[]): { source: AssociationSource; id: (word: string) => number; word: (id: number) => string } {
  const ids = new Map<string, number>();
  const words: string[] = [];
  const id = (w: string) => {
    let i = ids.get(w);
    if (i === undefined) {
      i = words.length;
      ids.set(w, i);
      words.push(w);
    }
    return i;
  };
  const titles = papers.map((p) => [...new Set(p.title.split(' ').map(id))]);
  const uses = papers.map((p, d) => [...new Set([...titles[d]!, ...p.abstract.split(' ').map(id)])]);
  const df = (t: number) => uses.filter((u) => u.includes(t)).length;
  return {
    source: {
      docCount: papers.length,
      termCount: words.length,
      df,
      titleDf: (t) => titles.filter((u) => u.includes(t)).length,
      papersWith: (t) => uses.flatMap((u, d) => (u.includes(t) ? [d] : [])),
      titleTerms: (d) => titles[d]!,
    },
    id: (w) => ids.get(w) ?? -1,
    word: (i) => words[i]!,
  };
}

function associatesOf(table: AssociationTable, t: number, word: (id: number) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = table.start[t]!; i < table.start[t + 1]!; i++) out[word(table.associates[i]!)] = table.weights[i]!;
  return out;
}

const PAPERS: Paper[] = [
  { title: 'siamese signature verification', abstract: 'twin networks compare pen strokes to detect forgery' },
  { title: 'siamese networks for one shot recognition', abstract: 'twin branches share weights and compare images' },
  { title: 'deep siamese tracking', abstract: 'twin subnetworks match a template to search regions' },
  { title: 'signature forgery detection', abstract: 'pen pressure features detect forged handwriting' },
  { title: 'graph attention networks', abstract: 'attention over neighbours in graphs networks' },
  { title: 'attention is all you need', abstract: 'attention networks without recurrence' },
  { title: 'diffusion models beat gans', abstract: 'diffusion networks generate images' },
  { title: 'denoising diffusion probabilistic models', abstract: 'diffusion denoising generate images' },
  { title: 'scalable diffusion models with transformers', abstract: 'transformers denoise latent images with attention' },
  { title: 'mask r cnn', abstract: 'instance segmentation networks detect objects' },
];

describe('buildAssociations', () => {
  const { source, id, word } = sourceOf(PAPERS);
  const table = buildAssociations(source);

  it('ties a description word to the title word of the papers that use it', () => {
    // The other title words of its papers ("deep", "tracking", "signature") are in fewer than three.
    expect(associatesOf(table, id('twin'), word)).toEqual({ siamese: 1 });
    // "images": 4 papers, 3 of them titled with "diffusion" and "models" (of 3 each): a tie, by term id.
    const images = associatesOf(table, id('images'), word);
    expect(Object.keys(images)).toEqual(['diffusion', 'models']);
    expect(images.diffusion).toBeCloseTo(0.5, 6);
  });

  it('keeps nothing for a word in fewer than three papers, nor the word itself, nor a title word no likelier than chance', () => {
    expect(associatesOf(table, id('forgery'), word)).toEqual({});
    // "diffusion" is in three titles, but a word is not its own associate.
    expect(associatesOf(table, id('diffusion'), word).diffusion).toBeUndefined();
    // "networks" is in 6 papers, but no title word is in three of them.
    expect(associatesOf(table, id('networks'), word)).toEqual({});
    // "attention": 4 papers, 2 titled "attention": fewer than three.
    expect(associatesOf(table, id('attention'), word)).toEqual({});
  });

  it('gives the same table whatever the order of the papers', () => {
    const reversed = sourceOf([...PAPERS].reverse());
    const other = buildAssociations(reversed.source);
    for (const w of ['twin', 'diffusion', 'attention', 'images']) {
      expect(associatesOf(other, reversed.id(w), reversed.word)).toEqual(associatesOf(table, id(w), word));
    }
  });

  it('keeps at most the asked number of associates', () => {
    const one = buildAssociations(source, { associates: 1 });
    for (let t = 0; t < source.termCount; t++) expect(one.start[t + 1]! - one.start[t]!).toBeLessThanOrEqual(1);
    expect(associatesOf(one, id('twin'), word)).toEqual({ siamese: 1 });
  });
});

describe('expandWithAssociates', () => {
  const { source, id } = sourceOf(PAPERS);
  const table = buildAssociations(source);

  it('adds associates at the term’s weight × their share × the weight asked, never a query term again', () => {
    expect(expandWithAssociates(table, new Map([[id('twin'), 2]]), 0.5)).toEqual(new Map([[id('siamese'), 1]]));
    const bag = new Map([
      [id('twin'), 2],
      [id('siamese'), 1],
    ]);
    expect(expandWithAssociates(table, bag, 0.5).has(id('siamese'))).toBe(false);
  });

  it('ignores a term the table does not know', () => {
    expect(expandWithAssociates(table, new Map([[10_000, 1]]), 1).size).toBe(0);
  });
});
