/**
 * `paperscout sync openalex [--refresh]`: citation counts from OpenAlex for the papers not asked
 * about yet (with `--refresh`, also counts and misses older than 30 days), then the search index
 * brought up to date. Ctrl-C stops before the next request; what was stored stays, and running
 * the command again resumes. Exit code 1 when the sync stopped on a failure (what it stored
 * stays), 130 when stopped.
 */
import type { Logger } from 'pino';
import type { Config } from '../../src/config.js';
import type { Messages } from '../../src/i18n/index.js';
import { createProgressBar, renderCountLine } from '../../src/ingest/progress.js';
import { systemClock } from '../../src/clock.js';
import { fetchHttp } from '../../src/sources/http.js';
import { formatOpenAlexSummary } from '../../src/sources/openalex/summary.js';
import { REFRESH_DAYS, syncOpenAlex, type OpenAlexProgress } from '../../src/sources/openalex/sync.js';
import { syncLibrary } from './syncLibrary.js';

export async function runOpenAlexSync(refresh: boolean, config: Config, log: Logger, m: Messages): Promise<number> {
  return syncLibrary(config, log, m, async ({ stores, signal }) => {
    if (!config.openalex.mailto) process.stderr.write(`${m.t('cli.sync.mailtoTip')}\n`);
    process.stderr.write(`${m.t('cli.sync.openalex', { refresh: refresh ? 'yes' : 'no', days: REFRESH_DAYS })}\n`);
    const bar = createProgressBar<OpenAlexProgress>(process.stderr, {
      render: (p, width) => renderCountLine({ done: p.asked, unit: m.t('cli.progress.papersAsked'), label: m.t('cli.progress.openalex', { matched: p.matched, requests: p.requests }) }, width),
    });
    const summary = await syncOpenAlex(
      {
        papers: stores.papers,
        citations: stores.citations,
        jobs: stores.jobs,
        config: config.openalex,
        http: fetchHttp({ userAgent: config.openalex.userAgent, accept: 'application/json' }),
        clock: systemClock,
        log,
      },
      { refresh, signal, onProgress: (p) => bar.update(p) },
    );
    bar.done();
    process.stdout.write(`${formatOpenAlexSummary(summary, m)}\n`);
    return { changed: summary.changed, exit: summary.aborted ? 130 : summary.error ? 1 : 0 };
  });
}
