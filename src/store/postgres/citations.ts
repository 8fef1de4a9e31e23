/**
 * Citations in PostgreSQL, shared by every instance (the interface is in `../citations.ts`, the
 * rules and the layout both stores share in `../citationRows.ts`). A paper's references are a
 * `bigint[]` in `citation_refs`, written only when they change (a refresh of counts rewrites
 * narrow rows, not the arrays and their index entries); its GIN index answers "which papers
 * reference this work".
 *
 * A write that may change counts takes the generation lock first, as writes of papers do (so
 * the two take turns, and a paper's removal cannot cross a count's write), and moves to the next
 * generation only if a count changed: those papers are stamped with it and `NOTIFY` tells the
 * instances following the store, in the same transaction. A batch is a handful of statements
 * whatever its size (rows as arrays through `unnest`); repeated after a lost connection that
 * had committed, it finds everything as it would leave it and changes nothing.
 */
import type pg from 'pg';
import type { Postgres } from './connection.js';
import { PAPERS_CHANNEL, lockGeneration, nextGeneration } from './papers.js';
import { checkCitationPage, checkFetchQuery, docList, isDoc, planPut, toCitations, workId, MOST_CITED_FIRST, type CitationRow, type StoredCitation } from '../citationRows.js';
import type { CitationEntry, CitationPage, CitationStats, CitationStore, CitationWrite, FetchQuery, FetchTarget, PaperCitations } from '../citations.js';
import { openAlexNumber } from '../../papers/ids.js';

const PUT = `INSERT INTO paper_citations (doc, openalex, cited_by, fetched)
  SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::integer[], $4::timestamptz[])
  ON CONFLICT (doc) DO UPDATE SET openalex = excluded.openalex, cited_by = excluded.cited_by, fetched = excluded.fetched`;
/** Papers' references as they now are (`$2`: each list as text, `{1,2,3}`); an empty list deletes the row. */
const PUT_REFS = `WITH u AS (SELECT * FROM unnest($1::bigint[], $2::text[]) AS u(doc, works)),
  gone AS (DELETE FROM citation_refs r USING u WHERE r.doc = u.doc AND u.works = '{}')
  INSERT INTO citation_refs (doc, works) SELECT doc, works::bigint[] FROM u WHERE works <> '{}'
  ON CONFLICT (doc) DO UPDATE SET works = excluded.works`;

/**
 * A page of `hits` (a query of `doc, cited_by` as `c`, with `$1` the document) and their total,
 * in one round trip: one row with a null document when the page is empty.
 */
const paged = (hits: string) => `WITH hits AS (${hits})
  SELECT (SELECT count(*) FROM hits) AS total, h.doc, h.cited_by
  FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT * FROM hits c ORDER BY ${MOST_CITED_FIRST} LIMIT $2 OFFSET $3) h ON true`;
const REFERENCES = paged(`SELECT c.doc, c.cited_by FROM citation_refs r CROSS JOIN LATERAL unnest(r.works) AS w(work)
  JOIN paper_citations c ON c.openalex = w.work JOIN papers p ON p.doc = c.doc WHERE r.doc = $1 AND c.doc <> $1`);
const CITED_BY = paged(`SELECT c.doc, c.cited_by FROM citation_refs r JOIN paper_citations c ON c.doc = r.doc JOIN papers p ON p.doc = c.doc
  WHERE r.works @> ARRAY[(SELECT openalex FROM paper_citations WHERE doc = $1)] AND r.doc <> $1`);

type StoredRow = CitationRow & { refs: Array<string | number> | null };

export class PgCitationStore implements CitationStore {
  constructor(private readonly db: Postgres) {}

  async put(entries: readonly CitationEntry[]): Promise<CitationWrite> {
    const docs = docList(entries.map((e) => (typeof e === 'object' && e !== null ? e.doc : undefined)));
    return this.db.transaction(async (c) => {
      await lockGeneration(c);
      const stored = new Map<number, StoredCitation>();
      const { rows } = await c.query<StoredRow>(
        'SELECT c.doc, c.openalex, c.cited_by, c.fetched, r.works AS refs FROM paper_citations c LEFT JOIN citation_refs r ON r.doc = c.doc WHERE c.doc = ANY($1::bigint[])',
        [docs],
      );
      for (const row of rows) stored.set(row.doc, { row, refs: (row.refs ?? []).map(Number) });
      const held = await c.query<{ doc: number }>('SELECT doc FROM papers WHERE doc = ANY($1::bigint[])', [docs]);
      const plan = planPut(entries, stored, new Set(held.rows.map((r) => r.doc)));
      if (plan.rows.length > 0) {
        const column = <K extends 'doc' | 'openalex' | 'cited_by' | 'fetched'>(k: K) => plan.rows.map((r) => r[k]);
        await c.query(PUT, [column('doc'), column('openalex'), column('cited_by'), column('fetched')]);
        const moved = plan.rows.filter((r) => r.refs.length !== r.before.length || r.refs.some((n, i) => n !== r.before[i]));
        if (moved.length > 0) await c.query(PUT_REFS, [moved.map((r) => r.doc), moved.map((r) => `{${r.refs.join(',')}}`)]);
      }
      await stamp(c, plan.report.countsChanged);
      return plan.report;
    });
  }

