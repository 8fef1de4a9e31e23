import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDictionary, readQuery, translate } from '../../src/i18n/index.js';

const dictionary = createDictionary(
  { 扩散模型: 'diffusion model', 扩散: 'diffusion', 模型: 'model', 视频生成: 'video generation', 目标检测: 'object detection', 综述: 'survey', 对比学习: 'contrastive learning', 联邦学习: 'federated learning' },
  [
    { id: 'deep-learning/large-language-models', labels: { en: 'Deep Learning · Large Language Models', 'zh-CN': '深度学习 · 大语言模型' }, names: ['大语言模型', 'llm'] },
    { id: 'a/everything-else', labels: { en: 'A · Everything Else' }, names: ['其他'] },
    { id: 'b/everything-else', labels: { en: 'B · Everything Else' }, names: ['其他'] },
  ],
  ['的', '基于', '方法'],
);
const read = (q: string) => readQuery(q, dictionary).query;

describe('readQuery', () => {
  it.each([
    ['扩散模型 视频生成', 'diffusion model video generation'],
    ['扩散模型视频生成', 'diffusion model video generation'],
    ['基于扩散模型的视频生成方法', 'diffusion model video generation'],
    ['基于Transformer的目标检测', 'Transformer object detection'],
    ['diffusion 视频生成', 'diffusion video generation'],
    ['"对比学习" -综述', '"contrastive learning" -survey'],
    ['author:"张伟" 联邦学习', 'author:"张伟" federated learning'],
    ['topic:大语言模型 扩散模型', 'topic:大语言模型 diffusion model'],
    ['大语言模型 扩散', 'topic:"deep-learning/large-language-models" diffusion'],
    ['ＬＬＭ 扩散模型', 'ＬＬＭ diffusion model'],
    ['transformers', 'transformers'],
    ['扩散模型 ', 'diffusion model '],
  ])('%s → %s', (query, expected) => {
    expect(read(query)).toBe(expected);
  });

  it('takes the longest terms: 扩散模型 is one term, not 扩散 + 模型', () => {
    expect(readQuery('扩散模型', dictionary).notes.map((n) => translate('en', n))).toEqual(['Read as 扩散模型 → diffusion model.']);
  });

  it('leaves out what it cannot read, and says so', () => {
    const reading = readQuery('扩散模型 量子纠缠', dictionary);
    expect(reading.query).toBe('diffusion model');
    expect(reading.notes.map((n) => translate('zh-CN', n))).toEqual(['按以下英文检索：扩散模型 → diffusion model。', '术语表中没有，已略去：量子纠缠。']);
  });

  it('searches the text as typed when it reads nothing', () => {
    const reading = readQuery('量子纠缠', dictionary);
    expect(reading).toMatchObject({ query: '量子纠缠', read: false });
    expect(translate('en', reading.notes[0]!)).toMatch(/found none in “量子纠缠”: try English words/);
  });

  it('does not decide on a name two topics share', () => {
    expect(read('其他 扩散模型')).toBe('diffusion model');
  });

  it('reads any text without throwing, and leaves no Chinese it read in the query', () => {
    const han = fc.constantFrom(...'扩散模型视频生成的基于方法量子纠缠大语言综述'.split(''));
    const piece = fc.oneof(fc.string({ maxLength: 5 }), fc.string({ unit: han, maxLength: 8 }), fc.constantFrom(' ', '"', '-', 'author:', 'topic:'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }).map((p) => p.join('')), (query) => {
        const reading = readQuery(query, dictionary);
        expect(typeof reading.query).toBe('string');
        if (reading.read) expect(reading.query).not.toMatch(/扩散模型|视频生成/u);
      }),
      { numRuns: 300 },
    );
  });
});
