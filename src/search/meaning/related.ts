/**
 * Related work for a pasted text (an abstract, a paragraph, in English or Chinese): the library's
 * papers closest to it, found by meaning alone (`SearchEngine.related`). Chinese is read as
 * English first; a text over {@link MAX_RELATED_TEXT} characters is read up to there, with a note.
 */
import { msg, type QueryReading } from '../../i18n/index.js';
import { tokenize } from '../../text.js';
import type { SearchOptions, SearchResult } from '../engine.js';

/** The longest text read: a long abstract and its introduction. */
export const MAX_RELATED_TEXT = 10_000;

/** What it searches with: the index's related-work search, and the reader of Chinese. */
export interface RelatedSource {
  related(text: string, options?: Pick<SearchOptions, 'limit' | 'alternatives'>): SearchResult;
  readQuery(text: string): QueryReading;
}

/**
 * The papers closest to `text`, best first, at most `limit` (10 by default).
 * @example relatedWork(source, abstract, { limit: 10 }).hits[0]?.title
 */
export function relatedWork(source: RelatedSource, text: string, options: { limit?: number } = {}): SearchResult {
  const clipped = text.length > MAX_RELATED_TEXT;
  const reading = source.readQuery(clipped ? text.slice(0, MAX_RELATED_TEXT) : text);
  const found = source.related(reading.query, { ...options, ...(reading.senses.size > 0 && { alternatives: reading.senses }) });
  return { ...found, notes: [...(clipped ? [msg('search.clipped', { max: MAX_RELATED_TEXT })] : []), ...reading.notes, ...found.notes] };
}

/**
 * Whether a text has a word to read, in any script, within what is read of it: an empty or
 * all-punctuation text has none, and its reader wants a hint, not an empty list. (A text of
 * words the library does not know has some: its answer is simply empty.)
 * @example hasWords('… — ?!') // false
 */
export function hasWords(text: string): boolean {
  return tokenize(text.slice(0, MAX_RELATED_TEXT)).length > 0;
}
