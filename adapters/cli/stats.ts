/**
 * `paperscout stats [--memory] [--json]`: what the library holds, in the terminal's language, or
 * as one JSON object (the same in every language).
 */
import { parseArgs } from 'node:util';
import type { App } from '../../src/app.js';
import type { Messages } from '../../src/i18n/index.js';

export async function stats(app: App, args: string[], m: Messages): Promise<number> {
  const { values } = parseArgs({ args, options: { memory: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });
  const s = app.library.stats();
  if (values.json) {
    process.stdout.write(`${JSON.stringify(await statsJson(app, s))}\n`);
    return 0;
  }
  const venues = s.venues.map(([venue, count]) => m.t('cli.stats.venue', { venue: venue || m.t('cli.stats.noVenue'), count }));
  const lines = [
    m.t('cli.stats.library', { where: app.demo ? m.t('cli.stats.demo') : app.stores.readOnly ? m.t('cli.stats.readOnly', { where: app.stores.description }) : app.stores.description }),
    m.t('cli.stats.papers', { papers: s.papers, generation: String(s.generation), terms: s.terms }),
    m.t('cli.stats.years', { years: s.years === 'none' ? m.t('cli.stats.noYears') : s.years }),
    m.t('cli.stats.venues', { venues: venues.join(m.t('text.listSeparator')) }),
    m.t('cli.stats.withTopic', { count: s.withTopic }),
  ];
  if (values.memory) {
    (globalThis as { gc?: () => void }).gc?.();
    const memory = process.memoryUsage();
    const mb = (n: number) => n / 1048576;
    lines.push(m.t('cli.stats.memory', { heap: mb(memory.heapUsed), external: mb(memory.external), rss: mb(memory.rss) }));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** `stats --json`: the library's counts as one object. */
async function statsJson(app: App, s: ReturnType<App['library']['stats']>) {
  const [min, max] = s.years === 'none' ? [] : s.years.split('–').map(Number);
  return {
    papers: s.papers,
    stored: await app.store.count(),
    demo: app.demo,
    generation: s.generation,
    terms: s.terms,
    years: min !== undefined ? { min, max } : null,
    withTopic: s.withTopic,
    venues: Object.fromEntries(s.venues),
    statuses: Object.fromEntries(await app.store.statusCounts()),
    harvests: app.demo ? [] : (await app.stores.harvests.list()).map((h) => ({ key: h.key, source: h.source, updatedAt: h.updatedAt })),
  };
}
