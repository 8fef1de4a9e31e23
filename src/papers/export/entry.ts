/**
 * What every export format needs from a paper, decided once: what kind of work it is (a
 * conference paper, a journal article, a preprint, an unpublished submission), its names,
 * date, identifiers and link, and a citation key that is stable and unique within an export.
 * The format modules (`bibtex.ts`, `ris.ts`, `csl.ts`) only write this down in their syntax.
 *
 * Text is cleaned here for all of them: lone surrogates and noncharacters become U+FFFD,
 * letters are composed (NFC: "e" + U+0301 is "é", one letter to BibTeX and to sorting),
 * invisible characters (zero-width space, BOM, soft hyphen, bidirectional overrides) are
 * dropped, and every run of whitespace or control characters, line breaks included, becomes
 * one space. No field value of any format can hold a line break after this.
 */
import { STOPWORDS, foldText } from '../../text.js';
import { normalizeArxivId, normalizeDoi, normalizeOpenReviewId } from '../ids.js';
import type { Paper } from '../model.js';
import { venueKey } from '../model.js';
import { canonicalStatus } from '../status.js';
import { splitName, type PersonName } from './names.js';
import { isAclFamily, venueInfo } from './venues.js';

/**
 * How a paper is cited: in proceedings, in a journal, as an arXiv preprint, as a submission
 * that was not (or not yet) accepted, or as a bare work with neither venue nor preprint.
 */
export type WorkKind = 'conference' | 'journal' | 'preprint' | 'unpublished' | 'other';

/** A paper as the export formats see it: cleaned text and decided fields. */
export interface Citable {
  paper: Paper;
  kind: WorkKind;
  title: string;
  authors: PersonName[];
  /** Year, and month and day where known (a preprint's first version). */
  date?: { year: number; month?: number; day?: number };
  /**
   * Proceedings or journal: the full name, the short one the venue goes by, and for a
   * conference the name of the meeting itself.
   */
  container?: { name: string; short: string; event?: string };
  arxiv?: { id: string; primaryClass?: string };
  doi?: string;
  url?: string;
  abstract: string;
  keywords: string[];
  /** The canonical status of an unpublished submission ("Withdrawn", "Under review", …). */
  status?: string;
  /** A sentence for the status where it matters: "Withdrawn submission to ICLR 2024". */
  statusNote?: string;
}

/** Statuses of submissions a venue did not (or not yet) accept. */
const UNPUBLISHED: ReadonlyMap<string, string> = new Map(Object.entries({
  'Under review': 'Submitted to',
  Rejected: 'Rejected submission to',
  'Desk Rejected': 'Desk-rejected submission to',
  Withdrawn: 'Withdrawn submission to',
}));
const WORKSHOP = /workshop/i;
/** arXiv's archives, to tell an arXiv category (`cs.LG`, `hep-th`) from other labels. */
const ARXIV_CATEGORY =
  /^(cs|math|stat|eess|econ|q-bio|q-fin|physics|astro-ph|cond-mat|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math-ph|nlin|nucl-ex|nucl-th|quant-ph)(\.[A-Za-z-]{2,})?$/;
/** Printable ASCII words separated by single spaces: text cleaning leaves as it is. */
const CLEAN_ASCII = /^(?:[\x21-\x7e]+(?: [\x21-\x7e]+)*)?$/;
const INVISIBLE = /[\u00ad\u200b\u2060\ufeff\u202a-\u202e\u2066-\u2069]/g;
const SURROGATE = /[\ud800-\udfff]/;
/**
 * Unicode's noncharacters (U+FDD0–U+FDEF and the last two code points of every plane), never
 * meant for interchange: biber refuses a file that has one.
 */
