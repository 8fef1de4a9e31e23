/**
 * Word ids by the words' characters: an open-addressing hash table, so that a word can be
 * looked up where it lies in a text, without first being cut out as a string of its own.
 * Building the index of a large import, and classifying its papers, looked up every word of
 * every abstract in Maps of strings; those lookups, and the strings cut for them, were the
 * largest costs of the index worker and of the preparing thread.
 */
import { MAX_TOKEN_LENGTH, isAscii, isAsciiWordCode, tokenize } from './text.js';

/** FNV-1a's starting value and prime (32-bit). */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

/**
 * The hash of the word `text[start..end)`, one character at a time.
 * @example hashOf('graph', 0, 5) === hashOf('a graph', 2, 7)
 */
export function hashOf(text: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = hashStep(h, text.charCodeAt(i));
  return h;
}

/** The hash so far, with one more character code. */
function hashStep(h: number, code: number): number {
  return Math.imul(h ^ code, FNV_PRIME);
}

/**
 * Calls `word(folded, start, end, hash)` for each word {@link tokenize} finds in ASCII text
 * (`isAscii(text)`), in order, where it lies in the text's lowercase form: the same words, cut
 * at {@link MAX_TOKEN_LENGTH} as tokenize cuts them, without making a string of each.
 * @example forEachAsciiWord('Graph nets', (s, a, b) => console.log(s.slice(a, b))) // graph, nets
 */
export function forEachAsciiWord(text: string, word: (folded: string, start: number, end: number, hash: number) => void): void {
  const folded = text.toLowerCase();
  forEachAsciiWordIn(folded, 0, folded.length, word);
}

/** {@link forEachAsciiWord} over `folded[from..n)`, which is lowercase ASCII. */
function forEachAsciiWordIn(folded: string, from: number, n: number, word: (folded: string, start: number, end: number, hash: number) => void): void {
  for (let i = from; i < n; ) {
    let code = folded.charCodeAt(i);
    if (!isAsciiWordCode(code)) {
      i++;
      continue;
    }
    const start = i;
    const cut = start + MAX_TOKEN_LENGTH;
    let hash = FNV_OFFSET;
    do {
      if (i < cut) hash = hashStep(hash, code);
      i++;
    } while (i < n && isAsciiWordCode((code = folded.charCodeAt(i))));
    word(folded, start, Math.min(i, cut), hash);
  }
}

/**
 * Calls `word(text, start, end, hash)` for each word {@link tokenize} finds in `text`, in order:
 * ASCII text is scanned in place ({@link forEachAsciiWord}). Other text is mostly ASCII too (one
 * abstract in seven has a curly quote or a dash): its lowercase form is scanned in place between
 * ASCII whitespace, and only the stretches with other characters are folded, each of their words
 * then a text of its own.
 * @example forEachWord('Łukasz, graph nets', (s, a, b) => console.log(s.slice(a, b))) // lukasz, graph, nets
 */
export function forEachWord(text: string, word: (text: string, start: number, end: number, hash: number) => void): void {
  if (isAscii(text)) return forEachAsciiWord(text, word);
  const lower = text.toLowerCase();
  // Lowercasing lengthens a few letters ('İ'); then positions in `lower` are not those in `text`.
  if (lower.length !== text.length) return forEachTokenizedWord(text, word);
  // A stretch between spaces folds the same alone as within the text: no folding looks across a
  // space, nor does lowercasing (a final sigma looks past apostrophes, not spaces). And folded
  // text has no uppercase ASCII, so a stretch's words are the same read with its own pattern as
  // with the one tokenize picks for the whole text.
  const stretches = stretchesOf(text);
  for (let k = 0; k < stretches.length; k += 2) {
    const from = stretches[k]!;
    if (from >= 0) {
      forEachAsciiWordIn(lower, from, stretches[k + 1]!, word);
      continue;
    }
    for (const w of tokenize(text.slice(~from, stretches[k + 1]!))) word(w, 0, w.length, hashOf(w, 0, w.length));
  }
}

/**
 * The runs of characters between ASCII whitespace, as pairs of start and end; the start is
 * complemented (`~start`, negative) for a run that is not all ASCII.
 */
function stretchesOf(text: string): number[] {
  const out: number[] = [];
  const n = text.length;
  for (let i = 0; i < n; ) {
    while (i < n && isAsciiSpaceCode(text.charCodeAt(i))) i++;
    if (i === n) break;
    const from = i;
    let ascii = true;
    for (let code: number; i < n && !isAsciiSpaceCode((code = text.charCodeAt(i))); i++) if (code > 0x7f) ascii = false;
    out.push(ascii ? from : ~from, i);
  }
  return out;
}

function forEachTokenizedWord(text: string, word: (text: string, start: number, end: number, hash: number) => void): void {
  for (const w of tokenize(text)) word(w, 0, w.length, hashOf(w, 0, w.length));
}

/** Space, tab, line feed, vertical tab, form feed, carriage return. */
function isAsciiSpaceCode(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/** Term ids 0, 1, 2… in the order the words were first seen. */
export class TermTable {
  /** The words by id. */
  readonly words: string[] = [];
  private hashes = new Int32Array(1024);
  /** id + 1 by slot; 0 is an empty slot. */
  private slots = new Int32Array(2048);
  private mask = 2047;

  get size(): number {
    return this.words.length;
  }

  /**
   * The id of `word`, given a new one when it has none.
   * @example table.idOf('graph') === table.idOf('graph')
   */
  idOf(word: string): number {
    return this.idAt(word, 0, word.length, hashOf(word, 0, word.length));
  }

  /**
   * The id of the word `text[start..end)`, whose hash is `hash` ({@link hashOf}); a new word is
   * cut from the text only when it is first seen.
   */
  idAt(text: string, start: number, end: number, hash: number): number {
    const slot = this.slotOf(text, start, end, hash);
    const entry = this.slots[slot]!;
    if (entry !== 0) return entry - 1;
    return this.add(start === 0 && end === text.length ? text : text.slice(start, end), hash | 0, slot);
  }

  /** Like {@link idAt}, but -1 for a word the table does not hold (which it leaves out). */
  find(text: string, start: number, end: number, hash: number): number {
    return this.slots[this.slotOf(text, start, end, hash)]! - 1;
  }

  /** The slot that holds the word `text[start..end)`, or the empty slot where it would go. */
  private slotOf(text: string, start: number, end: number, given: number): number {
    // Stored as 32-bit integers: a hash given otherwise must compare as one.
    const hash = given | 0;
    const { slots, hashes, words, mask } = this;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]!;
      if (entry === 0) return slot;
      const id = entry - 1;
      if (hashes[id] !== hash) continue;
      const word = words[id]!;
      if (word.length !== length) continue;
      let same = true;
      for (let k = 0; k < length && same; k++) same = word.charCodeAt(k) === text.charCodeAt(start + k);
      if (same) return slot;
    }
  }

  private add(word: string, hash: number, slot: number): number {
    const id = this.words.length;
    this.words.push(word);
    if (id === this.hashes.length) {
      const bigger = new Int32Array(id * 2);
      bigger.set(this.hashes);
      this.hashes = bigger;
    }
    this.hashes[id] = hash;
    this.slots[slot] = id + 1;
    // At most half full: probes stay short.
    if (this.words.length * 2 > this.slots.length) this.grow();
    return id;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.words.length; id++) {
      let slot = this.hashes[id]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }
}
