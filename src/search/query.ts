/**
 * The query language of the search box. Pure and total: any string parses, and what could not
 * be understood comes back as a note for the user instead of an exception.
 *
 *   diffusion transformers                free words (the last one also as a prefix)
 *   "exact phrase"  -word  -"phrase"      phrases that must appear, words that must not
 *   author:"Yoshua Bengio"  author:bengio by author (initials match: author:"Y. Bengio")
 *   venue:icml  year:2019  year:2018..2020  year:>=2021
 *   topic:"Theory · Learning Theory"      by topic (names resolve forgivingly)
 *   cited:>100  cited:100..500            by citation count (papers with a known count)
 *   sort:new  sort:cited                  newest or most cited first instead of best first
 */
import { msg, type Message } from '../i18n/index.js';
import { tokenize } from '../text.js';
import { MAX_CITED_BY } from '../store/citations.js';
import { compoundsOf, type Compound } from './compounds.js';

/** Longest query read; the rest is dropped with a note. */
export const MAX_QUERY_LENGTH = 1000;
/** Most words a query scores; more are dropped with a note. */
export const MAX_QUERY_WORDS = 32;

export const FILTER_NAMES = ['author', 'venue', 'year', 'topic', 'cited', 'sort'] as const;

export interface YearRange {
  from?: number;
  to?: number;
}

/** A range of citation counts, both ends included. */
export interface CountRange {
  from?: number;
  to?: number;
}

/** The orders a result can come in: best match, newest, most cited. */
export type SortOrder = 'relevance' | 'new' | 'cited';

export interface ParsedQuery {
  /** Free words and phrase words in the order typed, tokenized. */
  words: string[];
  /** Whether the last free word is still being typed (no trailing space) and may be a prefix. */
  lastIsPrefix: boolean;
  /** Each quoted phrase, tokenized; all must appear. */
  phrases: string[][];
  /** The hyphenated compounds among the free and phrase words ("domain-level"), in order. */
  compounds: Compound[];
  /** Each `-word` or `-"phrase"`, tokenized; documents containing one are left out. */
  excluded: string[][];
  /** Each `author:` value, tokenized; all must match one author of the paper. */
  authors: string[][];
  venues: string[];
  years?: YearRange;
  /** `cited:` ranges, intersected; only papers with a known count in it pass. */
  cited?: CountRange;
  topics: string[];
  sort: SortOrder;
  /** Things the user should know about how the query was read. */
  notes: Message[];
  /** The query text without filters, as typed (for exact-title and identifier matching). */
  text: string;
}

type Piece =
  | { kind: 'word'; value: string; negated: boolean; quoted: boolean }
  | { kind: 'filter'; key: string; value: string; quoted: boolean };

/**
 * Parses a search box query.
 * @example parseQuery('author:"Yoshua Bengio" year:2018..2020 attention').years // { from: 2018, to: 2020 }
 */
export function parseQuery(input: string): ParsedQuery {
  const notes: Message[] = [];
  let raw = input;
  if (raw.length > MAX_QUERY_LENGTH) {
    raw = raw.slice(0, MAX_QUERY_LENGTH);
    notes.push(msg('search.clipped', { max: MAX_QUERY_LENGTH }));
  }
  const pieces = scan(raw, notes);
  const query: ParsedQuery = {
    words: [],
    lastIsPrefix: false,
    phrases: [],
    compounds: [],
    excluded: [],
    authors: [],
    venues: [],
    topics: [],
    sort: 'relevance',
    notes,
    text: '',
  };
  const textParts: string[] = [];
  let lastPieceIsOpenWord = false;
  for (const piece of pieces) {
    lastPieceIsOpenWord = false;
    if (piece.kind === 'filter') {
      applyFilter(query, piece.key, piece.value);
      continue;
    }
    const tokens = tokenize(piece.value);
    if (piece.negated) {
      if (tokens.length > 0) query.excluded.push(tokens);
      continue;
    }
    textParts.push(piece.value);
    if (piece.quoted && tokens.length > 1) query.phrases.push(tokens);
    query.words.push(...tokens);
    query.compounds.push(...compoundsOf(piece.value));
    lastPieceIsOpenWord = !piece.quoted && tokens.length > 0;
  }
  query.text = textParts.join(' ');
  query.lastIsPrefix = lastPieceIsOpenWord && !/\s$/.test(raw) && /[\p{L}\p{N}]$/u.test(raw);
  if (query.words.length > MAX_QUERY_WORDS) {
    query.words = query.words.slice(0, MAX_QUERY_WORDS);
    query.lastIsPrefix = false;
    notes.push(msg('search.tooManyWords', { max: MAX_QUERY_WORDS }));
  }
  return query;
}

