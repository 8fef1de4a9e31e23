import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSnippet, segmentsToText } from '../../src/search/snippet.js';

const words = (...ws: string[]) => ws.map((w) => ({ word: w, forms: [w] }));

describe('buildSnippet', () => {
  it('marks every form of the query words, case and accents aside', () => {
    expect(buildSnippet('Diffusion beats GANs; diffusion models rule.', [{ word: 'diffusion', forms: ['diffusion'] }, { word: 'model', forms: ['models'] }])).toEqual([
      { text: 'Diffusion', match: true },
      { text: ' beats GANs; ' },
      { text: 'diffusion', match: true },
      { text: ' ' },
      { text: 'models', match: true },
      { text: ' rule.' },
    ]);
    expect(buildSnippet('Rocktäschel et al.', words('rocktaschel'))[0]).toEqual({ text: 'Rocktäschel', match: true });
  });

  it('picks the window where most distinct words meet, cut at words, with ellipses', () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(30);
    const text = `${filler}We study graph neural networks for molecules. ${filler}`;
    const snippet = buildSnippet(text, words('graph', 'molecules'), 120);
    const plain = segmentsToText(snippet);
    expect(plain.startsWith('…')).toBe(true);
    expect(plain.endsWith('…')).toBe(true);
    expect(plain).toContain('We study graph neural networks for molecules.');
    expect(plain.length).toBeLessThanOrEqual(124);
    expect(snippet.filter((s) => s.match).map((s) => s.text)).toEqual(['graph', 'molecules']);
  });

  it('marks words as the index reads them: folded letters, formulas, Greek letters inside words', () => {
    const marked = (text: string, ...ws: string[]) => buildSnippet(text, words(...ws)).filter((s) => s.match).map((s) => s.text);
    expect(marked('By Łukasz and Søren, in Łódź.', 'lukasz', 'soren', 'lodz')).toEqual(['Łukasz', 'Søren', 'Łódź']);
    expect(marked('Phonons of CeAg₂Ge₂ and μKE models.', 'ceag2ge2', 'ke')).toEqual(['CeAg₂Ge₂', 'μKE']);
    expect(marked('Decomposed e\u0301te\u0301 text', 'ete')).toEqual(['e\u0301te\u0301']);
  });

  it('never marks inside math kept as LaTeX, nor cuts it in two', () => {
    const text = 'We bound $\\vecop{B} \\otimes bases$ with bases of our own.';
    expect(buildSnippet(text, words('bases', 'otimes'))).toEqual([
      { text: 'We bound $\\vecop{B} \\otimes bases$ with ' },
      { text: 'bases', match: true },
      { text: ' of our own.' },
    ]);
    const long = `${'lorem ipsum dolor sit amet '.repeat(8)}$\\vecop{B} + \\gamma_{t} \\otimes x$ then graphs end here ${'x '.repeat(100)}`;
    const plain = segmentsToText(buildSnippet(long, words('graphs'), 60));
    expect(plain).toContain('graphs');
    expect((plain.match(/\$/g) ?? []).length % 2).toBe(0);
  });

  it('opens the text when nothing matches, and is empty for no text', () => {
    expect(segmentsToText(buildSnippet('Short abstract.', words('zebra')))).toBe('Short abstract.');
    expect(buildSnippet('   ', words('a'))).toEqual([]);
  });

  it('keeps every character of the window as plain text, markup included', () => {
    const text = '<b>@everyone</b> **bold** `code` <!channel> & more';
    expect(segmentsToText(buildSnippet(text, words('bold', 'everyone')))).toBe(text);
  });

  it('never throws and stays short on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5000 }), fc.array(fc.string({ maxLength: 12 }), { maxLength: 5 }), (text, ws) => {
        const plain = segmentsToText(buildSnippet(text, words(...ws.map((w) => w.toLowerCase())), 240));
        expect(plain.length).toBeLessThanOrEqual(244);
      }),
      { numRuns: 300 },
    );
  });
});
