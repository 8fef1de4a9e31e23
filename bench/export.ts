/**
 * The library export (issue 30: "an export of 1,000 papers ≤ 1 s"): BibTeX, RIS and CSL-JSON
 * of 1,000 papers, median of several runs each. With no papers given it makes 1,000 of its own,
 * deterministic and as heavy as real ones: 1–12 authors (diacritics, Han script, particles),
 * titles with acronyms and math, abstracts of about 1,200 characters with LaTeX specials.
 *
 *   npx tsx bench/export.ts [--runs N]
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { EXPORT_FORMATS, exportPapers } from '../src/papers/export/index.js';
import type { Paper } from '../src/papers/model.js';
import { fmtMs, median } from './stats.js';

const GIVEN = ['Ashish', 'Zoë', 'Łukasz', 'Jiří', 'Søren', 'Kaiming', 'Xiangyu', 'Aidan N.', 'Sébastien', 'Csaba', 'Ana', 'Guido van'];
const FAMILY = ['Vaswani', 'Müller', 'Kaiser', 'Matas', 'Hauberg', 'He', 'Zhang', 'Gomez', 'Bubeck', 'Szepesvári', 'Ruiz', 'Rossum'];
const WORDS = ['Attention', 'Sparse', 'BERT', 'Diffusion', 'ImageNet', 'Regret', 'O(√T)', 'ℓ₁-Regularized', 'Graph', 'Learning', 'of', 'the', 'GPT-4', 'Models'];
const VENUES: Array<[string, string]> = [['NeurIPS', 'Poster'], ['ICLR', 'Oral'], ['ICML', 'Spotlight'], ['arXiv', ''], ['TMLR', 'Accepted'], ['ICLR', 'Withdrawn'], ['Nature', '']];
const SENTENCE = 'We study $O(\\sqrt{T})$ regret for 100% of cases & show that naïve_baselines {fail} — see Schrödinger et al. ';

/** 1,000 (or `count`) deterministic papers shaped like the store's. */
export function syntheticPapers(count = 1000): Paper[] {
  let seed = 42;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const [venue, status] = pick(VENUES);
    const authors = Array.from({ length: 1 + Math.floor(next() * 12) }, () => (next() < 0.05 ? '王小明' : `${pick(GIVEN)} ${pick(FAMILY)}`));
    return {
      id: `bench:${i}`,
      title: Array.from({ length: 4 + Math.floor(next() * 8) }, () => pick(WORDS)).join(' '),
      authors,
      abstract: SENTENCE.repeat(12),
      venue,
      year: 2015 + Math.floor(next() * 10),
      status,
      keywords: ['attention', 'graphs'],
      labels: venue === 'arXiv' ? ['cs.LG'] : [],
      links: { page: `https://example.org/paper/${i}` },
      externalIds: next() < 0.5 ? { arxiv: `2401.${String(10000 + i)}` } : { doi: `10.1000/bench.${i}` },
      ...(venue === 'arXiv' && { published: '2024-01-08' }),
      topics: [],
      firstSeen: '2026-01-01T00:00:00.000Z',
    };
  });
}

/**
 * One line per format: the median wall time to export the papers, the median CPU time (what a
 * busy machine's wall time overstates), and the size of the file.
 */
export function benchExport(papers: readonly Paper[] = syntheticPapers(), runs = 7): string[] {
  return EXPORT_FORMATS.map((format) => {
    const wall: number[] = [];
    const cpu: number[] = [];
    let bytes = 0;
    for (let run = 0; run < runs; run++) {
      const start = performance.now();
      const used = process.cpuUsage();
      bytes = Buffer.byteLength(exportPapers(papers, format).content);
      const { user, system } = process.cpuUsage(used);
      wall.push(performance.now() - start);
      cpu.push((user + system) / 1000);
    }
    return (
      `export ${format.padEnd(8)} ${papers.length.toLocaleString('en-US')} papers: median ${fmtMs(median(wall))} ` +
      `(CPU ${fmtMs(median(cpu))}, max ${fmtMs(Math.max(...wall))}, ${runs} runs), ${Math.round(bytes / 1024).toLocaleString('en-US')} KB`
    );
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
  for (const line of benchExport(syntheticPapers(), Math.max(1, Number(values.runs) || 7))) console.log(line);
}
