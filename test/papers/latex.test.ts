import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLatex, findMathSpans } from '../../src/papers/latex.js';
import { tokenize } from '../../src/text.js';

describe('decodeLatex', () => {
  it.each([
    // Accents, in every form exports write them.
    ['Gr\\"obner bases', 'Gröbner bases'],
    ["Koll\\'ar", 'Kollár'],
    ['Erd{\\"o}s', 'Erdös'],
    ["Jos\\'{e} Moura", 'José Moura'],
    ['Fran\\c{c}ois, Fran\\c cois', 'François, François'],
    ['\\v{S}koda and Ze\\vcevi\\\'c', 'Škoda and Zečević'],
    ['Clémen\\ccon', 'Clémençon'],
    ['Jo\\~{a}o, Jo\\~ao', 'João, João'],
    ["Hél\\`ene, na\\\"{\\i}ve, \\'\\i", 'Hélène, naïve, í'],
    ['\\H{o}, \\r{a}, \\k{e}, \\u{g}, \\={a}, \\.{z}, \\^{o}', 'ő, å, ę, ğ, ā, ż, ô'],
    // Letters LaTeX spells as commands; TeX swallows the space after them.
    ['Stra\\ss e, {\\ss}, \\ss{}', 'Straße, ß, ß'],
    ['Bj\\o rn, S{\\o}ren, \\O ster', 'Bjørn, Søren, Øster'],
    ['\\L ukasz, Jakub \\Lącki, \\l', 'Łukasz, Jakub Łącki, ł'],
    ['\\aa ngstr\\"om, \\AA, \\ae, \\OE uvre', 'ångström, Å, æ, Œuvre'],
    // Punctuation.
    ['pages 1--10 --- and more, examples---small', 'pages 1–10 — and more, examples—small'],
    ['<-- and --> and --flag and papers;--', '<-- and --> and --flag and papers;--'],
    ['Fig.~3, et~al., models~(LLMs), 2~K', 'Fig. 3, et al., models (LLMs), 2 K'],
    ['about ~12K samples, 2~3% and ~3x', 'about ~12K samples, 2~3% and ~3x'],
    ['R\\&D at 50\\% \\#1 a\\_b', 'R&D at 50% #1 a_b'],
    ["``quoted'' text, don't", '“quoted” text, don\'t'],
    ['Gia\\-cin\\-to', 'Giacinto'],
    // Formatting.
    ['\\emph{very} \\textbf{bold} {\\bf Hy}brid {\\em x}', 'very bold Hybrid x'],
    ['code at \\url{https://x.org/a--b~c} and \\href{https://x.org}{here}', 'code at https://x.org/a--b~c and here (https://x.org)'],
    ['see https://github.com/~user/a--b for more', 'see https://github.com/~user/a--b for more'],
    // Simple math: searchable and readable.
    ['CeAg$_2$Ge$_2$', 'CeAg₂Ge₂'],
    ['CO$_2$ emissions, Ada$^2$NPT, GS$^{3}$LAM', 'CO₂ emissions, Ada²NPT, GS³LAM'],
    ['$\\ell_1$-regularized', 'ℓ₁-regularized'],
    ['$\\alpha$-divergences and $\\beta$-VAE', 'α-divergences and β-VAE'],
    ['$O(\\sqrt{T})$ and $\\tilde{O}(\\sqrt{T})$ regret', 'O(√T) and Õ(√T) regret'],
    ['$\\widetilde{\\mathcal{O}}(m/\\varepsilon)$', 'Õ(m/ε)'],
    ['$O(d\\log{K})$, O(n\\log(n))', 'O(d log K), O(n log(n))'],
    // A backslash left dangling after an operator is not a command to set off (the text never grows).
    ['frac\\log\\', 'frac log\\'],
    ['a\\log\\frac', 'a log\\frac'],
    ['a\\log{', 'a log{'],
    ['\\log\\alpha', 'log α'],
    ['a\\log\\frac', 'a log\\frac'],
    ['\\log\\alpha', 'log α'],
    ['$\\mathbb{R}^n$, $\\mathbb{E}[x]$', 'ℝⁿ, 𝔼[x]'],
    ['$\\frac{1}{2}$, $\\frac{a+b}{c}$, $1/\\sqrt{n}$', '1/2, (a+b)/c, 1/√n'],
    ['$X^\\top Y$, $x^{n+1}$, $\\pi_0$', 'Xᵀ Y, xⁿ⁺¹, π₀'],
    ['$\\ell_\\infty$, $p^*$, $\\pi_{0.5}$', 'ℓ_∞, p^*, π_0.5'],
    ['$(\\varepsilon, \\delta)$-LDP', '(ε, δ)-LDP'],
    ['via $\\underline{M}$ask-Based', 'via Mask-Based'],
    ['\\(x^2\\) and $$y_1$$', 'x² and y₁'],
    // Kept as written: no LaTeX, prices, an escaped dollar, math that does not fully decode.
    ['Attention Is All You Need', 'Attention Is All You Need'],
    ['costs $5 and $10', 'costs $5 and $10'],
    ['a \\$5 fee', 'a \\$5 fee'],
    ['cost $\\poly(n)$ or $\\bnshift$ here', 'cost poly(n) or $\\bnshift$ here'],
    ['$\\begin{cases} x \\end{cases}$', '$\\begin{cases} x \\end{cases}$'],
    ['\\Matthew Lease, \\uma, \\foo{bar}', '\\Matthew Lease, \\uma, \\foo{bar}'],
    ['unclosed {\\bf x and $y', 'unclosed {x and $y'],
  ])('%s → %s', (input, expected) => {
    expect(decodeLatex(input)).toBe(expected);
  });

  it('makes sub- and superscripted formulas one searchable word', () => {
    expect(tokenize(decodeLatex('Heavy fermions in CeAg$_2$Ge$_2$'))).toEqual(['heavy', 'fermions', 'in', 'ceag2ge2']);
    expect(tokenize(decodeLatex('$\\ell_1$-norm'))).toEqual(tokenize('l1-norm'));
  });

  const latexish = fc.string({
    unit: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('\\', '$', '{', '}', '^', '_', '~', '-', "'", '`', '"', ' ', '(', ')', '[', ']', '!', '.', '1') },
      { weight: 4, arbitrary: fc.constantFrom('a', 'o', 'c', 'v', 'i', 'x', 'T', 'ł', 'é', 'α', 'h') },
      { weight: 2, arbitrary: fc.constantFrom('frac', 'sqrt', 'alpha', 'ss', 'mathbb', 'emph', 'url', 'left', 'log', 'https://', 'href', 'tilde') },
    ),
    maxLength: 80,
  });

  it('never throws, never grows, and decoding its output changes nothing', () => {
    fc.assert(
      fc.property(fc.oneof(latexish, fc.string({ unit: 'grapheme', maxLength: 80 })), (text) => {
        const once = decodeLatex(text);
        expect(once.length).toBeLessThanOrEqual(text.length);
        expect(decodeLatex(once)).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('stays linear on hostile input', () => {
    // Unclosed delimiters that a naive decoder would rescan from every position.
    for (const piece of ['\\(', '{\\x', '$$x', '$\\sqrt[', '\\\\', '$x^{', '-\\!']) {
      const text = piece.repeat(20_000);
      expect(decodeLatex(text).length).toBeLessThanOrEqual(text.length);
    }
  });
});

describe('findMathSpans', () => {
  it('finds the math decoding left as written, and nothing in prices', () => {
    const text = 'cost $\\poly(n)$ here, $x$ and \\(y\\), but $5 and $10';
    expect(findMathSpans(text).map(([a, b]) => text.slice(a, b))).toEqual(['$\\poly(n)$', '$x$', '\\(y\\)']);
    expect(findMathSpans('a \\$5 and \\$6 fee')).toEqual([]);
  });
});
