/**
 * Citations from OpenAlex at a library's scale, the two bars of issue 39:
 *
 * - `paperscout ingest <works file>` (the compiled CLI, as an operator runs it) into a copy of
 *   the library, each run on a fresh copy: wall time, and the import and index times it prints.
 *   Bar: ≤ 60 s for the 95k library.
 * - `sync openalex` of the whole library, in process, against the loopback OpenAlex of the tests
 *   (`test/sources/helpers/fakeOpenAlex.ts`) holding the works file's works, over real HTTP.
 *   Prints the requests per paper with a DOI (bar: ≤ 1 per 50) and without (bar: ≤ 1 each; an
 *   arXiv id is asked in the DOI batches, as arXiv's DOI, and by title when not found there). A
 *   batch's request is shared by its values; a title request counts against its paper's group. The client's 100 ms between requests is kept on a clock that moves when
 *   waited on (the real one would make this hours long); the time it would take at OpenAlex's
 *   pace is printed too.
 *
 * The works file is OpenAlex's snapshot format, one work a line (gzip or not); generate one for
 * the library with a works generator (issue 39's simulated counts), e.g. `bench/works.ts`.
 *
 *   npx tsx bench/openalex.ts --data-dir DIR --works FILE [--runs 3] [--skip-sync]
 */
import { cpSync, createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import type { Clock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { normalizeDoi } from '../src/papers/ids.js';
import { fetchHttp } from '../src/sources/http.js';
import { filterValues, syncOpenAlex, titleQuery } from '../src/sources/openalex/sync.js';
import { openStores } from '../src/store/open.js';
import { silentLog } from '../test/helpers/corpus.js';
import { FakeOpenAlex, type Work } from '../test/sources/helpers/fakeOpenAlex.js';
import { median } from './stats.js';

/** Issue 39's bars. */
const INGEST_BAR_SECONDS = 60;
const WITH_DOI_BAR = 1 / 50;
const WITHOUT_DOI_BAR = 1;

/** A copy of the library to write into; removed by the caller. */
function copyLibrary(dataDir: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'paperscout-bench-openalex-'));
  cpSync(dataDir, copy, { recursive: true });
  return copy;
}

/**
 * Times `paperscout ingest <works>` into fresh copies of `dataDir`.
 * @example await benchWorksIngest({ cli: 'dist/adapters/cli/cli.js', dataDir, works: 'works.jsonl.gz', runs: 3 })
 */
