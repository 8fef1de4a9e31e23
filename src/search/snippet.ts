/**
 * Snippets: the stretch of an abstract where the query's words cluster, with those words marked.
 * Marks are data (segments), not markup, so each renderer can bold them in its own syntax and
 * escape everything else. Words are compared as the index compares them ({@link tokenize});
 * math kept as LaTeX source (`$…$`) is never marked and never cut in two.
 */
import { findMathSpans } from '../papers/latex.js';
import { collapseWhitespace, tokenize } from '../text.js';
import type { TextSegment } from '../reply.js';
import type { MatchedWord } from './engine.js';
import type { WeightedWord } from './meaning/stage.js';

/** Default snippet length in characters (before ellipses). */
export const SNIPPET_LENGTH = 240;

/** A run of letters, digits and their marks: what a reader sees as one word. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Picks the window of `text` (about `maxChars` long) that holds the most distinct query words,
 * and marks them. Without any match, the opening of the text.
 * @example buildSnippet('We study diffusion models for audio.', [{ word: 'diffusion', forms: ['diffusion'] }])
 *   // [{ text: 'We study ' }, { text: 'diffusion', match: true }, { text: ' models for audio.' }]
 */
export function buildSnippet(text: string, words: readonly MatchedWord[], maxChars = SNIPPET_LENGTH): TextSegment[] {
  const clean = collapseWhitespace(text);
  if (clean.length === 0) return [];
  const groupOf = new Map<string, number>();
  words.forEach((w, i) => {
    for (const form of [w.word, ...w.forms]) if (!groupOf.has(form)) groupOf.set(form, i);
  });
  const math = findMathSpans(clean);
  const hits: Array<{ start: number; end: number; group: number }> = [];
  if (groupOf.size > 0) {
    let span = 0;
    // Abstracts repeat their words ("the", "model"): each is read as the index reads it once.
    const seen = new Map<string, number>();
    for (const m of clean.matchAll(WORD)) {
      while (span < math.length && math[span]![1] <= m.index) span++;
      if (span < math.length && math[span]![0] < m.index + m[0].length) continue;
      let group = seen.get(m[0]);
      if (group === undefined) {
        group = -1;
        // One word as written can be several as indexed ("μKE" is "mu" and "ke").
        for (const token of tokenize(m[0])) {
          const found = groupOf.get(token);
          if (found !== undefined) {
            group = found;
            break;
          }
        }
        seen.set(m[0], group);
      }
      if (group >= 0) hits.push({ start: m.index, end: m.index + m[0].length, group });
    }
  }
  const [from, to] = outsideMath(chooseWindow(clean, hits, maxChars), math);
  const segments: TextSegment[] = [];
  let cursor = from;
  const push = (segment: TextSegment) => {
    if (segment.text.length > 0) segments.push(segment);
  };
  for (const hit of hits) {
    if (hit.start < from || hit.end > to) continue;
    push({ text: clean.slice(cursor, hit.start) });
    push({ text: clean.slice(hit.start, hit.end), match: true });
    cursor = hit.end;
  }
  push({ text: clean.slice(cursor, to) });
  if (from > 0) segments.unshift({ text: '…' });
  if (to < clean.length) segments.push({ text: '…' });
  return mergePlain(segments);
}

/** Most words marked in a sentence shown for a description. */
const MEANING_MARKS = 5;

/** Splits text into sentences the way the reader's eye does (Unicode's rules). */
const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * For a paper found by meaning: the sentence of `text` closest to a description, the one whose
 * distinct words weigh most (`words` with their weights: the description's words and their
 * associates), its weightiest words marked (at most {@link MEANING_MARKS}); cut to about `maxChars` around them when longer. Without any
 * match, the opening of the text, as {@link buildSnippet} gives it.
 * @example closestSentence('We study birds. Twin networks compare signatures.', [{ word: 'signature', forms: ['signature'], weight: 5 }])
 *   // [{ text: '… Twin networks compare ' }, { text: 'signatures', match: true }, { text: '.' }]
 */
