/**
 * Simulated citation data for the benchmarks: an OpenAlex works file (the snapshot's format, one
 * Work object a line) for the papers of a library, drawn from a seed, so that ranking with
 * citation counts can be measured offline and held out (another seed, another seminal list).
 *
 *   npx tsx bench/works.ts --seminal <titles> [--seed 1] [--out works.jsonl.gz] [--year 2025]
 *
 * reads DATA_DIR's library. `--seminal` (repeatable) is a file of titles the field knows as
 * seminal: a JSONL file whose lines have `targets` (an eval file) or `title`, or plain lines of
 * titles; `--seminal-title` gives one on the command line.
 *
 * The model ({@link drawWorks}):
 * - counts are log-normal by age: median 6 for a paper of this year, 35 at 15 years
 *   ({@link medianCitations}), σ 1.7, so about 1% pass 1,000; a seminal paper has 5,000–150,000
 *   (log-uniform). Each paper draws from a generator seeded by the seed and its id, so one
 *   paper's draw does not depend on the others.
 * - about 3% of papers have no work (OpenAlex lacks them), and so do anonymous records; a few
 *   titles are written as OpenAlex sometimes writes them (another case, a final period).
 * - references: older papers of the library that share a distinctive title word or a topic with
 *   the paper, drawn by their count (seminal papers far more often), and the papers whose short
 *   name its abstract mentions ("… unlike PSPNet, …").
 * Nothing generated is committed: the file describes third-party papers.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { createGzip } from 'node:zlib';
import { once } from 'node:events';
import { rng } from './scale/generate.js';
import { normalizeTitle, STOPWORDS, tokenize } from '../src/text.js';
import type { PaperStore } from '../src/store/papers.js';

/** What the generator needs of a paper. */
export interface WorkPaper {
  /** The library's id (seeds the paper's draws). */
  id: string;
  title: string;
  authors: string[];
  year: number | null;
  status: string;
  abstract: string;
  topics: string[];
  doi?: string;
  arxiv?: string;
}

/** An OpenAlex Work, the fields the snapshot has that Paper Scout reads. */
export interface Work {
  id: string;
  doi: string | null;
  title: string;
  display_name: string;
  publication_year: number | null;
  publication_date: string | null;
  type: string;
  authorships: Array<{ author_position: 'first' | 'middle' | 'last'; author: { id: string; display_name: string }; raw_author_name: string }>;
  cited_by_count: number;
  referenced_works: string[];
  referenced_works_count: number;
  counts_by_year: Array<{ year: number; cited_by_count: number }>;
  ids: { openalex: string; doi?: string };
  updated_date: string;
}

export interface WorksOptions {
  seed: number;
  /** Normalized titles of the seminal papers. */
  seminal: ReadonlySet<string>;
  /** The year counts are as of (default: the newest paper's). */
  year?: number;
}

/** The citation model's constants (see the module's comment). */
export const CITATION_MODEL = {
  newMedian: 6,
  medianAt15: 35,
  sigma: 1.7,
  seminalMin: 5_000,
  seminalMax: 150_000,
  /** Share of papers OpenAlex lacks. */
  missing: 0.03,
  /** Share of titles written differently (case, a final period). */
  retitled: 0.02,
  /** In-library references a paper draws, on average (fewer for old papers). */
  references: 9,
  /** A reference's weight is (count + 1) to this power: seminal papers are drawn far more often. */
  referencePull: 0.7,
  /** Title words in more than this share of papers say nothing of a topic. */
  commonWordShare: 0.01,
} as const;

const K_AGE = Math.log(CITATION_MODEL.medianAt15 / CITATION_MODEL.newMedian) / Math.log(16);

/**
 * The median count of a paper `age` years old: 6 new, 35 at 15 years, growing as a power of
 * (1 + age).
 * @example medianCitations(0) // 6
 * @example Math.round(medianCitations(15)) // 35
 */
export function medianCitations(age: number): number {
  return CITATION_MODEL.newMedian * Math.pow(1 + Math.max(0, age), K_AGE);
}

/** A generator of uniform draws in [0, 1) seeded by the seed and a key. */
function drawsFor(seed: number, key: string): () => number {
  return rng(createHash('sha1').update(`${seed}:${key}`).digest().readUInt32LE(0));
}

