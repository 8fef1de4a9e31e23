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
