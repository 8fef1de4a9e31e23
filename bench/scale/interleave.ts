/**
 * The scale benchmark's search timing with every library open in one process, taking turns
 * query by query (which library goes first rotates), so that the machine's drift, which on a
 * shared machine moved the same code's p50 by half within minutes, hits every size alike: the
 * ratio of the largest library's p99 to the smallest's is then the library's growth, not the
 * hour's. Prints one JSON object: per library (in the order given) p50, p99 and max over three
 * passes of the mixed queries, and p50 and p99 by kind.
 *
 *   tsx bench/scale/interleave.ts <queries.json> <dataDir> [<dataDir> …]
 */
import { readFileSync } from 'node:fs';
import { openApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { percentile } from '../stats.js';

const [queriesFile, ...dataDirs] = process.argv.slice(2) as [string, ...string[]];
const queries = JSON.parse(readFileSync(queriesFile, 'utf8')) as Array<{ kind: string; query: string }>;
const log = createLogger({ logLevel: 'warn', logFormat: 'json' });
const apps = [];
for (const dataDir of dataDirs) apps.push(await openApp(loadConfig({ DATA_DIR: dataDir }), log, { demoWhenEmpty: false }));

for (const app of apps) for (const q of queries) await app.library.search(q.query, { limit: 10 }); // warm-up
const wall = apps.map(() => [] as number[]);
const byKind = apps.map(() => new Map<string, number[]>());
for (let pass = 0; pass < 3; pass++) {
  for (const [n, q] of queries.entries()) {
    for (let k = 0; k < apps.length; k++) {
      const i = (pass + n + k) % apps.length;
      const t = performance.now();
      await apps[i]!.library.search(q.query, { limit: 10 });
      const ms = performance.now() - t;
      if (q.kind !== 'description') wall[i]!.push(ms); // descriptions: their own row
      const kinds = byKind[i]!;
      (kinds.get(q.kind) ?? kinds.set(q.kind, []).get(q.kind)!).push(ms);
    }
  }
}

process.stdout.write(
  `${JSON.stringify(
    apps.map((_, i) => ({
      p50: percentile(wall[i]!, 0.5),
      p99: percentile(wall[i]!, 0.99),
      max: Math.max(...wall[i]!),
      byKind: Object.fromEntries([...byKind[i]!].map(([k, v]) => [k, { p50: percentile(v, 0.5), p99: percentile(v, 0.99) }])),
    })),
  )}\n`,
);
for (const app of apps) await app.close();
process.exit(0);
