/**
 * How recommendations read to people: the one line that says why a paper is there, and how
 * much of a library it takes to recommend from it at all.
 */
import type { Messages } from '../i18n/index.js';
import { shorten } from '../text.js';

/** Papers a list needs before it is a profile worth recommending from. */
export const MIN_PROFILE_PAPERS = 3;

/** Why a paper was recommended: the seeds it is most like (best first) and the words they share. */
export interface Reason {
  seeds: Array<{ id: string; title: string }>;
  words: string[];
  authors: string[];
}

/**
 * Why a paper was recommended, in one line: the saved paper it is most like and the words they
 * share ("like “Attention Is All You Need”, translation, decoder").
 * @example whyLine(ctx.i18n, hit.why)
 */
export function whyLine(m: Messages, why: Reason): string {
  const seed = why.seeds[0];
  if (!seed) return why.words.length > 0 ? m.t('recommend.whyWords', { words: why.words.join(', ') }) : '';
  const title = shorten(seed.title, 80);
  return why.words.length > 0 ? m.t('recommend.why', { title, words: why.words.join(', ') }) : m.t('recommend.whyTitle', { title });
}
