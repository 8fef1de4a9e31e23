/**
 * `npm run bench -- --scale 1000000`: the figures of issue 9 for the real corpus (95k) and for
 * libraries made from it by recombination (300k and the size given), each in a fresh temporary
 * DATA_DIR, with compiled JavaScript as `npm start` runs it. Search latency is measured twice:
 * in each library's own serving process, and with all of them open in one process taking turns
 * query by query (bench/scale/interleave.ts), which is what the growth ratio is computed from.
 * Prints a table; asserts nothing.
 *
 *   --scale N        the largest library (default 1,000,000); 300k is measured when N is larger
 *   --seed S         the recombination seed (default 42)
 *   --keep           keep the generated libraries (their paths are printed)
 *   --libraries DIR  build the libraries into DIR once, and reuse them in later runs: each run
 *                    serves a fresh copy of each (serving imports 1,000 new papers and adds
 *                    subscriptions), and prints the ingest figures of the build
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESCRIPTION_QUERIES, KEYWORD_QUERIES } from '../queries.js';
import { fmtMs, median } from '../stats.js';
import { generateLibrary, readPools } from './generate.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'dist/adapters/cli/cli.js');

interface SizeResult {
  label: string;
  papers: number;
  ingest: { wallS: number; cpuS: number; importS: number; indexS: number; peakRssMb: number };
  coldStartMs: number[];
  serve: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Search timed with every size open in one process, taking turns (see interleave.ts). */
  interleaved?: { p50: number; p99: number; max: number; byKind: Record<string, { p99: number }> };
}

export async function runScaleBench(options: { scale: number; seed: number; keep: boolean; libraries?: string; corpus: string; evalFile: string }): Promise<void> {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  out(`Paper Scout scale benchmark · ${new Date().toISOString()} · node ${process.version} · seed ${options.seed}`);
  out('Building (tsc): start-up is measured on compiled JavaScript…');
  execTsc();
  const work = mkdtempSync(join(tmpdir(), 'paperscout-scale-'));
  const pools = readPools(options.corpus);
  const realCount = pools.meta.length;
  const sizes = [0, ...(options.scale > 300_000 ? [300_000] : []), options.scale].filter((n, i, a) => a.indexOf(n) === i);
  const queries = [
    ...readFileSync(options.evalFile, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { kind: string; query: string }),
    ...KEYWORD_QUERIES.map((query) => ({ kind: 'keywords', query })),
    ...DESCRIPTION_QUERIES.map((query) => ({ kind: 'description', query })),
  ];
  const queriesFile = join(work, 'queries.json');
  writeFileSync(queriesFile, JSON.stringify(queries));
  const results: SizeResult[] = [];
  const dataDirs: string[] = [];
  try {
    for (const size of sizes) {
      const label = size === 0 ? `${Math.round(realCount / 1000)}k (real)` : `${size >= 1_000_000 ? `${size / 1_000_000}M` : `${Math.round(size / 1000)}k`}`;
      out(`\n── ${label} ──`);
      const dir = join(options.libraries ?? work, `lib-${size}`);
      const built = join(dir, 'ingest.json');
      const reused = options.libraries !== undefined && existsSync(built);
      const titlesFile = join(dir, 'titles.json');
      const newPapers = join(dir, 'new', 'new-000.jsonl');
      let dataDir = join(dir, 'data');
      let ingest: SizeResult['ingest'] & { papers: number };
      if (reused) {
        ingest = JSON.parse(readFileSync(built, 'utf8')) as typeof ingest;
        out(`  reusing the library in ${dir} (built earlier: ${ingest.papers.toLocaleString('en-US')} papers, ${ingest.wallS.toFixed(1)} s wall)`);
      } else {
        const generated = size === 0 ? { files: [], sampleTitles: [] as string[] } : await generateLibrary(pools, Math.max(0, size - realCount), join(dir, 'generated'), options.seed);
        // Named apart from the library's own files: these are new papers, not new versions of some.
        await generateLibrary(pools, 1000, join(dir, 'new'), options.seed + size + 1, 'new');
        const titles = generated.sampleTitles.length > 0 ? generated.sampleTitles : pools.titles.slice(0, 500).map((t) => t.join(' '));
        writeFileSync(titlesFile, JSON.stringify(titles));
        out(`ingesting ${options.corpus}${generated.files.length ? ` + ${generated.files.length} generated files` : ''}…`);
        // (What an interrupted build left goes: a library is reused only once built whole.)
        rmSync(dataDir, { recursive: true, force: true });
        ingest = await timedIngest(dataDir, [options.corpus, ...generated.files]);
        out(`  ${ingest.papers.toLocaleString('en-US')} papers: ${ingest.wallS.toFixed(1)} s wall, ${ingest.cpuS.toFixed(1)} s CPU, peak RSS ${Math.round(ingest.peakRssMb)} MB`);
        if (options.libraries !== undefined) {
          writeFileSync(built, JSON.stringify(ingest));
          rmSync(join(dir, 'generated'), { recursive: true, force: true });
        }
      }
      if (options.libraries !== undefined) {
        // Serving changes a library: this run serves a copy, and the next one the library as built.
        const copy = join(work, `lib-${size}`, 'data');
        cpSync(dataDir, copy, { recursive: true });
        dataDir = copy;
      }
      const coldStartMs: number[] = [];
      for (let i = 0; i < 5; i++) coldStartMs.push(await coldStart(dataDir));
      out(`  cold start → first answer: ${coldStartMs.map((c) => Math.round(c)).join(', ')} ms`);
      const serve = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench/scale/serve.ts'), dataDir, queriesFile, titlesFile, newPapers, cli], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 1 << 24,
        env: { ...process.env, LOG_LEVEL: 'warn' },
      });
      if (serve.status !== 0) throw new Error(`serving benchmark failed: ${serve.stderr}`);
      const measured = JSON.parse(serve.stdout.trim().split('\n').pop()!) as SizeResult['serve'];
      out(`  ${JSON.stringify(measured)}`);
      results.push({ label, papers: ingest.papers, ingest, coldStartMs, serve: measured });
      dataDirs.push(dataDir);
      // The library stays for the interleaved timing; its input files can go.
      if (options.libraries !== undefined) continue;
      if (!options.keep) for (const sub of ['generated', 'new']) rmSync(join(dir, sub), { recursive: true, force: true });
      else out(`  kept in ${dir}`);
    }
    if (results.length > 1) {
      out('\n── search, every size open in one process, taking turns ──');
      const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench/scale/interleave.ts'), queriesFile, ...dataDirs], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 1 << 24,
        env: { ...process.env, LOG_LEVEL: 'warn' },
      });
      if (run.status !== 0) throw new Error(`interleaved search benchmark failed: ${run.stderr}`);
      const timed = JSON.parse(run.stdout.trim().split('\n').pop()!) as Array<NonNullable<SizeResult['interleaved']>>;
      out(`  ${JSON.stringify(timed)}`);
      timed.forEach((t, i) => (results[i]!.interleaved = t));
    }
  } finally {
    if (!options.keep) rmSync(work, { recursive: true, force: true });
  }
  printTable(results, out);
}

