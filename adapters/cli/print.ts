/**
 * How the command line prints a list of papers for a reader (`search`, `related`): the result's
 * notes on stderr, then its cards as the terminal renders them (snippets as plain text, their
 * marks in bold on a terminal).
 */
import type { App } from '../../src/app.js';
import type { Messages } from '../../src/i18n/index.js';
import type { SearchResult } from '../../src/search/engine.js';
import { segmentsToText } from '../../src/search/snippet.js';
import { renderText } from '../terminal/render.js';

/** How the terminal renders: ANSI marks on a terminal, and its width (at most 120 columns). */
export function textStyle() {
  return { ansi: process.stdout.isTTY === true, width: Math.min(process.stdout.columns ?? 100, 120) };
}

/**
 * Prints `result`'s notes (stderr) and its first `limit` hits as cards (stdout): false, having
 * said so, when it has none. With `plainSnippets`, snippets without their marks (related work's
 * closest sentence: most of its words are the text's, marking them says nothing).
 * @example if (!(await printResult(app, result, 10, m))) return 1;
 */
export async function printResult(app: App, result: SearchResult, limit: number, m: Messages, options: { plainSnippets?: boolean } = {}): Promise<boolean> {
  for (const note of result.notes) process.stderr.write(`${m.text(note)}\n`);
  if (result.hits.length === 0) {
    process.stderr.write(`${m.t('cli.noResults')}\n`);
    return false;
  }
  const cards = (await app.library.cards(result, 0, limit, m)).map((card) => (options.plainSnippets && card.snippet ? { ...card, snippet: [{ text: segmentsToText(card.snippet) }] } : card));
  const reply = { fallback: '', blocks: cards.map((paper) => ({ kind: 'paper' as const, paper })) };
  process.stdout.write(renderText({ ...reply, locale: m.locale }, textStyle()));
  return true;
}
