/**
 * LaTeX in paper metadata (titles, author names and abstracts as arXiv, OpenReview and BibTeX
 * give them), decoded to the Unicode text a reader expects: accents (`Gr\"obner` → Gröbner),
 * special letters (`\o`, `\l`, `\ss`), dashes and quotes, formatting commands (`\emph{…}`), and
 * simple math (`CeAg$_2$Ge$_2$` → CeAg₂Ge₂, `$\ell_1$` → ℓ₁, `$O(\sqrt{T})$` → O(√T)).
 *
 * Math that does not decode completely (an unknown macro, an environment, unbalanced braces)
 * is kept exactly as written, `$…$` included, so nothing is lost and a reader still sees the
 * source; snippets never mark words inside it ({@link findMathSpans}).
 *
 * Pure, total and linear: the parser never backtracks, brace pairs and math delimiters are
 * matched in one pass up front, and the output is never longer than the input.
 */
import {
  ACCENT_COMMANDS, FONT_COMMANDS, GLUED_ACCENTS, LETTER_COMMANDS, MATH_ACCENTS, MATH_FONTS, MATH_SKIP, OPERATOR_NAMES,
  SUBSCRIPTS, SUPERSCRIPTS, SWITCH_COMMANDS, SYMBOLS, TEXT_SYMBOLS, doubleStruck,
} from './latexTables.js';

