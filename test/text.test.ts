import { describe, expect, it } from 'vitest';
import { foldText, normalizeTitle, tokenize } from '../src/text.js';

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
