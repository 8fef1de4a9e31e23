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
  it('appear in searches as soon as the bot catches up, and a merge by a child process is swapped in', async () => {
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
    // …the bot folds it in as a small delta, without any rebuild…
    expect(app.library.stale).toBe(true);
    expect(await app.library.catchUp()).toBe(true);
    expect(app.library.stale).toBe(false);
    expect(app.library.size).toBe(before + 1);
    expect(app.library.search('quokka alignment').hits[0]?.title).toBe('Quokka Alignment for Marsupial Language Models');
    // …and when a child process merges the deltas into a new snapshot, the bot swaps it in.
    expect(await reindexInChild({ config: app.config, log: silentLog }, undefined, ['--merge'])).toBe(true);
    expect(await app.library.catchUp()).toBe(true);
    expect(app.library.size).toBe(before + 1);
    expect(app.library.search('quokka alignment').hits[0]?.title).toBe('Quokka Alignment for Marsupial Language Models');
  });

  it('refresh folds the store’s changes in at once', () => {
    const before = app.library.size;
    addLlmPapers(app, '2026-03-01T00:00:00Z', 1);
    expect(app.library.size).toBe(before + 1);
    expect(app.library.stale).toBe(false);
  });
});
