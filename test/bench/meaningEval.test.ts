/**
 * The scorer of `npm run eval -- --meaning` (bench/meaningEval.ts) on the test corpus: ranks are
 * found by normalized title in the top 20 only, MRR and hit@10 are per kind and per half.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figures, formatMeaning, rankOf, readMeaningCases, scoreMeaning, type MeaningCase } from '../../bench/meaningEval.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('the meaning scorer', () => {
  it('finds a title by its normalized form, only in the top 20', () => {
    const titles = Array.from({ length: 25 }, (_, i) => `Paper ${i}`);
    expect(rankOf('paper  3', titles)).toBe(4);
    expect(rankOf('Paper 19', titles)).toBe(20);
    expect(rankOf('Paper 20', titles)).toBe(0);
    // The file holds titles as the corpus does, LaTeX included; the library decoded it.
    expect(rankOf('Na\\"ive Bayes', ['Naïve Bayes'])).toBe(1);
  });

  it('computes MRR@20 and hit@10 from ranks', () => {
    expect(figures([1, 2, 0, 11])).toEqual({ n: 4, mrr: (1 + 0.5 + 0 + 1 / 11) / 4, hit10: 0.5 });
    expect(figures([])).toEqual({ n: 0, mrr: 0, hit10: 0 });
  });

  it('rejects a line that is not { kind, query, title }', () => {
    const dir = mkdtempSync(join(tmpdir(), 'meaning-eval-'));
    try {
      writeFileSync(join(dir, 'bad.jsonl'), '{"kind":"meaning","query":"x"}\n');
      expect(() => readMeaningCases(join(dir, 'bad.jsonl'))).toThrow(/bad\.jsonl:1: expected/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('on a library', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await createTestApp();
    });
    afterAll(async () => {
      await app?.dispose();
    });

    it('scores each kind over the whole file and its two halves', async () => {
      const cases: MeaningCase[] = [
        { kind: 'meaning', query: 'Proximal Policy Optimization Algorithms', title: 'Proximal Policy Optimization Algorithms' },
        { kind: 'meaning_zh', query: '完全不相关的描述', title: 'Segment Anything' },
        { kind: 'meaning', query: 'a paper nobody wrote about quokkas', title: 'Mask R-CNN' },
        { kind: 'meaning', query: 'Segment Anything', title: 'Segment Anything' },
      ];
      const search = async (q: string) => (await app.library.search(q, { limit: 20 })).hits.map((h) => h.title);
      const [en, zh] = await scoreMeaning(cases, search);
      expect(en!.kind).toBe('meaning');
      expect(en!.ranks).toEqual([1, 0, 1]);
      expect(en!.all.mrr).toBeCloseTo(2 / 3, 9);
      expect(en!.halves.map((h) => h.n)).toEqual([2, 1]);
      expect(en!.halves[0].mrr).toBe(1);
      expect(en!.halves[1].mrr).toBe(0);
      expect(zh!.ranks).toEqual([0]);
      const report = formatMeaning([en!, zh!], cases, true);
      expect(report).toContain('meaning rank -: a paper nobody wrote about quokkas  →  Mask R-CNN');
      expect(report).toMatch(/^meaning {5}n=3 {3}MRR 0\.667 {2}hit@10 {2}67%/);
    });
  });
});
