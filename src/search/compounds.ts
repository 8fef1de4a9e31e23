/**
 * Hyphenated compounds ("domain-level", "many-to-one", "cVAE-GAN"): words joined by hyphens,
 * with no space between. The index files each one's joined form as a term of its own beside
 * its parts ({@link compoundTerm}: "-domainlevel"), so that a compound has its own rarity:
 * "domain" and "level" are in a good share of all papers, "domain-level" in a handful. A query
 * scores a compound it has as such (expand.ts), on top of its parts, and ranks papers that have it
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
/**
 * Runs of letters and digits joined by hyphens. A match starts where a run does (the lookbehind
 * says so at once: without it, every letter of a run is tried as a start, each try reading to
 * the run's end).
 */
const UNICODE_COMPOUND = /(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?:[-\u2010\u2011][\p{L}\p{N}]+)+/gu;
const HAS_LETTER = /[^0-9]/;
const HYPHEN_MINUS = 0x2d;
const HYPHEN_ANYWHERE = /[-\u2010\u2011]/g;

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
  if (isAscii(text)) return forEachAsciiCompound(text, fn);
  // Only the stretches between spaces that have a hyphen are folded and read: a stretch folds
  // the same alone as within its text (see termTable.ts), and no compound spans a space.
  const n = text.length;
  HYPHEN_ANYWHERE.lastIndex = 0;
  for (let m = HYPHEN_ANYWHERE.exec(text); m !== null; m = HYPHEN_ANYWHERE.exec(text)) {
    let start = m.index;
    while (start > 0 && !isAsciiSpaceCode(text.charCodeAt(start - 1))) start--;
    let end = m.index + 1;
    while (end < n && !isAsciiSpaceCode(text.charCodeAt(end))) end++;
    const folded = foldText(text.slice(start, end));
    UNICODE_COMPOUND.lastIndex = 0;
    for (let c = UNICODE_COMPOUND.exec(folded); c !== null; c = UNICODE_COMPOUND.exec(folded)) emitJoined(c[0].replace(/[-\u2010\u2011]/g, ''), fn);
    HYPHEN_ANYWHERE.lastIndex = end;
  }
}

/**
 * {@link forEachCompound} for ASCII text, read where its hyphens are (most of a text has none
 * near): the same compounds as the pattern finds in its lowercase form, in a fifth of the time
 * (the index reads every title and abstract).
 */
function forEachAsciiCompound(text: string, fn: (joined: string) => void): void {
  const n = text.length;
  for (let h = text.indexOf('-'); h >= 0; ) {
    if (h === 0 || !isAsciiAlnum(text.charCodeAt(h - 1)) || h + 1 >= n || !isAsciiAlnum(text.charCodeAt(h + 1))) {
      h = text.indexOf('-', h + 1);
      continue;
    }
    let start = h - 1;
    while (start > 0 && isAsciiAlnum(text.charCodeAt(start - 1))) start--;
    // Runs joined by one hyphen each, as far as they go.
    let end = h + 1;
    for (;;) {
      while (end < n && isAsciiAlnum(text.charCodeAt(end))) end++;
      if (end + 1 < n && text.charCodeAt(end) === HYPHEN_MINUS && isAsciiAlnum(text.charCodeAt(end + 1))) end++;
      else break;
    }
    emitJoined(text.slice(start, end).replaceAll('-', '').toLowerCase(), fn);
    h = text.indexOf('-', end);
  }
}

/** Calls `fn` with a compound's joined form, unless it is all digits; cut to fit its term. */
function emitJoined(joined: string, fn: (joined: string) => void): void {
  if (!HAS_LETTER.test(joined)) return;
  fn(joined.length >= MAX_TOKEN_LENGTH ? joined.slice(0, MAX_TOKEN_LENGTH - 1) : joined);
}

/** Space, tab, line feed, vertical tab, form feed, carriage return (as termTable.ts splits stretches). */
function isAsciiSpaceCode(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/** A-Z, a-z or 0-9. */
function isAsciiAlnum(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
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
