/**
 * Citations in the SQLite database (the interface is in `../citations.ts`, the rules and the
 * layout both stores share in `../citationRows.ts`). A paper's references are a blob on its row
 * and a row of `citation_refs`, a contentless FTS5 index whose rowid is the document and whose
 * words are the works' numbers, kept in step in the transaction that writes the row: an FTS5
 * row is deleted by giving its words again, which the blob keeps.
 *
 * Every write is one BEGIN IMMEDIATE transaction. One that changes counts takes the next store
 * generation, as a write of papers does (the `generation` meta row, read and moved on inside the
 * transaction), and stamps those papers with it, so the search index's catch-up reads them.
 */
import type { Db } from './db.js';
import {
  MOST_CITED_FIRST,
  checkCitationPage,
  checkFetchQuery,
  decodeWorks,
  docList,
  encodeWorks,
  isDoc,
  planPut,
  toCitations,
  workId,
  type CitationRow,
  type StoredCitation,
} from '../citationRows.js';
import type { CitationEntry, CitationPage, CitationStats, CitationStore, CitationWrite, FetchQuery, FetchTarget, PaperCitations } from '../citations.js';
import { openAlexNumber } from '../../papers/ids.js';

/** Documents read per statement (one JSON array parameter). */
const CHUNK = 5000;

type StoredRow = CitationRow & { refs: Buffer | null };
type Listed = { doc: number; cited_by: number };
type PageParams = { doc: number; limit: number; offset: number };

const IN_DOCS = 'IN (SELECT value FROM json_each(?))';

export class SqliteCitationStore implements CitationStore {
  private readonly stmts;
  private readonly tx;

