import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayWidth, wrapText } from '../../../adapters/terminal/width.js';
import { renderText } from '../../../adapters/terminal/render.js';

describe('displayWidth', () => {
  it.each([
    ['abc', 3],
    ['扩散模型', 8],
    ['扩散 GAN', 8],
    ['ＬＬＭ', 6],
    ['한국어', 6],
    ['é', 1],
    ['e\u0301', 1],
    ['\u001b[1m粗体\u001b[22m', 4],
    ['“quoted” · x', 12],
  ])('%j takes %i columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe('wrapText', () => {
  it('breaks Chinese between characters, counting two columns each', () => {
    expect(wrapText('基于扩散模型的视频生成', 10)).toEqual(['基于扩散模', '型的视频生', '成']);
  });

  it('never starts a line with closing punctuation or ends one with an opening mark', () => {
    const lines = wrapText('这是一个测试句子，其中包含标点符号。还有（括号）和「引号」', 12);
    for (const line of lines) {
      expect(line, line).not.toMatch(/^[，。）」]/);
      expect(line, line).not.toMatch(/[（「]$/);
    }
    expect(lines.join('')).toBe('这是一个测试句子，其中包含标点符号。还有（括号）和「引号」');
  });

  it('keeps English words whole and mixed text in order', () => {
    expect(wrapText('Diffusion models 扩散模型 for video', 12)).toEqual(['Diffusion', 'models 扩散', '模型 for', 'video']);
  });

  it('keeps every line within the width (but a word too long for any line)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('扩', '散', '，', 'model', ' ', '。', '（', 'a', 'ＬＬＭ'), { maxLength: 60 }), fc.integer({ min: 4, max: 40 }), (parts, width) => {
        const text = parts.join('');
        const lines = wrapText(text, width);
        for (const line of lines) expect(displayWidth(line) <= width || !line.includes(' ')).toBe(true);
        expect(lines.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
      }),
    );
  });

  it('wraps a Chinese reply in the terminal renderer by columns', () => {
    const text = '自 2026年11月28日星期六 以来的 3 篇新论文，按相关度排序。'.repeat(3);
    const out = renderText({ locale: 'zh-CN', fallback: '', blocks: [{ kind: 'text', text }] }, { ansi: false, width: 30 });
    for (const line of out.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(30);
  });
});
