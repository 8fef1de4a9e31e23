/**
 * Renders a neutral Reply as terminal text. Pure: the same reply always gives the same text.
 * Control characters in paper data are replaced, so a hostile title cannot move the cursor,
 * clear the screen or recolour the terminal.
 */
import { messages, type Messages } from '../../src/i18n/index.js';
import type { Block, PaperCard, Reply, TextSegment } from '../../src/reply.js';
import { wrapText } from './width.js';

export interface TextStyle {
  /** ANSI bold and dim (for a colour terminal), or plain text with **marks**. */
  ansi: boolean;
  /** Wrap width in columns. */
  width: number;
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Plain text safe to print: no control characters, bidi overrides or escape sequences.
 * @example sanitize('Title\u001b[2J') // 'Title�[2J'
 */
export function sanitize(text: string): string {
  return text.replace(CONTROL, '�');
}

/**
 * The reply as lines of text; `commands` lists the terminal commands its buttons became.
 * @example renderText(reply, { ansi: false, width: 100 }, ['/next', '/open 1-5'])
 */
export function renderText(reply: Reply, style: TextStyle, commands: readonly string[] = []): string {
  const m = messages(reply.locale);
  // Items the menu opens are numbered as `/open N` takes them (the menu is a command here).
  const numbers = new Map((reply.menu?.choices ?? []).map((c, i) => [c.action, c.position ?? i + 1]));
  const lines: string[] = [];
  for (const block of reply.blocks) lines.push(...renderBlock(block, style, m, numbers));
  if (commands.length > 0) lines.push('', dim(`→ ${commands.join('   ')}`, style));
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}

function renderBlock(block: Block, style: TextStyle, m: Messages, numbers: ReadonlyMap<string, number>): string[] {
  switch (block.kind) {
    case 'heading':
      return ['', bold(sanitize(block.text), style)];
    case 'text':
      return wrap(segments(block.text, style), style.width);
    case 'note':
      return [dim(sanitize(block.text), style)];
    case 'divider':
      return ['─'.repeat(Math.min(style.width, 40))];
    case 'list': {
      const out = block.heading ? ['', bold(sanitize(block.heading), style)] : [];
      for (const item of block.items) {
        const number = item.action === undefined ? undefined : numbers.get(item.action);
        out.push(`  ${number === undefined ? '•' : `${number}.`} ${sanitize(item.text)}${item.url ? dim(` <${sanitize(item.url)}>`, style) : ''}`);
        if (item.detail) out.push(dim(`    ${sanitize(item.detail)}`, style));
      }
      return out;
    }
    case 'paper':
      return renderPaper(block.paper, style, m);
  }
}

function renderPaper(paper: PaperCard, style: TextStyle, m: Messages): string[] {
  const indent = '   ';
  const number = paper.position !== undefined ? `${paper.position}. ` : '';
  const out = ['', bold(`${number}${sanitize(paper.title)}`, style)];
  const authors = shortAuthors(paper.authors, 6, m);
  const meta = [authors, [paper.venue, paper.year].filter(Boolean).join(' '), paper.status, paper.citedBy?.text ?? ''].filter(Boolean).map(sanitize);
  if (meta.length > 0) out.push(`${indent}${meta.join(' · ')}`);
  // Where it is on a reading list: who added or shared it, when, the note.
  if (paper.provenance) out.push(...wrap(sanitize(paper.provenance), style.width - indent.length).map((l) => `${indent}${l}`));
  if (paper.topics.length > 0) out.push(dim(`${indent}${paper.topics.map(sanitize).join(' | ')}`, style));
  const body = paper.abstract !== undefined ? segments(paper.abstract, style) : paper.snippet ? segments(paper.snippet, style) : '';
  if (body) out.push(...wrap(body, style.width - indent.length).map((l) => `${indent}${l}`));
  const links = [...(paper.url ? [`${sanitize(paper.url)}`] : []), ...paper.links.map((l) => `${l.label} ${sanitize(l.url)}`)];
  if (links.length > 0) out.push(dim(`${indent}${links.join(' · ')}`, style));
  if (paper.abstract !== undefined && paper.authors.length > 6) out.push(`${indent}${m.t('paper.authorsLine', { authors: paper.authors.map(sanitize).join(', ') })}`);
  return out;
}

/**
 * "A, B, C et al." for long author lists ("A, B, C 等" in Chinese).
 * @example shortAuthors(['A', 'B', 'C', 'D'], 3) // 'A, B, C et al.'
 */
export function shortAuthors(authors: readonly string[], max: number, m: Messages = messages('en')): string {
  if (authors.length <= max) return authors.join(', ');
  return m.t('paper.authorsMore', { authors: authors.slice(0, max).join(', ') });
}

function segments(text: string | readonly TextSegment[], style: TextStyle): string {
  if (typeof text === 'string') return sanitize(text);
  return text.map((s) => (s.match ? (style.ansi ? `\u001b[1m${sanitize(s.text)}\u001b[22m` : `**${sanitize(s.text)}**`) : sanitize(s.text))).join('');
}

/** Lines of at most `width` terminal columns (Chinese characters take two). */
function wrap(text: string, width: number): string[] {
  return wrapText(text, width);
}

function bold(text: string, style: TextStyle): string {
  return style.ansi ? `\u001b[1m${text}\u001b[22m` : text;
}

function dim(text: string, style: TextStyle): string {
  return style.ansi ? `\u001b[2m${text}\u001b[22m` : text;
}
