import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchEngine } from '../../src/search/engine.js';
import type { PaperStore } from '../../src/store/paperStore.js';
import { engineOf, storeOf } from '../helpers/corpus.js';
import { translate } from '../../src/i18n/index.js';

/** A result's notes in English. */
const notes = (result: { notes: Parameters<typeof translate>[1][] }) => result.notes.map((n) => translate('en', n));

let store: PaperStore;
let engine: SearchEngine;
const titles = (q: string, limit = 10) => engine.search(q, { limit }).hits.map((h) => h.title);
const first = (q: string) => titles(q, 1)[0];

beforeAll(async () => {
  const topicOf = (p: { title: string }) => (/diffusion|adversarial/i.test(p.title) ? ['generative'] : /reinforcement|policy/i.test(p.title) ? ['rl'] : []);
  store = await storeOf(undefined, topicOf);
  engine = engineOf(store, ['generative', 'rl']).engine;
});

describe('ranking', () => {
  it('puts the paper whose exact title was typed first', () => {
    expect(first('Attention Is All You Need')).toBe('Attention Is All You Need');
    expect(first('graph attention networks')).toBe('Graph Attention Networks');
  });

  it('forgives typos, swapped letters included', () => {
    expect(first('atention is all you need')).toBe('Attention Is All You Need');
    expect(first('denoising difusion probabilistic models')).toBe('Denoising Diffusion Probabilistic Models');
    expect(first('segmetn anything')).toBe('Segment Anything');
    expect(titles('proxmial polciy optimization')).toContain('Proximal Policy Optimization Algorithms');
  });

  it('finds a paper by the short name before its title colon', () => {
    expect(first('BERT')).toBe('BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding');
    expect(first('BERTScore')).toBe('BERTScore: Evaluating Text Generation with BERT');
  });

  it('completes the last word as a prefix', () => {
    expect(first('Scalable Diffusion Mod')).toBe('Scalable Diffusion Models with Transformers');
    expect(titles('semi supervised classif')).toContain('Semi-Supervised Classification with Graph Convolutional Networks');
  });

  it('matches singular and plural forms', () => {
    expect(titles('generative adversarial net')).toContain('Generative Adversarial Nets');
    expect(titles('diffusion model ')).toContain('Scalable Diffusion Models with Transformers');
  });

  it('answers an author name with that author’s papers only', () => {
    const result = engine.search('Yoshua Bengio', { limit: 20 });
    expect(result.hits.length).toBe(5);
    for (const hit of result.hits) expect(store.get(hit.id)!.authors).toContain('Yoshua Bengio');
    expect(notes(result)).toEqual(['Papers by Yoshua Bengio.']);
  });

  it('ranks the first author’s papers first for surname + title words', () => {
    expect(first('He residual learning')).toBe('Deep Residual Learning for Image Recognition');
    expect(first('Kipf graph convolutional')).toBe('Semi-Supervised Classification with Graph Convolutional Networks');
  });

  it('finds papers by rare words of the abstract', () => {
    expect(first('expectile in-support')).toBe('Offline Reinforcement Learning with Implicit Q-Learning');
  });

  it('breaks ties deterministically', () => {
    const a = engine.search('learning', { limit: 50 }).hits.map((h) => h.id);
    const b = engine.search('learning', { limit: 50 }).hits.map((h) => h.id);
    expect(a).toEqual(b);
  });

  it('says when no paper matches every word', () => {
    const result = engine.search('diffusion zebra ', { limit: 10 });
    expect(result.partial).toBe(true);
    expect(notes(result).join(' ')).toMatch(/No paper matches every word/);
    expect(result.hits.length).toBeGreaterThan(0);
  });
});

