/**
 * Text made safe for Discord. Paper titles, abstracts, author names and queries are data: no
 * part of them may become formatting, a link, a mention or a ping. Markdown is escaped
 * character by character, so text can be cut to any budget without leaving half an escape or an
 * unclosed `**`; mentions (`@everyone`, `<@123>`, `<#42>`) get a zero-width space even though
 * every message also carries `allowed_mentions: { parse: [] }`.
 */
import { ELLIPSIS, cut } from '../../src/text.js';
import { URL_MAX } from './limits.js';

const ZWSP = '\u200b';
/** C0/C1 controls, bidi overrides and isolates, line and paragraph separators. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Characters that are markdown anywhere in a line. */
const INLINE_SPECIAL = new Set(['\\', '*', '_', '~', '`', '|', '[', ']', '<', '>']);
/** Characters that are markdown at the start of a line (headings, lists, quotes, subtext). */
const LINE_START_SPECIAL = new Set(['#', '-', '+']);

/**
 * Text with control characters replaced; one line (whitespace collapsed) unless `multiline`.
 * @example clean('a\u0000b\n c') // 'a b c'
 */
export function clean(text: string, options: { multiline?: boolean } = {}): string {
  const spaced = text.replace(/\r\n?/g, '\n').replace(CONTROL, ' ');
  if (!options.multiline) return spaced.replace(/\s+/g, ' ').trim();
  return spaced
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Breaks mention syntax with a zero-width space: `@everyone`, `@here`, `<@123>`, `<@&1>`,
 * `<#2>`, `</cmd:3>`, `<t:4>`, `<:emoji:5>`, `<id:home>`.
 * @example neutralizeMentions('@everyone <@123>') // '@\u200beveryone <\u200b@123>'
 */
export function neutralizeMentions(text: string): string {
  return text.replace(/@(everyone|here)/gi, `@${ZWSP}$1`).replace(/<(?=[@#!&:/]|[a-z]+:)/gi, `<${ZWSP}`);
}

/**
 * Plain text for places Discord shows verbatim (button and option labels, embed authors and
 * footers): cleaned, mentions broken, cut to `max` characters with an ellipsis.
 * @example plain('@here  Attention\nIs All', 80) // '@\u200bhere Attention Is All'
 */
export function plain(text: string, max: number): string {
  return cut(neutralizeMentions(clean(text)), max);
}

/**
 * The markdown escape of each character (code point) of `text`, so that any prefix of the
 * result is itself safely escaped. The start of `text` counts as the start of a line.
 */
function escapeUnits(text: string): string[] {
  const units: string[] = [];
  let lineStart = true;
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\n') {
      units.push(ch);
      lineStart = true;
      continue;
    }
    if (lineStart && (ch === ' ' || ch === '\t')) {
      units.push(ch);
      continue;
    }
    if (lineStart && /\d/.test(ch)) {
      // "1. item" at the start of a line is a numbered list: escape the dot.
      let j = i;
      while (j < chars.length && /\d/.test(chars[j]!)) units.push(chars[j++]!);
      if (chars[j] === '.' || chars[j] === ')') units.push(`\\${chars[j++]}`);
      i = j - 1;
      lineStart = false;
      continue;
    }
    units.push(INLINE_SPECIAL.has(ch) || (lineStart && LINE_START_SPECIAL.has(ch)) ? `\\${ch}` : ch);
    lineStart = false;
  }
  return units;
}

/**
 * Text that Discord shows as written: markdown escaped, mentions broken.
 * @example escapeMarkdown('**bold** <@1>') // '\\*\\*bold\\*\\* \\<\u200b@1\\>'
 */
export function escapeMarkdown(text: string): string {
  return escapeUnits(neutralizeMentions(text)).join('');
}

/** A piece of a markdown line: text (escaped), bold text, a link, or markup made here. */
export type Inline = string | { bold: string } | { link: { label: string; url: string } } | { markup: string };

/**
 * Joins pieces into markdown of at most `max` characters. Text is escaped and, when the budget
 * runs out, cut with an ellipsis; links and markup are kept whole or left out.
 * @example markdown(['We study ', { bold: 'diffusion' }, ' models'], 100) // 'We study **diffusion** models'
 */
export function markdown(pieces: readonly Inline[], max: number): string {
  let out = '';
  for (const piece of pieces) {
    if (typeof piece === 'string' || 'bold' in piece) {
      const bold = typeof piece !== 'string';
      const raw = neutralizeMentions(typeof piece === 'string' ? piece : piece.bold);
      const { lead, core, trail } = bold ? splitSpace(raw) : { lead: '', core: raw, trail: '' };
      const open = bold && core ? '**' : '';
      const units = escapeUnits(core);
      const whole = `${lead}${open}${units.join('')}${open}${trail}`;
      if (out.length + whole.length <= max) {
        out += whole;
        continue;
      }
      // Cut inside this piece: as many characters as fit with the closing marks and an ellipsis.
      let room = max - out.length - lead.length - 2 * open.length - ELLIPSIS.length;
      let taken = '';
      for (const unit of units) {
        if (unit.length > room) break;
        taken += unit;
        room -= unit.length;
      }
      taken = taken.replace(/\s+$/, '');
      if (taken) out += `${lead}${open}${taken}${ELLIPSIS}${open}`;
      else if (out.length + ELLIPSIS.length <= max) out += ELLIPSIS;
      return out;
    }
    const atom = 'markup' in piece ? piece.markup : link(piece.link.label, piece.link.url);
    if (out.length + atom.length > max) {
      if (out.length + ELLIPSIS.length <= max) out += ELLIPSIS;
      return out;
    }
    out += atom;
  }
  return out;
}

/**
 * A markdown link `[label](url)`, or the escaped label alone when the URL is not a usable
 * http(s) URL.
 * @example link('PDF', 'https://arxiv.org/pdf/1706.03762') // '[PDF](https://arxiv.org/pdf/1706.03762)'
 */
export function link(label: string, url: string): string {
  const safe = safeUrl(url);
  if (!safe) return escapeMarkdown(clean(label));
  // An empty label would leave the raw `[](…)` as text: name the site instead.
  const text = escapeMarkdown(clean(label) || new URL(safe).hostname);
  return `[${text}](${safe.replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'))})`;
}

/**
 * The URL normalized, if it is an http(s) URL of at most {@link URL_MAX} characters without
 * spaces or credentials; otherwise undefined. Discord rejects a message with a malformed URL.
 * @example safeUrl('javascript:alert(1)') // undefined
 */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url || /\s/.test(url.trim())) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password || !parsed.hostname) return undefined;
  const href = parsed.href;
  return href.length <= URL_MAX ? href : undefined;
}

function splitSpace(text: string): { lead: string; core: string; trail: string } {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  return { lead: match[1]!, core: match[2]!, trail: match[3]! };
}
