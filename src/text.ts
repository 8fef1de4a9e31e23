/**
 * Text normalization shared by ingest, indexing, querying and snippets.
 * Everything that compares words goes through {@link tokenize} so that the index and the
 * query always agree on what a word is.
 */

/** Longest token kept; longer runs (hashes, base64, hostile input) are cut to this length. */
export const MAX_TOKEN_LENGTH = 40;

/**
 * Version of the text normalization: {@link foldText}, {@link tokenize} and the LaTeX decoding
 * applied at import. Keys derived from normalized text (the store's title aliases, the index
 * snapshot) record it, and are recomputed when it changes. Bump it with every change to either.
 * 2 decoded LaTeX at import and spelled out letters such as "ł"; 3 lowercases what compatibility
 * forms decompose to ("ℒ1" → "l1", "ℝ" → "r") and reads "™" and "℠" as marks, not letters.
 */
export const TEXT_VERSION = 3;

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const NON_ASCII = /[^\x00-\x7f]/;
/** A word of folded ASCII text; {@link isAsciiWordCode} says the same of one character. */
const ASCII_WORD = /[a-z0-9]+/g;
const UNICODE_WORD = /[\p{L}\p{N}]+/gu;

/**
 * Whether a character code belongs to a word of lowercased ASCII text (what {@link tokenize}
 * splits such text on), for scanners that find words in place.
 */
export function isAsciiWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** Whether text is all ASCII: then {@link tokenize} gives its lowercase form's runs of {@link isAsciiWordCode}. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/**
 * Letters that Unicode does not decompose into an ASCII letter and a mark, with the ASCII
 * spelling a reader would type for them ("Łukasz" is typed "Lukasz", "Søren" "Soren").
 */
const LETTER_FOLDS: ReadonlyMap<string, string> = new Map(Object.entries({
  'ł': 'l', 'ø': 'o', 'đ': 'd', 'ð': 'd', 'ß': 'ss', 'æ': 'ae', 'œ': 'oe', 'þ': 'th', 'ı': 'i',
  'ȷ': 'j', 'ħ': 'h', 'ŧ': 't', 'ŋ': 'ng', 'ĸ': 'k', 'ƒ': 'f', 'ƀ': 'b', 'ɨ': 'i', 'ʉ': 'u',
  'ƶ': 'z', 'ǥ': 'g', 'ɍ': 'r', 'ɖ': 'd', 'ɗ': 'd', 'ɓ': 'b', 'ƙ': 'k', 'ə': 'e', 'ǝ': 'e', 'ɛ': 'e', 'ɔ': 'o',
}));
const FOLDABLE_LETTER = new RegExp(`[${[...LETTER_FOLDS.keys()].join('')}]`, 'g');

/**
 * Greek letters standing alone (a symbol in a title, "α-divergences", "β-VAE", "π₀") are read
 * as their names, as LaTeX writes them (`$\alpha$`) and people type them. Runs of Greek
 * letters are words of Greek and stay as they are.
 */
const GREEK_NAMES = [
  'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu',
  'nu', 'xi', 'omicron', 'pi', 'rho', 'sigma', 'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega',
];
const GREEK = /[\u0370-\u03ff]/;
const LONE_GREEK_LETTER = /(?<!\p{Script=Greek})[\u03b1-\u03c9](?!\p{Script=Greek})/gu;

/** Trademark signs, which compatibility decomposition spells as letters ("TM", "SM") glued to the word before. */
const TRADEMARK = /[\u2120\u2122]/g;

/**
 * Lowercases and folds to ASCII where a reader would: diacritics stripped ("Rocktäschel" →
 * "rocktaschel"), letters without a decomposition spelled out ("Łukasz" → "lukasz",
 * "Søren" → "soren", "Straße" → "strasse"), compatibility forms decomposed and lowercased
 * ("ℒ1" → "l1", "ﬁ" → "fi"), trademark signs dropped ("Whegs™" → "whegs"), lone Greek letters
 * named ("β-VAE" → "beta-vae"). Other scripts are lowercased and kept.
 * @example foldText('Łukasz Kaiser, Søren Hauberg') // 'lukasz kaiser, soren hauberg'
 */
export function foldText(text: string): string {
  return foldTextAs(TEXT_VERSION, text);
}

