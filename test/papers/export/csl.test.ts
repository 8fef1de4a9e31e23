/**
 * The CSL-JSON export: valid against the CSL data schema (`test/fixtures/csl/csl-data.json`,
 * the CSL project's own, v1.0.2) and rendered by citeproc-js in APA (the style bundled with
 * @citation-js/plugin-csl) and IEEE (`test/fixtures/csl/ieee.csl`) without error, for
 * realistic and hostile papers alike.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import CSL from 'citeproc';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cslItems, toCslJson, type CslItem } from '../../../src/papers/export/csl.js';
import { citationKeys, describeAll } from '../../../src/papers/export/entry.js';
import { hostilePapers } from './hostile.js';
import {
  REALISTIC, arxivPreprint, chineseAuthors, conferenceOral, diacritics, journalArticle, mathTitle, tmlrArticle,
  withdrawnSubmission,
} from './papers.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/csl/${name}`, import.meta.url), 'utf8');
const bundled = createRequire(import.meta.url);
const STYLES: Record<string, string> = {
  apa: (bundled('@citation-js/plugin-csl/lib/styles.json') as Record<string, string>)['apa']!,
  ieee: fixture('ieee.csl'),
};
const EN_US = (bundled('@citation-js/plugin-csl/lib/locales.json') as Record<string, string>)['en-US']!;

// The schema gives some variables a union of types ("string" or "number"), as draft-07 allows.
const validate = new Ajv({ allErrors: true, allowUnionTypes: true }).compile(JSON.parse(fixture('csl-data.json')) as object);

/** An engine per style, built once (parsing a style is what takes time), fed fresh ids each render. */
const engines = new Map<string, { engine: InstanceType<typeof CSL.Engine>; items: Map<string, unknown> }>();
let renders = 0;

/** Every entry's bibliography in a style, as plain text, with citeproc's error list. */
function render(items: readonly CslItem[], style: string): { errors: unknown[]; entries: string[] } {
  let made = engines.get(style);
  if (!made) {
    const known = new Map<string, unknown>();
    const engine = new CSL.Engine({ retrieveLocale: () => EN_US, retrieveItem: (id) => known.get(id) }, STYLES[style]!, 'en-US');
    engine.setOutputFormat('text');
    made = { engine, items: known };
    engines.set(style, made);
  }
  // citeproc keeps what it read of an id: each render gets ids of its own.
  const render = ++renders;
  const ids = items.map((item, i) => {
    const id = `r${render}-${i}`;
    made.items.set(id, { ...item, id });
    return id;
  });
  made.engine.updateItems(ids);
  const bibliography = made.engine.makeBibliography();
  if (!bibliography) throw new Error(`${style} made no bibliography`);
  return { errors: bibliography[0].bibliography_errors, entries: bibliography[1].map((entry) => entry.trim()) };
}

