/**
 * The paper store in PostgreSQL, shared by every instance (the merge rules are in
 * `../paperRecords.ts`, the contract in `../papers.ts`). Reads on the serving path are one
 * statement each (`= ANY($1)` for a page of papers or a phrase check's abstracts). A batch of
 * upserts is a handful of statements whatever its size: its identifiers and the papers they name
 * read at once, merged in memory, then written with multi-row INSERT and UPDATE over arrays.
 *
 * Generations: every write first locks the `generation` row of `meta` (so writers of papers take
 * turns, as SQLite's single writer does, and each reads what the one before wrote); one that
 * changes papers moves it to the next generation. Generations therefore commit in order, and an
 * index that has read generation G has every row of G and below. A write that changed papers sends
 * `NOTIFY paperscout_papers` with the generation in the same transaction: instances listening hear
 * of it when (and only if) it commits.
 */
import type pg from 'pg';
import type { Paper, PaperRecord } from '../../papers/model.js';
import { refAlias, titleAuthorAlias, type PaperRef } from '../../papers/ids.js';
import { TEXT_VERSION } from '../../text.js';
import { STATUS_VERSION } from '../../papers/status.js';
import {
  INDEX_PAGE_ROWS,
  STATUS_VERSION_KEY,
  TEXT_VERSION_KEY,
  type IndexRow,
  type PaperStore,
  type PaperWriter,
  type StatusUpgrade,
  type StoredPaper,
  type TextUpgrade,
  type UpsertOptions,
  type UpsertResult,
} from '../papers.js';
import { CITATIONS_JOIN, fallbackLookups, INDEX_COLUMNS, INDEX_FROM, PAPERS_READ, PAPER_READ_COLUMNS, lookupsFor, planUpserts, settleDocs, toIndexRow, toPaper, type PaperRow, type PaperWrite } from '../paperRecords.js';
import { TITLE_COLUMNS, TextUpgradePlanner, reclassified, restatusedRow, sharedAliases, statusRenames, type TextUpgradeRow } from '../paperUpgrades.js';
import type { Postgres } from './connection.js';
import { PUT_HARVEST } from './harvests.js';

/** A row of the index's columns (`INDEX_COLUMNS`). */
type IndexedRow = Parameters<typeof toIndexRow>[0];

/** The channel a write that changed papers notifies, with its generation. */
export const PAPERS_CHANNEL = 'paperscout_papers';

/** The columns a paper is written with, in the order of the arrays below. */
const COLUMNS = [
  'id',
  'title',
  'authors',
  'abstract',
  'venue',
  'year',
  'status',
  'topics',
  'keywords',
  'labels',
  'links',
  'external_ids',
  'published',
  'tldr',
  'source',
  'content_hash',
  'first_seen',
  'updated_at',
] as const satisfies ReadonlyArray<keyof PaperWrite>;
const TYPES: Record<(typeof COLUMNS)[number], string> = {
  id: 'text',
  title: 'text',
  authors: 'text',
  abstract: 'text',
  venue: 'text',
  year: 'integer',
  status: 'text',
  topics: 'text',
  keywords: 'text',
  labels: 'text',
  links: 'text',
  external_ids: 'text',
  published: 'text',
  tldr: 'text',
  source: 'text',
  content_hash: 'text',
  first_seen: 'timestamptz',
  updated_at: 'timestamptz',
};
const UNNEST = `unnest(${COLUMNS.map((c, i) => `$${i + 1}::${TYPES[c]}[]`).join(', ')}) AS u(${COLUMNS.join(', ')})`;
const GEN = `$${COLUMNS.length + 1}`;
const INSERT = `INSERT INTO papers (${COLUMNS.join(', ')}, gen) SELECT ${COLUMNS.join(', ')}, ${GEN} FROM ${UNNEST} ON CONFLICT (id) DO NOTHING RETURNING id, doc`;
const UPDATE = `UPDATE papers p SET ${COLUMNS.filter((c) => c !== 'id' && c !== 'first_seen')
  .map((c) => `${c} = u.${c}`)
  .join(', ')}, gen = ${GEN} FROM ${UNNEST} WHERE p.id = u.id`;

/** The arrays of a multi-row write, one per column. */
function columnArrays(rows: readonly PaperWrite[]): unknown[] {
  return COLUMNS.map((c) => rows.map((r) => r[c]));
}

