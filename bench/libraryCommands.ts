/**
 * `/library mine` and `/library channel` as members run them: through the command registry, on
 * the bench's library, with reading lists at issue 30's scale whose papers are the library's own.
 * So each figure holds the store's reads, the papers' records, the cards, and (with a query) the
 * search within the list: the whole command, as bench/readingLists.ts times the store part alone.
 * Also a channel's list exported end to end. SQLite (the rows are written with SQL of their own,
 * as in bench/readingLists.ts); the library's DATA_DIR gains them, so give it a throwaway one.
 *
 *   npx tsx bench/libraryCommands.ts <DATA_DIR with an imported library> [--samples N]
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { openDatabase } from '../src/store/sqlite/db.js';
import { ISSUE_SCALE, fillSqlite, place, time, type ReadingListScale } from './readingLists.js';
import { fmtMs } from './stats.js';

/**
 * Fills `app`'s SQLite library with reading lists at `scale` and times the commands; resolves
 * report lines.
 * @example for (const line of await benchLibraryCommands(app)) console.log(line);
 */
export async function benchLibraryCommands(app: App, scale: ReadingListScale = ISSUE_SCALE): Promise<string[]> {
  if (app.config.database) return ['/library commands: skipped (the library is on PostgreSQL; see the store figures)'];
  const read = openDatabase(app.config.dbPath, { readOnly: true });
  const ids = read.prepare('SELECT id FROM papers ORDER BY doc').pluck().all() as string[];
  read.close();
  if (ids.length < 1000) return [`/library commands: skipped (the library holds ${ids.length} papers)`];
  const started = performance.now();
  fillSqlite(app.config.dbPath, scale, (n) => ids[n % ids.length]!).close();
  const fillSeconds = (performance.now() - started) / 1000;

  const member = (i: number) => {
    const m = (i * 7919) % scale.members;
    const { platform, team } = place(m);
    return app.context(platform, { id: `U${m}`, name: `Member ${m}` }, { workspace: { id: team }, channel: { id: `C${m % scale.channels}`, kind: 'channel', name: 'papers' } });
  };
  const inChannel = (i: number) => {
    const c = (i * 7919) % scale.channels;
    const { platform, team } = place(c);
    return app.context(platform, { id: `U${c}`, name: `Member ${c}` }, { workspace: { id: team }, channel: { id: `C${c}`, kind: 'channel', name: 'papers' } });
  };
  const run = (ctx: ReturnType<typeof member>, sub: string, options: Record<string, unknown> = {}) => app.registry.run(ctx, 'library', options, sub);
  const samples = Math.max(50, Math.round(scale.samples / 4));
  const figures: Array<[string, { p50: number; p99: number }, string]> = [
    ['/library mine', await time(samples, (i) => run(member(i), 'mine')), '≤ 50 ms'],
    ['/library mine learning', await time(samples, (i) => run(member(i), 'mine', { query: 'learning' })), '≤ 50 ms'],
    ['/library channel', await time(samples, (i) => run(inChannel(i), 'channel')), '≤ 50 ms'],
    ['/library channel learning', await time(samples, (i) => run(inChannel(i), 'channel', { query: 'learning' })), '≤ 50 ms'],
    ['export of a channel (BibTeX)', await time(Math.max(20, samples / 10), (i) => run(inChannel(i), 'export', { format: 'bibtex', scope: 'channel' })), ''],
  ];
  return [
    `/library commands on sqlite, through the registry (${ids.length.toLocaleString('en-US')} papers; lists filled in ${fillSeconds.toFixed(1)} s; ${samples} runs each)`,
    ...figures.map(([name, { p50, p99 }, goal]) => `  ${name.padEnd(36)}p50 ${fmtMs(p50).padEnd(10)} p99 ${fmtMs(p99).padEnd(10)} ${goal && `goal p99 ${goal}`}`),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { samples: { type: 'string' } } });
  const dataDir = positionals[0];
  if (!dataDir) {
    process.stderr.write('Usage: npx tsx bench/libraryCommands.ts <DATA_DIR> [--samples N] (a throwaway copy: the lists are written into it)\n');
    process.exit(2);
  }
  const app = await openApp(loadConfig({ DATA_DIR: dataDir, LOOKUP_UPSTREAM: 'off' }), createLogger({ logLevel: 'warn', logFormat: 'json' }), { demoWhenEmpty: false });
  try {
    for (const line of await benchLibraryCommands(app, { ...ISSUE_SCALE, ...(values.samples && { samples: Number(values.samples) }) })) console.log(line);
  } finally {
    await app.close();
  }
}
