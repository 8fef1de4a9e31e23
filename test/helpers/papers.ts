/** Papers added to a test app's store as a sync would add them, first seen at a given time. */
import type { PaperRecord } from '../../src/papers/model.js';
import type { TestApp } from './app.js';

let serial = 0;

/**
 * Adds `count` new language-model papers (they classify as Deep Learning · Large Language
 * Models), first seen at `at`, and refreshes the search index; returns their ids.
 */
export function addLlmPapers(app: TestApp, at: string, count: number, over: Partial<PaperRecord> = {}): string[] {
  const ids: string[] = [];
  app.store.transaction(() => {
    const gen = app.store.beginGeneration();
    for (let i = 0; i < count; i++) {
      serial++;
      const record: PaperRecord = {
        title: `Scaling Large Language Models, Part ${serial}`,
        authors: [`Author ${serial}`],
        abstract: 'Large language models (LLMs) are instruction tuned; we study large language models at scale.',
        venue: 'arXiv',
        year: 2026,
        status: '',
        keywords: ['large language models'],
        labels: ['cs.CL'],
        links: {},
        externalIds: { arxiv: `2603.${String(10000 + serial)}` },
        ...over,
      };
      ids.push(app.store.upsert(record, gen, { source: 'arxiv', classify: app.classify, now: new Date(at) }).id);
    }
  });
  app.library.refresh();
  return ids;
}