export function closestSentence(text: string, words: readonly WeightedWord[], maxChars = SNIPPET_LENGTH): TextSegment[] {
  const clean = collapseWhitespace(text);
  const weightOf = new Map<string, number>();
  for (const w of words) for (const form of [w.word, ...w.forms]) weightOf.set(form, Math.max(weightOf.get(form) ?? 0, w.weight));
  let best: { start: number; end: number; value: number; held: Set<string> } | undefined;
  for (const { segment, index } of SENTENCES.segment(clean)) {
    const held = new Set<string>();
    for (const token of tokenize(segment)) {
      const form = weightOf.has(token) ? token : token.endsWith('s') && weightOf.has(token.slice(0, -1)) ? token.slice(0, -1) : undefined;
      if (form !== undefined) held.add(form);
    }
    let value = 0;
    for (const form of held) value += weightOf.get(form)!;
    if (value > 0 && (!best || value > best.value)) best = { start: index, end: index + segment.length, value, held };
  }
  if (!best) return buildSnippet(clean, [], maxChars);
  // The weightiest words the sentence holds are marked, not every one: a mark says why.
  const shown = [...best.held].sort((a, b) => weightOf.get(b)! - weightOf.get(a)! || (a < b ? -1 : 1)).slice(0, MEANING_MARKS);
  const marked = shown.map((form) => ({ word: form, forms: [form, `${form}s`] }));
  const segments = buildSnippet(clean.slice(best.start, best.end).trim(), marked, maxChars);
  if (best.start > 0 && segments[0]?.text !== '…') segments.unshift({ text: '… ' });
  if (best.end < clean.length && segments.at(-1)?.text !== '…') segments.push({ text: ' …' });
  return mergePlain(segments);
}

/** The segments as plain text, marks dropped. */
export function segmentsToText(segments: readonly TextSegment[]): string {
  return segments.map((s) => s.text).join('');
}

function chooseWindow(text: string, hits: ReadonlyArray<{ start: number; end: number; group: number }>, maxChars: number): [number, number] {
  if (text.length <= maxChars) return [0, text.length];
  let bestStart = 0;
  let bestScore = -1;
  // Two pointers over the hits: the window starting at hit i reaches as far as maxChars allows.
  let j = 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < hits.length; i++) {
    while (j < hits.length && hits[j]!.end - hits[i]!.start <= maxChars) {
      counts.set(hits[j]!.group, (counts.get(hits[j]!.group) ?? 0) + 1);
      j++;
    }
    const score = counts.size * 100 + (j - i);
    if (score > bestScore) {
      bestScore = score;
      bestStart = hits[i]!.start;
    }
    const g = hits[i]!.group;
    const left = (counts.get(g) ?? 1) - 1;
    if (left === 0) counts.delete(g);
    else counts.set(g, left);
  }
  if (bestScore < 0) return [0, cutAtWord(text, maxChars)];
  // Lead in a little, from a sentence start when one is close, else from a word start.
  let from = Math.max(0, bestStart - Math.floor(maxChars / 4));
  const sentence = text.lastIndexOf('. ', bestStart);
  if (from === 0) {
    // The match is near the start: show the text from its beginning.
  } else if (sentence >= 0 && sentence >= from - 1 && sentence + 2 <= bestStart) from = sentence + 2;
  else if (from > 0) from = text.indexOf(' ', from) + 1 || from;
  const to = Math.min(text.length, from + cutAtWord(text.slice(from), maxChars));
  return [from, to];
}

/** The window with ends moved out of any math span they fall in (never widened). */
function outsideMath(window: [number, number], math: ReadonlyArray<[number, number]>): [number, number] {
  let [from, to] = window;
  for (const [start, end] of math) {
    if (start < from && from < end) from = end;
    if (start < to && to < end) to = start;
  }
  return from < to ? [from, to] : window;
}

function cutAtWord(text: string, maxChars: number): number {
  if (text.length <= maxChars) return text.length;
  const space = text.lastIndexOf(' ', maxChars);
  return space > maxChars / 2 ? space : maxChars;
}

function mergePlain(segments: TextSegment[]): TextSegment[] {
  const out: TextSegment[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if (last && !last.match && !s.match) last.text += s.text;
    else out.push({ ...s });
  }
  return out;
}