  constructor(db: Db) {
    const s = {
      stored: db.prepare<[string], StoredRow>(`SELECT doc, openalex, cited_by, fetched, refs FROM paper_citations WHERE doc ${IN_DOCS}`),
      held: db.prepare<[string], number>(`SELECT doc FROM papers WHERE doc ${IN_DOCS}`).pluck(),
      put: db.prepare<{ doc: number; openalex: number; cited_by: number; fetched: string; refs: Buffer | null }>(
        `INSERT INTO paper_citations (doc, openalex, cited_by, fetched, refs) VALUES (@doc, @openalex, @cited_by, @fetched, @refs)
         ON CONFLICT (doc) DO UPDATE SET openalex = excluded.openalex, cited_by = excluded.cited_by, fetched = excluded.fetched, refs = excluded.refs`,
      ),
      addRefs: db.prepare<[number, string]>('INSERT INTO citation_refs (rowid, works) VALUES (?, ?)'),
      dropRefs: db.prepare<[number, string]>("INSERT INTO citation_refs (citation_refs, rowid, works) VALUES ('delete', ?, ?)"),
      dropRow: db.prepare<[number]>('DELETE FROM paper_citations WHERE doc = ?'),
      miss: db.prepare<[string, string]>(
        `INSERT INTO paper_citations (doc, fetched) SELECT doc, ? FROM papers WHERE doc ${IN_DOCS}
         ON CONFLICT (doc) DO UPDATE SET fetched = excluded.fetched WHERE openalex IS NULL`,
      ),
      generation: db.prepare<[], string>("SELECT value FROM meta WHERE key = 'generation'").pluck(),
      setGeneration: db.prepare<[string]>("INSERT INTO meta (key, value) VALUES ('generation', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
      stamp: db.prepare<[number, string]>(`UPDATE papers SET gen = ? WHERE doc ${IN_DOCS}`),
      counts: db.prepare<[string], CitationRow>(`SELECT doc, openalex, cited_by, fetched FROM paper_citations WHERE doc ${IN_DOCS} AND openalex IS NOT NULL`),
      refsOf: db.prepare<[number], Buffer | null>('SELECT refs FROM paper_citations WHERE doc = ?').pluck(),
      referencesPage: db.prepare<PageParams & { works: string }, Listed>(
        `SELECT c.doc, c.cited_by FROM paper_citations c JOIN papers p ON p.doc = c.doc
         WHERE c.openalex IN (SELECT value FROM json_each(@works)) AND c.doc <> @doc ORDER BY ${MOST_CITED_FIRST} LIMIT @limit OFFSET @offset`,
      ),
      referencesTotal: db.prepare<{ doc: number; works: string }, number>(
        `SELECT count(*) FROM paper_citations c JOIN papers p ON p.doc = c.doc WHERE c.openalex IN (SELECT value FROM json_each(@works)) AND c.doc <> @doc`,
      ).pluck(),
      workOf: db.prepare<[number], number | null>('SELECT openalex FROM paper_citations WHERE doc = ?').pluck(),
      citedByPage: db.prepare<PageParams & { work: string }, Listed>(
        `SELECT c.doc, c.cited_by FROM paper_citations c JOIN papers p ON p.doc = c.doc
         WHERE c.doc IN (SELECT rowid FROM citation_refs WHERE citation_refs MATCH @work) AND c.doc <> @doc
         ORDER BY ${MOST_CITED_FIRST} LIMIT @limit OFFSET @offset`,
      ),
      citedByTotal: db.prepare<{ doc: number; work: string }, number>(
        `SELECT count(*) FROM paper_citations c JOIN papers p ON p.doc = c.doc
         WHERE c.doc IN (SELECT rowid FROM citation_refs WHERE citation_refs MATCH @work) AND c.doc <> @doc`,
      ).pluck(),
      toFetch: db.prepare<{ after: number; limit: number; counts: string; misses: string }, { doc: number; openalex: number | null; fetched: string | null }>(
        `SELECT p.doc, c.openalex, c.fetched FROM papers p LEFT JOIN paper_citations c ON c.doc = p.doc
         WHERE p.doc > @after AND (c.doc IS NULL OR (c.openalex IS NOT NULL AND c.fetched < @counts) OR (c.openalex IS NULL AND c.fetched < @misses))
         ORDER BY p.doc LIMIT @limit`,
      ),
      byWork: db.prepare<[string], { doc: number; openalex: number }>(
        `SELECT c.doc, c.openalex FROM paper_citations c JOIN papers p ON p.doc = c.doc WHERE c.openalex ${IN_DOCS} ORDER BY c.doc`,
      ),
      stats: db.prepare<[], { matched: number; unmatched: number }>('SELECT count(openalex) AS matched, count(*) - count(openalex) AS unmatched FROM paper_citations'),
      allRefs: db.prepare<[], Buffer>('SELECT refs FROM paper_citations WHERE refs IS NOT NULL').pluck(),
    };
    this.stmts = s;

    /** Stamps `docs` with the next generation (none for none). */
    const stamp = (docs: readonly number[]) => {
      if (docs.length === 0) return;
      const gen = Number(s.generation.get() ?? 0) + 1;
      s.setGeneration.run(String(gen));
      for (let i = 0; i < docs.length; i += CHUNK) s.stamp.run(gen, JSON.stringify(docs.slice(i, i + CHUNK)));
    };
    const write = (doc: number, before: readonly number[], after: readonly number[]) => {
      if (sameWorks(before, after)) return;
      if (before.length > 0) s.dropRefs.run(doc, worksText(before));
      if (after.length > 0) s.addRefs.run(doc, worksText(after));
    };
    this.tx = {
      put: db.transaction((entries: readonly CitationEntry[]): CitationWrite => {
        const docs = docList(entries.map((e) => (typeof e === 'object' && e !== null ? e.doc : undefined)));
        const stored = new Map<number, StoredCitation>();
        const held = new Set<number>();
        for (let i = 0; i < docs.length; i += CHUNK) {
          const chunk = JSON.stringify(docs.slice(i, i + CHUNK));
          for (const row of s.stored.all(chunk)) stored.set(row.doc, { row, refs: decodeWorks(row.refs) });
          for (const doc of s.held.all(chunk)) held.add(doc);
        }
        const plan = planPut(entries, stored, held);
        for (const row of plan.rows) {
          s.put.run({ doc: row.doc, openalex: row.openalex, cited_by: row.cited_by, fetched: row.fetched, refs: row.refs.length > 0 ? encodeWorks(row.refs) : null });
          write(row.doc, row.before, row.refs);
        }
        stamp(plan.report.countsChanged);
        return plan.report;
      }),
      remove: db.transaction((docs: number[]): number => {
        const counted: number[] = [];
        let removed = 0;
        for (let i = 0; i < docs.length; i += CHUNK) {
          for (const row of s.stored.all(JSON.stringify(docs.slice(i, i + CHUNK)))) {
            write(row.doc, decodeWorks(row.refs), []);
            s.dropRow.run(row.doc);
            removed++;
            if (row.cited_by !== null) counted.push(row.doc);
          }
        }
        stamp(counted);
        return removed;
      }),
      miss: db.transaction((docs: number[], at: string): number => {
        let recorded = 0;
        for (let i = 0; i < docs.length; i += CHUNK) recorded += s.miss.run(at, JSON.stringify(docs.slice(i, i + CHUNK))).changes;
        return recorded;
      }),
    };
  }

  async put(entries: readonly CitationEntry[]): Promise<CitationWrite> {
    return this.tx.put.immediate(entries);
  }

  async markUnmatched(docs: readonly number[], at: Date): Promise<number> {
    const list = docList(docs);
    return list.length === 0 ? 0 : this.tx.miss.immediate(list, at.toISOString());
  }

  async remove(docs: readonly number[]): Promise<number> {
    const list = docList(docs);
    return list.length === 0 ? 0 : this.tx.remove.immediate(list);
  }

  async counts(docs: readonly number[]): Promise<Map<number, PaperCitations>> {
    const out = new Map<number, PaperCitations>();
    const list = docList(docs);
    for (let i = 0; i < list.length; i += CHUNK) {
      for (const row of this.stmts.counts.all(JSON.stringify(list.slice(i, i + CHUNK)))) out.set(row.doc, toCitations(row)!);
    }
    return out;
  }

  async references(doc: number, page: { offset: number; limit: number }): Promise<CitationPage> {
    checkCitationPage(page);
    if (!isDoc(doc)) return { entries: [], total: 0 };
    const works = decodeWorks(this.stmts.refsOf.get(doc));
    if (works.length === 0) return { entries: [], total: 0 };
    const params = { doc, works: JSON.stringify(works) };
    return { entries: this.stmts.referencesPage.all({ ...params, ...page }).map(toCited), total: this.stmts.referencesTotal.get(params)! };
  }

  async citedBy(doc: number, page: { offset: number; limit: number }): Promise<CitationPage> {
    checkCitationPage(page);
    const work = isDoc(doc) ? this.stmts.workOf.get(doc) : undefined;
    if (work === undefined || work === null) return { entries: [], total: 0 };
    const params = { doc, work: worksQuery(work) };
    return { entries: this.stmts.citedByPage.all({ ...params, ...page }).map(toCited), total: this.stmts.citedByTotal.get(params)! };
  }

  async toFetch(query: FetchQuery): Promise<FetchTarget[]> {
    checkFetchQuery(query);
    const rows = this.stmts.toFetch.all({ after: query.afterDoc, limit: query.limit, counts: query.countsBefore?.toISOString() ?? '', misses: query.unmatchedBefore?.toISOString() ?? '' });
    return rows.map((r) => ({ doc: r.doc, ...(r.openalex !== null && { openalex: workId(r.openalex) }), ...(r.fetched !== null && { fetched: r.fetched }) }));
  }

  async docsByOpenAlex(ids: readonly string[]): Promise<Map<string, number[]>> {
    const keys = new Map<number, string[]>();
    for (const id of ids) {
      const n = typeof id === 'string' ? openAlexNumber(id) : undefined;
      if (n !== undefined) keys.set(n, [...(keys.get(n) ?? []), id]);
    }
    const out = new Map<string, number[]>();
    const works = [...keys.keys()];
    for (let i = 0; i < works.length; i += CHUNK) {
      for (const row of this.stmts.byWork.all(JSON.stringify(works.slice(i, i + CHUNK)))) {
        for (const key of keys.get(row.openalex)!) out.set(key, [...(out.get(key) ?? []), row.doc]);
      }
    }
    return out;
  }

  async stats(): Promise<CitationStats> {
    const { matched, unmatched } = this.stmts.stats.get()!;
    let references = 0;
    for (const refs of this.stmts.allRefs.iterate()) references += decodeWorks(refs).length;
    return { matched, unmatched, references };
  }
}

/**
 * What removing a paper does to its citations, as a function the paper store calls in the
 * transaction that removes it: its row and its references go (SQLite may give its document
 * number to the next paper, which must not inherit them).
 * @example const forget = forgetCitations(db); forget(42);
 */
export function forgetCitations(db: Db): (doc: number) => void {
  const refs = db.prepare<[number], Buffer | null>('DELETE FROM paper_citations WHERE doc = ? RETURNING refs').pluck();
  const drop = db.prepare<[number, string]>("INSERT INTO citation_refs (citation_refs, rowid, works) VALUES ('delete', ?, ?)");
  return (doc) => {
    for (const blob of refs.all(doc)) if (blob) drop.run(doc, worksText(decodeWorks(blob)));
  };
}

/** A list of works as the words of its `citation_refs` row. */
function worksText(works: readonly number[]): string {
  return works.join(' ');
}

/** The FTS5 query for the rows that hold a work (a quoted string: a bare number would do, but a quoted one is never syntax). */
function worksQuery(work: number): string {
  return `"${work}"`;
}

function sameWorks(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

function toCited(row: Listed): { doc: number; count: number } {
  return { doc: row.doc, count: row.cited_by };
}
