import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reindexInChild, startBackgroundJobs, type BackgroundJobs } from '../../adapters/background.js';
import { openApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { messages } from '../../src/i18n/index.js';

const INDEX_REBUILDING = messages('en').t('error.indexRebuilding');
import { readSnapshotInfo } from '../../src/search/index/format.js';
import { startHarness, textOf, type SlackHarness } from './slack/harness.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addLlmPapers } from '../helpers/papers.js';
import { silentLog } from '../helpers/corpus.js';

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(() => app.dispose());

describe('new papers in a running bot', () => {
  it('appear in searches as soon as the bot catches up, and a merge by a child process is swapped in', async () => {
    const before = app.library.size;
    // A sync in another process adds papers to the store…
    await app.store.write((tx) =>
      tx.upsertBatch(
        [{ title: 'Quokka Alignment for Marsupial Language Models', authors: ['Ann Lee'], abstract: 'Quokkas.', venue: 'arXiv', year: 2026, status: '', keywords: [], labels: ['cs.CL'], links: {}, externalIds: { arxiv: '2611.99999' } }],
        { source: 'arxiv', classify: app.classify, now: new Date() },
      ),
    );
    expect((await app.library.search('quokka alignment')).hits).toHaveLength(0);
    // …the bot folds it in as a small delta, without any rebuild…
    expect(await app.library.checkStore()).toBe(true);
    const snapshot = readSnapshotInfo(app.config.indexPath);
    expect(await app.library.catchUp()).toBe(true);
    expect(app.library.stale).toBe(false);
    expect(readSnapshotInfo(app.config.indexPath)).toEqual(snapshot);
    expect(app.library.size).toBe(before + 1);
    expect((await app.library.search('quokka alignment')).hits[0]?.title).toBe('Quokka Alignment for Marsupial Language Models');
    // …and when a child process merges the deltas into a new snapshot, the bot swaps it in.
    expect(await reindexInChild({ config: app.config, log: silentLog }, undefined, ['--merge'])).toBe(true);
    expect(readSnapshotInfo(app.config.indexPath)?.generation).toBe(await app.store.generation());
    expect(await app.library.catchUp()).toBe(true);
    expect(app.library.size).toBe(before + 1);
    expect((await app.library.search('quokka alignment')).hits[0]?.title).toBe('Quokka Alignment for Marsupial Language Models');
  });

  it('refresh folds the store’s changes in at once', async () => {
    const before = app.library.size;
    await addLlmPapers(app, '2026-03-01T00:00:00Z', 1);
    expect(app.library.size).toBe(before + 1);
    expect(app.library.stale).toBe(false);
  });
});

describe('the serving bot and its index snapshot', () => {
  let dataDir: string;
  let serving: App | undefined;
  let jobs: BackgroundJobs | undefined;
  let h: SlackHarness | undefined;
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });

  beforeEach(async () => {
    lines.length = 0;
    // Built once as `paperscout ingest` leaves it: the library and its snapshot.
    const built = await createTestApp();
    built.close();
    dataDir = built.dataDir;
  });
  afterEach(async () => {
    await jobs?.stop();
    await h?.stop({ fake: true });
    serving?.close();
    jobs = h = serving = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  const slackPaper = async (query: string): Promise<string> => {
    const res = await h!.command('/paper', query);
    expect(res.status).toBe(200);
    return textOf((await h!.fake.waitForPosts(res.responseUrl))[0]!);
  };

  it('damaged at start: one error line, searches say the index is being rebuilt, a child rebuilds it, searching resumes', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    const file = readFileSync(config.indexPath);
    randomBytes(Math.floor(file.length / 2)).copy(file, Math.floor(file.length / 4));
    writeFileSync(config.indexPath, file);

    serving = await openApp(config, log, { serving: true });
    expect(serving.library.ready).toBe(false);
    const damaged = lines.filter((l) => l.level >= 40);
    expect(damaged).toHaveLength(1);
    expect(damaged[0]!.msg).toMatch(
      new RegExp(`^The search index ${config.indexPath} is damaged \\(section \\S+ fails its checksum\\): searches say it is being rebuilt until a child process has rebuilt it$`),
    );
    h = await startHarness(serving);
    expect(await slackPaper('learning')).toBe(INDEX_REBUILDING);
    expect(serving.registry.autocomplete(serving.context('slack', { id: 'U1' }), 'paper', 'query', 'attention')).toEqual([]);

    jobs = startBackgroundJobs(serving, {});
    await jobs.refreshIndex();
    expect(serving.library.ready).toBe(true);
    expect(lines.map((l) => l.msg)).toContain('search index rebuilt and loaded: searching again');
    expect(await slackPaper('learning')).toContain('page 1 of 3');
  });

  it('loads every snapshot another process writes, not only the first', async () => {
    serving = await openApp(loadConfig({ DATA_DIR: dataDir }), log, { serving: true });
    jobs = startBackgroundJobs(serving, {});
    const before = serving.library.size;
    for (const n of [1, 2]) {
      await serving.store.write((tx) =>
        tx.upsertBatch(
          [{ title: `Wombat Burrows for Sparse Attention ${n}`, authors: ['Ann Lee'], abstract: 'Wombats.', venue: 'arXiv', year: 2026, status: '', keywords: [], labels: [], links: {}, externalIds: { arxiv: `2611.9000${n}` } }],
          { source: 'arxiv', classify: serving!.classify, now: new Date() },
        ),
      );
      expect(await reindexInChild({ config: serving.config, log: silentLog })).toBe(true);
      await jobs.refreshIndex();
      expect(serving.library.size).toBe(before + n);
    }
  });
});