function printTable(results: SizeResult[], out: (line?: string) => void): void {
  const mb = (n: number) => `${Math.round(n)} MB`;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const rows: Array<[string, (r: SizeResult) => string, string]> = [
    ['papers', (r) => r.papers.toLocaleString('en-US'), ''],
    ['ingest: import + index', (r) => `${r.ingest.wallS.toFixed(0)} s (${r.ingest.importS.toFixed(0)} + ${r.ingest.indexS.toFixed(0)}); CPU ${r.ingest.cpuS.toFixed(0)} s`, '≥ 5,000/s; 1M ≤ 12× 95k'],
    ['  papers/s (wall)', (r) => Math.round(r.papers / r.ingest.wallS).toLocaleString('en-US'), '≥ 5,000'],
    ['peak RSS while ingesting', (r) => mb(r.ingest.peakRssMb), '≤ 1.5 GB'],
    ['cold start → first answer', (r) => `${fmtMs(median(r.coldStartMs))} median`, '≤ 1.5 s'],
    ['open (store + index)', (r) => fmtMs(r.serve.openMs), ''],
    ['serving RSS load / peak', (r) => `${mb(r.serve.rssAfterLoad)} / ${mb(r.serve.peakRss)}`, '≤ 1 GB'],
    ['  of which not the mapped index', (r) => `${mb(r.serve.anonAfterQueries)} after the queries`, ''],
    // Taking turns with the other sizes; a run of one size has only its own process's figures.
    ['search p50 / p99 / max', (r) => { const t = r.interleaved ?? r.serve.search; return `${fmtMs(t.p50)} / ${fmtMs(t.p99)} / ${fmtMs(t.max)}`; }, 'p99 ≤ 25 ms, ≤ 2× 95k'],
    ['  worst kind p99', (r) => worstKind(r.interleaved?.byKind ?? (r.serve.byKind as Record<string, { p99: number }>)), '≤ 25 ms'],
    ['  each size alone: p50 / p99', (r) => `${fmtMs(r.serve.search.p50)} / ${fmtMs(r.serve.search.p99)}`, ''],
    ['  each size alone: CPU p99', (r) => fmtMs(r.serve.search.cpuP99), ''],
    ['  each size alone: worst kind', (r) => worstKind(r.serve.byKind as Record<string, { p99: number }>), ''],
    ['  descriptions p50 / p99', (r) => { const d = (r.interleaved?.byKind ?? r.serve.byKind)['description'] as { p50: number; p99: number } | undefined; return d ? `${fmtMs(d.p50)} / ${fmtMs(d.p99)}` : '—'; }, 'p99 ≤ 30 ms 95k, ≤ 60 ms 1M'],
    ['related, 3,000-char text p50 / p99', (r) => (r.serve.related ? `${fmtMs(r.serve.related.p50)} / ${fmtMs(r.serve.related.p99)}` : '—'), '≤ 200 ms'],
    ['autocomplete p50 / p99', (r) => `${fmtMs(r.serve.suggest.p50)} / ${fmtMs(r.serve.suggest.p99)}`, 'p99 ≤ 5 ms'],
    ['exact-title hit@1', (r) => r.serve.exactTitleHit1.toFixed(3), '≥ 0.97'],
    ['1,000 new: CLI ingest + search', (r) => `${s(r.serve.newPapers.ingestMs)} + ${s(r.serve.newPapers.cliSearchMs)}${r.serve.newPapers.cliFound ? '' : ' (not found!)'}`, '≤ 15 s'],
    ['1,000 new: running bot', (r) => `caught up in ${fmtMs(r.serve.newPapers.catchUpMs)}, longest block ${fmtMs(r.serve.newPapers.longestSliceMs)}, ${r.serve.newPapers.botFound} found`, 'next query; ≤ 50 ms'],
    ['burst of 100 Discord', (r) => `max ${fmtMs(r.serve.burst.maxMs)}, ${r.serve.burst.inTime}/100 in 3 s`, 'all in 3 s'],
    ['digest run-due, 1,000 subs', (r) => `${r.serve.digestSeconds.toFixed(1)} s`, '≤ 10 s'],
  ];
  out();
  // Each column as wide as its widest cell, so that long cells do not run into the next.
  const widths = results.map((r) => Math.max(r.label.length, ...rows.map(([, cell]) => cell(r).length)) + 2);
  out(['measure'.padEnd(32), ...results.map((r, i) => r.label.padEnd(widths[i]!)), 'bar'].join(''));
  for (const [name, cell, bar] of rows) out([name.padEnd(32), ...results.map((r, i) => cell(r).padEnd(widths[i]!)), bar].join(''));
  const first = results[0];
  const last = results[results.length - 1];
  if (first && last && first !== last) {
    out();
    out(`ingest growth: ${(last.ingest.wallS / first.ingest.wallS).toFixed(1)}× wall, ${(last.ingest.cpuS / first.ingest.cpuS).toFixed(1)}× CPU for ${(last.papers / first.papers).toFixed(1)}× the papers (bar ≤ 12×)`);
    const alone = `${(last.serve.search.p99 / first.serve.search.p99).toFixed(2)}× with each size alone`;
    if (first.interleaved && last.interleaved) out(`search p99 growth: ${(last.interleaved.p99 / first.interleaved.p99).toFixed(2)}× taking turns (bar ≤ 2×); ${alone}`);
    else out(`search p99 growth: ${alone} (bar ≤ 2×)`);
  }
}

