/**
 * Whether two descriptions of a paper that share no identifier are the same work: the title
 * (all of it, folded), the year within {@link YEAR_SLACK}, and authors in common (half of the
 * shorter list, at least one: {@link authorsNeeded}), compared by
 * folded surname and first initial ("Kaiming He", "K. He" and "He Kaiming" agree; so do "Wei
 * Zhang" and "Wen Zhang": the title and the year carry the identity, the author only guards
 * against a title two papers share). Pure; used
 * by the OpenAlex matcher (`matchWork.ts`) and by imports (`store/paperRecords.ts`), so that a
 * count never lands on another paper and a second source never duplicates one.
 *
 * When several papers fit, they are ranked: accepted before rejected, withdrawn or under review
 * (a resubmission that was accepted is the paper a researcher means), the same year before the
 * next or previous one, more authors in common before fewer, then the venue's distinction. Two
 * that tie on all of these are *ambiguous*: neither is chosen.
 */
import { foldText } from '../text.js';
import { standingOf } from './model.js';

/** How many years apart two descriptions of one work may be dated (a preprint, then its venue). */
export const YEAR_SLACK = 1;
/** Authors of each side compared (a physics paper lists thousands; one in common is enough). */
export const MAX_AUTHORS_COMPARED = 100;
/** Longest title compared (the paper model's own limit). */
export const MAX_TITLE_LENGTH = 1000;
/** Fewest words a title needs to identify a paper by itself ("Preface" does not). */
export const MIN_TITLE_WORDS = 2;

/** Words of front matter, placeholders and notices: a title made only of these names no paper. */
const GENERIC_TITLE_WORDS: ReadonlySet<string> = new Set(
  ('a an the of and in on for to front back matter preface foreword editorial editorials introduction contents table index ' +
    'author authors subject reviewers referees committee committees program organizing board keynote keynotes invited talk talks ' +
    'tutorial tutorials proceedings workshop conference volume issue acknowledgments acknowledgements withdrawn withdraw ' +
    'erratum errata corrigendum correction corrections retraction retracted notice untitled title paper abstract abstracts ' +
    'summary discussion reply response comment comments letter note notes editor editors message chair chairs welcome').split(' '),
);
/** Name words that are no one's name: placeholders of anonymous or withdrawn submissions. */
const PLACEHOLDER_NAME_WORDS: ReadonlySet<string> = new Set('anonymous author authors withdrawn withdraw unknown et al others submission paper none n a'.split(' '));
/** Words after a surname that are not part of it. */
const NAME_SUFFIXES: ReadonlySet<string> = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'phd', 'md']);
const WORD = /[\p{L}\p{N}]+/gu;
const LATIN_OR_DIGIT = /^[a-z0-9]+$/;

/**
 * A title's comparison key: folded, every run of letters and digits kept whole (unlike the
 * index's words, which long CJK runs are cut at 40 characters), one space between.
 * @example titleKey('Deep Residual Learning for Image Recognition!') // 'deep residual learning for image recognition'
 */
export function titleKey(title: string): string {
  return (foldText(title.slice(0, MAX_TITLE_LENGTH)).match(WORD) ?? []).join(' ');
}

/**
 * Whether a title is too short or too generic to name a paper by itself: fewer than
 * {@link MIN_TITLE_WORDS} words (unless in a script written without spaces), or only words of
 * front matter and notices ("Front Matter", "Preface", "Withdrawn").
 * @example isGenericTitle('Table of Contents') // true
 */
export function isGenericTitle(title: string): boolean {
  const words = titleKey(title).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  if (words.length < MIN_TITLE_WORDS && (LATIN_OR_DIGIT.test(words[0]!) || words[0]!.length < 4)) return true;
  return words.every((w) => GENERIC_TITLE_WORDS.has(w));
}

/**
 * The words of a name, folded, given names first: "He, Kaiming" is read as "Kaiming He",
 * suffixes (Jr., III) are dropped, and a placeholder ("Anonymous", "withdrawn") has none.
 * @example nameWords('Rocktäschel, Tim') // ['tim', 'rocktaschel']
 */
export function nameWords(name: string): string[] {
  const text = name.slice(0, 300);
  const comma = text.indexOf(',');
  const ordered = comma > 0 ? `${text.slice(comma + 1)} ${text.slice(0, comma)}` : text;
  const words = (foldText(ordered).match(WORD) ?? []).filter((w) => !NAME_SUFFIXES.has(w));
  return words.every((w) => PLACEHOLDER_NAME_WORDS.has(w)) ? [] : words;
}

/**
 * Every word of a name as the store's title aliases may hold it (they keep the first author's
 * last word as written: "III" for "Hal Daumé III", "kaiming" for "He, Kaiming"): what to look a
 * name's papers up by. At most the first ten.
 * @example nameLookupWords('Hal Daumé III') // ['hal', 'daume', 'iii']
 */
export function nameLookupWords(name: string): string[] {
  return (foldText(name.slice(0, 300)).match(WORD) ?? []).slice(0, 10);
}

