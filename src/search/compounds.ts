/**
 * Hyphenated compounds ("domain-level", "many-to-one", "cVAE-GAN"): words joined by hyphens,
 * with no space between. The index files each one's joined form as a term of its own beside
 * its parts ({@link compoundTerm}: "-domainlevel"), so that a compound has its own rarity:
 * "domain" and "level" are in a good share of all papers, "domain-level" in a handful. A query
 * scores a compound it has as such (plan.ts), on top of its parts, and ranks papers that have it
 * as typed first among those that match alike (rerank.ts); a glued spelling typed
 * ("multiagent") finds the hyphenated one ("multi-agent").
 * The mark keeps these terms apart from words: no typo correction or completion is one, and
 * looking for those never walks them (they are a third of the vocabulary).
 */
import { MAX_TOKEN_LENGTH, foldText, isAscii, tokenize } from '../text.js';

/** A compound of a text: its joined form, and its words as {@link tokenize} splits them. */
export interface Compound {
  joined: string;
  words: string[];
}

const HYPHENS = /[-\u2010\u2011]/;
/** What starts a compound's term: no word has it (see {@link compoundTerm}). */
export const COMPOUND_MARK = '-';
const ASCII_COMPOUND = /[a-z0-9]+(?:-[a-z0-9]+)+/g;
const UNICODE_COMPOUND = /[\p{L}\p{N}]+(?:[-\u2010\u2011][\p{L}\p{N}]+)+/gu;
const HAS_LETTER = /[^0-9]/;

/**
 * The index term of a compound's joined form: marked, so that it is no word ("-domainlevel";
 * a glued "domainlevel" written in a paper is a word, and a term of its own).
 * @example compoundTerm('domainlevel') // '-domainlevel'
 */
export function compoundTerm(joined: string): string {
  return COMPOUND_MARK + joined;
}

/** Whether an index term is a compound's ({@link compoundTerm}). */
export function isCompoundTerm(term: string): boolean {
  return term.startsWith(COMPOUND_MARK);
}

/**
 * Calls `fn` with the joined form of each compound in `text`, in order (cut so that its
 * {@link compoundTerm} is at most {@link MAX_TOKEN_LENGTH} long, as words are): runs of letters and digits joined by hyphen-minus,
 * "‐" or "‑", at least one of them not all digits ("2019-2020" is a range, not a compound).
 * @example forEachCompound('A many-to-one, view-translated cVAE-GAN', (j) => console.log(j)) // manytoone, viewtranslated, cvaegan
 */
export function forEachCompound(text: string, fn: (joined: string) => void): void {
  if (!HYPHENS.test(text)) return;
  const ascii = isAscii(text);
  const folded = ascii ? text.toLowerCase() : foldText(text);
  const pattern = ascii ? ASCII_COMPOUND : UNICODE_COMPOUND;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(folded); m !== null; m = pattern.exec(folded)) {
    let joined = m[0].replace(/[-\u2010\u2011]/g, '');
    if (!HAS_LETTER.test(joined)) continue;
    if (joined.length >= MAX_TOKEN_LENGTH) joined = joined.slice(0, MAX_TOKEN_LENGTH - 1);
    fn(joined);
  }
}

/**
 * The compounds of a text, with their words (joined as {@link forEachCompound} joins them).
 * @example compoundsOf('domain-level transfer') // [{ joined: 'domainlevel', words: ['domain', 'level'] }]
 */
export function compoundsOf(text: string): Compound[] {
  const out: Compound[] = [];
  if (!HYPHENS.test(text)) return out;
  const folded = foldText(text);
  UNICODE_COMPOUND.lastIndex = 0;
  for (let m = UNICODE_COMPOUND.exec(folded); m !== null; m = UNICODE_COMPOUND.exec(folded)) {
    const words = tokenize(m[0]);
    const joined = words.join('').slice(0, MAX_TOKEN_LENGTH - 1);
    if (words.length > 1 && HAS_LETTER.test(joined)) out.push({ joined, words });
  }
  return out;
}