describe('the minute’s index check beside an import in another process', () => {
  it('folds small changes in at once, and merges large ones only once the library has settled', async () => {
    const jobs = startBackgroundJobs(app, {});
    try {
      const addPapers = (from: number, count: number) =>
        app.store.write((tx) =>
          tx.upsertBatch(
            Array.from({ length: count }, (_, i) => ({ title: `Platypus Pretraining ${from + i}`, authors: ['Ann Lee'], abstract: 'Platypuses.', venue: 'arXiv', year: 2026, status: '', keywords: [], labels: [], links: {}, externalIds: { arxiv: `2611.${String(80000 + from + i)}` } })),
            { source: 'arxiv', classify: app.classify, now: new Date() },
          ),
        );
      const saved = () => readSnapshotInfo(app.config.indexPath)?.generation;
      const before = saved();
      await addPapers(1, 1);
      await jobs.refreshIndex({ whenSettled: true }); // one paper: a delta, no new snapshot
      expect(app.library.stale).toBe(false);
      expect(saved()).toBe(before);
      expect((await app.library.search('platypus pretraining 1')).hits[0]?.title).toBe('Platypus Pretraining 1');
      await addPapers(2, 6000);
      await jobs.refreshIndex({ whenSettled: true }); // past the threshold, but still changing: left alone
      expect(saved()).toBe(before);
      await jobs.refreshIndex({ whenSettled: true }); // settled: merged in a child and swapped in
      expect(app.library.stale).toBe(false);
      expect(saved()).toBe(await app.store.generation());
      expect((await app.library.search('platypus pretraining 5000')).hits[0]?.title).toBe('Platypus Pretraining 5000');
    } finally {
      await jobs.stop();
    }
  }, 60_000);
});

describe('a paper looked up while the library is the demo corpus', () => {
  it('reaches the search index in process: the demo store is in memory, DATA_DIR stays empty', async () => {
    const demo = await createTestApp({ empty: true });
    try {
      expect(demo.demo).toBe(true);
      await demo.store.write((tx) =>
        tx.upsertBatch(
          [{ title: 'Wombat Burrows as Graph Neural Networks', authors: ['Ann Lee'], abstract: 'Wombats.', venue: 'arXiv', year: 2026, status: '', keywords: [], labels: ['cs.LG'], links: {}, externalIds: { arxiv: '2611.88888' } }],
          { source: 'arxiv', classify: demo.classify, now: new Date() },
        ),
      );
      expect(await demo.library.checkStore()).toBe(true);
      const jobs = startBackgroundJobs(demo, {});
      try {
        await jobs.refreshIndex();
      } finally {
        await jobs.stop();
      }
      expect(demo.library.stale).toBe(false);
      expect((await demo.library.search('wombat burrows')).hits[0]?.id).toBe('arxiv:2611.88888');
      expect(existsSync(demo.config.indexPath)).toBe(false);
    } finally {
      demo.dispose();
    }
  });
});
