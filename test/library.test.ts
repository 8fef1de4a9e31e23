/**
 * A command catches the index up before it answers only while the change is small: papers just
 * added are found by the next command, and a large import never holds commands up.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PaperRecord } from '../src/papers/model.js';
import type { SearchEngine } from '../src/search/engine.js';
import { SLICE_ROWS, nextSliceRows } from '../src/search/indexFile.js';
import { createTestApp, type TestApp } from './helpers/app.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.dispose();
  app = undefined;
});

function records(count: number, tag: string): PaperRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    title: `Quokka ${tag} Retrieval Study Number ${i}`,
    authors: [`Author ${tag} ${i}`],
    abstract: `A ${tag} study.`,
    venue: 'arXiv',
    year: 2026,
    status: '',
    keywords: [],
    labels: ['cs.IR'],
    links: {},
    externalIds: { arxiv: `2611.${tag === 'small' ? 1 : 2}${String(i).padStart(4, '0')}` },
  }));
}

/** Writes papers as another process would: the store moves on, the index does not (yet). */
async function write(target: TestApp, batch: PaperRecord[]): Promise<void> {
  await target.store.write((tx) => tx.upsertBatch(batch, { source: 'arxiv', classify: target.classify, now: new Date('2026-11-30T00:00:00Z') }));
}

const found = async (target: TestApp, title: string) => (await target.library.search(`"${title}"`, { limit: 1 })).hits[0]?.title === title;

describe('catchUpForCommand', () => {
  it('waits for a small change: the papers are found by the command that follows', async () => {
    app = await createTestApp();
    await write(app, records(20, 'small'));
    expect(await found(app, 'Quokka small Retrieval Study Number 19')).toBe(false);
    await app.library.catchUpForCommand();
    expect(await found(app, 'Quokka small Retrieval Study Number 19')).toBe(true);
  });

  it('does not wait for a large one, which goes on behind the answers until it is done', async () => {
    app = await createTestApp();
    await write(app, records(2_500, 'large'));
    await app.library.catchUpForCommand();
    // Answered at once, from the index as it was: the catch-up has not had a turn yet.
    expect(await found(app, 'Quokka large Retrieval Study Number 2499')).toBe(false);
    await app.library.catchUp();
    expect(await found(app, 'Quokka large Retrieval Study Number 2499')).toBe(true);
  });
});

describe('catchUp', () => {
  it('folds a change in as slices, the first one small (its code may not be compiled yet), each a delta of its own', async () => {
    app = await createTestApp();
    const view = (app.library as unknown as { engine: SearchEngine }).engine.view;
    const before = view.parts.length;
    await write(app, records(300, 'large'));
    await app.library.catchUp();
    const sizes = view.parts.slice(before).map((p) => p.data.docCount).filter((n) => n > 0);
    expect(sizes[0]).toBe(20);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(SLICE_ROWS);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(300);
    expect(await found(app, 'Quokka large Retrieval Study Number 299')).toBe(true);
  });
});

describe('nextSliceRows', () => {
  it.each([
    [20, 3, 40],
    [80, 3, 100],
    [100, 1, 100],
    [40, 8, 40],
    [40, 13, 20],
    [20, 40, 10],
    [10, 40, 10],
  ])('after %i rows whose slowest step took %i ms: %i', (rows, ms, next) => {
    expect(nextSliceRows(rows, ms)).toBe(next);
  });
});