describe('filters', () => {
  it('author: matches one author, initials included', () => {
    expect(titles('author:"Y. Bengio"').length).toBe(5);
    expect(titles('author:bengio').length).toBe(6); // Samy Bengio too
    expect(titles('author:"Kaiming He" mask')).toEqual(['Mask R-CNN']);
  });

  it('venue: and year: restrict', () => {
    expect(titles('venue:iclr year:2017 ').sort()).toEqual([
      'Semi-Supervised Classification with Graph Convolutional Networks',
      'Understanding Deep Learning Requires Rethinking Generalization',
    ]);
    expect(titles('diffusion year:>=2021').sort()).toEqual(['Diffusion Models Beat GANs on Image Synthesis', 'Scalable Diffusion Models with Transformers']);
    expect(titles('venue:nips diffusion').length).toBe(2); // NIPS and NeurIPS are one venue
  });

  it('topic: restricts to a topic and sort:new orders newest first', () => {
    const hits = engine.search('topic:generative sort:new', { limit: 10 }).hits;
    expect(hits.map((h) => store.get(h.id)!.year)).toEqual([2023, 2021, 2020, 2014]);
  });

  it('unknown venues and topics explain themselves', () => {
    expect(notes(engine.search('venue:nowhere x')).join(' ')).toMatch(/No papers from venue "nowhere". Venues here: .*ICLR/);
    expect(notes(engine.search('topic:astrology x')).join(' ')).toMatch(/No topic called "astrology"/);
  });

  it('-word excludes and "phrases" must appear', () => {
    expect(titles('diffusion -transformer').sort()).toEqual(['Denoising Diffusion Probabilistic Models', 'Diffusion Models Beat GANs on Image Synthesis']);
    expect(titles('"language models"')).toEqual(['Language Models are Few-Shot Learners', 'Training Language Models to Follow Instructions with Human Feedback']);
    expect(titles('"models language"')).toEqual([]);
  });
});

describe('identifiers and links', () => {
  it.each([
    ['https://arxiv.org/abs/1706.03762', 'Attention Is All You Need'],
    ['https://arxiv.org/pdf/1706.03762v5.pdf', 'Attention Is All You Need'],
    ['arXiv:1706.03762', 'Attention Is All You Need'],
    ['1706.03762v2', 'Attention Is All You Need'],
    ['https://doi.org/10.1109/CVPR.2016.90', 'Deep Residual Learning for Image Recognition'],
    ['10.1109/cvpr.2016.90', 'Deep Residual Learning for Image Recognition'],
    ['https://openreview.net/forum?id=SkeHuCVFDr', 'BERTScore: Evaluating Text Generation with BERT'],
    ['https://openreview.net/pdf?id=SkeHuCVFDr', 'BERTScore: Evaluating Text Generation with BERT'],
  ])('%s', (input, title) => {
    expect(titles(input)).toEqual([title]);
  });

  it('says so when the identifier is not in the library', () => {
    const result = engine.search('https://arxiv.org/abs/2999.00001');
    expect(result.hits).toEqual([]);
    expect(notes(result).join(' ')).toMatch(/No paper with arXiv id 2999.00001/);
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
  ])('%s gets results or a note, never an exception', (_name, query) => {
    const result = engine.search(query, { limit: 10 });
    expect(result.hits.length).toBeLessThanOrEqual(10);
    for (const note of result.notes) expect(translate('en', note).length).toBeLessThan(500);
  });

  it('finds a title that looks like query syntax when pasted whole', () => {
    expect(first('@everyone <b>Markdown</b> **bold** `code` <@123> <!channel> &amp; [link](http://evil.example)')).toMatch(/^@everyone/);
  });
});

describe('suggest', () => {
  it('suggests titles that start with what was typed, then titles with the words', () => {
    expect(engine.suggest('attention is')[0]?.title).toBe('Attention Is All You Need');
    expect(engine.suggest('graph att').map((s) => s.title)).toEqual(['Graph Attention Networks', 'Graph Attention Networks for Robot Navigation']);
    expect(engine.suggest('diffusion').length).toBe(3);
  });

  it('never gives more than 25 or anything for nothing', () => {
    expect(engine.suggest('a', 100).length).toBeLessThanOrEqual(25);
    expect(engine.suggest('')).toEqual([]);
    expect(engine.suggest('!!!')).toEqual([]);
  });
});
