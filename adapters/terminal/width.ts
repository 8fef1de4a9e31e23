/**
 * Columns a terminal gives text, and wrapping by them. Chinese, Japanese and Korean characters
 * (East Asian Width "wide" and "fullwidth", UAX #11) take two columns; combining marks and
 * zero-width characters none; ambiguous ones one, as most terminals show them. Lines break
 * between words at spaces and between any two wide characters, never before closing punctuation
 * (，。）」) or after opening punctuation (（「), as Chinese typesetting wants. Pure.
 */
import { eastAsianWidth } from 'get-east-asian-width';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
/** Characters that take no column: combining marks, zero-width space and joiners, variation selectors. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufe00-\ufe0f]$/u;
/** May not start a line. */
const CLOSING = new Set([...'，。、；：！？）》」』〉】〕…’”%％,.;:!?)]}·・ー']);
/** May not end a line. */
const OPENING = new Set([...'（《「『〈【〔‘“([{']);

/**
 * Columns a string takes on a terminal (ANSI colour codes take none).
 * @example displayWidth('扩散模型 GAN') // 12
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text.replace(ANSI, '')) {
    if (ZERO_WIDTH.test(ch)) continue;
    width += eastAsianWidth(ch.codePointAt(0)!, { ambiguousAsWide: false });
  }
  return width;
}

/** Whether a character is a wide one, between any two of which a line may break. */
function isWide(ch: string): boolean {
  return eastAsianWidth(ch.codePointAt(0)!, { ambiguousAsWide: false }) === 2;
}

/**
 * Text cut into lines of at most `width` columns (a single word wider than that keeps its own
 * line); paragraphs (`\n`) stay apart.
 * @example wrapText('基于扩散模型的视频生成', 10) // ['基于扩散模', '型的视频生', '成']
 */
export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    let lineWidth = 0;
    let space = false;
    for (const unit of units(paragraph)) {
      if (unit === ' ') {
        space = true;
        continue;
      }
      const sep = space && line ? ' ' : '';
      const w = displayWidth(unit);
      if (line && lineWidth + sep.length + w > width) {
        out.push(line);
        line = unit;
        lineWidth = w;
      } else {
        line += sep + unit;
        lineWidth += sep.length + w;
      }
      space = false;
    }
    out.push(line);
  }
  return out;
}

/** The unbreakable pieces of a paragraph: words, single wide characters with their punctuation, and spaces (' '). */
function units(paragraph: string): string[] {
  const out: string[] = [];
  let glueNext = false;
  for (const ch of paragraph) {
    if (ch === ' ' || ch === '\t') {
      if (out[out.length - 1] !== ' ') out.push(' ');
      glueNext = false;
      continue;
    }
    const last = out[out.length - 1];
    const wide = isWide(ch);
    const lastChar = last === undefined ? undefined : [...last].pop();
    const joins =
      last !== undefined &&
      last !== ' ' &&
      // A word goes on; punctuation closes what came before; an opening mark holds on to what follows.
      ((!wide && !isWide(lastChar!) && !CLOSING.has(lastChar!)) || CLOSING.has(ch) || glueNext);
    if (joins) out[out.length - 1] = last + ch;
    else out.push(ch);
    glueNext = OPENING.has(ch);
  }
  return out;
}
