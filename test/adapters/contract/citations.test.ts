/**
 * Citation counts and an opened paper's citations in the library, on every platform through its
 * real SDK path (and on both stores): a result card says "cited by 123k", the opened paper
 * "cited by 123,456" and lists its references and the papers citing it that the library holds,
 * most cited first, each with its count, with a link to all of them on the search site; the
 * menu opens each; a hostile title in a list stays text; a paper with none shows no such
 * heading and no count. Papers built to break every limit, all citing one another, still give
 * messages the platform takes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { putFixtureCitations } from '../../helpers/citations.js';
import { createTestDatabase, dropTestDatabase, postgresMissing } from '../../helpers/postgres.js';
import { seedLibrary } from '../helpers/instances.js';
import type { Seen, Session } from './driver.js';
import { DRIVERS } from './drivers.js';
import { writePapers, zebraPapers } from './hostilePapers.js';

const SITE = 'https://papers.lab.example';
const STORES = [
  { store: 'sqlite', skip: false },
  { store: 'postgres', skip: postgresMissing !== undefined },
] as const;

const section = (seen: Seen, title: string) => seen.sections.find((s) => s.title === title);

describe.each(DRIVERS.flatMap((driver) => STORES.map((s) => ({ ...s, driver, name: `${driver.name} on ${s.store}` }))))('$name', ({ driver, store, skip }) => {
  let app: TestApp;
  let session: Session;
  let database: string | undefined;
  beforeAll(async () => {
    if (skip) return;
    if (store === 'postgres') {
      database = await createTestDatabase();
      await seedLibrary(database);
    }
    app = await createTestApp({ env: { PUBLIC_URL: SITE, ...(database && { DATABASE_URL: database }) }, ...(database && { empty: true }) });
    await putFixtureCitations(app);
    session = await driver.start(app);
  });
  afterAll(async () => {
    await session?.stop();
    await app?.dispose();
    if (database) await dropTestDatabase(database);
  });
  afterEach(() => {
    if (!skip) session.expectWellBehaved();
  });

  it.skipIf(skip)('shows counts, and an opened paper’s references and citing papers in the library, each opening from the menu', async () => {
    const results = await session.command('/paper attention is all you need');
    expect(results.sections[0]!.title).toMatch(/Attention Is All You Need$/);
    expect(results.sections[0]!.body).toContain('NeurIPS · 2017 · Oral · cited by 123k');

    const opened = await session.choose(results, 0);
    expect(opened.sections[0]!.body).toContain('NeurIPS · 2017 · Oral · cited by 123,456');
    const references = section(opened, 'References in the library (6)')!;
    const lines = references.body.split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toContain('Deep Residual Learning for Image Recognition');
    expect(lines[0]).toContain(`${SITE}/paper/arxiv%3A1512.03385`);
    expect(lines[0]).toMatch(/ — CVPR 2016 · cited by 201k$/);
    expect(lines.slice(1, 5).map((l) => / · cited by (\d+)k$/.exec(l)?.[1])).toEqual(['170', '38', '12', '9']);
    expect(lines[5]).toContain('All 6 references in the library ↗');
    expect(lines[5]).toContain(`${SITE}/paper/arxiv%3A1706.03762/references`);
    const citing = section(opened, 'Cited by, in the library (7)')!;
    expect(citing.body).toContain(driver.literal('<!channel>'));
    expect(citing.body).toContain('HOSTILE 2024 · cited by 50k');
    expect(citing.body).toContain(`${SITE}/paper/arxiv%3A1706.03762/cited-by`);
    expect(section(opened, 'Similar papers')).toBeDefined();
    expect(opened.menu!.placeholder).toBe('Open a paper…');
    expect(opened.menu!.options.slice(0, 2)).toEqual(['Deep Residual Learning for Image Recognition', 'Adam: A Method for Stochastic Optimization']);

    const resnet = await session.choose(opened, 'Deep Residual Learning for Image Recognition');
    expect(resnet.sections[0]!.title).toBe('Deep Residual Learning for Image Recognition');
    expect(resnet.sections[0]!.body).toContain('CVPR · 2016 · Oral · cited by 201,234');
    expect(resnet.sections.map((s) => s.title)).not.toContain('References in the library (0)');
    expect(resnet.shown).not.toMatch(/References in the library/);
    // Every paper citing it is shown: no link to the site for more.
    expect(section(resnet, 'Cited by, in the library (1)')!.body).toMatch(/Attention Is All You Need.* — NeurIPS 2017 · cited by 123k$/);
  });

  it.skipIf(skip)('shows no count and no empty heading for a paper OpenAlex has not matched', async () => {
    const results = await session.command('/paper segment anything');
    const opened = await session.choose(results, 0);
    expect(opened.sections[0]!.title).toBe('Segment Anything');
    expect(opened.shown).not.toMatch(/cited by|in the library/i);
  });
});

describe.each(DRIVERS)('$name, papers built to break every limit, all citing one another', (driver) => {
  let corpus: ReturnType<typeof writePapers>;
  let app: TestApp;
  let session: Session;
  beforeAll(async () => {
    corpus = writePapers(zebraPapers());
    app = await createTestApp({ paths: [corpus.file], env: { PUBLIC_URL: `${SITE}/${'long/'.repeat(40)}` } });
    const docs = (await app.library.search('zebra', { limit: 50 })).hits.map((h) => h.storeDoc);
    const fetched = new Date('2026-03-01T00:00:00Z');
    await app.stores.citations.put(docs.map((doc, i) => ({ doc, openalex: `W${1000 + i}`, count: 9_999_999 - i, fetched, references: docs.map((_, j) => `W${1000 + j}`) })));
    session = await driver.start(app);
  });
  afterAll(async () => {
    await session?.stop();
    await app?.dispose();
    corpus?.remove();
  });
  afterEach(() => session.expectWellBehaved());

  it('keeps every opened paper within the platform’s limits, its lists shown as text', async () => {
    const results = await session.command('/paper zebra');
    for (let i = 0; i < (results.menu?.options.length ?? 0); i++) {
      const opened = await session.choose(results, i);
      expect(opened.shown).toContain('References in the library (11)');
      expect(opened.shown).toContain(driver.literal('<@123>'));
    }
  });
});
