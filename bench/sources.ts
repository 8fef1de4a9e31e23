/**
 * The sources' figures: CPU per 1,000 arXiv OAI-PMH records harvested and stored (next to
 * arXiv's 3 s between requests), and a whole OpenReview venue of 10,000 notes, both against a
 * loopback server answering in the real formats with records generated here. The harvest's
 * politeness waits are skipped for the CPU figure (they cost no CPU); the OpenReview figure
 * keeps its real spacing between requests.
 *
 *   npm run bench (a section of its own), or: npx tsx bench/sources.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { loadTopics } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { fetchHttpGet } from '../src/sources/arxiv/client.js';
import { harvestArxiv } from '../src/sources/arxiv/harvest.js';
import { systemClock, type Clock } from '../src/clock.js';
import { fetchHttp } from '../src/sources/http.js';
import { syncOpenReview } from '../src/sources/openreview/sync.js';
import { openDatabase } from '../src/store/sqlite/db.js';
import { SqliteHarvestStore } from '../src/store/sqlite/harvests.js';
import { SqlitePaperStore } from '../src/store/sqlite/papers.js';
import { median } from './stats.js';

const OAI_RECORDS = 5000;
const OAI_PAGE = 1000;
const OPENREVIEW_NOTES = 10_000;
const RUNS = 3;

const WORDS = (
  'learning model models neural network networks deep language large training data graph attention transformer diffusion ' +
  'reinforcement policy optimization gradient stochastic convex bayesian inference variational generative adversarial robust ' +
  'sparse efficient scalable representation contrastive self supervised unsupervised semi vision image video segmentation detection ' +
  'speech translation retrieval reasoning planning control robot agents multi task transfer domain adaptation federated privacy ' +
  'fairness causal kernel gaussian process bandit online theory bounds generalization sample complexity benchmark dataset evaluation'
).split(' ');

/** A deterministic stream of words (a linear congruential generator), so every run sees the same text. */
function wordsFrom(seed: number) {
  let state = seed >>> 0 || 1;
  return (n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      out.push(WORDS[state % WORDS.length]!);
    }
    return out.join(' ');
  };
}

const CATEGORIES = ['cs.LG', 'cs.CL', 'cs.CV', 'cs.AI', 'stat.ML', 'cs.RO'];

function oaiPages(): Map<string, string> {
  const words = wordsFrom(7);
  const pages = new Map<string, string>();
  for (let start = 0, page = 0; start < OAI_RECORDS; start += OAI_PAGE, page++) {
    const records: string[] = [];
    for (let i = start; i < Math.min(OAI_RECORDS, start + OAI_PAGE); i++) {
      const id = `2401.${String(10000 + i).padStart(5, '0')}`;
      const cats = `${CATEGORIES[i % 6]} ${CATEGORIES[(i * 7 + 1) % 6]}`;
      const authors = [0, 1, 2, 3].map((a) => `<author><keyname>${words(1)}son</keyname><forenames>${words(1)} ${String.fromCharCode(65 + a)}.</forenames></author>`).join('');
      records.push(
        `<record><header><identifier>oai:arXiv.org:${id}</identifier><datestamp>2024-01-${String(1 + (i % 28)).padStart(2, '0')}</datestamp><setSpec>cs</setSpec></header>` +
          `<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>${id}</id><created>2024-01-${String(1 + (i % 28)).padStart(2, '0')}</created>` +
          `<authors>${authors}</authors><title>${words(9)}</title><categories>${cats}</categories><abstract>  ${words(160)}\n</abstract></arXiv></metadata></record>`,
      );
    }
    const more = start + OAI_PAGE < OAI_RECORDS;
    const token = `<resumptionToken cursor="${start}" completeListSize="${OAI_RECORDS}">${more ? `bench|${page + 1}` : ''}</resumptionToken>`;
    pages.set(page === 0 ? 'first' : `bench|${page}`, `<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2024-02-01T00:00:00Z</responseDate><ListRecords>${records.join('\n')}${token}</ListRecords></OAI-PMH>`);
  }
  return pages;
}

