/**
 * Reading a Chinese (or mixed) query as the English the library is written in, without a
 * translation service: each run of Chinese characters is cut into the longest known terms of
 * the glossary and the Chinese topic names (fewest pieces, fewest characters left unread), and
 * each term is replaced by its English, each topic name by a `topic:` filter (Traditional
 * characters are read as their Simplified forms). Everything else
 * (English words, filters such as `author:"张伟"`, links) stays as typed. Pure.
 */
import { msg, type Localized, type Message } from './messages.js';
import { toSimplified } from './simplify.js';

/** A word of the library's language a Chinese word may mean, with how much it counts (1 for its reading). */
export interface Sense {
  word: string;
  weight: number;
}

/**
 * What a piece of Chinese text is read as: English (with the word's other senses, when it is
 * one word that means several things), a topic, or nothing.
 */
export type Reading = { english: string; senses?: readonly Sense[] } | { topic: { id: string; labels: Localized } } | { ignore: true };

/** Known Chinese terms: the glossary's, topic names, and words that carry no search meaning. */
export interface Dictionary {
  get(term: string): Reading | undefined;
  /** Length of the longest term, in characters. */
  readonly longest: number;
}

export interface QueryReading {
  /** The query to search: English terms and topic filters in place of the Chinese. */
  query: string;
  /** How it was read, for a note under the results (none when the query has no Chinese). */
  notes: Message[];
  /** Whether any Chinese was read (the query changed). */
  read: boolean;
  /**
   * Other words an English word of `query` stands for, weighted: a Chinese word's other senses
   * ("孪生" reads `twin`, and also means `siamese`), for the engine to match as that word.
   */
  senses: ReadonlyMap<string, readonly Sense[]>;
}

const HAN_RUN = /\p{Script=Han}+/gu;
const HAN = /\p{Script=Han}/u;
/** `field:value` and `field:"a value"` of the search filters: their values are names, kept as typed. */
const FILTER = /\b(?:author|venue|year|topic|sort):(?:"[^"]*"?|\S*)/gi;
/** A character that runs into a word: an inserted English term needs a space next to it. */
const WORDLIKE = /[\p{L}\p{N}]/u;
/** Cost of a character no term covers, against 1 per term: read as much as possible, in as few pieces. */
const UNREAD_COST = 100;

/**
 * Builds a dictionary from the glossary (`{ 扩散模型: 'diffusion model' }`), topic names (only
 * names that name one topic) and ignorable words. Glossary terms win over topic names.
 * @example createDictionary({ 扩散模型: 'diffusion model' }, [], ['的']).get('扩散模型') // { english: 'diffusion model' }
 */
export function createDictionary(
  terms: Readonly<Record<string, string>>,
  topics: ReadonlyArray<{ id: string; labels: Localized; names: readonly string[] }>,
  ignore: readonly string[],
): Dictionary {
  const map = new Map<string, Reading>();
  const owners = new Map<string, Set<string>>();
  for (const topic of topics) {
    for (const name of topic.names) {
      if (!HAN.test(name)) continue;
      const key = normalize(name);
      owners.set(key, (owners.get(key) ?? new Set()).add(topic.id));
      if (!map.has(key)) map.set(key, { topic: { id: topic.id, labels: topic.labels } });
    }
  }
  // A name that two topics share ("其他") decides nothing.
  for (const [key, ids] of owners) if (ids.size > 1) map.delete(key);
  for (const word of ignore) map.set(normalize(word), { ignore: true });
  for (const [zh, english] of Object.entries(terms)) map.set(normalize(zh), { english });
  let longest = 0;
  for (const key of map.keys()) longest = Math.max(longest, [...key].length);
  return { get: (term) => map.get(term), longest };
}

/**
 * Reads the Chinese of a query as English terms and topics.
 * @example readQuery('扩散模型 视频生成', dictionary).query // 'diffusion model video generation'
 */