/**
 * The keys a name agrees by, `surname|given`: read in Western order (the last word the surname,
 * with its particles: "Le Cun" is also "lecun"), the given names as their initial and in full;
 * and in East Asian order (the first word the surname), the given names in full, or as an
 * initial where that is all there is ("He K"). So "Kaiming He", "K. He", "He Kaiming" and
 * "He K" agree, "Kaiming He" and "Kaiming Hu" do not. One word of a script without spaces
 * ("张伟") is its own key; one Latin word (a placeholder, a lone surname) has none.
 * @example authorKeys('Kaiming He') // ['he|k', 'he|kaiming', 'kaiming|he']
 */
export function authorKeys(name: string): string[] {
  const w = nameWords(name);
  if (w.length === 0) return [];
  if (w.length === 1) return LATIN_OR_DIGIT.test(w[0]!) || w[0]!.length < 2 ? [] : [`${w[0]}|`];
  const keys: string[] = [];
  for (let split = w.length - 1; split >= Math.max(1, w.length - 3); split--) {
    const surname = w.slice(split).join('');
    keys.push(`${surname}|${w[0]![0]}`, `${surname}|${w.slice(0, split).join('')}`);
  }
  const given = w.slice(1);
  keys.push(`${w[0]}|${given.every((g) => g.length === 1) ? given[0] : given.join('')}`);
  return [...new Set(keys)];
}

/**
 * How many of `authors` agree with one of `others` (by {@link authorKeys}), each side's first
 * {@link MAX_AUTHORS_COMPARED} compared.
 * @example agreeingAuthors(['Kaiming He', 'Jian Sun'], ['K. He', 'X. Zhang']) // 1
 */
export function agreeingAuthors(authors: readonly string[], others: readonly string[]): number {
  const theirs = new Set(others.slice(0, MAX_AUTHORS_COMPARED).flatMap(authorKeys));
  let agreeing = 0;
  for (const name of authors.slice(0, MAX_AUTHORS_COMPARED)) if (authorKeys(name).some((key) => theirs.has(key))) agreeing++;
  return agreeing;
}

/** What a description says of itself, for comparing it with a paper. */
export interface Described {
  title: string;
  year: number | null | undefined;
  authors: readonly string[];
}

/** A paper that a description fits by title, and how well: the fields {@link rankFits} orders by. */
export interface TitleFit<T> {
  paper: T;
  /** Accepted (or a preprint), not rejected, withdrawn or under review. */
  accepted: boolean;
  sameYear: boolean;
  authors: number;
  standing: number;
}

/**
 * How many authors must agree for two lists to be one work's: half of the shorter list (names
 * that are names: placeholders aside), at least one. One in common is not enough: the book
 * "Deep Learning" (2016: Goodfellow, Bengio, Courville) and the Nature article "Deep learning"
 * (2015: LeCun, Bengio, Hinton) share a title, a year within one and Bengio.
 * @example authorsNeeded(['Yann LeCun', 'Yoshua Bengio', 'Geoffrey Hinton'], ['Ian Goodfellow', 'Yoshua Bengio', 'Aaron Courville']) // 2
 */
export function authorsNeeded(authors: readonly string[], others: readonly string[]): number {
  const named = (list: readonly string[]) => list.slice(0, MAX_AUTHORS_COMPARED).filter((name) => authorKeys(name).length > 0).length;
  return Math.max(1, Math.ceil(Math.min(named(authors), named(others)) / 2));
}

/**
 * How a description fits a paper it shares no identifier with: undefined unless the titles are
 * the same (and name a paper: {@link isGenericTitle}), both years are known and within
 * {@link YEAR_SLACK}, and enough authors agree ({@link authorsNeeded}).
 * @example fitByTitle({ title: 'Deep Residual Learning', year: 2016, authors: ['K. He'] }, paper) // { sameYear: true, authors: 1, … }
 */
export function fitByTitle<T extends Described & { status: string }>(description: Described, paper: T): TitleFit<T> | undefined {
  if (description.year === null || description.year === undefined || paper.year === null || paper.year === undefined) return undefined;
  if (Math.abs(description.year - paper.year) > YEAR_SLACK) return undefined;
  if (isGenericTitle(description.title) || titleKey(description.title) !== titleKey(paper.title)) return undefined;
  const authors = agreeingAuthors(description.authors, paper.authors);
  if (authors === 0 || authors < authorsNeeded(description.authors, paper.authors)) return undefined;
  const standing = standingOf(paper.status);
  return { paper, accepted: standing > 0, sameYear: description.year === paper.year, authors, standing };
}

/**
 * The one paper that fits best ({@link fitByTitle}'s fits, ranked as the module says), or the
 * papers that tie for best (ambiguous: none is chosen), or nothing.
 * @example rankFits([fitA, fitB]) // { best: fitA } or { tied: [fitA, fitB] }
 */
export function rankFits<T>(fits: ReadonlyArray<TitleFit<T>>): { best?: TitleFit<T>; tied?: Array<TitleFit<T>> } {
  if (fits.length === 0) return {};
  const sorted = [...fits].sort(compareFits);
  const tied = sorted.filter((fit) => compareFits(fit, sorted[0]!) === 0);
  return tied.length === 1 ? { best: sorted[0]! } : { tied };
}

function compareFits<T>(a: TitleFit<T>, b: TitleFit<T>): number {
  return Number(b.accepted) - Number(a.accepted) || Number(b.sameYear) - Number(a.sameYear) || b.authors - a.authors || b.standing - a.standing;
}