/** A standard normal draw (Box–Muller). */
function gaussian(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** The works of `papers`, in their order; papers OpenAlex lacks have none. */
export function drawWorks(papers: readonly WorkPaper[], options: WorksOptions): Work[] {
  const m = CITATION_MODEL;
  const year = options.year ?? papers.reduce((max, p) => Math.max(max, p.year ?? 0), 0);
  const openalexId = (i: number) => `https://openalex.org/W${4_000_000_000 + i}`;
  const counts = papers.map((p) => {
    const random = drawsFor(options.seed, `count:${p.id}`);
    if (options.seminal.has(normalizeTitle(p.title))) {
      return Math.round(Math.exp(Math.log(m.seminalMin) + random() * Math.log(m.seminalMax / m.seminalMin)));
    }
    const age = p.year === null ? 5 : year - p.year;
    return Math.round(medianCitations(age) * Math.exp(m.sigma * gaussian(random)));
  });
  const present = papers.map((p, i) => {
    if (p.authors.length > 0 && p.authors.every((a) => a.trim().toLowerCase() === 'anonymous')) return false;
    return options.seminal.has(normalizeTitle(p.title)) || drawsFor(options.seed, `missing:${papers[i]!.id}`)() >= m.missing;
  });
  const references = drawReferences(papers, counts, present, options.seed);
  const works: Work[] = [];
  papers.forEach((p, i) => {
    if (!present[i]) return;
    const random = drawsFor(options.seed, `work:${p.id}`);
    const doi = p.doi ?? (p.arxiv ? `10.48550/arXiv.${p.arxiv}` : undefined);
    const title = random() < m.retitled ? retitle(p.title, random) : p.title;
    const id = openalexId(i);
    works.push({
      id,
      doi: doi ? `https://doi.org/${doi}` : null,
      title,
      display_name: title,
      publication_year: p.year,
      publication_date: p.year === null ? null : `${p.year}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-01`,
      type: p.doi === undefined && p.arxiv !== undefined ? 'preprint' : 'article',
      authorships: p.authors.map((name, k) => ({
        author_position: k === 0 ? 'first' : k === p.authors.length - 1 ? 'last' : 'middle',
        author: { id: `https://openalex.org/A${5_000_000_000 + (createHash('sha1').update(name).digest().readUInt32LE(0) % 1_000_000_000)}`, display_name: name },
        raw_author_name: name,
      })),
      cited_by_count: counts[i]!,
      referenced_works: references[i]!.map(openalexId),
      referenced_works_count: references[i]!.length,
      counts_by_year: countsByYear(counts[i]!, p.year, year),
      ids: { openalex: id, ...(doi && { doi: `https://doi.org/${doi}` }) },
      updated_date: `${year}-12-01T00:00:00.000000`,
    });
  });
  return works;
}

/** A title as OpenAlex sometimes has it: lowercased, or with a final period. */
function retitle(title: string, random: () => number): string {
  return random() < 0.5 ? title.toLowerCase() : `${title}.`;
}

/**
 * The last ten years' counts (OpenAlex's `counts_by_year`), newest first, growing after
 * publication; their sum never exceeds the total.
 */
function countsByYear(total: number, published: number | null, year: number): Array<{ year: number; cited_by_count: number }> {
  const from = Math.max(published ?? year, year - 9);
  const weights = Array.from({ length: year - from + 1 }, (_, k) => Math.min(4, 1 + (from + k - (published ?? from))));
  const span = published === null ? 1 : year - published + 1;
  const inWindow = Math.round((total * Math.min(1, weights.length / span)) | 0);
  const sum = weights.reduce((a, b) => a + b, 0);
  const out: Array<{ year: number; cited_by_count: number }> = [];
  let left = inWindow;
  for (let k = weights.length - 1; k >= 0; k--) {
    const n = k === 0 ? left : Math.min(left, Math.round((inWindow * weights[k]!) / sum));
    left -= n;
    if (n > 0) out.push({ year: from + k, cited_by_count: n });
  }
  return out;
}

/**
 * Each paper's in-library references (indexes into `papers`): older papers sharing a
 * distinctive title word or a topic, drawn in proportion to (count + 1)^pull, and those whose
 * short name (the title before its colon, one word) its abstract mentions.
 */
function drawReferences(papers: readonly WorkPaper[], counts: readonly number[], present: readonly boolean[], seed: number): number[][] {
  const m = CITATION_MODEL;
  const keysOf = papers.map((p) => [...new Set(tokenize(p.title).filter((w) => w.length > 2 && !STOPWORDS.has(w) && !/^\d+$/.test(w)))]);
  const df = new Map<string, number>();
  for (const keys of keysOf) for (const k of keys) df.set(k, (df.get(k) ?? 0) + 1);
  const common = papers.length * m.commonWordShare;
  // Per key, the papers holding it oldest first, with running sums of their weights.
  const lists = new Map<string, { docs: number[]; years: number[]; sums: number[] }>();
  const order = papers.map((_, i) => i).filter((i) => present[i] && papers[i]!.year !== null).sort((a, b) => papers[a]!.year! - papers[b]!.year! || a - b);
  const keys = papers.map((p, i) => [...keysOf[i]!.filter((k) => (df.get(k) ?? 0) <= common && (df.get(k) ?? 0) > 1), ...p.topics.map((t) => `topic:${t}`)]);
  for (const i of order) {
    const w = Math.pow(counts[i]! + 1, m.referencePull);
    for (const k of keys[i]!) {
      let list = lists.get(k);
      if (!list) lists.set(k, (list = { docs: [], years: [], sums: [] }));
      list.docs.push(i);
      list.years.push(papers[i]!.year!);
      list.sums.push((list.sums[list.sums.length - 1] ?? 0) + w);
    }
  }
  const byName = new Map<string, number>();
  papers.forEach((p, i) => {
    const name = /^([^:\s]{3,30}):\s/.exec(p.title)?.[1];
    if (name && present[i] && /[A-Z].*[A-Z]|\d/.test(name)) byName.set(name.toLowerCase(), i);
  });
  return papers.map((p, i) => {
    if (!present[i] || p.year === null) return [];
    const random = drawsFor(seed, `refs:${p.id}`);
    const out = new Set<number>();
    for (const word of new Set(tokenize(p.abstract))) {
      const cited = byName.get(word);
      if (cited !== undefined && cited !== i && (papers[cited]!.year ?? Infinity) <= p.year) out.add(cited);
    }
    const wanted = Math.round(m.references * (0.5 + random()) * (p.year >= 2015 ? 1 : 0.5));
    const mine = keys[i]!;
    for (let attempt = 0; attempt < wanted * 3 && out.size < wanted && mine.length > 0; attempt++) {
      const list = lists.get(mine[Math.floor(random() * mine.length)]!)!;
      // Papers of earlier years only.
      let hi = lowerBound(list.years, p.year);
      if (hi === 0) continue;
      const target = random() * list.sums[hi - 1]!;
      let lo = 0;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (list.sums[mid]! <= target) lo = mid + 1;
        else hi = mid;
      }
      const cited = list.docs[lo]!;
      if (cited !== i) out.add(cited);
    }
    return [...out].sort((a, b) => a - b);
  });
}

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Seminal titles from a file: an eval file's `targets` (or `title`) per JSON line, or one title
 * a line.
 */