/** Whether the query asks for anything at all (words, phrases or filters). */
export function isEmptyQuery(q: ParsedQuery): boolean {
  return (
    q.words.length === 0 &&
    q.authors.length === 0 &&
    q.venues.length === 0 &&
    q.topics.length === 0 &&
    q.years === undefined &&
    q.cited === undefined
  );
}

function scan(raw: string, notes: Message[]): Piece[] {
  const pieces: Piece[] = [];
  let i = 0;
  const n = raw.length;
  const readQuoted = (): string => {
    // raw[i] is the opening quote
    const close = raw.indexOf('"', i + 1);
    if (close < 0) {
      if (!notes.some((n) => n.key === UNBALANCED.key)) notes.push(UNBALANCED);
      const value = raw.slice(i + 1);
      i = n;
      return value;
    }
    const value = raw.slice(i + 1, close);
    i = close + 1;
    return value;
  };
  while (i < n) {
    while (i < n && /\s/.test(raw[i]!)) i++;
    if (i >= n) break;
    let negated = false;
    if (raw[i] === '-' && i + 1 < n && !/[\s-]/.test(raw[i + 1]!)) {
      negated = true;
      i++;
    }
    if (raw[i] === '"') {
      pieces.push({ kind: 'word', value: readQuoted(), negated, quoted: true });
      continue;
    }
    const start = i;
    while (i < n && !/\s/.test(raw[i]!) && !(raw[i] === '"' && i > start && raw[i - 1] === ':')) i++;
    const word = raw.slice(start, i);
    const filter = /^([A-Za-z]+):(.*)$/s.exec(word);
    if (filter && !negated) {
      const key = filter[1]!.toLowerCase();
      let value = filter[2]!;
      let quoted = false;
      if (value === '' && raw[i] === '"') {
        value = readQuoted();
        quoted = true;
      }
      if ((FILTER_NAMES as readonly string[]).includes(key)) {
        if (value.trim() === '') {
          notes.push(msg('search.needsValue', { filter: key, example: example(key) }));
        } else {
          pieces.push({ kind: 'filter', key, value, quoted });
        }
        continue;
      }
      if (value !== '' && !/^\/\//.test(value)) {
        notes.push(msg('search.notAFilter', { name: truncate(key), filters: FILTER_NAMES.map((f) => `${f}:`).join(' ') }));
      }
      pieces.push({ kind: 'word', value: quoted ? `${key} ${value}` : word, negated: false, quoted: false });
      continue;
    }
    pieces.push({ kind: 'word', value: word, negated, quoted: false });
  }
  return pieces;
}

const UNBALANCED = msg('search.unclosedQuote');

function applyFilter(query: ParsedQuery, key: string, value: string): void {
  switch (key) {
    case 'author': {
      const tokens = tokenize(value);
      if (tokens.length > 0) query.authors.push(tokens);
      else query.notes.push(msg('search.authorNeedsName', { example: example('author') }));
      return;
    }
    case 'venue':
      query.venues.push(value.trim());
      return;
    case 'topic':
      query.topics.push(value.trim());
      return;
    case 'sort': {
      const v = value.trim().toLowerCase();
      if (['new', 'newest', 'recent', 'date', 'year'].includes(v)) query.sort = 'new';
      else if (['cited', 'citations', 'citation', 'cites', 'citedby'].includes(v)) query.sort = 'cited';
      else if (['relevance', 'best', 'score'].includes(v)) query.sort = 'relevance';
      else query.notes.push(msg('search.badSort', { value: truncate(v) }));
      return;
    }
    case 'year': {
      const range = parseYears(value.trim());
      if (range) query.years = intersect(query.years, range);
      else query.notes.push(msg('search.badYear', { value: truncate(value) }));
      return;
    }
    case 'cited': {
      const range = parseCounts(value.trim());
      if (range) query.cited = intersect(query.cited, range);
      else query.notes.push(msg('search.badCited', { value: truncate(value) }));
      return;
    }
  }
}

