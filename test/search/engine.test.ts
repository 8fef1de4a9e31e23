import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchEngine } from '../../src/search/engine.js';
import type { PaperStore } from '../../src/store/papers.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engineOf, storeOf } from '../helpers/corpus.js';
import { translate } from '../../src/i18n/index.js';

/** A result's notes in English. */
const notes = (result: { notes: Parameters<typeof translate>[1][] }) => result.notes.map((n) => translate('en', n));

let store: PaperStore;
let engine: SearchEngine;
const titles = async (q: string, limit = 10) => (await engine.search(q, { limit })).hits.map((h) => h.title);
const first = async (q: string) => (await titles(q, 1))[0];

beforeAll(async () => {
  const topicOf = (p: { title: string }) => (/diffusion|adversarial/i.test(p.title) ? ['generative'] : /reinforcement|policy/i.test(p.title) ? ['rl'] : []);
  store = await storeOf(undefined, topicOf);
  engine = (await engineOf(store, ['generative', 'rl'])).engine;
});

describe('ranking', () => {
  it('puts the paper whose exact title was typed first', async () => {
    expect(await first('Attention Is All You Need')).toBe('Attention Is All You Need');
    expect(await first('graph attention networks')).toBe('Graph Attention Networks');
  });

  it('forgives typos, swapped letters included', async () => {
    expect(await first('atention is all you need')).toBe('Attention Is All You Need');
    expect(await first('denoising difusion probabilistic models')).toBe('Denoising Diffusion Probabilistic Models');
    expect(await first('segmetn anything')).toBe('Segment Anything');
    expect(await titles('proxmial polciy optimization')).toContain('Proximal Policy Optimization Algorithms');
  });

  it('finds a paper by the short name before its title colon', async () => {
    expect(await first('BERT')).toBe('BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding');
    expect(await first('BERTScore')).toBe('BERTScore: Evaluating Text Generation with BERT');
  });

  it('completes the last word as a prefix', async () => {
    expect(await first('Scalable Diffusion Mod')).toBe('Scalable Diffusion Models with Transformers');
    expect(await titles('semi supervised classif')).toContain('Semi-Supervised Classification with Graph Convolutional Networks');
  });

  it('matches singular and plural forms', async () => {
    expect(await titles('generative adversarial net')).toContain('Generative Adversarial Nets');
    expect(await titles('diffusion model ')).toContain('Scalable Diffusion Models with Transformers');
  });

  it('answers an author name with that author’s papers only', async () => {
    const result = await engine.search('Yoshua Bengio', { limit: 20 });
    expect(result.hits.length).toBe(5);
    for (const hit of result.hits) expect((await store.get(hit.id))!.authors).toContain('Yoshua Bengio');
    expect(notes(result)).toEqual(['Papers by Yoshua Bengio.']);
  });

  it('ranks the first author’s papers first for surname + title words', async () => {
    expect(await first('He residual learning')).toBe('Deep Residual Learning for Image Recognition');
    expect(await first('Kipf graph convolutional')).toBe('Semi-Supervised Classification with Graph Convolutional Networks');
  });

  it('finds papers by rare words of the abstract', async () => {
    expect(await first('expectile in-support')).toBe('Offline Reinforcement Learning with Implicit Q-Learning');
  });

  it('breaks ties deterministically', async () => {
    const a = (await engine.search('learning', { limit: 50 })).hits.map((h) => h.id);
    const b = (await engine.search('learning', { limit: 50 })).hits.map((h) => h.id);
    expect(a).toEqual(b);
  });

  it('says when no paper matches every word', async () => {
    const result = await engine.search('diffusion zebra ', { limit: 10 });
    expect(result.partial).toBe(true);
    expect(notes(result).join(' ')).toMatch(/No paper matches every word/);
    expect(result.hits.length).toBeGreaterThan(0);
  });
});

