/**
 * Recommendation latency, in process: `library.recommend` for profiles of 50 papers, as a lab's
 * library would be (the top 50 of a keyword query: one field's papers) and as a scattered one
 * (50 papers spread over the whole library, the slowest case: few words shared, many read).
 * Each profile asks for the top 20 of the newest year, as a digest would.
 */
import type { App } from '../src/app.js';
import { KEYWORD_QUERIES } from './queries.js';
import { fmtMs, percentile } from './stats.js';

const SEEDS = 50;

export async function benchRecommend(app: App, runs = 3): Promise<string[]> {
  const topical: string[][] = [];
  for (const query of KEYWORD_QUERIES) {
    const ids = (await app.library.search(query, { limit: SEEDS })).hits.map((h) => h.id);
    if (ids.length === SEEDS) topical.push(ids);
  }
  // Scattered: papers at a wide stride through the store, a different offset per profile.
  const everyPaper = await allIds(app);
  const scattered = Array.from({ length: topical.length }, (_, i) => Array.from({ length: SEEDS }, (_, k) => everyPaper[(i * 7919 + k * 1_877) % everyPaper.length]!));
  const year = Number(/(\d{4})$/.exec(app.library.stats().years)?.[1] ?? 2024);
  const time = async (profiles: string[][]) => {
    for (const seeds of profiles) await app.library.recommend(seeds, { where: `year:${year}`, limit: 20 }); // warm-up
    const ms: number[] = [];
    for (let r = 0; r < runs; r++) {
      for (const seeds of profiles) {
        const t = performance.now();
        const result = await app.library.recommend(seeds, { where: `year:${year}`, limit: 20 });
        ms.push(performance.now() - t);
        if (!result.ok) throw new Error('a benchmark profile was refused');
      }
    }
    return `${fmtMs(percentile(ms, 0.5))} / ${fmtMs(percentile(ms, 0.99))}`;
  };
  const pad = (s: string, n: number) => s.padEnd(n);
  return [
    `${pad('recommend p50 / p99', 28)}${pad('', 92)}≤ 100 ms p99 at 95k, ≤ 500 ms at 1M (not measured here)`,
    `${pad('  50 papers of a field', 28)}${await time(topical)}  (${topical.length} profiles × ${runs})`,
    `${pad('  50 scattered papers', 28)}${await time(scattered)}  (${scattered.length} profiles × ${runs})`,
  ];
}

/** Every paper's id, in store order. */
async function allIds(app: App): Promise<string[]> {
  const ids: string[] = [];
  for await (const row of app.store.rowsForIndex()) ids.push(row.id);
  return ids;
}