/**
 * Reads `2019`, `2018..2020`, `2018-2020`, `2020..`, `..2019`, `>=2021`, `>2020`, `<2015`, `<=2015`.
 * @example parseYears('2018..2020') // { from: 2018, to: 2020 }
 */
export function parseYears(value: string): YearRange | undefined {
  const year = (s: string | undefined): number | undefined => {
    if (s === undefined || s === '') return undefined;
    if (!/^\d{4}$/.test(s)) return Number.NaN;
    return Number(s);
  };
  let m = /^(\d{4})$/.exec(value);
  if (m) return { from: Number(m[1]), to: Number(m[1]) };
  m = /^(\d{0,4})(?:\.\.|-|–)(\d{0,4})$/.exec(value);
  if (m && (m[1] || m[2])) {
    const from = year(m[1]);
    const to = year(m[2]);
    if (Number.isNaN(from) || Number.isNaN(to)) return undefined;
    if (from !== undefined && to !== undefined && from > to) return { from: to, to: from };
    return { ...(from !== undefined && { from }), ...(to !== undefined && { to }) };
  }
  m = /^(>=|>|<=|<)(\d{4})$/.exec(value);
  if (m) {
    const y = Number(m[2]);
    switch (m[1]) {
      case '>=':
        return { from: y };
      case '>':
        return { from: y + 1 };
      case '<=':
        return { to: y };
      default:
        return { to: y - 1 };
    }
  }
  return undefined;
}

/**
 * Reads a citation count range: `100` (at least 100), `>100`, `>=100`, `<50`, `<=50`,
 * `100..500`, `100-500`, `100..`, `..500`; counts may be written `1k`, `1.5k`, `1,000`.
 * @example parseCounts('>100') // { from: 101 }
 * @example parseCounts('1k..5k') // { from: 1000, to: 5000 }
 */
export function parseCounts(value: string): CountRange | undefined {
  const count = (s: string): number | undefined => {
    const m = /^(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(k?)$/i.exec(s);
    if (!m) return undefined;
    const n = Number(m[1]!.replace(/,/g, '')) * (m[2] ? 1000 : 1);
    return Number.isInteger(n) && n <= MAX_CITED_BY ? n : undefined;
  };
  let m = /^(>=|>|<=|<|≥|≤)(.+)$/.exec(value);
  if (m) {
    const n = count(m[2]!);
    if (n === undefined) return undefined;
    switch (m[1]) {
      case '>':
        return { from: n + 1 };
      case '<':
        return n === 0 ? undefined : { to: n - 1 };
      case '<=':
      case '≤':
        return { to: n };
      default:
        return { from: n };
    }
  }
  m = /^([^.–-]*)(?:\.\.|-|–)([^.–-]*)$/.exec(value);
  if (m && (m[1] || m[2])) {
    const from = m[1] ? count(m[1]) : 0;
    const to = m[2] ? count(m[2]) : undefined;
    if (from === undefined || (m[2] && to === undefined)) return undefined;
    if (to !== undefined && from > to) return { from: to, to: from };
    return { ...(from > 0 && { from }), ...(to !== undefined && { to }) };
  }
  const n = count(value);
  return n === undefined ? undefined : { from: n };
}

function intersect(a: YearRange | undefined, b: YearRange): YearRange {
  if (!a) return b;
  const from = Math.max(a.from ?? -Infinity, b.from ?? -Infinity);
  const to = Math.min(a.to ?? Infinity, b.to ?? Infinity);
  return { ...(Number.isFinite(from) && { from }), ...(Number.isFinite(to) && { to }) };
}

function example(key: string): string | readonly Message[] {
  switch (key) {
    case 'author':
      return 'author:"Yoshua Bengio"';
    case 'venue':
      return 'venue:icml';
    case 'year':
      return [msg('search.or', { first: 'year:2019', second: 'year:2018..2020' })];
    case 'topic':
      return 'topic:"Theory · Learning Theory"';
    case 'cited':
      return [msg('search.or', { first: 'cited:>100', second: 'cited:100..500' })];
    default:
      return 'sort:new';
  }
}

function truncate(s: string): string {
  return s.length > 30 ? `${s.slice(0, 30)}…` : s;
}