describe('filters', () => {
  it('author: matches one author, initials included', async () => {
    expect((await titles('author:"Y. Bengio"')).length).toBe(5);
    expect((await titles('author:bengio')).length).toBe(6); // Samy Bengio too
    expect(await titles('author:"Kaiming He" mask')).toEqual(['Mask R-CNN']);
  });

  it('venue: and year: restrict', async () => {
    expect((await titles('venue:iclr year:2017 ')).sort()).toEqual([
      'Semi-Supervised Classification with Graph Convolutional Networks',
      'Understanding Deep Learning Requires Rethinking Generalization',
    ]);
    expect((await titles('diffusion year:>=2021')).sort()).toEqual(['Diffusion Models Beat GANs on Image Synthesis', 'Scalable Diffusion Models with Transformers']);
    expect((await titles('venue:nips diffusion')).length).toBe(2); // NIPS and NeurIPS are one venue
  });

  it('topic: restricts to a topic and sort:new orders newest first', async () => {
    const hits = (await engine.search('topic:generative sort:new', { limit: 10 })).hits;
    expect(await Promise.all(hits.map(async (h) => (await store.get(h.id))!.year))).toEqual([2023, 2021, 2020, 2014]);
  });

  it('unknown venues and topics explain themselves', async () => {
    expect(notes(await engine.search('venue:nowhere x')).join(' ')).toMatch(/No papers from venue "nowhere". Venues here: .*ICLR/);
    expect(notes(await engine.search('topic:astrology x')).join(' ')).toMatch(/No topic called "astrology"/);
  });

  it('-word excludes and "phrases" must appear', async () => {
    expect((await titles('diffusion -transformer')).sort()).toEqual(['Denoising Diffusion Probabilistic Models', 'Diffusion Models Beat GANs on Image Synthesis']);
    expect(await titles('"language models"')).toEqual(['Language Models are Few-Shot Learners', 'Training Language Models to Follow Instructions with Human Feedback']);
    expect(await titles('"models language"')).toEqual([]);
  });
});

describe('hostile queries', () => {
  it.each([
    ['10 kB of words', 'attention '.repeat(1100)],
    ['only punctuation', '!!!???...;;;:::---'],
    ['unbalanced quotes', '"graph "neural networks'],
    ['unknown field', 'foo:bar baz:"qux'],
    ['empty', ''],
    ['control characters', '\u0000\u001b[2J\u202e'],
    ['a lone dash and colon', '- :'],
    ['huge year', 'year:99999999999'],
  ])('%s gets results or a note, never an exception', async (_name, query) => {
    const result = await engine.search(query, { limit: 10 });
    expect(result.hits.length).toBeLessThanOrEqual(10);
    for (const note of result.notes) expect(translate('en', note).length).toBeLessThan(500);
  });

  it('finds a title that looks like query syntax when pasted whole', async () => {
    expect(await first('@everyone <b>Markdown</b> **bold** `code` <@123> <!channel> &amp; [link](http://evil.example)')).toMatch(/^@everyone/);
  });
});

describe('titles with compatibility characters', () => {
  it('finds "ℒ1 …" and "… Whegs™ …" by what is typed in ASCII, whatever else their titles hold', async () => {
    // Written here, not in the shared fixture: titles the way real listings spell them, each with
    // an arrow (before text normalization 3, "ℒ" then folded to an uppercase "L" that no typed
    // query matches, and "™" to "TM" glued to the word).
    const file = join(mkdtempSync(join(tmpdir(), 'paperscout-compat-')), 'papers.jsonl');
    const paper = (title: string, year: number, arxiv: string) => JSON.stringify({ title, authors: ['Ann Lee'], abstract: 'Control of parallel robots.', venue: 'ICRA', year, arxiv });
    writeFileSync(file, [paper('ℒ1 Adaptive Control → Design', 2019, '1901.00001'), paper('ℒ2 Adaptive Control → Design', 2020, '2001.00002'), paper('Mini-Whegs™ → Climbing Steep Surfaces', 2019, '1901.00003')].join('\n'));
    const { engine: compat } = await engineOf(await storeOf([file]));
    const found = async (q: string) => (await compat.search(q, { limit: 3 })).hits.map((h) => h.title);
    // (ℒ2 has only some of the words: one paper has them all, and that is the answer.)
    expect(await found('L1 adaptive control design')).toEqual(['ℒ1 Adaptive Control → Design']);
    expect(await found('L2 adaptive control design')).toEqual(['ℒ2 Adaptive Control → Design']);
    // Whole words (a trailing space: the last word is not completed as a prefix).
    expect(await found('L1 ')).toEqual(['ℒ1 Adaptive Control → Design']);
    expect(await found('whegs ')).toEqual(['Mini-Whegs™ → Climbing Steep Surfaces']);
    expect(await found('climbing -whegs')).toEqual([]);
  });
});

describe('suggest', () => {
  it('suggests titles that start with what was typed, then titles with the words', async () => {
    expect(engine.suggest('attention is')[0]?.title).toBe('Attention Is All You Need');
    expect(engine.suggest('graph att').map((s) => s.title)).toEqual(['Graph Attention Networks', 'Graph Attention Networks for Robot Navigation']);
    expect(engine.suggest('diffusion').length).toBe(3);
  });

  it('never gives more than 25 or anything for nothing', async () => {
    expect(engine.suggest('a', 100).length).toBeLessThanOrEqual(25);
    expect(engine.suggest('')).toEqual([]);
    expect(engine.suggest('!!!')).toEqual([]);
  });
});
