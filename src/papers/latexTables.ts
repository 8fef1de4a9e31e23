/**
 * What LaTeX commands stand for, for {@link decodeLatex} in `latex.ts`: data only. Command names
 * come from paper text, so every table is a Map or a Set: `\constructor` finds nothing.
 */

/** Accent commands and the combining mark each puts on its letter (`\"o` → o + U+0308 → ö). */
export const ACCENT_COMMANDS: ReadonlyMap<string, string> = new Map(Object.entries({
  "'": '\u0301', '`': '\u0300', '^': '\u0302', '"': '\u0308', '~': '\u0303', '=': '\u0304', '.': '\u0307',
  c: '\u0327', v: '\u030c', u: '\u0306', H: '\u030b', r: '\u030a', d: '\u0323', b: '\u0331', k: '\u0328',
}));

/**
 * Accents some exports glue to their letter (`Ze\vcević`, `Clémen\ccon`), with the letters for
 * which that reading is safe: `\vs` or `\dx` are more likely macros of the author's own.
 */
export const GLUED_ACCENTS: ReadonlyMap<string, string> = new Map(Object.entries({ c: 'cC', v: 'cszrendtCSZRENDT' }));

/** Letters LaTeX spells as commands. */
export const LETTER_COMMANDS: ReadonlyMap<string, string> = new Map(Object.entries({
  ss: 'ß', SS: 'SS', o: 'ø', O: 'Ø', l: 'ł', L: 'Ł', ae: 'æ', AE: 'Æ', oe: 'œ', OE: 'Œ', aa: 'å', AA: 'Å',
  i: 'ı', j: 'ȷ', dh: 'ð', DH: 'Ð', th: 'þ', TH: 'Þ', ng: 'ŋ', NG: 'Ŋ', dj: 'đ', DJ: 'Đ',
}));

/** Font and size switches (`{\bf …}`, `\em`): dropped, with the spaces after them. */
export const SWITCH_COMMANDS: ReadonlySet<string> = new Set(
  ('bf it em sc tt rm sf sl md up cal normalfont bfseries itshape scshape ttfamily rmfamily sffamily slshape ' +
    'upshape mdseries tiny scriptsize footnotesize small normalsize large Large LARGE huge Huge noindent ' +
    'relax protect centering boldmath unboldmath').split(' '),
);

/** Text commands whose argument is the text: `\emph{…}` → its content. */
export const FONT_COMMANDS: ReadonlySet<string> = new Set(
  ('emph textit textbf textsc texttt textrm textsf textup textnormal textmd textsl text mbox hbox ' +
    'underline uline uwave sout textsuperscript textsubscript url ce').split(' '),
);

/** Math fonts: their argument, in a font a plain-text reader does without (`\mathbb` excepted). */
export const MATH_FONTS: ReadonlySet<string> = new Set(
  'mathrm mathbf mathit mathsf mathtt mathcal mathbb mathfrak mathscr mathbfit mathnormal boldsymbol bm pmb operatorname'.split(' '),
);

/** Math accents and their combining marks; '' for a decoration read as plain text. */
export const MATH_ACCENTS: ReadonlyMap<string, string> = new Map(Object.entries({
  hat: '\u0302', widehat: '\u0302', tilde: '\u0303', widetilde: '\u0303', bar: '\u0304', overline: '\u0305',
  vec: '\u20d7', dot: '\u0307', ddot: '\u0308', check: '\u030c', breve: '\u0306', acute: '\u0301',
  grave: '\u0300', mathring: '\u030a', underline: '',
}));

/** Sizing and spacing commands that leave nothing behind in plain text. */
export const MATH_SKIP: ReadonlySet<string> = new Set(
  ('left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr limits nolimits ' +
    'displaystyle textstyle scriptstyle scriptscriptstyle nonumber notag').split(' '),
);

/** Operator names, written upright in plain text: `\log n` → "log n". */
export const OPERATOR_NAMES: ReadonlySet<string> = new Set(
  ('log ln lg exp min max sup inf lim liminf limsup sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh ' +
    'arg det dim ker deg gcd hom Pr mod bmod argmin argmax poly polylog tr Tr rank diag sgn sign').split(' '),
);

/** Symbols of text mode only. */
export const TEXT_SYMBOLS: ReadonlyMap<string, string> = new Map(Object.entries({
  textellipsis: '…', textendash: '–', textemdash: '—', textquoteleft: '‘', textquoteright: '’',
  textquotedblleft: '“', textquotedblright: '”', copyright: '©', textcopyright: '©', textregistered: '®',
  texttrademark: '™', S: '§', P: '¶', pounds: '£', textsterling: '£', euro: '€', texteuro: '€',
  textdegree: '°', textbullet: '•', textperiodcentered: '·', LaTeX: 'LaTeX', TeX: 'TeX',
  textasciitilde: '∼', textbackslash: '∖', textbar: '|', textless: '<', textgreater: '>',
  textunderscore: '_', textasciicircum: 'ˆ', textmu: 'μ', textpm: '±', texttimes: '×',
  par: ' ', newline: ' ', linebreak: ' ', hfill: ' ',
}));

