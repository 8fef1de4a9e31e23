/**
 * Whether two descriptions that share no identifier are one work: names that agree however they
 * are written (initials, accents, either order, particles, CJK), names that do not, titles that
 * name no paper by themselves, and the ranking that decides between papers of one title.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agreeingAuthors, authorKeys, fitByTitle, isGenericTitle, rankFits, titleKey } from '../../src/papers/sameWork.js';

describe('authors agree', () => {
  it.each([
    ['Kaiming He', 'K. He'],
    ['Kaiming He', 'He, Kaiming'],
    ['Kaiming He', 'He Kaiming'],
    ['Tim Rocktäschel', 'Tim Rocktaschel'],
    ['Łukasz Kaiser', 'Lukasz Kaiser'],
    ['Søren Hauberg', 'S. Hauberg'],
    ['Yann LeCun', 'Yann Le Cun'],
    ['Laurens van der Maaten', 'L. J. P. van der Maaten'],
    ['Xiao-Ming Li', 'Xiaoming Li'],
    ['Xiaoming Li', 'Li Xiaoming'],
    ['Jian Sun', 'Sun, J.'],
    ['Martin Luther King Jr.', 'Martin L. King'],
    ['张伟', '张伟'],
    ['Zhang Wei', 'Wei Zhang'],
    ['Kaiming He', 'He K'],
    ['John Smith', 'Smith John'],
    ['BRANDON REAGEN', 'brandon reagen'],
  ])('%s and %s', (a, b) => {
    expect(agreeingAuthors([a], [b])).toBe(1);
    expect(agreeingAuthors([b], [a])).toBe(1);
  });

  it.each([
    ['Kaiming He', 'Xiangyu He'],
    ['Kaiming He', 'Kaiming Hu'],
    ['Sam John', 'John Smith'],
    ['Anonymous', 'Anonymous'],
    ['Anonymous Authors', 'Anonymous Authors'],
    ['withdrawn', 'withdrawn.'],
    ['et al.', 'et al'],
    ['Smith', 'Smith'],
    ['张伟', 'Wei Zhang'],
    ['张伟', '张强'],
    ['', 'Kaiming He'],
  ])('not %s and %s', (a, b) => {
    expect(agreeingAuthors([a], [b])).toBe(0);
  });

  it('counts the authors of one side that agree with some author of the other', () => {
    expect(agreeingAuthors(['Kaiming He', 'Xiangyu Zhang', 'Shaoqing Ren', 'Jian Sun'], ['K. He', 'X. Zhang', 'S. Ren', 'J. Sun'])).toBe(4);
    expect(agreeingAuthors(['Niki Parmar', 'Ashish Vaswani'], ['Ashish Vaswani', 'Someone Else'])).toBe(1);
    expect(authorKeys('Kaiming He')).toEqual(['he|k', 'he|kaiming', 'kaiming|he']);
  });

  it('never throws on hostile names', () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 5 }), fc.array(fc.string(), { maxLength: 5 }), (a, b) => void agreeingAuthors(a, b)));
    expect(agreeingAuthors(['x'.repeat(100_000)], ['y'.repeat(100_000)])).toBe(0);
  });
});

describe('titles', () => {
  it('compares whole titles, folded, punctuation aside, CJK runs uncut', () => {
    expect(titleKey('Deep Residual Learning for Image Recognition.')).toBe(titleKey('deep residual learning  for image-recognition'));
    const run = '基于深度学习的图像识别方法研究与应用分析及其在医学影像中的实践探索与系统评估与实验验证';
    expect(titleKey(run)).not.toBe(titleKey(`${run.slice(0, 40)}完全不同的结尾部分`));
  });

  it.each([
    ['Preface', true],
    ['Front Matter', true],
    ['Table of Contents', true],
    ['Withdrawn', true],
    ['withdraw', true],
    ['Author Index', true],
    ['', true],
    ['!!!', true],
    ['GPT', true],
    ['Deep learning', false],
    ['Asian Conference on Machine Learning: Preface', false],
    ['基于深度学习的图像识别', false],
    ['深度', true],
  ])('%j is generic: %s', (title, generic) => {
    expect(isGenericTitle(title)).toBe(generic);
  });
});

describe('fitting a paper by title, and ranking the fits', () => {
  const paper = (over: Partial<{ title: string; year: number | null; authors: string[]; status: string; id: string }>) => ({
    id: 'p',
    title: 'Image Transformer',
    year: 2018,
    authors: ['Niki Parmar', 'Ashish Vaswani'],
    status: 'Poster',
    ...over,
  });
  const work = { title: 'Image transformer', year: 2018, authors: ['Ashish Vaswani', 'Niki Parmar', 'Jakob Uszkoreit'] };

  it('needs the same title, both years within one, and an author', () => {
    expect(fitByTitle(work, paper({}))).toMatchObject({ sameYear: true, authors: 2, accepted: true });
    expect(fitByTitle({ ...work, year: 2019 }, paper({}))).toMatchObject({ sameYear: false });
    expect(fitByTitle({ ...work, year: 2020 }, paper({}))).toBeUndefined();
    expect(fitByTitle({ ...work, year: null }, paper({}))).toBeUndefined();
    expect(fitByTitle(work, paper({ year: null }))).toBeUndefined();
    expect(fitByTitle({ ...work, authors: ['Someone Else'] }, paper({}))).toBeUndefined();
    // Half of the shorter list: one of two is enough, one of three is not.
    expect(fitByTitle({ ...work, authors: ['Niki Parmar', 'Someone Else'] }, paper({}))).toMatchObject({ authors: 1 });
    expect(fitByTitle({ ...work, authors: ['Niki Parmar', 'Someone Else', 'Another One'] }, paper({ authors: ['Niki Parmar', 'Third Person', 'Fourth Person'] }))).toBeUndefined();
    expect(fitByTitle({ ...work, authors: ['Niki Parmar', 'Anonymous'] }, paper({ authors: ['Niki Parmar', 'Fifth Person'] }))).toMatchObject({ authors: 1 });
    expect(fitByTitle({ ...work, title: 'Image Transformers' }, paper({}))).toBeUndefined();
    expect(fitByTitle({ ...work, title: 'Preface' }, paper({ title: 'Preface' }))).toBeUndefined();
  });

  it('prefers the accepted paper, then the same year, then more authors in common, then distinction; a tie is ambiguous', () => {
    const rejected = fitByTitle(work, paper({ id: 'iclr', status: 'Rejected', authors: ['Ashish Vaswani', 'Niki Parmar'] }))!;
    const oral = fitByTitle(work, paper({ id: 'icml', status: 'Oral', year: 2019 }))!;
    expect(rankFits([rejected, oral]).best?.paper.id).toBe('icml');
    const sameYear = fitByTitle(work, paper({ id: 'same' }))!;
    expect(rankFits([oral, sameYear]).best?.paper.id).toBe('same');
    const fewer = fitByTitle(work, paper({ id: 'fewer', authors: ['Niki Parmar'], status: 'Oral' }))!;
    expect(rankFits([fewer, sameYear]).best?.paper.id).toBe('same');
    const spotlight = fitByTitle(work, paper({ id: 'spotlight', status: 'Spotlight' }))!;
    expect(rankFits([sameYear, spotlight]).best?.paper.id).toBe('spotlight');
    const twin = fitByTitle(work, paper({ id: 'twin' }))!;
    expect(rankFits([sameYear, twin]).tied?.map((f) => f.paper.id)).toEqual(['same', 'twin']);
    expect(rankFits([])).toEqual({});
  });
});