export async function benchWorksIngest(options: { cli: string; dataDir: string; works: string; runs: number }): Promise<string[]> {
  const wall: number[] = [];
  const imports: number[] = [];
  const indexes: number[] = [];
  let headline = '';
  for (let run = 0; run < options.runs; run++) {
    const copy = copyLibrary(options.dataDir);
    try {
      const started = performance.now();
      const child = spawnSync(process.execPath, [options.cli, 'ingest', options.works], { env: { ...process.env, DATA_DIR: copy, LOG_LEVEL: 'warn', LANG: 'en' }, encoding: 'utf8', maxBuffer: 1 << 26 });
      wall.push((performance.now() - started) / 1000);
      if (child.status !== 0) return [`works ingest: failed (exit ${child.status}): ${child.stderr.slice(0, 500)}`];
      const timed = /\(import ([\d.]+) s, search index ([\d.]+) s\)/.exec(child.stdout);
      if (timed) {
        imports.push(Number(timed[1]));
        indexes.push(Number(timed[2]));
      }
      headline = child.stdout.split('\n').find((line) => line.includes('OpenAlex works:')) ?? '';
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }
  const w = median(wall);
  return [
    `works ingest (${options.works}), median of ${options.runs}: ${w.toFixed(1)} s wall (import ${median(imports).toFixed(1)} s + index ${median(indexes).toFixed(1)} s; runs ${wall.map((s) => s.toFixed(1)).join(', ')})  goal ≤ ${INGEST_BAR_SECONDS} s: ${w <= INGEST_BAR_SECONDS ? 'met' : 'MISSED'}`,
    `  ${headline}`,
  ];
}

/** Reads a works file (gzip or not) into memory, the loopback OpenAlex's holdings. */
export async function readWorks(path: string): Promise<Work[]> {
  const stream = createReadStream(path);
  const lines = createInterface({ input: path.endsWith('.gz') ? stream.pipe(createGunzip()) : stream, crlfDelay: Infinity });
  const works: Work[] = [];
  for await (const line of lines) if (line.trim() !== '') works.push(JSON.parse(line) as Work);
  return works;
}

/** Real time plus every wait, which returns at once: the run is as fast as the machine, the pace as OpenAlex's. */
function hurriedClock(): Clock & { waitedMs: number } {
  const clock = {
    waitedMs: 0,
    now: () => new Date(Date.now() + clock.waitedMs),
    sleep: async (ms: number) => {
      clock.waitedMs += Math.max(0, ms);
    },
  };
  return clock;
}

/**
 * A full `sync openalex` of a copy of `dataDir` against the loopback OpenAlex holding `works`.
 * @example await benchOpenAlexSync({ dataDir, works: await readWorks('works.jsonl.gz') })
 */
export async function benchOpenAlexSync(options: { dataDir: string; works: readonly Work[] }): Promise<string[]> {
  const server = await new FakeOpenAlex(options.works).start();
  const copy = copyLibrary(options.dataDir);
  try {
    const config = loadConfig({ DATA_DIR: copy, OPENALEX_API_URL: server.base, LOOKUP_UPSTREAM: 'off' });
    const stores = await openStores(config, { log: silentLog, bulk: true });
    try {
      // Which papers have a DOI, and whose are the values and title queries asked. A paper with an
      // arXiv id only lacks a DOI: its id goes in the batches (as arXiv's DOI), its share of them
      // counts against the papers without.
      let withDoi = 0;
      let withoutDoi = 0;
      const valueHasDoi = new Map<string, boolean>();
      const titleHasDoi = new Map<string, boolean>();
      const docs: number[] = [];
      for await (const row of stores.papers.rowsForIndex()) docs.push(row.doc);
      for (let at = 0; at < docs.length; at += 2000) {
        for (const paper of (await stores.papers.papersByDocs(docs.slice(at, at + 2000))).values()) {
          const doi = paper.externalIds.doi !== undefined && normalizeDoi(paper.externalIds.doi) !== undefined;
          if (doi) withDoi++;
          else withoutDoi++;
          for (const value of filterValues(paper)) valueHasDoi.set(value, doi);
          const query = titleQuery(paper);
          if (query) titleHasDoi.set(query.filter, (titleHasDoi.get(query.filter) ?? false) || doi);
        }
      }
      const clock = hurriedClock();
      const started = performance.now();
      const summary = await syncOpenAlex({ papers: stores.papers, citations: stores.citations, config: config.openalex, http: fetchHttp({ accept: 'application/json' }), clock, log: silentLog });
      const seconds = (performance.now() - started) / 1000;
      const requests = { doi: { ids: 0, title: 0 }, none: { ids: 0, title: 0 } };
      for (const filter of server.filters) {
        if (filter.startsWith('title.search:')) requests[titleHasDoi.get(filter) ? 'doi' : 'none'].title++;
        else if (filter.startsWith('doi:')) {
          // A batch's request, shared by its values.
          const values = filter.slice(4).split('|');
          for (const value of values) requests[valueHasDoi.get(value) ? 'doi' : 'none'].ids += 1 / values.length;
        }
      }
      const singles = server.requests.length - server.filters.length;
      const perWith = withDoi === 0 ? 0 : (requests.doi.ids + requests.doi.title + singles) / withDoi;
      const perWithout = withoutDoi === 0 ? 0 : (requests.none.ids + requests.none.title) / withoutDoi;
      const verdict = (value: number, bar: number) => (value <= bar ? 'met' : 'MISSED');
      return [
        `sync openalex, ${docs.length.toLocaleString('en-US')} papers against the loopback OpenAlex (${options.works.length.toLocaleString('en-US')} works): ${server.requests.length.toLocaleString('en-US')} requests in ${seconds.toFixed(0)} s here, ${((seconds * 1000 + clock.waitedMs) / 3_600_000).toFixed(1)} h at OpenAlex's 10 a second; ${summary.matched.toLocaleString('en-US')} matched, ${summary.unmatched.toLocaleString('en-US')} unmatched, ${summary.ambiguous} ambiguous${summary.error ? `; stopped: ${summary.error}` : ''}`,
        `  requests per paper with a DOI (${withDoi.toLocaleString('en-US')}): ${perWith.toFixed(4)} = 1 per ${perWith === 0 ? '∞' : (1 / perWith).toFixed(1)} (${requests.doi.ids.toFixed(1)} batches' share, ${singles} single, ${requests.doi.title} by title)  goal ≤ 1 per 50: ${verdict(perWith, WITH_DOI_BAR)}`,
        `  requests per paper without (${withoutDoi.toLocaleString('en-US')}, arXiv ids among them): ${perWithout.toFixed(3)} (${requests.none.ids.toFixed(1)} batches' share, ${requests.none.title.toLocaleString('en-US')} by title)  goal ≤ 1: ${verdict(perWithout, WITHOUT_DOI_BAR)}`,
      ];
    } finally {
      await stores.close();
    }
  } finally {
    await server.stop();
    rmSync(copy, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, works: { type: 'string' }, runs: { type: 'string', default: '3' }, cli: { type: 'string' }, 'skip-sync': { type: 'boolean', default: false } } });
  if (!values['data-dir'] || !values.works) {
    console.error('usage: npx tsx bench/openalex.ts --data-dir DIR --works FILE [--runs 3] [--skip-sync]  (DIR is only read: each run writes into a copy)');
    process.exit(2);
  }
  const cli = values.cli ?? join(import.meta.dirname, '../dist/adapters/cli/cli.js');
  const runs = Math.max(1, Number(values.runs) || 3);
  console.log((await benchWorksIngest({ cli, dataDir: values['data-dir'], works: values.works, runs })).join('\n'));
  if (!values['skip-sync']) console.log((await benchOpenAlexSync({ dataDir: values['data-dir'], works: await readWorks(values.works) })).join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