/** A pool or one client of it: where a statement goes. */
type Query = { query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> };

export class PgPaperStore implements PaperStore {
  constructor(private readonly db: Postgres) {}

  async count(): Promise<number> {
    return (await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM papers')).rows[0]!.n;
  }

  async statusCounts(): Promise<Array<[string, number]>> {
    const { rows } = await this.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM papers GROUP BY status ORDER BY n DESC, status');
    return rows.map((r) => [r.status, r.n]);
  }

  async generation(): Promise<number> {
    return Number((await this.getMeta('generation')) ?? 0);
  }

  async getMeta(key: string): Promise<string | undefined> {
    return (await this.db.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key])).rows[0]?.value;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await setMeta(this.db, key, value);
  }

  async get(id: string): Promise<Paper | undefined> {
    const row = (await this.db.query<PaperRow>(`SELECT ${PAPERS_READ} WHERE p.id = $1`, [id])).rows[0];
    return row && toPaper(row);
  }

  async docOf(id: string): Promise<number | undefined> {
    return (await this.db.query<{ doc: number }>('SELECT doc FROM papers WHERE id = $1', [id])).rows[0]?.doc;
  }

  async papersByDocs(docs: readonly number[]): Promise<Map<number, Paper>> {
    const out = new Map<number, Paper>();
    if (docs.length === 0) return out;
    for (const row of (await this.db.query<PaperRow>(`SELECT ${PAPERS_READ} WHERE p.doc = ANY($1::bigint[])`, [docs])).rows) out.set(row.doc, toPaper(row));
    return out;
  }

  async papersByIds(ids: readonly string[]): Promise<Map<string, StoredPaper>> {
    const out = new Map<string, StoredPaper>();
    if (ids.length === 0) return out;
    for (const row of (await this.db.query<PaperRow>(`SELECT ${PAPERS_READ} WHERE p.id = ANY($1::text[])`, [ids])).rows) out.set(row.id, { doc: row.doc, paper: toPaper(row) });
    return out;
  }

  async docsOf(ids: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (ids.length === 0) return out;
    for (const row of (await this.db.query<{ id: string; doc: number }>('SELECT id, doc FROM papers WHERE id = ANY($1::text[])', [ids])).rows) out.set(row.id, row.doc);
    return out;
  }

  async abstractsOf(docs: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (docs.length === 0) return out;
    for (const row of (await this.db.query<{ doc: number; abstract: string }>('SELECT doc, abstract FROM papers WHERE doc = ANY($1::bigint[])', [docs])).rows) {
      out.set(row.doc, row.abstract);
    }
    return out;
  }

  async findByRef(ref: PaperRef): Promise<StoredPaper | undefined> {
    const row = await findByAlias(this.db, refAlias(ref), true);
    return row && { doc: row.doc, paper: toPaper(row) };
  }

  async papersByAliases(aliases: readonly string[]): Promise<Map<string, StoredPaper>> {
    const out = new Map<string, StoredPaper>();
    const keys = [...new Set(aliases.filter((a) => typeof a === 'string'))];
    if (keys.length === 0) return out;
    const { rows } = await this.db.query<PaperRow & { matched_alias: string }>(
      `SELECT v.alias AS matched_alias, ${PAPER_READ_COLUMNS} FROM unnest($1::text[]) AS v(alias)
       JOIN papers p ON p.id = coalesce((SELECT paper_id FROM paper_aliases a WHERE a.alias = v.alias), v.alias) ${CITATIONS_JOIN}`,
      [keys],
    );
    for (const row of rows) out.set(row.matched_alias, { doc: row.doc, paper: toPaper(row) });
    return out;
  }

  async findByTitle(title: string, firstAuthor: string | undefined): Promise<Paper | undefined> {
    const alias = titleAuthorAlias(title, firstAuthor);
    const row = alias === undefined ? undefined : await findByAlias(this.db, alias, false);
    return row && toPaper(row);
  }

  write<T>(fn: (tx: PaperWriter) => Promise<T>): Promise<T> {
    return this.db.transaction(async (client) => {
      await lockGeneration(client);
      let gen: number | undefined;
      const generation = async () => (gen ??= await nextGeneration(client));
      const writer: PaperWriter = {
        upsertBatch: (records, options) => upsertBatch(client, records, options, generation),
        findByRef: async (ref) => {
          const row = await findByAlias(client, refAlias(ref), true);
          return row && toPaper(row);
        },
        remove: async (id) => {
          const gone = (await client.query<{ doc: number }>('DELETE FROM papers WHERE id = $1 RETURNING doc', [id])).rows[0];
          if (!gone) return false;
          await client.query('INSERT INTO paper_tombstones (doc, gen) VALUES ($1, $2) ON CONFLICT (doc) DO UPDATE SET gen = excluded.gen', [gone.doc, await generation()]);
          await client.query('DELETE FROM paper_aliases WHERE paper_id = $1', [id]);
          await client.query('DELETE FROM paper_citations WHERE doc = $1', [gone.doc]);
          await client.query('DELETE FROM citation_refs WHERE doc = $1', [gone.doc]);
          return true;
        },
        setMeta: (key, value) => setMeta(client, key, value),
        putHarvest: async (key, source, state, now) => void (await client.query(PUT_HARVEST, [key, source, JSON.stringify(state), now.toISOString()])),
      };
      const result = await fn(writer);
      if (gen !== undefined) await client.query('SELECT pg_notify($1, $2)', [PAPERS_CHANNEL, String(gen)]);
      return result;
    });
  }

  reclassify(classify: UpsertOptions['classify']): Promise<number> {
    return this.db.transaction(async (client) => {
      await lockGeneration(client);
      const changes: Array<[number, string, string]> = [];
      for (let after = 0; ; ) {
        const { rows } = await client.query<PaperRow>('SELECT * FROM papers WHERE doc > $1 ORDER BY doc LIMIT $2', [after, INDEX_PAGE_ROWS]);
        for (const row of rows) {
          const changed = reclassified(row, classify);
          if (changed) changes.push([row.doc, changed.topics, changed.contentHash]);
        }
        if (rows.length < INDEX_PAGE_ROWS) break;
        after = rows.at(-1)!.doc;
      }
      if (changes.length === 0) return 0;
      const gen = await nextGeneration(client);
      await client.query(
        `UPDATE papers p SET topics = u.topics, content_hash = u.hash, gen = $4
         FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(doc, topics, hash) WHERE p.doc = u.doc`,
        [changes.map((c) => c[0]), changes.map((c) => c[1]), changes.map((c) => c[2]), gen],
      );
      await client.query('SELECT pg_notify($1, $2)', [PAPERS_CHANNEL, String(gen)]);
      return changes.length;
    });
  }

  async upgradeText(classify: UpsertOptions['classify']): Promise<TextUpgrade | undefined> {
    const stored = await this.getMeta(TEXT_VERSION_KEY);
    if (stored !== undefined && Number(stored) >= TEXT_VERSION) return undefined;
    return this.db.transaction(async (client) => {
      await lockGeneration(client);
      // Read again under the lock: another instance starting at the same time may have done it.
      const now = (await client.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [TEXT_VERSION_KEY])).rows[0]?.value;
      if (now !== undefined && Number(now) >= TEXT_VERSION) return undefined;
      const papers = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM papers')).rows[0]!.n;
      await setMeta(client, TEXT_VERSION_KEY, String(TEXT_VERSION));
      if (now === undefined && papers === 0) return undefined;
      const planner = new TextUpgradePlanner(Number(now ?? 1), classify);
      for (let after = 0; ; ) {
        const { rows } = await client.query<TextUpgradeRow>(`SELECT ${planner.readsAll ? '*' : TITLE_COLUMNS} FROM papers WHERE doc > $1 ORDER BY doc LIMIT $2`, [after, INDEX_PAGE_ROWS]);
        for (const row of rows) planner.add(row);
        if (rows.length < INDEX_PAGE_ROWS) break;
        after = rows.at(-1)!.doc;
      }
      const { rows: titles } = await client.query<{ alias: string; paper_id: string }>("SELECT alias, paper_id FROM paper_aliases WHERE left(alias, 6) = 'title:'");
      const plan = planner.plan(titles);
      if (plan.removeAliases.length > 0) await client.query('DELETE FROM paper_aliases WHERE alias = ANY($1::text[])', [plan.removeAliases]);
      if (plan.decoded.length > 0) {
        const gen = await nextGeneration(client);
        const column = <K extends 'title' | 'authors' | 'abstract' | 'topics' | 'content_hash'>(k: K) => plan.decoded.map((d) => d.columns[k]);
        await client.query(
          `UPDATE papers p SET title = u.title, authors = u.authors, abstract = u.abstract, topics = u.topics, content_hash = u.hash, gen = $7
           FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u(doc, title, authors, abstract, topics, hash) WHERE p.doc = u.doc`,
          [plan.decoded.map((d) => d.doc), column('title'), column('authors'), column('abstract'), column('topics'), column('content_hash'), gen],
        );
        await client.query('SELECT pg_notify($1, $2)', [PAPERS_CHANNEL, String(gen)]);
      }
      let shared = 0;
      if (plan.fileAliases.length > 0) {
        // One filing per alias, the first claim's (the plan's order), as SQLite's one-by-one inserts do.
        const first = new Map<string, string>();
        for (const [alias, id] of plan.fileAliases) if (!first.has(alias)) first.set(alias, id);
        const aliases = [...first.keys()];
        await client.query('INSERT INTO paper_aliases (alias, paper_id) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (alias) DO NOTHING', [aliases, [...first.values()]]);
        const { rows: owners } = await client.query<{ alias: string; paper_id: string }>('SELECT alias, paper_id FROM paper_aliases WHERE alias = ANY($1::text[])', [aliases]);
        shared = sharedAliases(plan.fileAliases, new Map(owners.map((o) => [o.alias, o.paper_id])));
      }
      return { ...plan.result, shared };
    });
  }

  async upgradeStatuses(): Promise<StatusUpgrade | undefined> {
    const stored = await this.getMeta(STATUS_VERSION_KEY);
    if (stored !== undefined && Number(stored) >= STATUS_VERSION) return undefined;
    return this.db.transaction(async (client) => {
      await lockGeneration(client);
      // Read again under the lock: another instance starting at the same time may have done it.
      const now = (await client.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [STATUS_VERSION_KEY])).rows[0]?.value;
      if (now !== undefined && Number(now) >= STATUS_VERSION) return undefined;
      await setMeta(client, STATUS_VERSION_KEY, String(STATUS_VERSION));
      const { rows: counts } = await client.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM papers GROUP BY status ORDER BY n DESC, status');
      const renamed = statusRenames(counts.map((c) => [c.status, c.n] as const));
      if (renamed.length === 0) return undefined;
      const { rows } = await client.query<PaperRow>('SELECT * FROM papers WHERE status = ANY($1::text[]) ORDER BY doc', [renamed.map(([from]) => from)]);
      const changes = rows.map((row) => ({ doc: row.doc, change: restatusedRow(row)! }));
      const gen = await nextGeneration(client);
      await client.query(
        `UPDATE papers p SET status = u.status, content_hash = u.hash, gen = $4
         FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(doc, status, hash) WHERE p.doc = u.doc`,
        [changes.map((c) => c.doc), changes.map((c) => c.change.status), changes.map((c) => c.change.contentHash), gen],
      );
      await client.query('SELECT pg_notify($1, $2)', [PAPERS_CHANNEL, String(gen)]);
      return { from: Number(now ?? 0), to: STATUS_VERSION, papers: changes.length, renamed };
    });
  }

  async *rowsForIndex(): AsyncIterable<IndexRow> {
    for (let after = 0; ; ) {
      const { rows } = await this.db.query<IndexedRow>(`SELECT ${INDEX_COLUMNS} FROM ${INDEX_FROM} WHERE p.doc > $1 ORDER BY p.doc LIMIT $2`, [after, INDEX_PAGE_ROWS]);
      for (const row of rows) yield toIndexRow(row);
      if (rows.length < INDEX_PAGE_ROWS) return;
      after = rows.at(-1)!.doc;
    }
  }

  async rowsChanged(from: number, to: number, afterDoc: number, limit: number): Promise<IndexRow[]> {
    const { rows } = await this.db.query<IndexedRow>(`SELECT ${INDEX_COLUMNS} FROM ${INDEX_FROM} WHERE p.gen > $1 AND p.gen <= $2 AND p.doc > $3 ORDER BY p.doc LIMIT $4`, [
      from,
      to,
      afterDoc,
      limit,
    ]);
    return rows.map(toIndexRow);
  }

  async deletedDocs(from: number, to: number): Promise<number[]> {
    const { rows } = await this.db.query<{ doc: number }>('SELECT doc FROM paper_tombstones WHERE gen > $1 AND gen <= $2 ORDER BY doc', [from, to]);
    return rows.map((r) => r.doc);
  }

  async countChanged(from: number, limit = Number.MAX_SAFE_INTEGER): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM (SELECT 1 FROM papers WHERE gen > $1 LIMIT $2) p)::int + (SELECT count(*) FROM (SELECT 1 FROM paper_tombstones WHERE gen > $1 LIMIT $2) t)::int AS n`,
      [from, limit],
    );
    return rows[0]!.n;
  }

  async close(): Promise<void> {
    // The pool belongs to the stores together (see ./index.ts).
  }
}

/** The paper an identifier is filed under (or, with `orId`, whose id it is). */
async function findByAlias(db: Query, alias: string, orId: boolean): Promise<PaperRow | undefined> {
  const { rows } = await db.query<PaperRow>(
    orId
      ? `SELECT ${PAPERS_READ} WHERE p.id = coalesce((SELECT paper_id FROM paper_aliases WHERE alias = $1), $1)`
      : `SELECT ${PAPERS_READ} JOIN paper_aliases a ON a.paper_id = p.id WHERE a.alias = $1`,
    [alias],
  );
  return rows[0];
}

async function setMeta(db: Query, key: string, value: string): Promise<void> {
  await db.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
}

/** Waits for the writers of papers before this one (the row stays locked until the transaction ends). */
export async function lockGeneration(client: Query): Promise<void> {
  await client.query("SELECT value FROM meta WHERE key = 'generation' FOR UPDATE");
}

/** Moves to the next generation (call after {@link lockGeneration}). */
export async function nextGeneration(client: Query): Promise<number> {
  const { rows } = await client.query<{ value: string }>("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'generation' RETURNING value");
  return Number(rows[0]!.value);
}

async function upsertBatch(client: Query, records: readonly PaperRecord[], options: UpsertOptions, generation: () => Promise<number>): Promise<UpsertResult[]> {
  const lookups = lookupsFor(records, options.prepared);
  const owners = new Map<string, string>();
  const readOwners = async (aliases: readonly string[]) => {
    if (aliases.length === 0) return;
    const { rows } = await client.query<{ alias: string; paper_id: string }>('SELECT alias, paper_id FROM paper_aliases WHERE alias = ANY($1::text[])', [aliases]);
    for (const row of rows) owners.set(row.alias, row.paper_id);
  };
  await readOwners(lookups.aliases);
  // Records that none of their identifiers found may belong to a paper of the same title whose first author is another of theirs.
  await readOwners(fallbackLookups(records, lookups.aliasLists, owners));
  const rows = new Map<string, PaperRow | PaperWrite>();
  const ids = [...new Set([...owners.values(), ...lookups.ids])];
  for (const row of (await client.query<PaperRow>('SELECT * FROM papers WHERE id = ANY($1::text[])', [ids])).rows) rows.set(row.id, row);
  const plan = planUpserts(records, lookups.aliasLists, owners, rows, options);
  const results = plan.results;
  if (plan.inserts.length + plan.updates.length > 0) {
    const gen = await generation();
    if (plan.inserts.length > 0) {
      const inserted = new Map((await client.query<{ id: string; doc: number }>(INSERT, [...columnArrays(plan.inserts), gen])).rows.map((r) => [r.id, r.doc]));
      // Another writer took an id between the read and the write: that record is refused.
      if (inserted.size < plan.inserts.length) {
        for (const [i, result] of results.entries()) {
          if ('outcome' in result && result.outcome === 'added' && !inserted.has(result.id)) results[i] = { refused: `another paper took the id ${result.id} meanwhile; import it again` };
        }
      }
      settleDocs(results, inserted);
    }
    if (plan.updates.length > 0) await client.query(UPDATE, [...columnArrays(plan.updates), gen]);
  }
  if (plan.aliases.length > 0) {
    await client.query('INSERT INTO paper_aliases (alias, paper_id) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (alias) DO NOTHING', [
      plan.aliases.map((a) => a[0]),
      plan.aliases.map((a) => a[1]),
    ]);
  }
  if (plan.refiled.length > 0) {
    // One filing per alias, the last (a later record of the batch may file an alias again).
    const last = new Map(plan.refiled);
    await client.query(
      'INSERT INTO paper_aliases (alias, paper_id) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (alias) DO UPDATE SET paper_id = excluded.paper_id',
      [[...last.keys()], [...last.values()]],
    );
  }
  return results;
}
