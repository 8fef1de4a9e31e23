/**
 * `paperscout sync openreview --venue ICLR.cc/2025/Conference [--venue …]`: all of each venue's
 * submissions from OpenReview (default: OPENREVIEW_VENUES), then the search index brought up to
 * date. Ctrl-C stops before the next request; pages already stored stay stored.
 */
import type { Logger } from 'pino';
import { VENUE_ID, type Config } from '../../src/config.js';
import { UserError } from '../../src/errors.js';
import type { Messages } from '../../src/i18n/index.js';
import { createProgressBar, renderCountLine } from '../../src/ingest/progress.js';
import { systemClock } from '../../src/clock.js';
import { fetchHttp } from '../../src/sources/http.js';
import { formatOpenReviewSummary } from '../../src/sources/openreview/summary.js';
import { syncOpenReview } from '../../src/sources/openreview/sync.js';
import { syncExit, syncLibrary } from './syncLibrary.js';

export async function runOpenReviewSync(given: string[], config: Config, log: Logger, m: Messages): Promise<number> {
  const venues = (given.length > 0 ? given.flatMap((v) => v.split(',')) : config.openreview.venues).map((v) => v.trim()).filter(Boolean);
  if (venues.length === 0) throw new UserError('cli.giveVenue');
  const bad = venues.filter((v) => !VENUE_ID.test(v));
  if (bad.length > 0) throw new UserError('cli.badVenue', { bad: bad.map((v) => `"${v}"`).join(', ') });
  return syncLibrary(config, log, m, async ({ stores, classify, signal }) => {
    const bar = createProgressBar<{ venue: string; notes: number; count?: number }>(process.stderr, {
      render: (p, width) => renderCountLine({ done: p.notes, ...(p.count !== undefined && { total: p.count }), unit: m.t('cli.progress.submissions'), label: p.venue }, width),
    });
    const summary = await syncOpenReview(
      { store: stores.papers, harvests: stores.harvests, classify, config: config.openreview, http: fetchHttp({ userAgent: config.userAgent }), clock: systemClock, log },
      { venues, signal, onProgress: (p) => bar.update(p) },
    );
    bar.done();
    process.stdout.write(`${formatOpenReviewSummary(summary, m)}\n`);
    return { changed: summary.changed, exit: syncExit(summary, summary.venues.length) };
  });
}
