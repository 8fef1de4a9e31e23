/**
 * Recommendations over a real store and index of papers written for these tests
 * (test/fixtures/recommend): a lab's papers over four years, a group of papers sharing an
 * author keyword, look-alikes by other people, a rejected and a withdrawn submission, and a
 * second record of a seed.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { msg } from '../../src/i18n/index.js';
import type { TopicResolver } from '../../src/search/filter.js';
import type { IndexView } from '../../src/search/index/view.js';
import { recommendDocs, type RecommendOptions } from '../../src/recommend/recommend.js';
import { engineOf, storeOf } from '../helpers/corpus.js';

const PAPERS = fileURLToPath(new URL('../fixtures/recommend/papers.jsonl', import.meta.url));
const resolveTopic: TopicResolver = (name) => ({ error: msg('search.noTopic', { name }) });

let view: IndexView;

beforeAll(async () => {
  ({ view } = await engineOf(await storeOf([PAPERS])));
});

/** The live document of the paper with this title (the one of `year`, when two share it). */
function doc(title: string, year?: number): number {
  for (let g = 0; g < view.docCount; g++) if (view.dead[g] === 0 && view.title(g) === title && (year === undefined || view.year(g) === year)) return g;
  throw new Error(`no paper "${title}"`);
}

function titles(seeds: number[], options: RecommendOptions = {}): string[] {
  const result = recommendDocs(view, seeds, resolveTopic, options);
  if (!result.ok) throw new Error(JSON.stringify(result.notes));
  return result.hits.map((h) => view.title(h.doc));
}

const LAB = () => [
  doc('Tactile Servoing for In-Hand Rotation of Unknown Objects', 2021),
  doc('Learning Regrasp Policies from Fingertip Contact Maps'),
  doc('Slip Detection with Vibrotactile Arrays on a Dexterous Hand'),
];
const FEDERATED = () => [
  doc('Client Drift Correction in Federated Optimization'),
  doc('Secure Aggregation with Fewer Rounds'),
  doc('Personalized Models for Heterogeneous Clients'),
  doc('Communication-Efficient Updates by Sketching'),
];