describe('cslItems on realistic papers', () => {
  it('writes a conference oral as a paper-conference keyed like its BibTeX entry', () => {
    expect(cslItems([conferenceOral])).toEqual([
      {
        id: 'vaswani2017attention',
        'citation-key': 'vaswani2017attention',
        type: 'paper-conference',
        title: 'Attention Is All You Need',
        author: [
          { family: 'Vaswani', given: 'Ashish' }, { family: 'Shazeer', given: 'Noam' }, { family: 'Parmar', given: 'Niki' },
          { family: 'Uszkoreit', given: 'Jakob' }, { family: 'Jones', given: 'Llion' }, { family: 'Gomez', given: 'Aidan N.' },
          { family: 'Kaiser', given: 'Łukasz' }, { family: 'Polosukhin', given: 'Illia' },
        ],
        issued: { 'date-parts': [[2017]] },
        'container-title': 'Advances in Neural Information Processing Systems',
        'container-title-short': 'NeurIPS',
        'event-title': 'Conference on Neural Information Processing Systems',
        event: 'Conference on Neural Information Processing Systems',
        URL: 'https://arxiv.org/abs/1706.03762',
        abstract: 'The dominant sequence transduction models are based on complex recurrent or convolutional neural networks. We propose a new simple network architecture, the Transformer.',
        keyword: 'attention, machine translation',
      },
    ]);
  });

  it.each([
    ['article', arxivPreprint, { publisher: 'arXiv', number: 'arXiv:2401.04088', issued: { 'date-parts': [[2024, 1, 8]] } }],
    ['article-journal', journalArticle, { 'container-title': 'Nature', DOI: '10.1038/nature14539' }],
    ['article-journal', tmlrArticle, { 'container-title': 'Transactions on Machine Learning Research' }],
    ['article', withdrawnSubmission, { genre: 'Withdrawn submission to ICLR 2024', status: 'withdrawn', publisher: 'OpenReview' }],
    ['paper-conference', chineseAuthors, { author: [{ family: 'He', given: 'Kaiming' }, { family: 'Zhang', given: 'Xiangyu' }, { family: 'Ren', given: 'Shaoqing' }, { family: 'Sun', given: 'Jian' }, { literal: '孙剑' }] }],
    ['paper-conference', diacritics, { author: expect.arrayContaining([{ family: 'Rossum', given: 'Guido', 'non-dropping-particle': 'van' }, { family: 'Matas', given: 'Jiří' }]) }],
    ['article', mathTitle, { title: 'Regret Bounds of O(√T) for ℓ₁-Regularized Online Learning', author: [{ family: 'Müller-Lüdenscheidt', given: 'Zoë' }, { literal: 'DeepMind Team' }] }],
  ] as const)('writes a %s', (type, paper, fields) => {
    const [item] = cslItems([paper]);
    expect(item!.type).toBe(type);
    expect(item).toMatchObject(fields);
  });

  it('is valid against the CSL data schema', () => {
    const items: unknown = JSON.parse(toCslJson(REALISTIC));
    expect(validate(items), JSON.stringify(validate.errors)).toBe(true);
  });

  it('fails the schema check when an item is not CSL, so the check can fail', () => {
    const [item] = cslItems([conferenceOral]);
    expect(validate([{ ...item, type: 'inproceedings' }])).toBe(false);
    expect(validate([{ ...item, booktitle: 'x' }])).toBe(false);
  });

  it.each(['apa', 'ieee'])('renders every entry in %s without error', (style) => {
    const { errors, entries } = render(cslItems(REALISTIC), style);
    expect(errors).toEqual([]);
    expect(entries).toHaveLength(REALISTIC.length);
    for (const entry of entries) expect(entry).not.toMatch(/CSL STYLE ERROR|undefined|\[object/);
  });

  it('renders the venue, names and preprint number as a reader expects them', () => {
    const apa = render(cslItems([conferenceOral, arxivPreprint, withdrawnSubmission]), 'apa').entries.join('\n');
    expect(apa).toContain('Vaswani, A., Shazeer, N., Parmar, N.');
    expect(apa).toContain('Advances in Neural Information Processing Systems');
    expect(apa).toContain('(arXiv:2401.04088). arXiv. https://arxiv.org/abs/2401.04088');
    expect(apa).toContain('[Withdrawn submission to ICLR 2024]');
    const ieee = render(cslItems([conferenceOral, diacritics]), 'ieee').entries.join('\n');
    expect(ieee).toContain('presented at the Conference on Neural Information Processing Systems');
    expect(ieee).toContain('G. van Rossum');
  });

  it('gives the same bytes for the same papers, and an empty array for none', () => {
    expect(toCslJson(structuredClone(REALISTIC))).toBe(toCslJson(REALISTIC));
    expect(toCslJson([])).toBe('[]\n');
  });
});

describe('cslItems on hostile text', () => {
  it('stays valid CSL that both styles render, one entry per paper, ids the citation keys', () => {
    fc.assert(
      fc.property(hostilePapers, (papers) => {
        const items = JSON.parse(toCslJson(papers)) as CslItem[];
        expect(validate(items), JSON.stringify(validate.errors)).toBe(true);
        expect(items.map((item) => item.id)).toEqual(citationKeys(describeAll(papers)));
        for (const style of ['apa', 'ieee']) {
          const { errors, entries } = render(items, style);
          expect(errors).toEqual([]);
          expect(entries).toHaveLength(items.length);
        }
      }),
      { numRuns: 100 },
    );
  });
});