  async markUnmatched(docs: readonly number[], at: Date): Promise<number> {
    const list = docList(docs);
    if (list.length === 0) return 0;
    const { rowCount } = await this.db.query(
      `INSERT INTO paper_citations (doc, fetched) SELECT doc, $2 FROM papers WHERE doc = ANY($1::bigint[])
       ON CONFLICT (doc) DO UPDATE SET fetched = excluded.fetched WHERE paper_citations.openalex IS NULL`,
      [list, at.toISOString()],
    );
    return rowCount ?? 0;
  }

  async remove(docs: readonly number[]): Promise<number> {
    const list = docList(docs);
    if (list.length === 0) return 0;
    return this.db.transaction(async (c) => {
      await lockGeneration(c);
      const { rows } = await c.query<{ doc: number; cited_by: number | null }>('DELETE FROM paper_citations WHERE doc = ANY($1::bigint[]) RETURNING doc, cited_by', [list]);
      await c.query('DELETE FROM citation_refs WHERE doc = ANY($1::bigint[])', [list]);
      await stamp(c, rows.filter((r) => r.cited_by !== null).map((r) => r.doc));
      return rows.length;
    });
  }

  async counts(docs: readonly number[]): Promise<Map<number, PaperCitations>> {
    const out = new Map<number, PaperCitations>();
    const list = docList(docs);
    if (list.length === 0) return out;
    const { rows } = await this.db.query<CitationRow>('SELECT doc, openalex, cited_by, fetched FROM paper_citations WHERE doc = ANY($1::bigint[]) AND openalex IS NOT NULL', [list]);
    for (const row of rows) out.set(row.doc, toCitations(row)!);
    return out;
  }

  async references(doc: number, page: { offset: number; limit: number }): Promise<CitationPage> {
    return this.page(REFERENCES, doc, page);
  }

  async citedBy(doc: number, page: { offset: number; limit: number }): Promise<CitationPage> {
    return this.page(CITED_BY, doc, page);
  }

  async toFetch(query: FetchQuery): Promise<FetchTarget[]> {
    checkFetchQuery(query);
    const { rows } = await this.db.query<{ doc: number; openalex: number | null; fetched: string | null }>(
      `SELECT p.doc, c.openalex, c.fetched FROM papers p LEFT JOIN paper_citations c ON c.doc = p.doc
       WHERE p.doc > $1 AND (c.doc IS NULL OR (c.openalex IS NOT NULL AND c.fetched < $3) OR (c.openalex IS NULL AND c.fetched < $4))
       ORDER BY p.doc LIMIT $2`,
      [query.afterDoc, query.limit, query.countsBefore?.toISOString() ?? null, query.unmatchedBefore?.toISOString() ?? null],
    );
    return rows.map((r) => ({ doc: r.doc, ...(r.openalex !== null && { openalex: workId(r.openalex) }), ...(r.fetched !== null && { fetched: r.fetched }) }));
  }

  async docsByOpenAlex(ids: readonly string[]): Promise<Map<string, number[]>> {
    const keys = new Map<number, string[]>();
    for (const id of ids) {
      const n = typeof id === 'string' ? openAlexNumber(id) : undefined;
      if (n !== undefined) keys.set(n, [...(keys.get(n) ?? []), id]);
    }
    const out = new Map<string, number[]>();
    if (keys.size === 0) return out;
    const { rows } = await this.db.query<{ doc: number; openalex: number }>(
      'SELECT c.doc, c.openalex FROM paper_citations c JOIN papers p ON p.doc = c.doc WHERE c.openalex = ANY($1::bigint[]) ORDER BY c.doc',
      [[...keys.keys()]],
    );
    for (const row of rows) for (const key of keys.get(row.openalex)!) out.set(key, [...(out.get(key) ?? []), row.doc]);
    return out;
  }

  async stats(): Promise<CitationStats> {
    const { rows } = await this.db.query<{ matched: number; unmatched: number; refs: number }>(
      `SELECT count(openalex)::int AS matched, (count(*) - count(openalex))::int AS unmatched,
        (SELECT coalesce(sum(cardinality(works)), 0) FROM citation_refs)::bigint AS refs FROM paper_citations`,
    );
    const { matched, unmatched, refs } = rows[0]!;
    return { matched, unmatched, references: refs };
  }

  private async page(sql: string, doc: number, page: { offset: number; limit: number }): Promise<CitationPage> {
    checkCitationPage(page);
    if (!isDoc(doc)) return { entries: [], total: 0 };
    const { rows } = await this.db.query<{ total: number; doc: number | null; cited_by: number | null }>(sql, [doc, page.limit, page.offset]);
    return { entries: rows.filter((r) => r.doc !== null).map((r) => ({ doc: r.doc!, count: r.cited_by! })), total: rows[0]!.total };
  }
}

/** Stamps `docs` with the next generation and tells the instances following the store (nothing for none). */
async function stamp(c: pg.PoolClient, docs: readonly number[]): Promise<void> {
  if (docs.length === 0) return;
  const gen = await nextGeneration(c);
  await c.query('UPDATE papers SET gen = $1 WHERE doc = ANY($2::bigint[])', [gen, docs]);
  await c.query('SELECT pg_notify($1, $2)', [PAPERS_CHANNEL, String(gen)]);
}