const NONCHARACTER = /[\ufdd0-\ufdef\ufffe\uffff]|[\ud83f\ud87f\ud8bf\ud8ff\ud93f\ud97f\ud9bf\ud9ff\uda3f\uda7f\udabf\udaff\udb3f\udb7f\udbbf\udbff][\udffe\udfff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Whitespace and control characters (C0, DEL, C1), except a single plain space. */
const SPACE_OR_CONTROL = /[\s\x00-\x1f\x7f-\x9f]{2,}|[\x00-\x1f\x7f-\x9f]|[^\S ]/g;
/** Whitespace, control and invisible characters, halves of surrogate pairs, unassigned code points and noncharacters. */
const UNSAFE_IN_LINK = /[\s\p{Cc}\p{Cf}\p{Cs}\p{Cn}]/u;

/**
 * Text on one line: well-formed (lone surrogates and noncharacters U+FFFD), composed (NFC),
 * without invisible characters, each run of whitespace or control characters one space.
 * @example cleanText('Deep\u200b learning\r\n\tfor graphs ') // 'Deep learning for graphs'
 */
export function cleanText(text: string): string {
  if (CLEAN_ASCII.test(text)) return text;
  const wellFormed = SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\ufffd') : text;
  return wellFormed
    .replace(NONCHARACTER, '\ufffd')
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(SPACE_OR_CONTROL, ' ')
    .trim();
}

/**
 * The decided fields of a paper.
 * @example
 * describePaper(paper) // { kind: 'conference', container: { name: 'Advances in Neural Information Processing Systems', short: 'NeurIPS' }, … }
 */
export function describePaper(paper: Paper): Citable {
  const venue = cleanText(paper.venue);
  const status = canonicalStatus(cleanText(paper.status));
  const arxivId = paper.externalIds.arxiv ? normalizeArxivId(paper.externalIds.arxiv) : undefined;
  const doi = paper.externalIds.doi ? safeLink(normalizeDoi(paper.externalIds.doi)) : undefined;
  const date = dateOf(paper);
  const kind = kindOf(venue, status, arxivId, doi);
  const citable: Citable = {
    paper,
    kind,
    title: cleanText(paper.title),
    authors: paper.authors.map(cleanText).filter((name) => name !== '').map(splitName),
    abstract: cleanText(paper.abstract),
    // Reference managers split keywords at commas and semicolons: split them here, so that
    // every format lists the same ones.
    keywords: paper.keywords.flatMap((keyword) => cleanText(keyword).split(/\s*[,;]\s*/)).filter((keyword) => keyword !== ''),
  };
  const preprintDate = kind === 'preprint' || kind === 'unpublished' || kind === 'other';
  if (date) citable.date = preprintDate ? date : { year: date.year };
  const container = containerOf(kind, venue, status);
  if (container) citable.container = container;
  if (arxivId) {
    const primaryClass = paper.labels.map(cleanText).find((label) => ARXIV_CATEGORY.test(label));
    citable.arxiv = primaryClass ? { id: arxivId, primaryClass } : { id: arxivId };
  }
  if (doi) citable.doi = doi;
  const url = urlOf(paper, arxivId);
  if (url) citable.url = url;
  if (kind === 'unpublished') {
    citable.status = status;
    const where = venueKey(venue) === 'arxiv' ? '' : venue;
    citable.statusNote = where ? `${UNPUBLISHED.get(status)} ${where}${date ? ` ${date.year}` : ''}` : status;
  }
  return citable;
}

function kindOf(venue: string, status: string, arxivId?: string, doi?: string): WorkKind {
  if (UNPUBLISHED.has(status)) return 'unpublished';
  const key = venueKey(venue);
  if (key === '' || key === 'arxiv') return arxivId ? 'preprint' : 'other';
  if (status === 'TOG Paper') return 'journal';
  const known = venueInfo(venue);
  if (known) return known.kind;
  // An unknown venue: a DOI without a status is how OpenAlex describes journal articles;
  // a status (Poster, Oral, …) is a conference's decision.
  if (status !== '') return 'conference';
  return doi ? 'journal' : 'other';
}

function containerOf(kind: WorkKind, venue: string, status: string): Citable['container'] {
  if (kind !== 'conference' && kind !== 'journal') return undefined;
  if (status === 'TOG Paper') return { name: 'ACM Transactions on Graphics', short: 'ACM TOG' };
  const info = venueInfo(venue);
  const name = info?.name ?? venue;
  if (kind === 'journal') return { name, short: venue };
  const event = info?.event ?? name;
  if (status === 'Findings') {
    const findings = isAclFamily(venue) ? 'Findings of the Association for Computational Linguistics' : 'Findings';
    return { name: `${findings}: ${venue}`, short: `Findings of ${venue}`, event };
  }
  if (WORKSHOP.test(status) && !WORKSHOP.test(name)) return { name: `${name} Workshops`, short: `${venue} Workshop`, event };
  if (status === 'System Demonstrations') return { name: `${name}: System Demonstrations`, short: venue, event };
  if (status === 'Industry') return { name: `${name}: Industry Track`, short: venue, event };
  return { name, short: venue, event };
}

function dateOf(paper: Paper): Citable['date'] {
  const published = /^(\d{4})-(\d{2})-(\d{2})/.exec(paper.published ?? '');
  const year = paper.year ?? (published ? Number(published[1]) : undefined);
  if (year === undefined) return undefined;
  if (!published || Number(published[1]) !== year) return { year };
  const month = Number(published[2]);
  const day = Number(published[3]);
  if (month < 1 || month > 12 || day < 1 || day > 31) return { year };
  return { year, month, day };
}

/** The page a reader should land on: the paper's own, else arXiv's or OpenReview's, else the PDF. */
function urlOf(paper: Paper, arxivId?: string): string | undefined {
  const page = [paper.links.page, paper.links.pdf].map(safeLink).find((link) => link && /^https?:\/\//i.test(link));
  if (page) return page;
  if (arxivId) return `https://arxiv.org/abs/${arxivId}`;
  const openreview = paper.externalIds.openreview ? normalizeOpenReviewId(paper.externalIds.openreview) : undefined;
  return openreview ? `https://openreview.net/forum?id=${openreview}` : undefined;
}

/** A URL or DOI only if it has no whitespace, control, invisible or unassigned character in it. */
function safeLink(link: string | undefined): string | undefined {
  return link !== undefined && !UNSAFE_IN_LINK.test(link) ? link : undefined;
}

/**
 * Citation keys for a list of papers, one per paper in order: the first author's family
 * name folded to ASCII (the first author whose name has ASCII letters, so "孙剑, Kaiming He"
 * gives "he"; "anon" when none has), the year and the first title word that is not a
 * stopword (`vaswani2017attention`). Papers that would share a key get a, b, … in the order
 * of their ids, so a paper keeps its key whatever the order of the list; the first keeps the
 * bare key.
 * @example citationKeys([attention]) // ['vaswani2017attention']
 * @example citationKeys([smith2020a, smith2020b]) // ['smith2020deep', 'smith2020deepa']
 */
export function citationKeys(citables: readonly Citable[]): string[] {
  const bases = citables.map(baseKey);
  const groups = new Map<string, number[]>();
  bases.forEach((base, index) => {
    const members = groups.get(base);
    if (members) members.push(index);
    else groups.set(base, [index]);
  });
  const used = new Set(bases);
  const keys = [...bases];
  for (const [base, members] of groups) {
    if (members.length < 2) continue;
    const ordered = [...members].sort((a, b) => compareIds(citables[a]!.paper.id, citables[b]!.paper.id) || a - b);
    let n = 0;
    for (const index of ordered.slice(1)) {
      let key: string;
      do key = base + letters(n++);
      while (used.has(key));
      used.add(key);
      keys[index] = key;
    }
  }
  return keys;
}

function baseKey(citable: Citable): string {
  const name = citable.authors.map(keyName).find((n) => n !== '') ?? 'anon';
  const word = asciiWords(citable.title).find((w) => !STOPWORDS.has(w) && /[a-z]/.test(w)) ?? '';
  return `${name}${citable.date?.year ?? ''}${word.slice(0, 20)}`;
}

/** An author's part of a key: the family name (a literal's first word) in ASCII, or '' when it has none. */
function keyName(author: PersonName): string {
  const family = 'literal' in author ? author.literal.split(' ')[0]! : author.family;
  return asciiWords(family).join('').slice(0, 30);
}

/** Lowercase ASCII words of text, as search folds it ("Łukasz" → "lukasz", "ℓ₁" → "l1"). */
function asciiWords(text: string): string[] {
  return foldText(text).match(/[a-z0-9]+/g) ?? [];
}

/** 0 → a, 25 → z, 26 → aa, … */
function letters(n: number): string {
  let out = '';
  for (let m = n + 1; m > 0; m = Math.floor((m - 1) / 26)) out = String.fromCharCode(97 + ((m - 1) % 26)) + out;
  return out;
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The papers of an export, each once (the first of several with one id), described.
 * @example describeAll([paper, paper]).length // 1
 */
export function describeAll(papers: readonly Paper[]): Citable[] {
  const seen = new Set<string>();
  const out: Citable[] = [];
  for (const paper of papers) {
    if (seen.has(paper.id)) continue;
    seen.add(paper.id);
    out.push(describePaper(paper));
  }
  return out;
}
