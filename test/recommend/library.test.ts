/**
 * Recommendations through the library (`library.recommend`, `library.similar`: "More like
 * this"), over a whole core opened on the recommendation fixture.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const PAPERS = fileURLToPath(new URL('../fixtures/recommend/papers.jsonl', import.meta.url));
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp({ paths: [PAPERS] });
});
afterAll(() => app.dispose());

async function idOf(title: string): Promise<string> {
  const hit = (await app.library.search(title, { limit: 1 })).hits[0];
  expect(hit?.title).toBe(title);
  return hit!.id;
}

describe('library.recommend', () => {
  it('leaves out the seeds it does not hold and lists them', async () => {
    const seed = await idOf('Learning Regrasp Policies from Fingertip Contact Maps');
    const result = await app.library.recommend([seed, 'arxiv:0000.00000', seed], { limit: 3 });
    expect(result.ok).toBe(true);
    expect(result.unknown).toEqual(['arxiv:0000.00000']);
    // Three papers, none of them the seed (a list of none would say nothing).
    const hits = result.ok ? result.hits.map((h) => h.id) : [];
    expect(hits).toHaveLength(3);
    expect(hits).not.toContain(seed);
  });

  it('is an error with its reason when it holds none of them, not an empty list', async () => {
    const result = await app.library.recommend(['arxiv:0000.00000', 'doi:10.1/none']);
    expect(result).toEqual({ ok: false, unknown: ['arxiv:0000.00000', 'doi:10.1/none'], notes: [{ key: 'recommend.noKnownSeeds', values: { ids: 'arxiv:0000.00000, doi:10.1/none' } }] });
  });
});

describe('library.similar ("More like this")', () => {
  it('ranks by the recommender: papers on the same subject, never the paper itself or a rejected one', async () => {
    const { paper } = (await app.library.findById(await idOf('Tactile In-Hand Manipulation with Contact Patch Estimation')))!;
    const similar = (await app.library.similar(paper, 4)).map((s) => s.paper.title);
    expect(similar[0]).toMatch(/Tactile|Contact|Regrasp|Slip/);
    expect(similar).not.toContain(paper.title);
    expect(similar).not.toContain('Fingertip Tactile Sensing Predicts Grasp Failure');
    expect(similar).not.toContain('Withdrawn: Tactile Regrasping at Scale');
  });
});
