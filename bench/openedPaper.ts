/**
 * What an opened paper's citation lists cost: on a copy of an ingested DATA_DIR (the 95k corpus),
 * every paper is given a work, a count and ~40 references as a works file would (a third of them
 * to papers of the library, the older the likelier, as in bench/citations.ts), then, for papers
 * drawn at random and for the most cited, the reads the lists add to a detail view
 * (`library.citations`: two list pages in parallel, then their papers in one read) and the
 * whole detail view (`showPaper`: the paper, similar papers and the lists), median and p99, and
 * that view for the same random papers before any had citations.
 * `npm run bench` runs it on the DATA_DIR it ingested; alone:
 *
 *   npx tsx bench/openedPaper.ts --data-dir /work/data95 [--samples 500]
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openApp } from '../src/app.js';
import { showPaper } from '../src/commands/results.js';
import { loadConfig } from '../src/config.js';
import { silentLog } from '../test/helpers/corpus.js';
import { fmtMs, median, percentile } from './stats.js';
import { rng } from './scale/generate.js';
import { syntheticCitations } from './citations.js';

async function timed(docs: readonly number[], fn: (doc: number) => Promise<unknown>): Promise<string> {
  const ms: number[] = [];
  for (const doc of docs) {
    const t0 = performance.now();
    await fn(doc);
    ms.push(performance.now() - t0);
  }
  return `median ${fmtMs(median(ms))}, p99 ${fmtMs(percentile(ms, 0.99))}`;
}

/**
 * The figures above, as lines, for `samples` papers of each kind, on a copy of the ingested
 * DATA_DIR `source` (closed: nothing may be writing to it), which is removed afterwards.
 * @example (await benchOpenedPaper('/work/data95', 500)).forEach((l) => console.log(l))
 */
export async function benchOpenedPaper(source: string, samples = 500): Promise<string[]> {
  const lines: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'paperscout-opened-'));
  for (const name of readdirSync(source)) cpSync(join(source, name), join(dir, name));
  const app = await openApp(loadConfig({ DATA_DIR: dir, LOOKUP_UPSTREAM: 'off' }), silentLog, { demoWhenEmpty: false });
  try {
    const docs: number[] = [];
    for await (const row of app.store.rowsForIndex()) docs.push(row.doc);
    const pick = rng(7);
    const drawn = Array.from({ length: samples }, () => docs[Math.floor(pick() * docs.length)]!);
    const ctx = app.context('discord', { id: 'bench' });
    // The same detail view before any paper has a count: what the lists add to it.
    for (const doc of drawn.slice(0, 20)) await showPaper(ctx, doc); // warm
    const before = await timed(drawn, (doc) => showPaper(ctx, doc));
    const similar = async (doc: number) => app.library.similar((await app.library.paperByDoc(doc))!, 5);
    const similarBefore = await timed(drawn, similar);
    const next = rng(42);
    const fetched = new Date('2026-03-01T00:00:00Z');
    const t0 = performance.now();
    for (let from = 0; from < docs.length; from += 1000) {
      const entries = syntheticCitations(docs.slice(from, from + 1000), next, fetched, from);
      await app.stores.citations.put(entries);
    }
    lines.push(`Opened paper with its citation lists: ${docs.length.toLocaleString('en')} papers given counts and references in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await app.library.refresh();
    lines.push(`  random papers, before any paper had citations: the detail view ${before}; its similar papers ${similarBefore}`);
    lines.push(`  random papers, their similar papers now (library.similar): ${await timed(drawn, similar)}`);
    // The most cited within the library: the first papers, which the references favour.
    const popular = docs.slice(0, samples);
    const page = { offset: 0, limit: 5 };
    for (const [name, set] of [['random papers', drawn], ['the most cited papers', popular]] as const) {
      const lists = await app.library.citations(set[0]!, page);
      lines.push(`  ${name} (first: ${lists.references?.total} references and ${lists.citedBy?.total} citing papers in the library)`);
      for (const doc of set.slice(0, 20)) await showPaper(ctx, doc); // warm
      lines.push(`    the lists' reads (library.citations): ${await timed(set, (doc) => app.library.citations(doc, page))}`);
      lines.push(`    the whole detail view (showPaper):     ${await timed(set, (doc) => showPaper(ctx, doc))}`);
    }
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, samples: { type: 'string', default: '500' } } });
  if (!values['data-dir']) {
    process.stderr.write('Give --data-dir, an ingested DATA_DIR (it is copied, not written).\n');
    process.exit(2);
  }
  for (const line of await benchOpenedPaper(values['data-dir'], Math.max(1, Number(values.samples) || 500))) console.log(line);
}