export function readQuery(input: string, dictionary: Dictionary): QueryReading {
  if (!HAN.test(input)) return { query: input, notes: [], read: false, senses: NO_SENSES };
  const readings: Message[] = [];
  const unread: string[] = [];
  const topics: string[] = [];
  const senses = new Map<string, Sense[]>();
  const kept: Array<[number, number]> = [];
  for (const m of input.matchAll(FILTER)) kept.push([m.index, m.index + m[0].length]);
  const inFilter = (at: number) => kept.some(([from, to]) => at >= from && at < to);

  let out = '';
  let last = 0;
  for (const run of input.matchAll(HAN_RUN)) {
    if (inFilter(run.index)) continue;
    const words: string[] = [];
    for (const piece of segment(normalize(run[0]), dictionary)) {
      if (piece.reading === undefined) {
        unread.push(piece.text);
      } else if ('english' in piece.reading) {
        words.push(piece.reading.english);
        if (piece.reading.senses) addSenses(senses, piece.reading.english, piece.reading.senses);
        readings.push(msg('search.readAsTerm', { source: piece.text, english: piece.reading.english }));
      } else if ('topic' in piece.reading) {
        topics.push(`topic:"${piece.reading.topic.id}"`);
        readings.push(msg('search.readAsTopic', { source: piece.text, topic: piece.reading.topic.labels }));
      }
    }
    const before = input.slice(last, run.index);
    const after = input[run.index + run[0].length] ?? '';
    const english = words.join(' ');
    const lead = english && WORDLIKE.test(before.slice(-1)) ? ' ' : '';
    const trail = english && WORDLIKE.test(after) ? ' ' : '';
    out += `${before}${lead}${english}${trail}`;
    last = run.index + run[0].length;
  }
  out += input.slice(last);

  if (readings.length === 0) {
    return { query: input, notes: [msg('search.unreadAll', { words: unread.join(' ') || input.trim() })], read: false, senses: NO_SENSES };
  }
  const notes = [msg('search.readAs', { readings: { items: readings, type: 'unit' } })];
  if (unread.length > 0) notes.push(msg('search.unread', { words: unread.join(' ') }));
  // Filters first: a trailing topic filter would end a word being typed as a prefix.
  const query = [...topics, out.replace(/\s+/g, ' ').trim()].filter(Boolean).join(' ');
  return { query: /\s$/.test(input) ? `${query} ` : query, notes, read: true, senses };
}

const NO_SENSES: ReadonlyMap<string, readonly Sense[]> = new Map();

/** Adds a word's senses to those already read for the same English word, keeping each sense's larger weight. */
function addSenses(into: Map<string, Sense[]>, english: string, senses: readonly Sense[]): void {
  const known = into.get(english) ?? [];
  for (const sense of senses) {
    if (sense.word === english) continue;
    const same = known.find((k) => k.word === sense.word);
    if (!same) known.push({ ...sense });
    else same.weight = Math.max(same.weight, sense.weight);
  }
  into.set(english, known);
}

interface Piece {
  text: string;
  reading?: Reading;
}

/**
 * Cuts a run of Chinese into known terms: the fewest characters left unread, then the fewest
 * pieces (so the longest terms), by dynamic programming over the run.
 */
function segment(run: string, dictionary: Dictionary): Piece[] {
  const chars = [...run];
  const n = chars.length;
  const cost = new Array<number>(n + 1).fill(Infinity);
  const from = new Array<number>(n + 1).fill(-1);
  cost[0] = 0;
  for (let i = 0; i < n; i++) {
    if (cost[i] === Infinity) continue;
    const unreadCost = cost[i]! + UNREAD_COST;
    if (unreadCost < cost[i + 1]!) {
      cost[i + 1] = unreadCost;
      from[i + 1] = i;
    }
    for (let j = i + 1; j <= Math.min(n, i + dictionary.longest); j++) {
      if (dictionary.get(chars.slice(i, j).join('')) === undefined) continue;
      const c = cost[i]! + 1;
      if (c < cost[j]!) {
        cost[j] = c;
        from[j] = i;
      }
    }
  }
  const pieces: Piece[] = [];
  for (let j = n; j > 0; j = from[j]!) {
    const text = chars.slice(from[j]!, j).join('');
    const reading = dictionary.get(text);
    const previous = pieces[0];
    // Neighbouring unread characters are one unread piece.
    if (reading === undefined && previous && previous.reading === undefined) previous.text = text + previous.text;
    else pieces.unshift(reading === undefined ? { text } : { text, reading });
  }
  return pieces.filter((p) => p.reading === undefined || !('ignore' in p.reading));
}

/** Full-width letters and digits as ASCII, one form of each character, Traditional Chinese as Simplified. */
function normalize(text: string): string {
  return toSimplified(text.normalize('NFKC'));
}
