import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseWhitespace, cut, foldText, foldTextAs, normalizeTitle, normalizeTitleAs, shorten, tokenize } from '../src/text.js';

describe('foldText', () => {
  it.each([
    ['Łukasz Kaiser', 'lukasz kaiser'],
    ['Søren Hauberg, ØSTERGAARD', 'soren hauberg, ostergaard'],
    ['Đorđe, Ðór, Þórr', 'dorde, dor, thorr'],
    ['Straße, Æsir, Œuvre', 'strasse, aesir, oeuvre'],
    ['Kıraç, İstanbul', 'kirac, istanbul'],
    ['Rocktäschel, Pérez, ǿ', 'rocktaschel, perez, o'],
    ['ﬁne ℓ₁ CeAg₂Ge₂', 'fine l1 ceag2ge2'],
  ])('%s → %s', (input, expected) => {
    expect(foldText(input)).toBe(expected);
  });

  it('lowercases what compatibility characters decompose to, and drops trademark signs, whatever else the text holds', () => {
    // Each pair differs only in a character that folds to nothing but a separator ('→', '∞').
    for (const [text, words] of [
      ['ℒ1 adaptive control', ['l1', 'adaptive', 'control']],
      ['ℒ1 adaptive control →', ['l1', 'adaptive', 'control']],
      ['Robust ℋ∞ control', ['robust', 'h', 'control']],
      ['Whegs™ robots', ['whegs', 'robots']],
      ['Mini-Whegs™ → robots', ['mini', 'whegs', 'robots']],
      ['Maps f: ℝⁿ → ℝ', ['maps', 'f', 'rn', 'r']],
      ['\ud835\udc00ttention, 5㎒', ['attention', '5mhz']],
    ] as const) {
      expect(tokenize(text), text).toEqual(words);
    }
    // What is typed in ASCII reads as the title does.
    expect(normalizeTitle('ℒ1 Adaptive Control')).toBe(normalizeTitle('L1 adaptive control'));
  });

  it('folds as text normalization 2 did, for upgrades', () => {
    expect(foldTextAs(2, 'ℒ1 → Whegs™')).toBe('L1 → whegsTM');
    expect(normalizeTitleAs(2, 'ℒ1 adaptive control')).toBe('1 adaptive control');
    expect(normalizeTitleAs(2, 'ℒ1 adaptive control →')).toBe('L1 adaptive control');
    expect(normalizeTitleAs(2, 'Łódź: A β-Dataset')).toBe(normalizeTitle('Łódź: A β-Dataset'));
  });

  it('reads lone Greek letters as their names, and keeps Greek words', () => {
    expect(tokenize('β-VAE and α,β-CROWN')).toEqual(['beta', 'vae', 'and', 'alpha', 'beta', 'crown']);
    expect(tokenize('μKE, Mobi-π, ϕ-net, Θ(n)')).toEqual(['mu', 'ke', 'mobi', 'pi', 'phi', 'net', 'theta', 'n']);
    expect(tokenize('λόγος')).toEqual(['λογος']);
  });

  it('gives names typed without their letters the same words', () => {
    for (const [a, b] of [
      ['Łukasz Kaiser', 'Lukasz Kaiser'],
      ['Søren Hauberg', 'Soren Hauberg'],
      ['Paweł Dłotko', 'Pawel Dlotko'],
    ]) {
      expect(tokenize(a!)).toEqual(tokenize(b!));
    }
    expect(normalizeTitle('Łódź: A β-Dataset')).toBe('lodz a beta dataset');
  });
});

describe('collapseWhitespace', () => {
  it('makes every run of whitespace one space and trims, whatever the kind of whitespace', () => {
    const chars = ['a', 'b', ' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200b'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(collapseWhitespace(text)).toBe(text.replace(/\s+/g, ' ').trim());
      }),
      { numRuns: 2000, seed: 3 },
    );
  });
});

describe('cut and shorten', () => {
  it('cut at a character, shorten at a word when one falls in the second half', () => {
    expect(cut('Attention Is All You Need', 10)).toBe('Attention…');
    expect(cut('Attention Is All You Need', 14)).toBe('Attention Is…');
    expect(shorten('Attention Is All You Need', 14)).toBe('Attention Is…');
    expect(shorten('Attention Is All You Need', 12)).toBe('Attention…');
    expect(shorten('Transformers are RNNs', 10)).toBe('Transform…');
    expect(cut('short', 5)).toBe('short');
    expect(cut('short', 0)).toBe('');
    expect(cut('a😀b', 3)).toBe('a…');
  });

  it('never go past the limit, never split a surrogate pair, and keep the start of the text', () => {
    const chars = ['a', ' ', '😀', 'é', '語'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 30 }), fc.integer({ min: 1, max: 40 }), (parts, max) => {
        const text = parts.join('');
        for (const out of [cut(text, max), shorten(text, max)]) {
          expect(out.length).toBeLessThanOrEqual(max);
          expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
          if (out !== text) expect(text.startsWith(out.slice(0, -1).trimEnd())).toBe(true);
        }
      }),
      { numRuns: 2000, seed: 5 },
    );
  });
});
