import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PaperRecordSchema } from '../../src/papers/model.js';
import { createClassifier } from '../../src/topics/classify.js';
import { loadTaxonomy } from '../../src/topics/taxonomy.js';

const DEMO = fileURLToPath(new URL('../../seeds/demo-papers.jsonl', import.meta.url));
const lines = readFileSync(DEMO, 'utf8').split('\n');

interface DemoPaper {
  title: string;
  authors: string[];
  abstract: string;
  venue: string;
  year: number;
  status?: string;
  keywords?: string[];
  arxiv?: string;
  url?: string;
  pdf?: string;
  code?: string;
  doi?: string;
}

const papers: DemoPaper[] = lines.filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as DemoPaper);

describe('seeds/demo-papers.jsonl', () => {
  it('is one JSON object per line with no blank lines but the final newline', () => {
    expect(lines.at(-1)).toBe('');
    lines.slice(0, -1).forEach((line, i) => {
      expect(line.trim(), `line ${i + 1}`).not.toBe('');
      const value: unknown = JSON.parse(line);
      expect(typeof value === 'object' && value !== null && !Array.isArray(value), `line ${i + 1}`).toBe(true);
    });
    expect(papers.length).toBeGreaterThanOrEqual(40);
    expect(papers.length).toBeLessThanOrEqual(120);
  });

  it('gives every paper a title, authors, a short abstract, venue and year', () => {
    for (const p of papers) {
      expect(p.title.trim(), p.title).not.toBe('');
      expect(p.authors.length, p.title).toBeGreaterThan(0);
      for (const a of p.authors) expect(a.trim(), p.title).not.toBe('');
      expect(p.venue.trim(), p.title).not.toBe('');
      expect(Number.isInteger(p.year) && p.year >= 1950 && p.year <= 2030, p.title).toBe(true);
      // Summaries written for this corpus: two to four sentences.
      const sentences = p.abstract.split(/(?<=[.!?])\s+(?=[A-Z])/).filter((s) => s.trim() !== '');
      expect(sentences.length, p.title).toBeGreaterThanOrEqual(2);
      expect(sentences.length, p.title).toBeLessThanOrEqual(4);
    }
  });

  it('has no duplicate titles or arXiv ids, and consistent arXiv links', () => {
    expect(new Set(papers.map((p) => p.title.toLowerCase())).size).toBe(papers.length);
    const ids = papers.flatMap((p) => (p.arxiv ? [p.arxiv] : []));
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of papers) {
      if (!p.arxiv) continue;
      expect(p.arxiv, p.title).toMatch(/^\d{4}\.\d{4,5}$/);
      expect(p.url).toBe(`https://arxiv.org/abs/${p.arxiv}`);
      expect(p.pdf).toBe(`https://arxiv.org/pdf/${p.arxiv}`);
    }
    for (const p of papers) if (p.code) expect(p.code, p.title).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
  });

  it('maps onto the paper model', () => {
    for (const p of papers) {
      const parsed = PaperRecordSchema.safeParse({
        title: p.title,
        authors: p.authors,
        abstract: p.abstract,
        venue: p.venue,
        year: p.year,
        status: p.status ?? '',
        keywords: p.keywords ?? [],
        links: { page: p.url, pdf: p.pdf, code: p.code },
        externalIds: { arxiv: p.arxiv, doi: p.doi },
      });
      expect(parsed.success, `${p.title}: ${parsed.success ? '' : parsed.error.message}`).toBe(true);
    }
  });

  it('gives every paper at least one topic, and spreads over the taxonomy', () => {
    const taxonomy = loadTaxonomy();
    const classify = createClassifier(taxonomy);
    const areas = new Set<string>();
    const topics = new Set<string>();
    for (const p of papers) {
      const ids = classify({ title: p.title, abstract: p.abstract, keywords: p.keywords ?? [], labels: [] });
      expect(ids.length, p.title).toBeGreaterThan(0);
      for (const id of ids) {
        topics.add(id);
        areas.add(taxonomy.byId(id)!.area);
      }
    }
    expect(areas.size).toBeGreaterThanOrEqual(10);
    expect(topics.size).toBeGreaterThanOrEqual(40);
  });

  it('puts well-known papers where a reader would look for them', () => {
    const classify = createClassifier(loadTaxonomy());
    const first = (title: string): string | undefined => {
      const p = papers.find((x) => x.title.startsWith(title));
      expect(p, title).toBeDefined();
      return classify({ title: p!.title, abstract: p!.abstract, keywords: p!.keywords ?? [], labels: [] })[0];
    };
    expect(first('Attention Is All You Need')).toBe('deep-learning/attention-mechanisms');
    expect(first('Chain-of-Thought Prompting')).toBe('deep-learning/large-language-models');
    expect(first('Denoising Diffusion Probabilistic Models')).toBe('deep-learning/generative-models');
    expect(first('Invariant Risk Minimization')).toBe('general-machine-learning/causality');
    expect(first('Concrete Problems in AI Safety')).toBe('social-aspects/safety');
    expect(first('ORB-SLAM')).toBe('robotics/perception-and-localization');
    expect(first('How Powerful are Graph Neural Networks?')).toBe('deep-learning/graph-neural-networks');
  });
});