function openreviewPages(): Map<string, string> {
  const words = wordsFrom(11);
  const venue = 'Bench.cc/2025/Conference';
  const statuses: Array<[string, string]> = [
    [venue, 'Bench 2025 Poster'],
    [venue, 'Bench 2025 Oral'],
    [`${venue}/Rejected_Submission`, 'Submitted to Bench 2025'],
    [`${venue}/Withdrawn_Submission`, 'Bench 2025 Conference Withdrawn Submission'],
  ];
  const pages = new Map<string, string>();
  for (let offset = 0; offset < OPENREVIEW_NOTES; offset += 1000) {
    const notes = [];
    for (let i = offset; i < Math.min(OPENREVIEW_NOTES, offset + 1000); i++) {
      const id = `bench${String(i).padStart(6, '0')}`;
      const [venueid, label] = statuses[i % 4]!;
      notes.push({
        id,
        forum: id,
        number: i + 1,
        cdate: 1727366400000 + i,
        invitations: [`${venue}/-/Submission`],
        domain: venue,
        content: {
          title: { value: words(9) },
          authors: { value: [words(2), words(2), words(2)] },
          keywords: { value: [words(2), words(1), words(2)] },
          TLDR: { value: words(20) },
          abstract: { value: words(160) },
          primary_area: { value: 'generative models' },
          venue: { value: label },
          venueid: { value: venueid },
          pdf: { value: `/pdf/${id}.pdf` },
        },
      });
    }
    pages.set(String(offset), JSON.stringify({ notes, count: OPENREVIEW_NOTES }));
  }
  return pages;
}

async function serve(answer: (url: URL) => string | undefined): Promise<{ base: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const body = answer(new URL(req.url ?? '/', 'http://x'));
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' });
    res.end(body ?? 'no such page');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A clock that never waits: politeness costs no CPU, so the CPU figure leaves it out. */
const instant: Clock = { now: () => new Date(), sleep: async () => {} };
const log = pino({ level: 'silent' });

export async function benchSources(): Promise<string[]> {
  const { classify } = loadTopics();
  const oai = oaiPages();
  const oaiServer = await serve((url) => oai.get(url.searchParams.get('resumptionToken') ?? 'first'));
  const cpuPerThousand: number[] = [];
  const oaiWall: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const dir = mkdtempSync(join(tmpdir(), 'paperscout-bench-oai-'));
      const db = openDatabase(join(dir, 'paperscout.db'));
      try {
        const store = new SqlitePaperStore(db);
        const started = performance.now();
        const cpu = process.cpuUsage();
        const summary = await harvestArxiv(
          { store, harvests: new SqliteHarvestStore(db), classify, oaiUrl: `${oaiServer.base}/oai`, http: fetchHttpGet(), clock: instant, log },
          { from: '2024-01-01', categories: ['cs.LG', 'cs.CL', 'cs.CV', 'cs.AI'] },
        );
        const used = process.cpuUsage(cpu);
        oaiWall.push(performance.now() - started);
        const stored = summary.added + summary.updated + summary.unchanged;
        if (stored === 0 || summary.failed.length > 0) throw new Error(`OAI bench harvest failed: ${JSON.stringify(summary.failed)}`);
        cpuPerThousand.push(((used.user + used.system) / 1e6 / stored) * 1000);
      } finally {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await oaiServer.close();
  }

  const notes = openreviewPages();
  const orServer = await serve((url) => notes.get(url.searchParams.get('offset') ?? ''));
  const orWall: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const dir = mkdtempSync(join(tmpdir(), 'paperscout-bench-or-'));
      const db = openDatabase(join(dir, 'paperscout.db'));
      try {
        const config = loadConfig({ OPENREVIEW_API_URL: orServer.base }).openreview;
        const started = performance.now();
        const summary = await syncOpenReview(
          { store: new SqlitePaperStore(db), harvests: new SqliteHarvestStore(db), classify, config, http: fetchHttp(), clock: systemClock, log },
          { venues: ['Bench.cc/2025/Conference'] },
        );
        orWall.push(performance.now() - started);
        if (summary.added !== OPENREVIEW_NOTES) throw new Error(`OpenReview bench sync stored ${summary.added} of ${OPENREVIEW_NOTES}`);
      } finally {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await orServer.close();
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    `Sources (loopback, generated records; median of ${RUNS} runs)`,
    `  arXiv OAI-PMH harvest: ${median(cpuPerThousand).toFixed(2)} s CPU per 1,000 records stored (${cpuPerThousand.map((c) => c.toFixed(2)).join(', ')}; ${OAI_RECORDS.toLocaleString('en-US')} records in ${s(median(oaiWall))} without arXiv's 3 s waits) — goal ≤ 2 s`,
    `  OpenReview venue of ${OPENREVIEW_NOTES.toLocaleString('en-US')} notes: ${s(median(orWall))} (${orWall.map(s).join(', ')}; pages of 1,000, 0.5 s apart) — goal ≤ 30 s`,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchSources()) process.stdout.write(`${line}\n`);
}
