/**
 * The simulated OpenAlex works file (bench/works.ts): OpenAlex's Work shape, counts by age as
 * the issue sets them (median 6 new, 35 at 15 years, σ 1.7, about 1% past 1,000), seminal papers
 * at 5,000–150,000, references to older papers of the library, the same file from the same seed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CITATION_MODEL, drawWorks, medianCitations, readSeminalTitles, type WorkPaper } from '../../bench/works.js';
import { normalizeTitle } from '../../src/text.js';

const dir = mkdtempSync(join(tmpdir(), 'paperscout-works-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOPICS = ['graphs', 'vision'];
/** `n` papers of 2010–2025 on two topics, titles sharing words. */
function papers(n: number): WorkPaper[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    title: `${['Graph', 'Image', 'Sparse', 'Robust'][i % 4]} ${['Networks', 'Segmentation', 'Kernels'][i % 3]} Study ${i}`,
    authors: [`Author ${i % 50}`, `Author ${(i * 7) % 50}`],
    year: 2010 + (i % 16),
    status: 'Poster',
    abstract: i % 10 === 0 ? 'Unlike PSPNet, we count.' : '',
    topics: [TOPICS[i % 2]!],
    ...(i % 3 === 0 && { arxiv: `2101.${String(i).padStart(5, '0')}` }),
    ...(i % 3 === 1 && { doi: `10.5555/x.${i}` }),
  }));
}

