import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { indexRefresher, reindexInChild } from '../../adapters/background.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addLlmPapers } from '../helpers/papers.js';
import { silentLog } from '../helpers/corpus.js';

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(() => app.dispose());

describe('new papers in a running bot', () => {
  it('appear in searches once the index rebuilt by a child process is loaded, without a restart', async () => {
    const before = app.library.size;
    // A sync in another process adds papers to the store…
    app.store.transaction(() => {
      const gen = app.store.beginGeneration();
      app.store.upsert(
        { title: 'Quokka Alignment for Marsupial Language Models', authors: ['Ann Lee'], abstract: 'Quokkas.', venue: 'arXiv', year: 2026, status: '', keywords: [], labels: ['cs.CL'], links: {}, externalIds: { arxiv: '2611.99999' } },
        gen,
        { source: 'arxiv', classify: app.classify, now: new Date() },
      );
    });
    expect(app.library.search('quokka alignment').hits).toHaveLength(0);
    // …the bot has the index rebuilt out of process, then loads it, without rebuilding itself.
    expect(app.library.stale).toBe(true);
    expect(app.library.refresh({ rebuild: false })).toBe(false);
    expect(await reindexInChild({ config: app.config, log: silentLog })).toBe(true);
    expect(app.library.refresh({ rebuild: false })).toBe(true);
    expect(app.library.stale).toBe(false);
    expect(app.library.size).toBe(before + 1);
    expect(app.library.search('quokka alignment').hits[0]?.title).toBe('Quokka Alignment for Marsupial Language Models');
  });

  it('refresh rebuilds in process when no fresh snapshot exists and rebuilding is allowed', () => {
    const before = app.library.size;
    addLlmPapers(app, '2026-03-01T00:00:00Z', 1);
    expect(app.library.size).toBe(before + 1);
    expect(app.library.stale).toBe(false);
  });
});

describe('a paper looked up while the library is the demo corpus', () => {
  it('reaches the search index in process: the demo store is in memory, DATA_DIR stays empty', async () => {
    const demo = await createTestApp({ empty: true });
    try {
      expect(demo.demo).toBe(true);
      demo.store.transaction(() => {
        const gen = demo.store.beginGeneration();
        demo.store.upsert(
          { title: 'Wombat Burrows as Graph Neural Networks', authors: ['Ann Lee'], abstract: 'Wombats.', venue: 'arXiv', year: 2026, status: '', keywords: [], labels: ['cs.LG'], links: {}, externalIds: { arxiv: '2611.88888' } },
          gen,
          { source: 'arxiv', classify: demo.classify, now: new Date() },
        );
      });
      expect(demo.library.stale).toBe(true);
      await indexRefresher(demo, new AbortController().signal)();
      expect(demo.library.stale).toBe(false);
      expect(demo.library.search('wombat burrows').hits[0]?.id).toBe('arxiv:2611.88888');
      expect(existsSync(demo.config.indexPath)).toBe(false);
    } finally {
      demo.dispose();
    }
  });
});
