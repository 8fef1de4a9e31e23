/**
 * A large library for the scale benchmark, made from the real corpus by recombination with a
 * seeded RNG: titles are the start of one real title joined to the end of another (so titles
 * have siblings, as versions and workshop papers do), abstracts are real sentences of several
 * papers, authors are real first names with real surnames, and venue, year and status come
 * together from one real record. Word statistics stay those of real papers.
 *
 * Written as generic JSONL files into a directory the caller owns (a temporary one); nothing
 * generated is ever committed.
 */
import { createWriteStream, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Records per generated file. */
const RECORDS_PER_FILE = 100_000;

/** A small, fast, seeded PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Pools {
  titles: string[][];
  sentences: string[];
  firstNames: string[];
  lastNames: string[];
  keywords: string[];
  meta: Array<{ venue: string; year: number; status: string }>;
}

/** Reads the paperlists tree into pools of parts to recombine. */
export function readPools(corpus: string): Pools {
  const pools: Pools = { titles: [], sentences: [], firstNames: [], lastNames: [], keywords: [], meta: [] };
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) files.push(path);
    }
  };
  walk(corpus);
  for (const file of files) {
    const match = /([a-z]+)(\d{4})\.json$/i.exec(file);
    const venue = match?.[1]?.toUpperCase() ?? 'Venue';
    const year = Number(match?.[2] ?? 2020);
    let records: Array<Record<string, unknown>>;
    try {
      records = JSON.parse(readFileSync(file, 'utf8')) as Array<Record<string, unknown>>;
    } catch {
      continue;
    }
    for (const r of records) {
      const title = typeof r.title === 'string' ? r.title.trim().split(/\s+/) : [];
      if (title.length >= 3) pools.titles.push(title);
      if (typeof r.abstract === 'string') {
        for (const s of r.abstract.split(/(?<=\.)\s+/)) if (s.length > 30) pools.sentences.push(s);
      }
      if (typeof r.author === 'string') {
        for (const name of r.author.split(';')) {
          const parts = name.trim().split(/\s+/);
          if (parts.length < 2) continue;
          pools.firstNames.push(parts.slice(0, -1).join(' '));
          pools.lastNames.push(parts[parts.length - 1]!);
        }
      }
      if (typeof r.keywords === 'string') for (const k of r.keywords.split(';')) if (k.trim()) pools.keywords.push(k.trim());
      pools.meta.push({ venue, year, status: typeof r.status === 'string' ? r.status : '' });
    }
  }
  return pools;
}

/**
 * Writes `count` recombined papers as JSONL files `<name>-000.jsonl`, … under `dir`; returns the
 * files and a sample of generated titles (for the exact-title check). A record's key is its file
 * name and id ("scale-000:g408"), so libraries meant to be new papers need a name of their own:
 * the same name would make them new versions of papers already imported.
 * @example await generateLibrary(pools, 905_000, '/tmp/scale', 42)
 */
export async function generateLibrary(pools: Pools, count: number, dir: string, seed: number, name = 'scale'): Promise<{ files: string[]; sampleTitles: string[] }> {
  mkdirSync(dir, { recursive: true });
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const files: string[] = [];
  const sampleTitles: string[] = [];
  const sampleEvery = Math.max(1, Math.floor(count / 500));
  let n = 0;
  while (n < count) {
    const path = join(dir, `${name}-${String(files.length).padStart(3, '0')}.jsonl`);
    files.push(path);
    const out = createWriteStream(path);
    const end = Math.min(count, n + RECORDS_PER_FILE);
    let chunk = '';
    for (; n < end; n++) {
      const a = pick(pools.titles);
      const b = pick(pools.titles);
      const k = 1 + Math.floor(random() * (a.length - 1));
      const j = 1 + Math.floor(random() * (b.length - 1));
      const title = [...a.slice(0, k), ...b.slice(j)].join(' ');
      const sentences = 3 + Math.floor(random() * 6);
      const abstract: string[] = [];
      for (let s = 0; s < sentences; s++) abstract.push(pick(pools.sentences));
      const authorCount = 1 + Math.floor(random() * 7);
      const authors: string[] = [];
      for (let s = 0; s < authorCount; s++) authors.push(`${pick(pools.firstNames)} ${pick(pools.lastNames)}`);
      const keywordCount = random() < 0.5 ? 0 : 1 + Math.floor(random() * 4);
      const keywords: string[] = [];
      for (let s = 0; s < keywordCount; s++) keywords.push(pick(pools.keywords));
      const meta = pick(pools.meta);
      if (n % sampleEvery === 0) sampleTitles.push(title);
      chunk += `${JSON.stringify({ id: `g${n}`, title, authors, abstract: abstract.join(' '), venue: meta.venue, year: meta.year, status: meta.status, keywords })}\n`;
      if (chunk.length > 1 << 20) {
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
        chunk = '';
      }
    }
    out.write(chunk);
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
  return { files, sampleTitles };
}
