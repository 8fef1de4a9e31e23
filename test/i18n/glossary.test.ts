/**
 * The glossary of Chinese terms: valid, and every term finds papers, in the demo corpus (which
 * ships, so CI checks most terms) or, for the rest, in the shared paperlists corpus when it is
 * beside the checkout (`../shared/corpus/paperlists`, or BENCH_CORPUS), as `npm run bench` finds it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDictionary, loadGlossary, readQuery } from '../../src/i18n/index.js';
import type { Library } from '../../src/library.js';
import { seedPath } from '../../src/paths.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { skipping } from '../helpers/skip.js';

const glossary = loadGlossary();
const english = [...new Set(Object.values(glossary.terms))].sort();
const CORPUS = process.env.BENCH_CORPUS ?? fileURLToPath(new URL('../../../shared/corpus/paperlists', import.meta.url));
const noCorpus = skipping('The glossary check against the shared corpus', existsSync(CORPUS) ? undefined : `${CORPUS} is not here (BENCH_CORPUS names another): the readings the demo corpus lacks (listed above) go unchecked`);
/** The share of the glossary the demo corpus alone must cover (CI has no other corpus). */
const DEMO_COVERAGE = 0.75;

/** Whether a search for these English words finds a paper with every one of them. */
async function finds(library: Library, words: string): Promise<boolean> {
  const result = await library.search(`${words} `, { limit: 1 });
  return result.hits.length > 0 && !result.partial;
}

let demo: TestApp;
let missing: string[] = [];
beforeAll(async () => {
  demo = await createTestApp({ paths: [seedPath('demo-papers.jsonl')] });
  missing = [];
  for (const words of english) if (!(await finds(demo.library, words))) missing.push(words);
});
afterAll(() => demo?.dispose());

describe('seeds/glossary.zh-CN.json', () => {
  it('reads every term as itself, and ignores what it says to ignore', async () => {
    const dictionary = createDictionary(glossary.terms, [], glossary.ignore);
    for (const [zh, en] of Object.entries(glossary.terms)) expect(readQuery(zh, dictionary).query, zh).toBe(en);
    expect(readQuery('基于扩散模型的方法', dictionary).query).toBe('diffusion model');
  });

  it('has a few hundred terms, including the common ones', async () => {
    expect(Object.keys(glossary.terms).length).toBeGreaterThanOrEqual(300);
    expect(glossary.terms).toMatchObject({ 扩散模型: 'diffusion model', 对比学习: 'contrastive learning', 知识蒸馏: 'knowledge distillation', 联邦学习: 'federated learning', 强化学习: 'reinforcement learning' });
  });

  it(`finds papers for at least ${DEMO_COVERAGE * 100}% of its terms in the demo corpus`, async () => {
    const covered = english.length - missing.length;
    console.info(`glossary: ${covered} of ${english.length} English readings find papers in the demo corpus; not: ${missing.join(', ')}`);
    expect(covered / english.length).toBeGreaterThanOrEqual(DEMO_COVERAGE);
  });

  it.skipIf(noCorpus)('finds papers for every other term in the shared corpus', { timeout: 600_000 }, async () => {
    const real = await createTestApp({ paths: [CORPUS] });
    try {
      // A corpus, not an empty folder: else every reading would be "checked" against nothing.
      expect(real.library.size, CORPUS).toBeGreaterThan(1000);
      const notFound: string[] = [];
      for (const words of missing) if (!(await finds(real.library, words))) notFound.push(words);
      console.info(`glossary: checked the ${missing.length} readings the demo corpus lacks against ${real.library.size} papers in ${CORPUS}`);
      expect(notFound).toEqual([]);
    } finally {
      await real.dispose();
    }
  });
});
