/**
 * Related work for a pasted text (src/search/meaning/related.ts, `SearchEngine.related`) on the
 * fixture's 29 papers: a small library, where every word is in more than 2% of the papers, still
 * answers; a text with no word to read is told apart from one of unknown words; a long one is
 * read in part, with a note.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../../src/i18n/index.js';
import type { SearchEngine } from '../../../src/search/engine.js';
import { hasWords, MAX_RELATED_TEXT, relatedWork } from '../../../src/search/meaning/related.js';
import { engineOf, storeOf } from '../../helpers/corpus.js';

let engine: SearchEngine;
const titles = (text: string, limit = 3) => engine.related(text, { limit }).hits.map((h) => h.title);
const noReading = (text: string) => ({ query: text, notes: [], read: false, senses: new Map() });

beforeAll(async () => {
  engine = (await engineOf(await storeOf())).engine;
});

describe('related work in a small library', () => {
  it('finds papers whose every word is common (in more than 2% of the papers)', () => {
    expect(titles('graph attention networks', 1)).toEqual(['Graph Attention Networks']);
    expect(titles('offline reinforcement learning with implicit q-learning and a tutorial review')).toContain('Offline Reinforcement Learning with Implicit Q-Learning');
  });

  it('gives as many as asked for where the library has them, the same first whatever the limit', () => {
    expect(titles('language models trained on text', 5)).toHaveLength(5);
    expect(titles('graph attention networks', 5)[0]).toBe('Graph Attention Networks');
  });

  it('finds nothing for words the library does not know, or no words, with no note', () => {
    for (const text of ['', '  ', '?!… —', 'qwxzzyv plmokn']) {
      const result = engine.related(text, { limit: 5 });
      expect(result.hits, text).toEqual([]);
      expect(result.notes, text).toEqual([]);
    }
  });
});

describe('hasWords', () => {
  it.each([
    ['', false],
    ['   \n\t', false],
    ['?!… — ... ，。！', false],
    ['<>&"\'', false],
    ['a', true],
    ['扩散模型', true],
    ['GAN?', true],
    [`${' '.repeat(MAX_RELATED_TEXT)}words past what is read`, false],
  ])('%# %s', (text, expected) => {
    expect(hasWords(text)).toBe(expected);
  });
});

describe('relatedWork', () => {
  it(`reads a text over ${MAX_RELATED_TEXT} characters up to there, with a note first`, () => {
    const source = { related: (t: string) => engine.related(t, { limit: 3 }), readQuery: noReading };
    const long = `graph attention networks ${'x'.repeat(MAX_RELATED_TEXT)} denoising diffusion`;
    const result = relatedWork(source, long);
    expect(result.hits[0]?.title).toBe('Graph Attention Networks');
    expect(result.notes.map((n) => translate('en', n))).toEqual(['Only the first 10,000 characters of the query were read.']);
    expect(relatedWork(source, 'graph attention networks').notes).toEqual([]);
  });
});
