/**
 * `paperscout sync arxiv [--categories cs.LG,cs.CL]`: the day's new submissions of the followed
 * arXiv categories. With `--from YYYY-MM-DD [--until YYYY-MM-DD]`: a backfill over arXiv's
 * OAI-PMH interface, resumable (run the same command again after a kill).
 * `paperscout sync openreview --venue ICLR.cc/2025/Conference`: all of a venue's submissions.
 * `paperscout sync openalex [--refresh]`: citation counts (openalex.ts).
 * Each brings the search index up to date at the end. Ctrl-C stops before the next request;
 * what was stored stays stored.
 */
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import type { Config } from '../../src/config.js';
import { UserError } from '../../src/errors.js';
import type { Messages } from '../../src/i18n/index.js';
import { createProgressBar, renderCountLine } from '../../src/ingest/progress.js';
import { fetchHttpGet } from '../../src/sources/arxiv/client.js';
import { harvestArxiv, type HarvestProgress } from '../../src/sources/arxiv/harvest.js';
import { formatHarvestSummary, formatSyncSummary } from '../../src/sources/arxiv/summary.js';
import { syncArxiv } from '../../src/sources/arxiv/sync.js';
import { systemClock } from '../../src/clock.js';
import { runOpenAlexSync } from './openalex.js';
import { runOpenReviewSync } from './openreview.js';
import { syncExit, syncLibrary } from './syncLibrary.js';

const CATEGORY = /^[a-z-]+(\.[A-Za-z-]+)?$/;

export async function runSync(args: string[], config: Config, log: Logger, m: Messages): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      categories: { type: 'string' },
      from: { type: 'string' },
      until: { type: 'string' },
      venue: { type: 'string', multiple: true },
      refresh: { type: 'boolean', default: false },
    },
  });
  const [source, ...extra] = positionals;
  if (source === 'openalex' && extra.length === 0 && !values.venue && !values.categories && !values.from && !values.until) {
    return runOpenAlexSync(values.refresh, config, log, m);
  }
  if (values.refresh) throw new UserError('cli.syncRefreshIsOpenAlex');
  if (source === 'openreview' && extra.length === 0) return runOpenReviewSync(values.venue ?? [], config, log, m);
  if (source !== 'arxiv' || extra.length > 0) {
    throw source && source !== 'arxiv' && source !== 'openreview' && source !== 'openalex' ? new UserError('cli.syncSourceNot', { source }) : new UserError('cli.syncSource');
  }
  if (values.venue) throw new UserError('cli.venueIsOpenReview');
  const categories = values.categories?.split(',').map((c) => c.trim()).filter(Boolean) ?? config.arxiv.categories;
  const bad = categories.filter((c) => !CATEGORY.test(c));
  if (categories.length === 0 || bad.length > 0) {
    throw bad.length > 0 ? new UserError('cli.badCategoriesNot', { bad: bad.map((c) => `"${c}"`).join(', ') }) : new UserError('cli.badCategories');
  }
  const range = dateRange(values.from, values.until, systemClock.now());
  return syncLibrary(config, log, m, async ({ stores, classify, signal }) => {
    const store = stores.papers;
    const http = fetchHttpGet({ userAgent: config.userAgent, ...(range && { timeoutMs: 180_000 }) });
    if (range) {
      if (!config.contact) process.stderr.write(`${m.t('cli.sync.contactTip')}\n`);
      process.stderr.write(`${m.t('cli.sync.harvesting', { from: range.from, until: range.until ?? m.t('sync.oai.now') })}\n`);
      const bar = createProgressBar<HarvestProgress>(process.stderr, { render: (p, width) => harvestLine(p, width, m) });
      const summary = await harvestArxiv(
        { store, harvests: stores.harvests, jobs: stores.jobs, classify, oaiUrl: config.arxiv.oaiUrl, http, clock: systemClock, log },
        { ...range, categories, signal, onProgress: (p) => bar.update(p) },
      );
      bar.done();
      process.stdout.write(`${formatHarvestSummary(summary, m)}\n`);
      return { changed: summary.changed, exit: syncExit(summary, summary.sets.length) };
    }
    if (categories.length > 1) process.stderr.write(`${m.t('cli.sync.categories', { count: categories.length })}\n`);
    const summary = await syncArxiv({ store, classify, config: config.arxiv, http, clock: systemClock, log }, { categories, signal });
    process.stdout.write(`${formatSyncSummary(summary, m)}\n`);
    return { changed: summary.changed, exit: syncExit(summary, summary.categories.length) };
  });
}

/**
 * The backfill's dates, checked: real days, `--until` not before `--from`, `--until` only with
 * `--from`. Undefined without `--from` (the daily sync).
 */
export function dateRange(from: string | undefined, until: string | undefined, now: Date): { from: string; until?: string } | undefined {
  if (from === undefined) {
    if (until !== undefined) throw new UserError('cli.untilNeedsFrom');
    return undefined;
  }
  for (const [flag, value] of [['--from', from], ['--until', until]] as const) {
    if (value !== undefined && !isDay(value)) throw new UserError('cli.badDay', { flag, value });
  }
  if (until !== undefined && until < from) throw new UserError('cli.untilBeforeFrom', { until, from });
  if (from > now.toISOString().slice(0, 10)) throw new UserError('cli.fromInFuture', { from });
  return { from, ...(until !== undefined && { until }) };
}

function isDay(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

function harvestLine(p: HarvestProgress, width: number, m: Messages): string {
  const label = p.datestamp ? m.t('cli.progress.harvestPageUpTo', { set: p.set, page: p.pages, date: p.datestamp }) : m.t('cli.progress.harvestPage', { set: p.set, page: p.pages });
  const unit = m.t('cli.progress.records');
  return renderCountLine({ done: p.records, ...(p.completeListSize !== undefined && { total: p.completeListSize }), unit, label }, width);
}