/**
 * {@link foldText} as text normalization `version` (2 or later) folded: what an upgrade needs to
 * find the keys an older version wrote. Version 2 lowercased before decomposing only, so "ℝ"
 * and "™" became uppercase ASCII ("R", "TM"), which {@link tokenize} kept or dropped depending
 * on the rest of the text.
 * @example foldTextAs(2, 'ℒ1 control') // 'L1 control'
 */
export function foldTextAs(version: number, text: string): string {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower;
  let folded = version >= 3 ? lower.replace(TRADEMARK, ' ').normalize('NFKD').toLowerCase() : lower.normalize('NFKD');
  folded = folded.replace(COMBINING_MARKS, '').replace(FOLDABLE_LETTER, (ch) => LETTER_FOLDS.get(ch)!);
  if (GREEK.test(folded)) folded = folded.replace(LONE_GREEK_LETTER, (ch) => ` ${GREEK_NAMES[ch.charCodeAt(0) - 0x3b1]!} `);
  return folded;
}

/**
 * Splits text into folded words: runs of letters and digits; everything else separates.
 * @example tokenize('Non-maximal SIFT descriptors!') // ['non', 'maximal', 'sift', 'descriptors']
 */
export function tokenize(text: string): string[] {
  return tokenizeAs(TEXT_VERSION, text);
}

function tokenizeAs(version: number, text: string): string[] {
  const folded = foldTextAs(version, text);
  // Folded text has no uppercase ASCII (since normalization 3), so on ASCII both patterns read
  // the same words; ASCII_WORD is the faster.
  const words = folded.match(NON_ASCII.test(folded) ? UNICODE_WORD : ASCII_WORD);
  if (!words) return [];
  for (let i = 0; i < words.length; i++) {
    if (words[i]!.length > MAX_TOKEN_LENGTH) words[i] = words[i]!.slice(0, MAX_TOKEN_LENGTH);
  }
  return words;
}

/**
 * The comparison form of a title: folded words joined by single spaces.
 * @example normalizeTitle('BERT: Pre-training of Deep  Bidirectional…') // 'bert pre training of deep bidirectional'
 */
export function normalizeTitle(title: string): string {
  return tokenize(title).join(' ');
}

/**
 * {@link normalizeTitle} as text normalization `version` (2 or later) wrote it, for upgrades.
 * @example normalizeTitleAs(2, 'ℒ1 adaptive control') // '1 adaptive control'
 */
export function normalizeTitleAs(version: number, title: string): string {
  return tokenizeAs(version, title).join(' ');
}

/**
 * Collapses runs of whitespace (titles from arXiv carry line breaks) and trims. Only the runs
 * that change are matched (two characters or more, or one that is not a plain space): matching
 * every single space between words made this a third slower on abstracts.
 * @example collapseWhitespace(' Deep  learning\n for\tgraphs ') // 'Deep learning for graphs'
 */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}

/**
 * English function words. They are indexed in titles (so "The Bitter Lesson" still matches
 * word for word) but not in abstracts, and a query scores them only when it has nothing else.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being ' +
    'below between both but by can could did do does doing down during each few for from further had ' +
    'has have having he her here hers him his how i if in into is it its itself just me more most my ' +
    'no nor not of off on once only or other our ours out over own same she should so some such than ' +
    'that the their theirs them then there these they this those through to too under until up very ' +
    'was we were what when where which while who whom why will with would you your yours'
  ).split(' '),
);

/** What ends text that was cut short. */
export const ELLIPSIS = '…';

/**
 * Cuts text to at most `max` characters (UTF-16 units, which no platform counts as more),
 * ending with an ellipsis when cut; never splits a surrogate pair.
 * @example cut('Attention Is All You Need', 10) // 'Attention…'
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  return `${text.slice(0, cutEnd(text, max)).trimEnd()}${ELLIPSIS}`;
}

/**
 * Like {@link cut}, but at a word boundary when one falls in the second half.
 * @example shorten('Attention Is All You Need', 12) // 'Attention…'
 */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const end = cutEnd(text, max);
  const space = text.slice(0, end).lastIndexOf(' ');
  return `${text.slice(0, space > max / 2 ? space : end).trimEnd()}${ELLIPSIS}`;
}

/** Where text cut to `max` characters with an ellipsis ends: room for the ellipsis, and not inside a surrogate pair. */
function cutEnd(text: string, max: number): number {
  const end = max - ELLIPSIS.length;
  return end > 0 && isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