/** Symbols of math mode, also read in text (`\alpha-divergences`). */
export const SYMBOLS: ReadonlyMap<string, string> = new Map(Object.entries({
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ϵ', varepsilon: 'ε', zeta: 'ζ', eta: 'η',
  theta: 'θ', vartheta: 'ϑ', iota: 'ι', kappa: 'κ', varkappa: 'ϰ', lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ',
  omicron: 'ο', pi: 'π', varpi: 'ϖ', rho: 'ρ', varrho: 'ϱ', sigma: 'σ', varsigma: 'ς', tau: 'τ',
  upsilon: 'υ', phi: 'ϕ', varphi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω',
  Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ', Xi: 'Ξ', Pi: 'Π', Sigma: 'Σ', Upsilon: 'Υ', Phi: 'Φ',
  Psi: 'Ψ', Omega: 'Ω',
  ell: 'ℓ', hbar: 'ħ', imath: 'ı', jmath: 'ȷ', aleph: 'ℵ', wp: '℘', Re: 'ℜ', Im: 'ℑ', partial: '∂',
  nabla: '∇', infty: '∞', emptyset: '∅', varnothing: '∅', forall: '∀', exists: '∃', nexists: '∄',
  neg: '¬', lnot: '¬', top: '⊤', bot: '⊥', perp: '⊥', angle: '∠', triangle: '△', prime: '′', star: '⋆',
  ast: '∗', circ: '∘', bullet: '•', cdot: '·', cdots: '⋯', ldots: '…', dots: '…', vdots: '⋮', ddots: '⋱',
  times: '×', div: '÷', pm: '±', mp: '∓', oplus: '⊕', ominus: '⊖', otimes: '⊗', odot: '⊙', oslash: '⊘',
  cup: '∪', cap: '∩', bigcup: '⋃', bigcap: '⋂', sqcup: '⊔', vee: '∨', wedge: '∧', lor: '∨', land: '∧',
  bigvee: '⋁', bigwedge: '⋀', bigoplus: '⨁', bigotimes: '⨂', setminus: '∖', smallsetminus: '∖',
  backslash: '∖', sum: '∑', prod: '∏', coprod: '∐', int: '∫', iint: '∬', oint: '∮',
  leq: '≤', le: '≤', geq: '≥', ge: '≥', neq: '≠', ne: '≠', leqslant: '⩽', geqslant: '⩾', ll: '≪', gg: '≫',
  lesssim: '≲', gtrsim: '≳', approx: '≈', sim: '∼', simeq: '≃', cong: '≅', equiv: '≡', propto: '∝',
  asymp: '≍', doteq: '≐', triangleq: '≜', coloneqq: '≔', prec: '≺', succ: '≻', preceq: '⪯', succeq: '⪰',
  in: '∈', ni: '∋', notin: '∉', subset: '⊂', supset: '⊃', subseteq: '⊆', supseteq: '⊇', subsetneq: '⊊',
  mid: '∣', nmid: '∤', parallel: '∥', vert: '|', Vert: '‖', lvert: '|', rvert: '|', lVert: '‖', rVert: '‖',
  langle: '⟨', rangle: '⟩', lceil: '⌈', rceil: '⌉', lfloor: '⌊', rfloor: '⌋', lbrace: '{', rbrace: '}',
  to: '→', rightarrow: '→', leftarrow: '←', gets: '←', leftrightarrow: '↔', Rightarrow: '⇒',
  Leftarrow: '⇐', Leftrightarrow: '⇔', implies: '⟹', iff: '⟺', mapsto: '↦', longrightarrow: '⟶',
  longmapsto: '⟼', uparrow: '↑', downarrow: '↓', hookrightarrow: '↪', leadsto: '⇝', models: '⊨',
  vdash: '⊢', dashv: '⊣', dagger: '†', ddagger: '‡', dag: '†', ddag: '‡', checkmark: '✓', square: '□',
  Box: '□', blacksquare: '■', diamond: '⋄', surd: '√', degree: '°', sharp: '♯', flat: '♭', colon: ':',
  quad: ' ', qquad: ' ',
}));

/** Unicode superscripts; a script whose every character is here is written with them. */
export const SUPERSCRIPTS: ReadonlyMap<string, string> = charMap(
  '0123456789+-−=()niabcdefghjklmoprstuvwxyzABDEGHIJKLMNOPRTUVW⊤†′∗αβγδεθφχ',
  '⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵃᵇᶜᵈᵉᶠᵍʰʲᵏˡᵐᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵀ†′∗ᵅᵝᵞᵟᵋᶿᵠᵡ',
);

/** Unicode subscripts. */
export const SUBSCRIPTS: ReadonlyMap<string, string> = charMap(
  '0123456789+-−=()aehijklmnoprstuvxβγρφχ',
  '₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ',
);

const STRUCK_SPECIAL: ReadonlyMap<string, string> = new Map(Object.entries({ C: 'ℂ', H: 'ℍ', N: 'ℕ', P: 'ℙ', Q: 'ℚ', R: 'ℝ', Z: 'ℤ' }));

/** `\mathbb{R}` → ℝ: the double-struck form of a letter or digit, if it has one. */
export function doubleStruck(ch: string): string | undefined {
  const special = STRUCK_SPECIAL.get(ch);
  if (special) return special;
  const code = ch.charCodeAt(0);
  if (ch.length !== 1) return undefined;
  if (code >= 65 && code <= 90) return String.fromCodePoint(0x1d538 + code - 65);
  if (code >= 97 && code <= 122) return String.fromCodePoint(0x1d552 + code - 97);
  if (code >= 48 && code <= 57) return String.fromCodePoint(0x1d7d8 + code - 48);
  return undefined;
}

function charMap(from: string, to: string): ReadonlyMap<string, string> {
  const a = [...from];
  const b = [...to];
  if (a.length !== b.length) throw new Error(`latex tables: ${a.length} characters map to ${b.length}`);
  return new Map(a.map((ch, i) => [ch, b[i]!]));
}