/** Characters without which a text holds no LaTeX this module decodes. */
const MAYBE_LATEX = /[\\$~{`]|--|''/;
/** Deepest nesting of groups decoded; deeper text is kept as written. */
const MAX_DEPTH = 24;
/** Decoding passes tried before giving up on reaching text that decodes to itself. */
const MAX_PASSES = 4;
const ASCII_LETTER = /^[A-Za-z]$/;

/**
 * Decodes the LaTeX in a title, an author name or an abstract to Unicode text. Text without
 * LaTeX comes back as it is; URLs are never touched; `\$` stays as written (a `$` alone would
 * read as math on a second pass). Idempotent: decoding decoded text changes nothing.
 * @example decodeLatex('Gr\\"obner bases for CeAg$_2$Ge$_2$ --- a {\\"u}ber-study') // 'Gröbner bases for CeAg₂Ge₂ — a über-study'
 * @example decodeLatex('Koll\\\'ar, Stra\\ss e, $\\alpha$-divergences') // 'Kollár, Straße, α-divergences'
 */
export function decodeLatex(text: string): string {
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    if (!MAYBE_LATEX.test(current)) return current;
    const next = new Decoder(current).text(0, current.length, 0);
    if (next === current) return current;
    current = next;
  }
  // Decoding kept finding new LaTeX in its own output (pieces that only meet once what was
  // between them is gone, as in "-\!-"): keep the text as written rather than guess.
  return text;
}

/**
 * The `$…$`, `$$…$$`, `\(…\)` and `\[…\]` spans of a text, as [start, end) pairs, in order:
 * what {@link decodeLatex} leaves of math it could not decode.
 * @example findMathSpans('cost $\\poly(n)$ here') // [[5, 15]]
 */
export function findMathSpans(text: string): Array<[number, number]> {
  if (!text.includes('$') && !text.includes('\\')) return [];
  const decoder = new Decoder(text);
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] !== '(' && text[i + 1] !== '[') {
      i++;
      continue;
    }
    const math = decoder.mathAt(i, text.length);
    if (math) {
      spans.push([i, math.end]);
      i = math.end - 1;
    }
  }
  return spans;
}

interface MathSpan {
  /** Where the content starts and ends, and where the closing delimiter ends. */
  from: number;
  to: number;
  end: number;
}

/** One decoding of one text: the brace pairs and math delimiters found once, then a parse. */
class Decoder {
  /** For each `{`, the index of its matching `}`, or -1. */
  private readonly closer: Int32Array;
  /** For each index, the next `$` at or after it that may close math (-1 if none). */
  private readonly dollarCloser: Int32Array;
  private readonly found = new Map<string, { from: number; at: number }>();

  constructor(private readonly s: string) {
    this.closer = s.includes('{') ? matchBraces(s) : NONE;
    this.dollarCloser = s.includes('$') ? dollarClosers(s) : NONE;
  }

  /** Decodes s[from, to) in text mode. */
  text(from: number, to: number, depth: number): string {
    const s = this.s;
    let out = '';
    let quoteOpen = false;
    let i = from;
    while (i < to) {
      // Plain text up to the next character that may start something, copied in one piece.
      TEXT_SPECIAL.lastIndex = i;
      const special = TEXT_SPECIAL.exec(s);
      const stop = special === null || special.index > to ? to : special.index;
      if (stop > i) {
        out += s.slice(i, stop);
        i = stop;
        if (i >= to) break;
      }
      const c = s[i]!;
      if (c === 'h' && isUrlStart(s, i)) {
        const end = urlEnd(s, i, to);
        out += s.slice(i, end);
        i = end;
        continue;
      }
      if (c === '\\' || c === '$') {
        const math = this.mathAt(i, to);
        if (math) {
          const decoded = depth < MAX_DEPTH ? this.math(math.from, math.to, depth + 1) : undefined;
          out += decoded === undefined ? s.slice(i, math.end) : decoded;
          i = math.end;
          continue;
        }
        if (c === '\\') {
          const step = this.command(i, to, depth, out);
          out = step.out;
          i = step.next;
          continue;
        }
      } else if (c === '{') {
        const close = this.closing(i);
        if (close !== -1 && close < to && s[i + 1] === '\\' && depth < MAX_DEPTH) {
          const inner = this.text(i + 1, close, depth + 1);
          out += inner.includes('\\') ? s.slice(i, close + 1) : inner;
          i = close + 1;
          continue;
        }
      } else if (c === '-' && s[i + 1] === '-' && dashBetween(s[i - 1], s[s[i + 2] === '-' ? i + 3 : i + 2])) {
        const em = s[i + 2] === '-';
        out += em ? '—' : '–';
        i += em ? 3 : 2;
        continue;
      } else if (c === '~' && tieBetween(s[i - 1], s[i + 1])) {
        out += ' ';
        i++;
        continue;
      } else if (c === '`' && s[i + 1] === '`') {
        out += '“';
        quoteOpen = true;
        i += 2;
        continue;
      } else if (c === "'" && s[i + 1] === "'" && quoteOpen) {
        out += '”';
        quoteOpen = false;
        i += 2;
        continue;
      }
      out += c;
      i++;
    }
    return out;
  }

  /** A math span opening at i and closing before `to`, if there is one. */
  mathAt(i: number, to: number): MathSpan | undefined {
    const s = this.s;
    if (s[i] === '\\') {
      const open = s[i + 1];
      if (open !== '(' && open !== '[') return undefined;
      const close = this.find(open === '(' ? '\\)' : '\\]', i + 2);
      return close !== -1 && close + 2 <= to ? { from: i + 2, to: close, end: close + 2 } : undefined;
    }
    if (s[i] !== '$') return undefined;
    if (s[i + 1] === '$') {
      const close = this.find('$$', i + 2);
      return close > i + 2 && close + 2 <= to ? { from: i + 2, to: close, end: close + 2 } : undefined;
    }
    // Pandoc's rule: the opening $ has a non-space right after it, the closing one a non-space
    // right before it and no digit right after it ("costs $5 and $10" holds no math).
    if (i + 1 >= to || /\s/.test(s[i + 1]!)) return undefined;
    const close = this.dollarCloser[i + 1] ?? -1;
    return close !== -1 && close < to ? { from: i + 1, to: close, end: close + 1 } : undefined;
  }

  /** The index of the `}` matching the `{` at i, or -1. */
  private closing(i: number): number {
    return this.closer[i] ?? -1;
  }

  /**
   * `s.indexOf(needle, from)`, remembering the last answer per needle: searches move forward,
   * so a text of a thousand unclosed `\(` is read once, not a thousand times.
   */
  private find(needle: string, from: number): number {
    const last = this.found.get(needle);
    if (last && from >= last.from && (last.at === -1 || from <= last.at)) return last.at;
    const at = this.s.indexOf(needle, from);
    this.found.set(needle, { from, at });
    return at;
  }

  /** A command at s[i] === '\\' in text mode; `out` is the text decoded so far. */
  private command(i: number, to: number, depth: number, out: string): { out: string; next: number } {
    const s = this.s;
    const next = s[i + 1];
    if (next === undefined || i + 1 >= to) return { out: out + '\\', next: i + 1 };
    if (!ASCII_LETTER.test(next)) {
      const accent = ACCENT_COMMANDS.get(next);
      if (accent) {
        const arg = this.accentArgument(i + 2, to, false);
        if (arg) return { out: out + accented(arg.base, accent), next: arg.next };
        return { out: out + s.slice(i, i + 2), next: i + 2 };
      }
      const symbol = TEXT_ESCAPES.get(next);
      return symbol === undefined ? { out: out + s.slice(i, i + 2), next: i + 2 } : { out: out + symbol, next: i + 2 };
    }
    let end = i + 1;
    while (end < to && ASCII_LETTER.test(s[end]!)) end++;
    const name = s.slice(i + 1, end);
    const raw = { out: out + s.slice(i, end), next: end };

    const letter = LETTER_COMMANDS.get(name);
    if (letter !== undefined) return { out: out + letter, next: this.afterLetterCommand(end, to) };
    const accent = ACCENT_COMMANDS.get(name);
    if (accent) {
      const arg = this.accentArgument(end, to, true);
      return arg ? { out: out + accented(arg.base, accent), next: arg.next } : raw;
    }
    if (SWITCH_COMMANDS.has(name)) return { out, next: skipSpaces(s, end, to) };
    const symbol = TEXT_SYMBOLS.get(name) ?? SYMBOLS.get(name);
    if (symbol !== undefined) return { out: out + symbol, next: s[end] === '{' && s[end + 1] === '}' ? end + 2 : end };
    if (OPERATOR_NAMES.has(name)) return operator(s, name, end, to, out);
    if (FONT_COMMANDS.has(name) || MATH_FONTS.has(name)) {
      const group = this.group(end, to);
      if (!group || depth >= MAX_DEPTH) return raw;
      const inner = name === 'url' ? s.slice(group.from, group.to) : this.text(group.from, group.to, depth + 1);
      return inner.includes('\\') ? { out: out + s.slice(i, group.next), next: group.next } : { out: out + inner, next: group.next };
    }
    if (name === 'href') {
      const url = this.group(end, to);
      const label = url && this.group(url.next, to);
      if (!url || !label || depth >= MAX_DEPTH) return raw;
      const link = s.slice(url.from, url.to);
      const text = this.text(label.from, label.to, depth + 1);
      if (text.includes('\\')) return { out: out + s.slice(i, label.next), next: label.next };
      return { out: out + (text === link || text === '' ? link : `${text} (${link})`), next: label.next };
    }
    // `\vc`, `\ccon`: an accent glued to its letter, as some exports write it.
    if (name.length >= 3 && GLUED_ACCENTS.get(name[0]!)?.includes(name[1]!) && !isMathCommand(name)) {
      return { out: out + accented(name[1]!, ACCENT_COMMANDS.get(name[0]!)!) + name.slice(2), next: end };
    }
    return raw;
  }

  /** After `\ss`, `\o` and the like: an empty group `{}` or the spaces TeX swallows. */
  private afterLetterCommand(end: number, to: number): number {
    const s = this.s;
    if (s[end] === '{' && s[end + 1] === '}') return end + 2;
    const skipped = skipSpaces(s, end, to);
    return skipped > end && skipped < to && ASCII_LETTER.test(s[skipped]!) ? skipped : end;
  }

  /**
   * The letter an accent applies to: `{o}`, `o` (after a symbol accent such as `\"`), ` o`
   * (after a letter accent such as `\c`), or `\i` / `\j` in either form.
   */
  private accentArgument(at: number, to: number, letterAccent: boolean): { base: string; next: number } | undefined {
    const s = this.s;
    if (s[at] === '{') {
      const close = this.closing(at);
      if (close === -1 || close >= to) return undefined;
      const inner = s.slice(at + 1, close).trim();
      // An accent replaces the dot of \i and \j: \"{\i} is ï.
      const base = ASCII_LETTER.test(inner) ? inner : inner === '\\i' ? 'i' : inner === '\\j' ? 'j' : undefined;
      return base === undefined ? undefined : { base, next: close + 1 };
    }
    let p = at;
    if (letterAccent) {
      if (s[p] !== ' ') return undefined;
      p = skipSpaces(s, p, to);
    }
    if (p < to && ASCII_LETTER.test(s[p]!)) {
      return { base: s[p]!, next: p + 1 };
    }
    if (s[p] === '\\' && (s[p + 1] === 'i' || s[p + 1] === 'j') && !ASCII_LETTER.test(s[p + 2] ?? '')) {
      return { base: s[p + 1]!, next: p + 2 };
    }
    return undefined;
  }

  /** A `{…}` group starting at `at` (after optional spaces) and closing before `to`. */
  private group(at: number, to: number): { from: number; to: number; next: number } | undefined {
    const open = skipSpaces(this.s, at, to);
    if (this.s[open] !== '{') return undefined;
    const close = this.closing(open);
    return close === -1 || close >= to ? undefined : { from: open + 1, to: close, next: close + 1 };
  }

  /** Decodes math content s[from, to) to Unicode, or undefined when it cannot be done completely. */
  private math(from: number, to: number, depth: number): string | undefined {
    const s = this.s;
    let out = '';
    let i = from;
    while (i < to) {
      const c = s[i]!;
      if (c === '\\') {
        const step = this.mathCommand(i, to, depth, out);
        if (!step) return undefined;
        out = step.out;
        i = step.next;
      } else if (c === '{') {
        const close = this.closing(i);
        if (close === -1 || close >= to || depth >= MAX_DEPTH) return undefined;
        const inner = this.math(i + 1, close, depth + 1);
        if (inner === undefined) return undefined;
        out += inner;
        i = close + 1;
      } else if (c === '^' || c === '_') {
        const arg = this.mathArgument(i + 1, to, depth);
        if (!arg) return undefined;
        out += script(arg.text, c === '^' ? SUPERSCRIPTS : SUBSCRIPTS, c);
        i = arg.next;
      } else if (c === '~') {
        out += ' ';
        i++;
      } else if (/\s/.test(c)) {
        if (!out.endsWith(' ')) out += ' ';
        i++;
      } else if (c === '-' && s[i + 1] === '-') {
        out += '−−';
        i += 2;
      } else if (c === "'" && s[i + 1] === "'") {
        out += '″';
        i += 2;
      } else if (c === '`' || c === '}' || c === '$' || c === '&' || c === '%' || c === '#') {
        return undefined;
      } else {
        out += c;
        i++;
      }
    }
    const trimmed = out.trim();
    return trimmed === '' ? undefined : trimmed;
  }

  /** The argument of `^`, `_`, `\sqrt`, `\frac` or an accent: a group, a command or one character. */
  private mathArgument(at: number, to: number, depth: number): { text: string; next: number } | undefined {
    const s = this.s;
    const p = skipSpaces(s, at, to);
    if (p >= to) return undefined;
    if (s[p] === '{') {
      const close = this.closing(p);
      if (close === -1 || close >= to || depth >= MAX_DEPTH) return undefined;
      const text = close === p + 1 ? '' : this.math(p + 1, close, depth + 1);
      return text === undefined ? undefined : { text, next: close + 1 };
    }
    if (s[p] === '\\') {
      const step = this.mathCommand(p, to, depth, '');
      return step && { text: step.out.trim(), next: step.next };
    }
    if ('}^_$&%#'.includes(s[p]!)) return undefined;
    const cp = s.codePointAt(p)!;
    const ch = String.fromCodePoint(cp);
    return { text: ch, next: p + ch.length };
  }

  /** A command in math mode, or undefined if it is not one this module decodes. */
  private mathCommand(i: number, to: number, depth: number, out: string): { out: string; next: number } | undefined {
    const s = this.s;
    const next = s[i + 1];
    if (next === undefined || i + 1 >= to) return undefined;
    if (!ASCII_LETTER.test(next)) {
      const symbol = MATH_ESCAPES.get(next);
      return symbol === undefined ? undefined : { out: out + symbol, next: i + 2 };
    }
    let end = i + 1;
    while (end < to && ASCII_LETTER.test(s[end]!)) end++;
    const name = s.slice(i + 1, end);
    const symbol = SYMBOLS.get(name) ?? LETTER_COMMANDS.get(name);
    if (symbol !== undefined) return { out: out + symbol, next: end };
    if (MATH_SKIP.has(name)) {
      // \left. and \right. stand for no delimiter at all.
      const after = (name === 'left' || name === 'right') && s[end] === '.' ? end + 1 : end;
      return { out, next: after };
    }
    if (OPERATOR_NAMES.has(name)) return operator(s, name, end, to, out);
    if (name === 'sqrt') {
      let p = skipSpaces(s, end, to);
      let root = '√';
      if (s[p] === '[') {
        const close = this.find(']', p);
        const index = close === -1 || close >= to ? '' : s.slice(p + 1, close).trim();
        if (index !== '3' && index !== '4') return undefined;
        root = index === '3' ? '∛' : '∜';
        p = close + 1;
      }
      const arg = this.mathArgument(p, to, depth);
      if (!arg || arg.text === '') return undefined;
      return { out: out + root + wrap(arg.text), next: arg.next };
    }
    if (name === 'frac' || name === 'dfrac' || name === 'tfrac') {
      const top = this.mathArgument(end, to, depth);
      const bottom = top && this.mathArgument(top.next, to, depth);
      if (!top || !bottom || top.text === '' || bottom.text === '') return undefined;
      return { out: out + `${wrap(top.text)}/${wrap(bottom.text)}`, next: bottom.next };
    }
    const accent = MATH_ACCENTS.get(name);
    if (accent !== undefined) {
      const arg = this.mathArgument(end, to, depth);
      if (!arg || arg.text === '') return undefined;
      if (accent === '') return { out: out + arg.text, next: arg.next };
      if ([...arg.text].length !== 1) return name === 'overline' ? { out: out + arg.text, next: arg.next } : undefined;
      return { out: out + accented(arg.text, accent), next: arg.next };
    }
    if (MATH_FONTS.has(name) || FONT_COMMANDS.has(name)) {
      const arg = this.mathArgument(end, to, depth);
      if (!arg) return undefined;
      if (name !== 'mathbb') return { out: out + arg.text, next: arg.next };
      let struck = '';
      for (const ch of arg.text) {
        const mapped = doubleStruck(ch);
        if (mapped === undefined) return undefined;
        struck += mapped;
      }
      return { out: out + struck, next: arg.next };
    }
    return undefined;
  }
}

/** Where text mode may have something to decode, or a URL to keep as it is. */
const TEXT_SPECIAL = /[\\$~{]|--|''|``|\bhttps?:\/\//g;

/** Stands for "no brace or dollar sign anywhere": every lookup in it gives undefined. */
const NONE = new Int32Array(0);

/** `\&` and friends in text mode. */
const TEXT_ESCAPES: ReadonlyMap<string, string> = new Map(Object.entries({
  '&': '&', '%': '%', '#': '#', '_': '_', '{': '{', '}': '}', ' ': ' ', ',': ' ', ';': ' ', ':': ' ', '>': ' ',
  '!': '', '-': '', '/': '', '@': '', '\\': ' ', '|': '‖',
}));
/** Escapes and spacing commands in math mode. */
const MATH_ESCAPES: ReadonlyMap<string, string> = new Map(Object.entries({
  '&': '&', '%': '%', '#': '#', '_': '_', '{': '{', '}': '}', ' ': ' ', ',': ' ', ';': ' ', ':': ' ', '>': ' ',
  '!': '', '|': '‖',
}));

/** Base letter plus combining accent, composed where Unicode has the letter. */
function accented(base: string, accent: string): string {
  return (base + accent).normalize('NFC');
}

/** An operator name, upright and set off by spaces from letters around it: `n\log n` → "n log n". */
function operator(s: string, name: string, end: number, to: number, out: string): { out: string; next: number } {
  const before = /[\p{L}\p{N})]$/u.test(out) ? ' ' : '';
  const p = skipSpaces(s, end, to);
  // A space after it where one was, or where a closed brace makes room (`\log{K}`): the text never
  // grows. A following command's backslash makes room only when the space before did not use
  // this one's (`\log\alpha`), as that command may be kept whole (`a\log\frac` stays "a log\frac").
  // A lone backslash is not a command.
  const next = s[p] === '\\' ? (p + 1 < to ? s[p + 1] : undefined) : s[p];
  const closed = s[p] === '{' && s.indexOf('}', p) !== -1 && s.indexOf('}', p) < to;
  const room = p > end || closed || (s[p] === '\\' && before === '');
  const after = p < to && room && next !== undefined && /[\p{L}\p{N}{]/u.test(next) ? ' ' : '';
  return { out: out + before + name + after, next: p };
}

/** Whether a command name is one math mode knows (so not an accent glued to a word). */
function isMathCommand(name: string): boolean {
  return MATH_ACCENTS.get(name) !== undefined || MATH_SKIP.has(name) || MATH_FONTS.has(name) || name === 'sqrt' || name.endsWith('frac');
}

/**
 * A superscript or subscript: in Unicode's super/subscript letters when every character has
 * one (`²`, `₂`, `ᵀ`, `⁻¹`), else written out after `^` or `_`, parenthesized when longer than
 * one character.
 */
function script(text: string, table: ReadonlyMap<string, string>, mark: string): string {
  let mapped = '';
  for (const ch of text) {
    const m = table.get(ch);
    if (m === undefined) return `${mark}${wrap(text)}`;
    mapped += m;
  }
  return mapped === '' ? '' : mapped;
}

/** Parenthesizes a math argument of more than one letter or digit run. */
function wrap(text: string): string {
  return /^[\p{L}\p{N}.]+$/u.test(text) || [...text].length === 1 ? text : `(${text})`;
}

/**
 * A `~` is a LaTeX tie between words ("et~al.", "models~(LLMs)", "Fig.~3", "2~K"), not "about"
 * ("~3x") or a range ("2~3%").
 */
function tieBetween(before: string | undefined, after: string | undefined): boolean {
  if (before === undefined || after === undefined) return false;
  if (/\d/.test(before)) return /\p{L}/u.test(after);
  if (!/[\p{L}.,;:)\]}]/u.test(before)) return false;
  return /[\p{L}(\\[]/u.test(after) || (before === '.' && /\d/.test(after));
}

/**
 * `--` and `---` are dashes between words or numbers ("1--10", "examples---small") or between
 * spaces ("models --- and"); elsewhere ("<--", "papers;--", " --flag") they are something else.
 */
function dashBetween(before: string | undefined, after: string | undefined): boolean {
  if (before === undefined || after === undefined) return false;
  const spaceBefore = /\s/.test(before);
  if (spaceBefore || /\s/.test(after)) return spaceBefore && /\s/.test(after);
  return /[\p{L}\p{N})”’"'.,]/u.test(before) && /[\p{L}\p{N}(“‘"']/u.test(after);
}

function isUrlStart(s: string, i: number): boolean {
  return (s.startsWith('http://', i) || s.startsWith('https://', i)) && (i === 0 || !/[\p{L}\p{N}]/u.test(s[i - 1]!));
}

function urlEnd(s: string, i: number, to: number): number {
  let end = i;
  while (end < to && !/[\s{}]/.test(s[end]!)) end++;
  return end;
}

function skipSpaces(s: string, at: number, to: number): number {
  let p = at;
  while (p < to && (s[p] === ' ' || s[p] === '\t' || s[p] === '\n' || s[p] === '\r')) p++;
  return p;
}

/** Matches unescaped braces with a stack; unmatched ones map to -1. */
function matchBraces(s: string): Int32Array {
  const closer = new Int32Array(s.length).fill(-1);
  const stack: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '{') stack.push(i);
    else if (c === '}' && stack.length > 0) closer[stack.pop()!] = i;
  }
  return closer;
}

/**
 * For every index, the first `$` at or after it that can close inline math: unescaped, a
 * non-space before it, no digit after it, and not half of a `$$`.
 */
function dollarClosers(s: string): Int32Array {
  const next = new Int32Array(s.length + 1).fill(-1);
  for (let i = s.length - 1; i >= 0; i--) {
    const closes = s[i] === '$' && s[i - 1] !== '\\' && i > 0 && !/\s/.test(s[i - 1]!) && !/\d/.test(s[i + 1] ?? '') && s[i - 1] !== '$' && s[i + 1] !== '$';
    next[i] = closes ? i : next[i + 1]!;
  }
  return next;
}