describe('drawWorks', () => {
  it('writes OpenAlex Work objects', () => {
    const [work] = drawWorks([{ id: 'arxiv:1706.03762', title: 'Attention Is All You Need', authors: ['Ashish Vaswani', 'Noam Shazeer', 'Niki Parmar'], year: 2017, status: 'Oral', abstract: '', topics: [], arxiv: '1706.03762' }], { seed: 1, seminal: new Set([normalizeTitle('Attention Is All You Need')]), year: 2025 });
    expect(work).toEqual({
      id: 'https://openalex.org/W4000000000',
      doi: 'https://doi.org/10.48550/arXiv.1706.03762',
      title: 'Attention Is All You Need',
      display_name: 'Attention Is All You Need',
      publication_year: 2017,
      publication_date: expect.stringMatching(/^2017-\d\d-01$/),
      type: 'preprint',
      authorships: [
        { author_position: 'first', author: { id: expect.stringMatching(/^https:\/\/openalex\.org\/A\d+$/), display_name: 'Ashish Vaswani' }, raw_author_name: 'Ashish Vaswani' },
        { author_position: 'middle', author: { id: expect.stringMatching(/^https:\/\/openalex\.org\/A\d+$/), display_name: 'Noam Shazeer' }, raw_author_name: 'Noam Shazeer' },
        { author_position: 'last', author: { id: expect.stringMatching(/^https:\/\/openalex\.org\/A\d+$/), display_name: 'Niki Parmar' }, raw_author_name: 'Niki Parmar' },
      ],
      cited_by_count: expect.any(Number),
      referenced_works: [],
      referenced_works_count: 0,
      counts_by_year: expect.any(Array),
      ids: { openalex: 'https://openalex.org/W4000000000', doi: 'https://doi.org/10.48550/arXiv.1706.03762' },
      updated_date: '2025-12-01T00:00:00.000000',
    });
    expect(work!.cited_by_count).toBeGreaterThanOrEqual(CITATION_MODEL.seminalMin);
    expect(work!.cited_by_count).toBeLessThanOrEqual(CITATION_MODEL.seminalMax);
    const years = work!.counts_by_year.map((c) => c.year);
    expect(years).toEqual([...years].sort((a, b) => b - a));
    expect(years.every((y) => y >= 2017 && y <= 2025)).toBe(true);
    expect(work!.counts_by_year.reduce((n, c) => n + c.cited_by_count, 0)).toBeLessThanOrEqual(work!.cited_by_count);
  });

  it('draws counts log-normally by age: median 6 new, 35 at 15 years, about 1% past 1,000', () => {
    expect(medianCitations(0)).toBe(6);
    expect(medianCitations(15)).toBeCloseTo(35, 6);
    const of = (year: number) => drawWorks(Array.from({ length: 20_000 }, (_, i) => ({ id: `q${year}.${i}`, title: `T ${i}`, authors: ['A B'], year, status: '', abstract: '', topics: [] })), { seed: 3, seminal: new Set(), year: 2025 }).map((w) => w.cited_by_count).sort((a, b) => a - b);
    const fresh = of(2025);
    const old = of(2010);
    expect(fresh[fresh.length >> 1]).toBeGreaterThanOrEqual(5);
    expect(fresh[fresh.length >> 1]).toBeLessThanOrEqual(7);
    expect(old[old.length >> 1]).toBeGreaterThanOrEqual(32);
    expect(old[old.length >> 1]).toBeLessThanOrEqual(38);
    // σ 1.7: the 84th percentile is e^1.7 ≈ 5.5 times the median.
    const spread = fresh[Math.round(fresh.length * 0.8413)]! / fresh[fresh.length >> 1]!;
    expect(spread).toBeGreaterThan(4.5);
    expect(spread).toBeLessThan(6.5);
    const mid = of(2020);
    const over = mid.filter((c) => c > 1000).length / mid.length;
    expect(over).toBeGreaterThan(0.005);
    expect(over).toBeLessThan(0.02);
  });

  it('is the same from the same seed, another from another', () => {
    const a = drawWorks(papers(300), { seed: 1, seminal: new Set() });
    expect(drawWorks(papers(300), { seed: 1, seminal: new Set() })).toEqual(a);
    expect(drawWorks(papers(300), { seed: 2, seminal: new Set() }).map((w) => w.cited_by_count)).not.toEqual(a.map((w) => w.cited_by_count));
  });

  it('leaves anonymous records out, and draws references to older papers, seminal ones most', () => {
    const list = papers(2_000);
    list.push({ id: 'anon', title: 'Graph Networks Study anon', authors: ['Anonymous'], year: 2024, status: 'Under review', abstract: '', topics: ['graphs'] });
    list.push({ id: 'psp', title: 'PSPNet: Graph Networks Study', authors: ['Hengshuang Zhao'], year: 2010, status: 'Poster', abstract: '', topics: ['vision'] });
    const seminal = new Set([normalizeTitle(list[4]!.title)]);
    const works = drawWorks(list, { seed: 5, seminal });
    expect(works.some((w) => w.title.includes('anon'))).toBe(false);
    const byId = new Map(works.map((w) => [w.id, w]));
    const citedTimes = new Map<string, number>();
    for (const w of works) {
      for (const ref of w.referenced_works) {
        const cited = byId.get(ref)!;
        // Earlier years, or the same year for a paper the abstract names.
        expect(cited.publication_year!).toBeLessThanOrEqual(w.publication_year!);
        citedTimes.set(cited.title, (citedTimes.get(cited.title) ?? 0) + 1);
      }
    }
    const counts = [...citedTimes.values()].sort((a, b) => b - a);
    expect(citedTimes.get(list[4]!.title)).toBeGreaterThanOrEqual(counts[Math.floor(counts.length * 0.01)]!);
    // Papers whose abstract names PSPNet cite it.
    const naming = works.filter((w) => list.find((p) => p.title === w.title)?.abstract.includes('PSPNet'));
    const psp = works.find((w) => w.title.startsWith('PSPNet'))!;
    expect(naming.length).toBeGreaterThan(0);
    for (const w of naming) expect(w.referenced_works).toContain(psp.id);
  });
});

describe('readSeminalTitles', () => {
  it('reads an eval file’s targets, titles, or plain lines', () => {
    const path = join(dir, 'seminal.jsonl');
    writeFileSync(path, ['{"query": "q", "targets": ["A", "B"]}', '{"kind": "exact", "title": "C"}', 'D', '', '  '].join('\n'));
    expect(readSeminalTitles(path)).toEqual(['A', 'B', 'C', 'D']);
  });
});
