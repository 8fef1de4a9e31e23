/**
 * BENCH-ONLY counts (bench/worksCounts.ts): a works file read back gives each paper its count,
 * matched by arXiv id or DOI, then by title and year, and a store whose index rows carry them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { drawWorks, writeWorks, type WorkPaper } from '../../bench/works.js';
import { countOf, readWorkCounts, withCounts } from '../../bench/worksCounts.js';
import { storeOf } from '../helpers/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'paperscout-works-counts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `n` papers, a third with an arXiv id, a third with a DOI, a third with neither. */
function papers(n: number): WorkPaper[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    title: `Paper Number ${i}`,
    authors: ['Ann Lee'],
    year: 2010 + (i % 16),
    status: 'Poster',
    abstract: '',
    topics: [],
    ...(i % 3 === 0 && { arxiv: `2101.${String(i).padStart(5, '0')}` }),
    ...(i % 3 === 1 && { doi: `10.5555/x.${i}` }),
  }));
}

describe('bench-only counts', () => {
  it('matches a paper by arXiv id or DOI, then by title and year', async () => {
    const list = papers(60);
    const path = join(dir, 'works.jsonl.gz');
    const works = drawWorks(list, { seed: 1, seminal: new Set() });
    await writeWorks(path, works);
    expect(gunzipSync(readFileSync(path)).toString('utf8').trim().split('\n').length).toBe(works.length);
    const counts = await readWorkCounts(path);
    const row = (p: WorkPaper) => ({ doc: 1, id: p.arxiv ? `arxiv:${p.arxiv}` : p.doi ? `doi:${p.doi}` : `x:${p.id}`, title: p.title, authors: p.authors, abstract: '', keywords: [], venue: '', year: p.year, status: '', topics: [], firstSeen: '', citedBy: null });
    for (const p of list) {
      const work = works.find((w) => w.title.replace(/\.$/, '').toLowerCase() === p.title.toLowerCase());
      expect(countOf(row(p), counts)).toBe(work ? work.cited_by_count : null);
    }
  });

  it('gives the index rows of a store the counts, or none', async () => {
    const store = await storeOf();
    const path = join(dir, 'store.jsonl');
    const rows = [];
    for await (const row of store.rowsForIndex()) rows.push(row);
    await writeWorks(path, drawWorks(rows.map((r) => ({ id: r.id, title: r.title, authors: r.authors, year: r.year, status: r.status, abstract: r.abstract, topics: r.topics })), { seed: 1, seminal: new Set() }));
    const counts = await readWorkCounts(path);
    const filled = [];
    for await (const row of withCounts(store, counts).rowsForIndex()) filled.push(row);
    expect(filled.filter((r) => typeof r.citedBy === 'number').length).toBeGreaterThan(rows.length * 0.8);
    expect(filled.map((r) => r.citedBy)).toEqual(rows.map((r) => countOf(r, counts)));
    for await (const row of withCounts(store, undefined).rowsForIndex()) expect(row.citedBy).toBeNull();
    expect(await withCounts(store, counts).count()).toBe(await store.count());
    await store.close();
  });
});
