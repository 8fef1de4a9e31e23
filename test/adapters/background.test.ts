import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reindexInChild } from '../../adapters/background.js';
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
    // …the bot has the index rebuilt out of process, then loads it.
    process.env.DATA_DIR = app.dataDir;
    try {
      expect(await reindexInChild(silentLog)).toBe(true);
    } finally {
      delete process.env.DATA_DIR;
    }
    expect(app.library.refresh()).toBe(true);
    expect(app.library.size).toBe(before + 1);
    expect(app.library.search('quokka alignment').hits[0]?.title).toBe('Quokka Alignment for Marsupial Language Models');
  });

  it('refresh rebuilds in process when no fresh snapshot exists', () => {
    addLlmPapers(app, '2026-03-01T00:00:00Z', 1);
    expect(app.library.search('scaling large language models part').hits.length).toBeGreaterThan(0);
  });
});
