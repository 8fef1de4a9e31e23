/**
 * CC-CEDICT behind the glossary (src/i18n/cedict.ts): the dictionary's lines as the `hanzi`
 * package ships them, the English chosen by the library's frequencies, the glossary first, and a
 * Chinese description that only the dictionary can read finding its paper through the library.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishOf, loadCedict, parseCedict, sensesOf, withCedict } from '../../src/i18n/cedict.js';
import { createDictionary, readQuery } from '../../src/i18n/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const SAMPLE = [
  'module.exports = `# CC-CEDICT',
  '#! version=1',
  '模型 模型 [mo2 xing2] /model/mold/matrix/pattern/',
  '孿生 孪生 [luan2 sheng1] /twin/',
  '張 张 [Zhang1] /surname Zhang/',
  '張 张 [zhang1] /to open up/to spread/sheet of paper/CL:個|个[ge4]/',
  '偽造 伪造 [wei3 zao4] /to forge/to fake/to counterfeit/',
  '甲 甲 [jia3] /see 乙[yi3]/',
  '`;',
].join('\n');

describe('parseCedict', () => {
  const cedict = parseCedict(SAMPLE);

  it('reads Simplified headwords with their glosses, merging readings of one word', () => {
    expect(cedict.glosses('模型')).toEqual(['model', 'mold', 'matrix', 'pattern']);
    // The surname and the classifier name no meaning; two pronunciations are one word.
    expect(cedict.glosses('张')).toEqual(['to open up', 'to spread', 'sheet of paper']);
    expect(cedict.glosses('孿生')).toBeUndefined();
  });

  it('skips words with no meaning, comments and the module wrapper', () => {
    expect(cedict.glosses('甲')).toBeUndefined();
    expect(cedict.size).toBe(4);
  });
});

describe('englishOf', () => {
  const frequency = (counts: Record<string, number>) => (word: string) => counts[word] ?? 0;

  it('chooses the gloss term the library uses most, weighed by its share of the glosses', () => {
    expect(englishOf(['model', 'mold', 'matrix', 'pattern'], frequency({ model: 900, mold: 2, matrix: 300, pattern: 400 }))).toBe('model');
    expect(englishOf(['to forge', 'to fake', 'to counterfeit'], frequency({ forge: 3, fake: 40 }))).toBe('fake');
  });

  it('reads nothing where the library uses none of the terms, and never a stop word', () => {
    expect(englishOf(['to forge'], frequency({ to: 10_000 }))).toBeUndefined();
    expect(englishOf([], frequency({}))).toBeUndefined();
  });

  it('breaks ties by the word, so a library always reads a word alike', () => {
    expect(englishOf(['beta', 'alpha'], () => 5)).toBe('alpha');
    expect(englishOf(['alpha', 'beta'], () => 5)).toBe('alpha');
  });
});

describe('sensesOf', () => {
  const frequency = (counts: Record<string, number>) => (word: string) => counts[word] ?? 0;

  it('keeps every sense the library uses, best first, weighed against the best', () => {
    const senses = sensesOf(['to forge', 'to fake', 'to counterfeit'], frequency({ fake: 36, counterfeit: 9, forge: 0 }));
    expect(senses).toEqual([
      { word: 'fake', weight: 1 },
      { word: 'counterfeit', weight: 0.5 },
    ]);
  });

  it('reads a word alike whatever the order of its glosses', () => {
    const counts = frequency({ model: 900, mold: 4, matrix: 300, pattern: 400 });
    expect(sensesOf(['model', 'mold', 'matrix', 'pattern'], counts)).toEqual(sensesOf(['pattern', 'matrix', 'mold', 'model'], counts));
  });
});

describe('withCedict', () => {
  const base = createDictionary({ 扩散模型: 'diffusion model' }, [], ['的']);
  const dictionary = withCedict(base, (w) => ({ twin: 50, network: 900, fake: 40, model: 900 })[w] ?? 0, () => parseCedict(SAMPLE));

  it('keeps the glossary first and its ignored words ignored, and reads other words by the dictionary', () => {
    expect(dictionary.get('扩散模型')).toEqual({ english: 'diffusion model' });
    expect(dictionary.get('的')).toEqual({ ignore: true });
    expect(dictionary.get('孪生')).toEqual({ english: 'twin' });
    expect(dictionary.get('模型')).toEqual({ english: 'model' });
    expect(dictionary.get('不存在')).toBeUndefined();
  });

  it("gives a one-word glossary reading the dictionary's other senses, and leaves longer readings as they are", () => {
    const glossary = createDictionary({ 模型: 'model', 扩散模型: 'diffusion model' }, [], []);
    const read = withCedict(glossary, (w) => ({ model: 900, pattern: 100, matrix: 400 })[w] ?? 0, () => parseCedict(SAMPLE));
    expect(read.get('模型')).toEqual({ english: 'model', senses: [{ word: 'matrix', weight: expect.closeTo(2 / 3, 6) as number }, { word: 'pattern', weight: expect.closeTo(1 / 3, 6) as number }] });
    expect(read.get('扩散模型')).toEqual({ english: 'diffusion model' });
  });

  it("carries a word's other senses with the query, for the engine to match as the word", () => {
    const reading = readQuery('伪造模型', withCedict(base, (w) => ({ fake: 36, forge: 9, model: 900, pattern: 100 })[w] ?? 0, () => parseCedict(SAMPLE)));
    expect(reading.query).toBe('fake model');
    expect(reading.senses.get('fake')).toEqual([{ word: 'forge', weight: 0.5 }]);
    expect(reading.senses.get('model')?.[0]).toEqual({ word: 'pattern', weight: expect.closeTo(1 / 3, 6) as number });
  });

  it('reads a description the glossary alone leaves unread', () => {
    expect(readQuery('孪生的伪造模型', base).read).toBe(false);
    expect(readQuery('孪生的伪造模型', dictionary).query).toBe('twin fake model');
  });

  it('loads the dictionary the hanzi package ships', () => {
    const shipped = loadCedict();
    expect(shipped.size).toBeGreaterThan(100_000);
    expect(shipped.glosses('模型')).toContain('model');
    expect(shipped.glosses('孪生')?.join(' ')).toMatch(/twin/);
  });
});

describe('a Chinese description through the library', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.dispose();
  });

  it('finds the paper by the words of its description, read through CC-CEDICT', async () => {
    const result = await app.library.search('把仿真中随机化训练的网络迁移到现实世界', { limit: 5 });
    expect(result.hits[0]?.title).toBe('Domain Randomization for Transferring Deep Neural Networks from Simulation to the Real World');
  });
});

describe("a Chinese word's other senses through the library", () => {
  let app: TestApp;
  let dir: string;
  const paper = (title: string, abstract: string) => JSON.stringify({ title, authors: ['Ada Test'], abstract, venue: 'ICML', year: 2024 });
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paperscout-senses-'));
    const file = join(dir, 'papers.jsonl');
    // "伪造" is "to forge / to fake / to counterfeit": this library says "fake" most, and the
    // paper about forged handwriting says "counterfeit".
    writeFileSync(
      file,
      [
        paper('Counterfeit Handwriting Detection from Pen Trajectories', 'We detect counterfeit handwriting from the pressure and speed of the pen.'),
        paper('Spotting Fake Handwriting in Scanned Forms', 'Fake handwriting in scanned forms is found by a convolutional network.'),
        paper('Fake News Detection with Graph Networks', 'We detect fake news by the way it spreads.'),
        paper('Fake Image Detection by Frequency Artifacts', 'Fake images leave artifacts in the frequency domain.'),
      ].join('\n'),
    );
    app = await createTestApp({ paths: [file] });
  });
  afterAll(async () => {
    await app?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds a paper that uses another sense of the word than the one the query is read as', async () => {
    const result = await app.library.search('伪造笔迹', { limit: 10 });
    const titles = result.hits.map((h) => h.title);
    expect(app.library.readQuery('伪造笔迹').query).toBe('fake handwriting');
    expect(titles).toContain('Spotting Fake Handwriting in Scanned Forms');
    expect(titles).toContain('Counterfeit Handwriting Detection from Pen Trajectories');
    expect(result.partial).toBe(false);
  });
});
