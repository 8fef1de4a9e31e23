import fc from 'fast-check';
import { translate } from '../../src/i18n/index.js';
import { describe, expect, it } from 'vitest';
import { isEmptyQuery, MAX_QUERY_LENGTH, parseCounts, parseQuery, parseYears } from '../../src/search/query.js';

const notes = (q: { notes: Parameters<typeof translate>[1][] }) => q.notes.map((n) => translate('en', n)).join(' ');

describe('parseQuery', () => {
  it.each([
    ['diffusion transformers', { words: ['diffusion', 'transformers'], lastIsPrefix: true }],
    ['diffusion transformers ', { words: ['diffusion', 'transformers'], lastIsPrefix: false }],
    ['"graph neural" networks', { words: ['graph', 'neural', 'networks'], phrases: [['graph', 'neural']], lastIsPrefix: true }],
    ['"graph neural networks"', { phrases: [['graph', 'neural', 'networks']], lastIsPrefix: false }],
    ['attention -transformer', { words: ['attention'], excluded: [['transformer']] }],
    ['attention -"self attention"', { excluded: [['self', 'attention']] }],
    ['author:"Yoshua Bengio" attention', { authors: [['yoshua', 'bengio']], words: ['attention'] }],
    ['author:bengio', { authors: [['bengio']], words: [] }],
    ['venue:icml venue:NeurIPS', { venues: ['icml', 'NeurIPS'] }],
    ['year:2019', { years: { from: 2019, to: 2019 } }],
    ['year:2018..2020 year:2019..2022', { years: { from: 2019, to: 2020 } }],
    ['topic:"Theory · Learning Theory"', { topics: ['Theory · Learning Theory'] }],
    ['sort:new llm', { sort: 'new', words: ['llm'] }],
    ['Sim-to-Real transfer', { words: ['sim', 'to', 'real', 'transfer'], excluded: [] }],
    ['BERT: Pre-training of Deep', { words: ['bert', 'pre', 'training', 'of', 'deep'], text: 'BERT: Pre-training of Deep' }],
    ['Rocktäschel', { words: ['rocktaschel'] }],
  ])('%s', (input, expected) => {
    expect(parseQuery(input)).toMatchObject(expected);
  });

  it('explains filters it does not know and searches them as words', () => {
    const q = parseQuery('foo:bar attention');
    expect(q.words).toEqual(['foo', 'bar', 'attention']);
    expect(notes(q)).toMatch(/"foo:" is not a filter.*author:/);
  });

  it('explains bad filter values', () => {
    expect(notes(parseQuery('year:abc x'))).toMatch(/year:2019/);
    expect(notes(parseQuery('sort:sideways x'))).toMatch(/sort:new/);
    expect(notes(parseQuery('author: x'))).toMatch(/author: needs a value/);
  });

  it('closes an unbalanced quote at the end and says so', () => {
    const q = parseQuery('"graph neural');
    expect(q.phrases).toEqual([['graph', 'neural']]);
    expect(notes(q)).toMatch(/not closed/);
  });

  it('reads only the first part of a very long query', () => {
    const q = parseQuery('word '.repeat(3000));
    expect(notes(q)).toContain(`first ${MAX_QUERY_LENGTH.toLocaleString('en-GB')} characters`);
    expect(q.words.length).toBeLessThanOrEqual(32);
  });

  it('never throws and stays bounded on hostile input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000, unit: fc.constantFrom('"', ':', '-', ' ', 'a', 'é', '\u0000', '..', 'year', 'author', '\n', '*', '<', '@') }), (input) => {
        const q = parseQuery(input);
        expect(q.words.length).toBeLessThanOrEqual(32);
        expect(Array.isArray(q.notes)).toBe(true);
      }),
      { numRuns: 300 },
    );
    fc.assert(fc.property(fc.string({ maxLength: 2000 }), (input) => void parseQuery(input)), { numRuns: 300 });
  });
});

describe('parseYears', () => {
  it.each([
    ['2019', { from: 2019, to: 2019 }],
    ['2018..2020', { from: 2018, to: 2020 }],
    ['2020-2018', { from: 2018, to: 2020 }],
    ['2020..', { from: 2020 }],
    ['..2019', { to: 2019 }],
    ['>=2021', { from: 2021 }],
    ['>2020', { from: 2021 }],
    ['<2015', { to: 2014 }],
    ['<=2015', { to: 2015 }],
    ['19', undefined],
    ['abc', undefined],
    ['..', undefined],
  ])('%s', (input, expected) => {
    expect(parseYears(input)).toEqual(expected);
  });
});

describe('parseCounts', () => {
  it.each([
    ['100', { from: 100 }],
    ['>100', { from: 101 }],
    ['>=100', { from: 100 }],
    ['≥100', { from: 100 }],
    ['<10', { to: 9 }],
    ['<=10', { to: 10 }],
    ['100..500', { from: 100, to: 500 }],
    ['500-100', { from: 100, to: 500 }],
    ['1k..5k', { from: 1000, to: 5000 }],
    ['>1.5k', { from: 1501 }],
    ['>1,000', { from: 1001 }],
    ['100..', { from: 100 }],
    ['..50', { to: 50 }],
    ['0..0', { to: 0 }],
    ['<0', undefined],
    ['-5', { to: 5 }],
    ['1.5', undefined],
    ['abc', undefined],
    ['..', undefined],
    ['1,00', undefined],
    ['>99999999', undefined],
    ['constructor', undefined],
  ])('%s', (input, expected) => {
    expect(parseCounts(input)).toEqual(expected);
  });
});

describe('cited: and sort:cited', () => {
  it('read as a count range and an order, intersected when repeated', () => {
    const q = parseQuery('graph neural networks cited:>100 cited:..5000 sort:cited');
    expect(q.cited).toEqual({ from: 101, to: 5000 });
    expect(q.sort).toBe('cited');
    expect(q.words).toEqual(['graph', 'neural', 'networks']);
    expect(q.notes).toEqual([]);
  });

  it('is a query on its own, and a bad count is a note that says what to write', () => {
    expect(isEmptyQuery(parseQuery('cited:>1000'))).toBe(false);
    const bad = parseQuery('gan cited:lots');
    expect(bad.cited).toBeUndefined();
    expect(bad.notes.map((n) => n.key)).toEqual(['search.badCited']);
    expect(parseQuery('gan cited:').notes.map((n) => n.key)).toEqual(['search.needsValue']);
    expect(parseQuery('gan sort:popular').notes.map((n) => n.key)).toEqual(['search.badSort']);
  });
});
