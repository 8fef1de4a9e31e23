/**
 * The CitationStore contract on SQLite and PostgreSQL: a paper's count, work and date kept and
 * shown on the paper and in the index rows under a new generation (and only when the count
 * changes); counts that cannot be believed refused per entry; references in the library
 * resolved both ways whichever paper is matched first, most cited first; the cursor a sync
 * resumes from; misses that never lose a count; a failed write that leaves every count as it
 * was; and a removed paper taking its citations with it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PaperRecord } from '../../src/papers/model.js';
import { MAX_CITED_BY, MAX_REFERENCES, type CitationEntry, type CitationStore, type CitationWrite } from '../../src/store/citations.js';
import type { UpsertOptions } from '../../src/store/papers.js';
import { BACKENDS, type Instance, type TestStore } from './contract/backends.js';

const options: UpsertOptions = { source: 's', classify: () => [], now: new Date('2026-01-01T00:00:00.000Z') };
const record = (n: number): PaperRecord => ({
  title: `Paper number ${n} on sparse attention`,
  authors: [`Author ${n}`],
  abstract: '',
  venue: '',
  year: 2020,
  status: '',
  keywords: [],
  labels: [],
  links: {},
  externalIds: { arxiv: `2601.${String(10000 + n)}` },
});
const day = (d: number) => new Date(Date.UTC(2026, 2, d));
const page = { offset: 0, limit: 50 };

describe.each(BACKENDS)('CitationStore on $name', (backend) => {
  if (backend.skip) {
    it.skip(`skipped: ${backend.skip}`, () => undefined);
    return;
  }
  let store: TestStore;
  let a: Instance;
  let citations: CitationStore;
  /** The document numbers of papers 1…n. */
  let doc: number[];
  beforeEach(async () => {
    store = await backend.create();
    a = await store.instance();
    citations = a.citations;
    const results = await a.papers.write((tx) => tx.upsertBatch([1, 2, 3, 4, 5, 6].map(record), options));
    doc = [0, ...results.map((r) => ('doc' in r ? r.doc : 0))];
  });
  afterEach(() => store.dispose());

  const entry = (n: number, work: number, count: number, over: Partial<CitationEntry> = {}): CitationEntry => ({ doc: doc[n]!, openalex: `W${work}`, count, fetched: day(1), ...over });
  const docsOf = (p: { entries: Array<{ doc: number; count: number }> }) => p.entries.map((e) => [doc.indexOf(e.doc), e.count]);

  it('keeps a count, its work and date, on the paper and in the index rows, under a new generation only when a count changes', async () => {
    expect(await a.papers.generation()).toBe(1);
    const first = await citations.put([entry(1, 2741809807, 12345), entry(2, 42, 0)]);
    expect(first).toEqual({ written: 2, unchanged: 0, countsChanged: [doc[1], doc[2]], refused: [], droppedReferences: 0 });
    expect(await a.papers.generation()).toBe(2);
    expect(await citations.counts([doc[1]!, doc[2]!, doc[3]!, 999])).toEqual(
      new Map([
        [doc[1], { count: 12345, openalex: 'W2741809807', fetched: day(1).toISOString() }],
        [doc[2], { count: 0, openalex: 'W42', fetched: day(1).toISOString() }],
      ]),
    );
    expect((await a.papers.get('arxiv:2601.10001'))!.citations).toEqual({ count: 12345, openalex: 'W2741809807', fetched: day(1).toISOString() });
    expect((await a.papers.papersByDocs([doc[2]!, doc[3]!])).get(doc[2]!)!.citations?.count).toBe(0);
    expect((await a.papers.papersByDocs([doc[3]!])).get(doc[3]!)!.citations).toBeUndefined();
    expect((await a.papers.findByRef({ kind: 'arxiv', id: '2601.10001' }))!.paper.citations?.openalex).toBe('W2741809807');
    // The index at generation 1 lacks exactly the two counted papers.
    expect((await a.papers.rowsChanged(1, 2, 0, 10)).map((r) => [r.doc, r.citedBy])).toEqual([[doc[1], 12345], [doc[2], 0]]);
    const all: Array<[number, number | null]> = [];
    for await (const row of a.papers.rowsForIndex()) all.push([row.doc, row.citedBy]);
    expect(all).toEqual(doc.slice(1).map((d, i) => [d, [12345, 0][i] ?? null]));

    // The same batch again changes nothing; a later fetch of the same count changes its date only.
    expect(await citations.put([entry(1, 2741809807, 12345), entry(2, 42, 0)])).toMatchObject({ written: 0, unchanged: 2, countsChanged: [] });
    expect(await citations.put([entry(1, 2741809807, 12345, { fetched: day(2) })])).toMatchObject({ written: 1, countsChanged: [] });
    expect(await a.papers.generation()).toBe(2);
    expect((await citations.counts([doc[1]!])).get(doc[1]!)!.fetched).toBe(day(2).toISOString());
    // Another count is a write of the paper: the index reads it at the next generation.
    expect(await citations.put([entry(1, 2741809807, 12400, { fetched: day(3) })])).toMatchObject({ written: 1, countsChanged: [doc[1]] });
    expect(await a.papers.generation()).toBe(3);
    expect((await a.papers.rowsChanged(2, 3, 0, 10)).map((r) => [r.doc, r.citedBy])).toEqual([[doc[1], 12400]]);
    // A paper named twice in a batch keeps the last entry.
    expect(await citations.put([entry(3, 7, 1), entry(3, 7, 2)])).toMatchObject({ written: 2, countsChanged: [doc[3]] });
    expect((await citations.counts([doc[3]!])).get(doc[3]!)!.count).toBe(2);
  });

  it('refuses, entry by entry, a count, id, date or paper it cannot believe, and writes the rest', async () => {
    await citations.put([entry(1, 11, 100)]);
    const bad: Array<[unknown, RegExp]> = [
      [entry(1, 11, -1), /the count -1 is not a whole number from 0 to 10000000/],
      [entry(1, 11, MAX_CITED_BY + 1), /the count 10000001 is not/],
      [entry(1, 11, 12.5), /the count 12.5 is not/],
      [entry(1, 11, Number.NaN), /the count NaN is not/],
      [entry(1, 11, Number.POSITIVE_INFINITY), /the count Infinity is not/],
      [{ ...entry(1, 11, 0), count: '12' }, /the count "12" is not/],
      [{ ...entry(1, 11, 0), count: null }, /the count null is not/],
      [{ ...entry(1, 11, 5), openalex: 'X11' }, /"X11" is not an OpenAlex work id/],
      [{ ...entry(1, 11, 5), openalex: 'W0' }, /"W0" is not an OpenAlex work id/],
      [{ ...entry(1, 11, 5), openalex: 'W99999999999999999999' }, /is not an OpenAlex work id/],
      [{ ...entry(1, 11, 5), openalex: 12 }, /12 is not an OpenAlex work id/],
      [entry(1, 11, 5, { fetched: new Date('not a date') }), /the fetch time Invalid Date is not a date/],
      [{ ...entry(1, 11, 5), fetched: '2026-03-01' }, /the fetch time "2026-03-01" is not a date/],
      [{ ...entry(1, 11, 5), references: 'W1 W2' }, /the references are not a list/],
      [{ ...entry(1, 11, 5), doc: 0 }, /the document number 0 is not a whole number ≥ 1/],
      [{ ...entry(1, 11, 5), doc: 2.5 }, /the document number 2.5 is not/],
      [{ ...entry(1, 11, 5), doc: 987_654 }, /the library holds no paper with document number 987654/],
      [null, /the entry is not an object/],
    ];
    const report = await citations.put([...bad.map(([e]) => e as CitationEntry), entry(2, 22, 7)]);
    expect(report).toMatchObject({ written: 1, unchanged: 0, countsChanged: [doc[2]] });
    expect(report.refused).toHaveLength(bad.length);
    for (const [i, [, reason]] of bad.entries()) expect(report.refused[i]!.reason).toMatch(reason);
    expect(report.refused.map((r) => r.doc).slice(-4)).toEqual([0, 0, 987_654, 0]);
    // What was stored stays.
    expect((await citations.counts([doc[1]!])).get(doc[1]!)).toMatchObject({ count: 100, openalex: 'W11' });
    expect(await citations.put([])).toEqual({ written: 0, unchanged: 0, countsChanged: [], refused: [], droppedReferences: 0 });
  });

  it('resolves references in the library both ways, whichever paper is matched first, most cited first', async () => {
    // Paper 1 references the works of papers 2, 3 and 4 before any of them is matched.
    await citations.put([entry(1, 101, 5, { references: ['W102', 'https://openalex.org/W103', 'W999', 'W104'] })]);
    expect(await citations.references(doc[1]!, page)).toEqual({ entries: [], total: 0 });
    await citations.put([entry(2, 102, 10), entry(3, 103, 30)]);
    expect(docsOf(await citations.references(doc[1]!, page))).toEqual([[3, 30], [2, 10]]);
    expect(docsOf(await citations.citedBy(doc[2]!, page))).toEqual([[1, 5]]);
    // Ties go by document number; pages say the total.
    await citations.put([entry(4, 104, 30), entry(5, 105, 50, { references: ['W103'] }), entry(6, 106, 1, { references: ['W103', 'W101'] })]);
    expect(await citations.references(doc[1]!, page)).toMatchObject({ total: 3 });
    expect(docsOf(await citations.references(doc[1]!, page))).toEqual([[3, 30], [4, 30], [2, 10]]);
    expect(docsOf(await citations.references(doc[1]!, { offset: 1, limit: 1 }))).toEqual([[4, 30]]);
    expect(await citations.references(doc[1]!, { offset: 9, limit: 5 })).toEqual({ entries: [], total: 3 });
    expect(docsOf(await citations.citedBy(doc[3]!, page))).toEqual([[5, 50], [1, 5], [6, 1]]);
    expect((await citations.citedBy(doc[3]!, { offset: 0, limit: 1 })).total).toBe(3);
    // New references replace the old; a refresh without them keeps them.
    await citations.put([entry(1, 101, 6, { references: ['W104'] })]);
    expect(docsOf(await citations.references(doc[1]!, page))).toEqual([[4, 30]]);
    expect(await citations.citedBy(doc[2]!, page)).toEqual({ entries: [], total: 0 });
    await citations.put([entry(1, 101, 7, { fetched: day(9) })]);
    expect(docsOf(await citations.references(doc[1]!, page))).toEqual([[4, 30]]);
    // Paper 3 matched again, to another work: the papers that referenced the old one no longer cite it.
    await citations.put([entry(3, 333, 30)]);
    expect(await citations.citedBy(doc[3]!, page)).toEqual({ entries: [], total: 0 });
    expect(docsOf(await citations.references(doc[5]!, page))).toEqual([]);
    expect(await citations.stats()).toEqual({ matched: 6, unmatched: 0, references: 4 });
    // An empty list says it references none.
    await citations.put([entry(6, 106, 1, { references: [] })]);
    expect(await citations.stats()).toEqual({ matched: 6, unmatched: 0, references: 2 });
    expect(await citations.references(doc[6]!, page)).toEqual({ entries: [], total: 0 });
    // Hostile pages.
    await expect(citations.references(doc[1]!, { offset: -1, limit: 5 })).rejects.toThrow(RangeError);
    await expect(citations.citedBy(doc[1]!, { offset: 0, limit: 1e9 })).rejects.toThrow(RangeError);
    expect(await citations.citedBy(Number.NaN, page)).toEqual({ entries: [], total: 0 });
  });

  it('keeps each referenced work once, drops what is not a work id and the work itself, and says how many', async () => {
    const references = ['W102', 'W102', 'w103', 'nonsense', '', 'W101', 42, null, 'https://openalex.org/works/W104'] as unknown as string[];
    const report = await citations.put([entry(1, 101, 5, { references }), entry(2, 102, 1), entry(3, 103, 1), entry(4, 104, 1)]);
    expect(report.droppedReferences).toBe(6);
    expect(docsOf(await citations.references(doc[1]!, page)).map(([n]) => n)).toEqual([2, 3, 4]);
    const many = Array.from({ length: MAX_REFERENCES + 5 }, (_, i) => `W${1000 + i}`);
    expect((await citations.put([entry(5, 105, 1, { references: many })])).droppedReferences).toBe(5);
    expect((await citations.stats()).references).toBe(3 + MAX_REFERENCES);
  });

  it('finds papers by OpenAlex id, in any of its forms; a work held twice names both papers', async () => {
    await citations.put([entry(1, 2741809807, 1), entry(2, 2741809807, 1), entry(3, 5, 1)]);
    const found = await citations.docsByOpenAlex(['W2741809807', 'https://openalex.org/W5', 'W6', 'junk', 'w5']);
    expect(found).toEqual(new Map([['W2741809807', [doc[1], doc[2]]], ['https://openalex.org/W5', [doc[3]]], ['w5', [doc[3]]]]));
    expect(await citations.docsByOpenAlex([])).toEqual(new Map());
  });

  it('says which papers to ask about, as a cursor over documents: never asked, old counts, old misses', async () => {
    await citations.put([entry(1, 101, 5, { fetched: day(1) }), entry(3, 103, 5, { fetched: day(20) })]);
    expect(await citations.markUnmatched([doc[2]!, doc[4]!, 987_654, -3], day(10))).toBe(2);
    // A miss never loses a match.
    expect(await citations.markUnmatched([doc[1]!], day(11))).toBe(0);
    expect((await citations.counts([doc[1]!])).get(doc[1]!)).toMatchObject({ count: 5, fetched: day(1).toISOString() });
    const never = await citations.toFetch({ afterDoc: 0, limit: 10 });
    expect(never).toEqual([{ doc: doc[5] }, { doc: doc[6] }]);
    expect(await citations.toFetch({ afterDoc: doc[5]!, limit: 10 })).toEqual([{ doc: doc[6] }]);
    expect((await citations.toFetch({ afterDoc: 0, limit: 10, countsBefore: day(15) })).map((t) => t.doc)).toEqual([doc[1], doc[5], doc[6]]);
    expect((await citations.toFetch({ afterDoc: 0, limit: 10, countsBefore: day(15) }))[0]).toEqual({ doc: doc[1], openalex: 'W101', fetched: day(1).toISOString() });
    expect(await citations.toFetch({ afterDoc: 0, limit: 2, unmatchedBefore: day(15) })).toEqual([{ doc: doc[2], fetched: day(10).toISOString() }, { doc: doc[4], fetched: day(10).toISOString() }]);
    expect(await citations.stats()).toEqual({ matched: 2, unmatched: 2, references: 0 });
    // Asked again without a match: the miss is dated anew. Then matched: the miss is gone.
    expect(await citations.markUnmatched([doc[2]!], day(16))).toBe(1);
    expect((await citations.toFetch({ afterDoc: 0, limit: 10, unmatchedBefore: day(15) })).map((t) => t.doc)).toEqual([doc[4], doc[5], doc[6]]);
    await citations.put([entry(2, 102, 3)]);
    expect(await citations.stats()).toEqual({ matched: 3, unmatched: 1, references: 0 });
    await expect(citations.toFetch({ afterDoc: -1, limit: 10 })).rejects.toThrow(RangeError);
    await expect(citations.toFetch({ afterDoc: 0, limit: 10, countsBefore: new Date('x') })).rejects.toThrow(RangeError);
  });

  it('a write that fails part way leaves every count as it was, and no new generation', async () => {
    await citations.put([entry(1, 101, 5, { references: ['W102'] }), entry(2, 102, 9)]);
    const gen = await a.papers.generation();
    const failing = doc[3]!;
    if (backend.name === 'sqlite') {
      await a.rawExec(`CREATE TRIGGER fail_citations BEFORE INSERT ON paper_citations WHEN NEW.doc = ${failing} BEGIN SELECT RAISE(ABORT, 'the disk is full'); END`);
    } else {
      await a.rawExec(`CREATE FUNCTION fail_citations() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'the disk is full'; END $$ LANGUAGE plpgsql;
        CREATE TRIGGER fail_citations BEFORE INSERT ON paper_citations FOR EACH ROW WHEN (NEW.doc = ${failing}) EXECUTE FUNCTION fail_citations()`);
    }
    await expect(citations.put([entry(1, 101, 6, { references: [] }), entry(2, 102, 0), entry(3, 103, 1)])).rejects.toThrow('the disk is full');
    expect(await a.papers.generation()).toBe(gen);
    expect([...(await citations.counts([doc[1]!, doc[2]!, doc[3]!])).entries()].map(([d, c]) => [doc.indexOf(d), c.count])).toEqual([[1, 5], [2, 9]]);
    expect(docsOf(await citations.references(doc[1]!, page))).toEqual([[2, 9]]);
  });

  it('writes at once (two instances where they can be in one process), beside a write of papers: every count lands, each change of counts one generation', async () => {
    const b = backend.noConcurrentInstances === undefined ? await store.instance() : a;
    const gen = await a.papers.generation();
    const writes = await Promise.all([
      a.citations.put([entry(1, 101, 1, { references: ['W102'] }), entry(2, 102, 2)]),
      b.citations.put([entry(2, 102, 2), entry(3, 103, 3, { references: ['W101'] })]),
      b.papers.write((tx) => tx.upsertBatch([record(8)], options)),
      a.citations.put([entry(4, 104, 4)]),
      b.citations.markUnmatched([doc[5]!], day(2)),
    ]);
    const counted = writes.filter((w): w is CitationWrite => typeof w === 'object' && 'countsChanged' in w);
    expect(counted.map((w) => w.countsChanged.length).reduce((x, y) => x + y)).toBe(4);
    expect(await a.papers.generation()).toBe(gen + 4);
    expect([...(await b.citations.counts(doc.slice(1))).values()].map((c) => c.count).sort()).toEqual([1, 2, 3, 4]);
    expect(docsOf(await b.citations.citedBy(doc[1]!, page))).toEqual([[3, 3]]);
    expect((await a.papers.rowsChanged(gen, gen + 4, 0, 20)).filter((r) => r.citedBy !== null)).toHaveLength(4);
  });

  it('forgets the citations of a paper removed, and those remove() is given, under a new generation', async () => {
    await citations.put([entry(1, 101, 5, { references: ['W102'] }), entry(2, 102, 9, { references: ['W101'] }), entry(3, 103, 1)]);
    await a.papers.write((tx) => tx.remove('arxiv:2601.10002'));
    expect(await citations.counts([doc[2]!])).toEqual(new Map());
    expect(await citations.references(doc[1]!, page)).toEqual({ entries: [], total: 0 });
    expect(await citations.citedBy(doc[1]!, page)).toEqual({ entries: [], total: 0 });
    expect(await citations.stats()).toEqual({ matched: 2, unmatched: 0, references: 1 });
    // A new paper (SQLite may give it the removed one's number) starts with nothing.
    const [added] = await a.papers.write((tx) => tx.upsertBatch([record(7)], options));
    const fresh = 'doc' in added! ? added.doc : 0;
    expect(await citations.counts([fresh])).toEqual(new Map());
    expect(await citations.references(fresh, page)).toEqual({ entries: [], total: 0 });

    const gen = await a.papers.generation();
    expect(await citations.remove([doc[1]!, doc[3]!, doc[4]!])).toBe(2);
    expect(await a.papers.generation()).toBe(gen + 1);
    expect((await a.papers.rowsChanged(gen, gen + 1, 0, 10)).map((r) => [r.doc, r.citedBy])).toEqual([[doc[1], null], [doc[3], null]]);
    expect(await citations.stats()).toEqual({ matched: 0, unmatched: 0, references: 0 });
    expect(await citations.remove([])).toBe(0);
  });
});