export function readSeminalTitles(file: string): string[] {
  const out: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const text = line.trim();
    if (text === '') continue;
    if (text.startsWith('{')) {
      const value = JSON.parse(text) as { targets?: unknown; title?: unknown };
      if (Array.isArray(value.targets)) out.push(...value.targets.filter((t): t is string => typeof t === 'string'));
      else if (typeof value.title === 'string') out.push(value.title);
    } else out.push(text);
  }
  return out;
}

/** Writes works one JSON object a line, gzipped when the path ends in `.gz`. */
export async function writeWorks(path: string, works: Iterable<Work>): Promise<void> {
  const file = createWriteStream(path);
  const gzip = path.endsWith('.gz') ? createGzip() : undefined;
  if (gzip) gzip.pipe(file);
  const sink = gzip ?? file;
  for (const work of works) if (!sink.write(`${JSON.stringify(work)}\n`)) await once(sink, 'drain');
  sink.end();
  await once(file, 'finish');
}

/**
 * Writes a works file for the library of `store` to `out`: its papers as {@link drawWorks} draws
 * them. Returns the line the command prints.
 * @example await writeLibraryWorks(app.store, { seed: 1, seminal, out: '/tmp/works.jsonl.gz' })
 */
export async function writeLibraryWorks(store: PaperStore, options: WorksOptions & { out: string }): Promise<string> {
  const papers: WorkPaper[] = [];
  const rows = [];
  for await (const row of store.rowsForIndex()) rows.push(row);
  for (let at = 0; at < rows.length; at += 2000) {
    const slice = rows.slice(at, at + 2000);
    const full = await store.papersByDocs(slice.map((r) => r.doc));
    for (const row of slice) {
      const ids = full.get(row.doc)?.externalIds ?? {};
      papers.push({ id: row.id, title: row.title, authors: row.authors, year: row.year, status: row.status, abstract: row.abstract, topics: row.topics, ...(ids.doi && { doi: ids.doi }), ...(ids.arxiv && { arxiv: ids.arxiv }) });
    }
  }
  const works = drawWorks(papers, options);
  await writeWorks(options.out, works);
  const found = papers.filter((p) => options.seminal.has(normalizeTitle(p.title))).length;
  const over = works.filter((w) => w.cited_by_count > 1000).length;
  return `${works.length.toLocaleString('en-US')} works for ${papers.length.toLocaleString('en-US')} papers → ${options.out}; seminal: ${found} of ${options.seminal.size} titles found; ${((100 * over) / works.length).toFixed(2)}% cited more than 1,000 times`;
}

if (process.argv[1]?.endsWith('works.ts')) await main();

async function main(): Promise<void> {
  const { parseArgs } = await import('node:util');
  const { openApp } = await import('../src/app.js');
  const { loadConfig } = await import('../src/config.js');
  const { createLogger } = await import('../src/logger.js');
  const { decodeLatex } = await import('../src/papers/latex.js');
  const { values } = parseArgs({
    options: {
      seminal: { type: 'string', multiple: true, default: [] },
      'seminal-title': { type: 'string', multiple: true, default: [] },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: 'works.jsonl.gz' },
      year: { type: 'string' },
    },
  });
  const titles = [...values.seminal.flatMap(readSeminalTitles), ...values['seminal-title']];
  const seminal = new Set(titles.map((t) => normalizeTitle(decodeLatex(t))));
  const app = await openApp(loadConfig(), createLogger({ logLevel: 'warn', logFormat: 'auto' }), { demoWhenEmpty: false });
  try {
    const line = await writeLibraryWorks(app.store, { seed: Number(values.seed), seminal, out: values.out, ...(values.year !== undefined && { year: Number(values.year) }) });
    process.stdout.write(`${line}\n`);
  } finally {
    await app.close();
  }
}
