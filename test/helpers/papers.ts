/** Papers added to a test app's store as a sync would add them, first seen at a given time. */
import type { PaperRecord } from '../../src/papers/model.js';
import type { TestApp } from './app.js';

let serial = 0;

/**
 * Adds `count` new language-model papers (they classify as Deep Learning · Large Language
 * Models), first seen at `at`, and refreshes the search index; returns their ids.
 */
export async function addLlmPapers(app: TestApp, at: string, count: number, over: Partial<PaperRecord> = {}): Promise<string[]> {
  const records: PaperRecord[] = [];
  for (let i = 0; i < count; i++) {
    serial++;
    records.push({
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
    });
  }
  const results = await app.store.write((tx) => tx.upsertBatch(records, { source: 'arxiv', classify: app.classify, now: new Date(at) }));
  await app.library.refresh();
  return results.map((r) => ('id' in r ? r.id : ''));
}

/** The titles of papers by id, in the order given (read in one go). */
export async function titlesOf(app: Pick<TestApp, 'store'>, ids: readonly string[]): Promise<string[]> {
  const papers = await app.store.papersByIds(ids);
  return ids.map((id) => papers.get(id)?.paper.title ?? `(no paper ${id})`);
}
