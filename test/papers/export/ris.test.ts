/**
 * The RIS export, read back by a strict parser written to the RIS specification: every line a
 * tag (uppercase letter, uppercase letter or digit, two spaces, hyphen, space) and a value,
 * CR LF line ends, records from TY to ER with nothing between them. Hostile text never breaks
 * a line or makes a tag of its own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeAll } from '../../../src/papers/export/entry.js';
import { invertedName } from '../../../src/papers/export/names.js';
import { RIS_EOL, toRis } from '../../../src/papers/export/ris.js';
import { hostilePapers } from './hostile.js';
import {
  REALISTIC, arxivPreprint, chineseAuthors, conferenceOral, diacritics, journalArticle, mathTitle, rawPaper, tmlrArticle,
  withdrawnSubmission,
} from './papers.js';

type RisRecord = Array<[tag: string, value: string]>;

const TAG_LINE = /^([A-Z][A-Z0-9]) {2}- (.*)$/s;
/** Characters some readers take for a line end: none may appear inside a value. */
const LINE_BREAKS = /[\r\n\u0085\u2028\u2029\u000b\u000c]/;

/** Reads an RIS file strictly, failing on anything the specification does not allow. */
function parseRis(text: string): RisRecord[] {
  if (text === '') return [];
  expect(text.endsWith(RIS_EOL)).toBe(true);
  const records: RisRecord[] = [];
  let current: RisRecord | undefined;
  for (const line of text.slice(0, -RIS_EOL.length).split(RIS_EOL)) {
    const match = TAG_LINE.exec(line);
    if (!match) throw new Error(`not an RIS tag line: ${JSON.stringify(line)}`);
    const [, tag, value] = match as unknown as [string, string, string];
    if (LINE_BREAKS.test(value)) throw new Error(`line break inside the value of ${tag}: ${JSON.stringify(value)}`);
    if (tag === 'TY') {
      if (current) throw new Error('TY inside a record');
      current = [];
    } else if (!current) {
      throw new Error(`${tag} outside a record`);
    }
    if (tag === 'ER') {
      expect(value).toBe('');
      records.push(current);
      current = undefined;
    } else {
      current.push([tag, value]);
    }
  }
  if (current) throw new Error('record without ER');
  return records;
}

const values = (record: RisRecord, tag: string): string[] => record.filter(([t]) => t === tag).map(([, v]) => v);

describe('toRis on realistic papers', () => {
  it('writes a conference oral tag by tag, with CR LF line ends', () => {
    expect(toRis([conferenceOral]).split('\r\n')).toEqual([
      'TY  - CONF',
      'AU  - Vaswani, Ashish',
      'AU  - Shazeer, Noam',
      'AU  - Parmar, Niki',
      'AU  - Uszkoreit, Jakob',
      'AU  - Jones, Llion',
      'AU  - Gomez, Aidan N.',
      'AU  - Kaiser, Łukasz',
      'AU  - Polosukhin, Illia',
      'TI  - Attention Is All You Need',
      'T2  - Advances in Neural Information Processing Systems',
      'J2  - NeurIPS',
      'PY  - 2017',
      'UR  - https://arxiv.org/abs/1706.03762',
      'DB  - arXiv',
      'AN  - arXiv:1706.03762',
      'AB  - The dominant sequence transduction models are based on complex recurrent or convolutional neural networks. We propose a new simple network architecture, the Transformer.',
      'KW  - attention',
      'KW  - machine translation',
      'ER  - ',
      '',
    ]);
  });

  it.each([
    ['CONF', conferenceOral, { T2: ['Advances in Neural Information Processing Systems'], PY: ['2017'] }],
    ['UNPB', arxivPreprint, { PY: ['2024'], DA: ['2024/01/08'], AN: ['arXiv:2401.04088'], T2: [] }],
    ['JOUR', journalArticle, { T2: ['Nature'], DO: ['10.1038/nature14539'], UR: ['https://doi.org/10.1038/nature14539'] }],
    ['JOUR', tmlrArticle, { T2: ['Transactions on Machine Learning Research'], J2: ['TMLR'] }],
    ['UNPB', withdrawnSubmission, { N1: ['Withdrawn submission to ICLR 2024'], UR: ['https://openreview.net/forum?id=B11bwYgfM'] }],
    ['CONF', chineseAuthors, { AU: ['He, Kaiming', 'Zhang, Xiangyu', 'Ren, Shaoqing', 'Sun, Jian', '孙剑'], DO: ['10.1109/cvpr.2016.90'] }],
    ['CONF', diacritics, { AU: ['Schölkopf, Bernhard', 'Szepesvári, Csaba', 'Matas, Jiří', 'Hauberg, Søren', 'van Rossum, Guido'] }],
    ['UNPB', mathTitle, { TI: ['Regret Bounds of O(√T) for ℓ₁-Regularized Online Learning'], AU: ['Müller-Lüdenscheidt, Zoë', 'DeepMind Team'] }],
  ] as const)('writes TY  - %s with its tags', (type, paper, expected) => {
    const [record] = parseRis(toRis([paper]));
    expect(record![0]).toEqual(['TY', type]);
    for (const [tag, want] of Object.entries(expected)) expect(values(record!, tag)).toEqual(want);
  });

  it('reads every realistic paper back: one record each, authors in order, title, year and abstract', () => {
    const records = parseRis(toRis(REALISTIC));
    expect(records).toHaveLength(REALISTIC.length);
    describeAll(REALISTIC).forEach((citable, i) => {
      const record = records[i]!;
      expect(values(record, 'AU')).toEqual(citable.authors.map(invertedName));
      expect(values(record, 'TI')).toEqual([citable.paper.title]);
      expect(values(record, 'PY')).toEqual([String(citable.paper.year)]);
      expect(values(record, 'AB')).toEqual(citable.abstract ? [citable.abstract] : []);
    });
  });

  it('leaves asterisks out of authors, keywords and periodical names, as the specification asks', () => {
    const paper = rawPaper({ id: 'x', title: 'Stars * everywhere', authors: ['Ana *Ruiz'], keywords: ['deep*learning'], venue: 'Journal of *Stars*' });
    const [record] = parseRis(toRis([paper]));
    expect(values(record!, 'AU')).toEqual(['Ana Ruiz']);
    expect(values(record!, 'KW')).toEqual(['deep learning']);
    expect(values(record!, 'T2')).toEqual(['Journal of Stars']);
    expect(values(record!, 'TI')).toEqual(['Stars * everywhere']);
  });

  it('gives the same bytes for the same papers, and nothing for no papers', () => {
    expect(toRis(structuredClone(REALISTIC))).toBe(toRis(REALISTIC));
    expect(toRis([])).toBe('');
  });
});

describe('toRis on hostile text', () => {
  it('keeps every value on its line: exactly one record per paper, with the cleaned text', () => {
    fc.assert(
      fc.property(hostilePapers, (papers) => {
        const records = parseRis(toRis(papers));
        const citables = describeAll(papers);
        expect(records).toHaveLength(citables.length);
        records.forEach((record, i) => {
          const citable = citables[i]!;
          expect(values(record, 'TY')).toHaveLength(1);
          expect(values(record, 'TI')).toEqual(citable.title ? [citable.title] : []);
          expect(values(record, 'AB')).toEqual(citable.abstract ? [citable.abstract] : []);
          expect(values(record, 'AU').length).toBeLessThanOrEqual(citable.authors.length);
        });
      }),
      { numRuns: 300 },
    );
  });
});