/** The kind with the highest p99, and that p99. */
function worstKind(byKind: Record<string, { p99: number }>): string {
  const [kind, { p99 }] = Object.entries(byKind).sort((a, b) => b[1].p99 - a[1].p99)[0]!;
  return `${kind} ${fmtMs(p99)}`;
}

/** Runs the CLI import, sampling the child's peak RSS and CPU time from /proc while it runs. */
function timedIngest(dataDir: string, paths: string[]): Promise<SizeResult['ingest'] & { papers: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'ingest', ...paths], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    let peakKb = 0;
    let cpuTicks = 0;
    const sample = () => {
      try {
        peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        cpuTicks = Number(fields[11]) + Number(fields[12]);
      } catch {
        // the process has just exited
      }
    };
    const timer = setInterval(sample, 100);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`ingest failed (${code}): ${stderr}`));
      const detail = /Library: ([\d,]+) papers .*\(import ([\d.]+) s, search index ([\d.]+) s\)/.exec(stdout);
      resolve({
        papers: Number(detail?.[1]?.replace(/,/g, '') ?? 0),
        wallS: (performance.now() - started) / 1000,
        cpuS: cpuTicks / 100,
        importS: Number(detail?.[2] ?? 0),
        indexS: Number(detail?.[3] ?? 0),
        peakRssMb: peakKb / 1024,
      });
    });
  });
}

/** Process start → first answer of `search --stdin --json`. */
function coldStart(dataDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'search', '--stdin', '--json', '--limit', '5'], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } });
    child.stdout.once('data', () => {
      resolve(performance.now() - started);
      child.stdin.end();
    });
    child.on('error', reject);
    child.stdin.write('attention is all you need\n');
  });
}

function execTsc(): void {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('tsc failed');
}