describe('recommendDocs', () => {
  it("ranks a lab's own new papers first, even one on another subject, ahead of look-alikes by others", () => {
    const top = titles(LAB(), { where: 'year:2024', limit: 5 });
    expect(top.slice(0, 2).sort()).toEqual(['Contact-Rich Reorientation with Sparse Tactile Feedback', 'Language Instructions for Bimanual Assembly']);
    expect(top).toContain('Tactile In-Hand Manipulation with Contact Patch Estimation');
  });

  it('ranks the papers that share an author keyword first for a keyword profile by unrelated authors', () => {
    const top = titles(FEDERATED(), { where: 'year:2024', limit: 3 });
    expect(top.slice(0, 2).sort()).toEqual(['Backdoor Defenses for Cross-Silo Training', 'Fair Participation of Devices in Collaborative Training']);
  });

  it('never recommends a paper disliked or shown already, and moves papers like a disliked one down', () => {
    const where = 'year:2024';
    const before = titles(FEDERATED(), { where, limit: 10 });
    expect(before.length).toBeGreaterThan(3);
    const disliked = before[0]!;
    const after = titles(FEDERATED(), { where, limit: 10, unlike: [doc(disliked)] });
    expect(after).not.toContain(disliked);
    // The paper most like the disliked one (its own first recommendation among these) goes down
    // further than the one least like it.
    const like = titles([doc(disliked)], { where, limit: 10 }).filter((t) => before.includes(t));
    const [likest, least] = [like[0]!, like.at(-1)!];
    expect(likest).not.toBe(least);
    const scores = (options: RecommendOptions) => {
      const result = recommendDocs(view, FEDERATED(), resolveTopic, { where, limit: 10, ...options });
      return new Map(result.ok ? result.hits.map((h) => [view.title(h.doc), h.score]) : []);
    };
    const [was, is] = [scores({}), scores({ unlike: [doc(disliked)] })];
    expect(was.get(likest)! - is.get(likest)!).toBeGreaterThan(was.get(least)! - is.get(least)!);
    // Shown already: left out, the rest in the same order.
    const shown = before.slice(0, 2);
    const next = titles(FEDERATED(), { where, limit: 10, exclude: shown.map((t) => doc(t)) });
    expect(next.filter((t) => shown.includes(t))).toEqual([]);
    expect(next.slice(0, before.length - 2)).toEqual(before.slice(2));
  });

  it('never recommends a seed, nor another record with a seed’s title', () => {
    const seeds = LAB();
    const top = titles(seeds, { limit: 50 });
    expect(top).not.toContain('Tactile Servoing for In-Hand Rotation of Unknown Objects');
    for (const s of seeds) expect(top).not.toContain(view.title(s));
  });

  it('leaves rejected and withdrawn submissions out unless asked for them', () => {
    expect(titles(LAB(), { where: 'year:2024', limit: 50 })).not.toEqual(expect.arrayContaining(['Fingertip Tactile Sensing Predicts Grasp Failure']));
    expect(titles(LAB(), { where: 'year:2024', limit: 50 })).not.toContain('Withdrawn: Tactile Regrasping at Scale');
    const all = titles(LAB(), { where: 'year:2024', limit: 50, includeRejected: true });
    expect(all).toContain('Fingertip Tactile Sensing Predicts Grasp Failure');
    expect(all).toContain('Withdrawn: Tactile Regrasping at Scale');
  });

  it('keeps to the filters: year, venue, and newest first with sort:new', () => {
    for (const t of titles(LAB(), { where: 'venue:icra', limit: 50 })) expect(['Language Instructions for Bimanual Assembly', 'Tactile In-Hand Manipulation with Contact Patch Estimation']).toContain(t);
    const newest = recommendDocs(view, LAB(), resolveTopic, { where: 'sort:new', limit: 50 });
    if (!newest.ok) throw new Error('refused');
    const years = newest.hits.map((h) => view.year(h.doc));
    expect(years).toEqual([...years].sort((a, b) => b - a));
  });

  it('gives the same list for the same profile, whatever the order of the seeds', () => {
    const once = recommendDocs(view, LAB(), resolveTopic, { limit: 50 });
    const again = recommendDocs(view, [...LAB()].reverse(), resolveTopic, { limit: 50 });
    expect(again).toEqual(once);
  });

  it('says why: the seed a paper is most like, the words and the authors they share', () => {
    const result = recommendDocs(view, LAB(), resolveTopic, { where: 'year:2024', limit: 5 });
    if (!result.ok) throw new Error('refused');
    const hit = result.hits.find((h) => view.title(h.doc) === 'Contact-Rich Reorientation with Sparse Tactile Feedback')!;
    expect(hit.why.authors).toEqual(expect.arrayContaining(['mira okafor', 'ines duarte', 'tomas lindqvist']));
    expect(LAB()).toContain(hit.why.seeds[0]);
    expect(hit.why.words.length).toBeGreaterThan(0);
    expect(hit.why.words).toEqual(expect.arrayContaining([expect.stringMatching(/^(tactile|contact|patches|fingertip|objects|dexterous)$/)]));
  });

  it('refuses words in the filters and filters that cannot match, saying why', () => {
    const words = recommendDocs(view, LAB(), resolveTopic, { where: 'tactile year:2024' });
    expect(words.ok).toBe(false);
    expect(words.notes[0]?.key).toBe('recommend.whereWords');
    const venue = recommendDocs(view, LAB(), resolveTopic, { where: 'venue:nowhere' });
    expect(venue.ok).toBe(false);
    expect(venue.notes[0]?.key).toBe('search.noVenue');
  });

  it('does not let an author of a single seed pull in their other papers', () => {
    // Lena Vogt wrote one seed; her 2023 radiance-field paper shares no words that matter.
    const seeds = [doc('Tactile In-Hand Manipulation with Contact Patch Estimation')];
    const top = titles(seeds, { limit: 3 });
    expect(top[0]).not.toBe('Neural Radiance Fields for Robot Grasp Planning');
  });
});
