/**
 * The paper store in SQLite (the merge rules are in `../paperRecords.ts`, the contract in
 * `../papers.ts`). Every method does its work with better-sqlite3's synchronous calls and
 * resolves at once. A write takes the write lock up front (BEGIN IMMEDIATE), waiting for it as
 * long as the connection's busy timeout says: a deferred transaction that has read fails at once
 * (SQLITE_BUSY_SNAPSHOT, no waiting) when another process committed in between, as an ingest
 * does beside a running bot. Writes of this process are taken one at a time.
 */
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
import { forgetCitations } from './citations.js';
import type { Db } from './db.js';
import { PUT_HARVEST } from './harvests.js';

/** A row of the index's columns (`INDEX_COLUMNS`). */
type IndexedRow = Parameters<typeof toIndexRow>[0];

/** Identifiers looked up per statement (one JSON array parameter). */
const LOOKUP_CHUNK = 5000;

export class SqlitePaperStore implements PaperStore {
  private readonly stmts;
  /** Deletes a removed paper's citations (in the transaction that removes it). */
  private readonly forgetCitations: (doc: number) => void;
  /** The write under way in this process: the next one waits for it. */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly options: { ownsDatabase?: boolean } = {},
  ) {
    this.forgetCitations = forgetCitations(db);
    this.stmts = {
      byId: db.prepare<[string], PaperRow>(`SELECT ${PAPERS_READ} WHERE p.id = ?`),
      byIds: db.prepare<[string], PaperRow>(`SELECT ${PAPERS_READ} WHERE p.id IN (SELECT value FROM json_each(?))`),
      byDocs: db.prepare<[string], PaperRow>(`SELECT ${PAPERS_READ} WHERE p.doc IN (SELECT value FROM json_each(?))`),
      /** Rows to merge records into: the papers alone. */
      rowsByIds: db.prepare<[string], PaperRow>('SELECT * FROM papers WHERE id IN (SELECT value FROM json_each(?))'),
      aliasOwner: db.prepare<[string], { paper_id: string }>('SELECT paper_id FROM paper_aliases WHERE alias = ?'),
      byAliases: db.prepare<[string], PaperRow & { matched_alias: string }>(
        `SELECT v.value AS matched_alias, ${PAPER_READ_COLUMNS} FROM json_each(?) v
         JOIN papers p ON p.id = coalesce((SELECT paper_id FROM paper_aliases WHERE alias = v.value), v.value) ${CITATIONS_JOIN}`,
      ),
      aliasOwners: db.prepare<[string], { alias: string; paper_id: string }>('SELECT alias, paper_id FROM paper_aliases WHERE alias IN (SELECT value FROM json_each(?))'),
      insertAlias: db.prepare<[string, string]>('INSERT OR IGNORE INTO paper_aliases (alias, paper_id) VALUES (?, ?)'),
      fileAlias: db.prepare<[string, string]>('INSERT INTO paper_aliases (alias, paper_id) VALUES (?, ?) ON CONFLICT(alias) DO UPDATE SET paper_id = excluded.paper_id'),
      insert: db.prepare(`INSERT INTO papers (id, title, authors, abstract, venue, year, status, topics, keywords,
        labels, links, external_ids, published, tldr, source, content_hash, first_seen, updated_at, gen)
        VALUES (@id, @title, @authors, @abstract, @venue, @year, @status, @topics, @keywords, @labels, @links,
        @external_ids, @published, @tldr, @source, @content_hash, @first_seen, @updated_at, @gen)`),
      update: db.prepare(`UPDATE papers SET title=@title, authors=@authors, abstract=@abstract, venue=@venue,
        year=@year, status=@status, topics=@topics, keywords=@keywords, labels=@labels, links=@links,
        external_ids=@external_ids, published=@published, tldr=@tldr, source=@source, content_hash=@content_hash,
        updated_at=@updated_at, gen=@gen WHERE id=@id`),
      count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM papers'),
      statusCounts: db.prepare<[], { status: string; n: number }>('SELECT status, count(*) AS n FROM papers GROUP BY status ORDER BY n DESC, status'),
      deletePaper: db.prepare<[string], { doc: number }>('DELETE FROM papers WHERE id = ? RETURNING doc'),
      tombstone: db.prepare<[number, number]>('INSERT OR REPLACE INTO paper_tombstones (doc, gen) VALUES (?, ?)'),
      deleted: db.prepare<[number, number], { doc: number }>('SELECT doc FROM paper_tombstones WHERE gen > ? AND gen <= ? ORDER BY doc'),
      countChanged: db.prepare<[number, number], { n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM papers INDEXED BY papers_gen WHERE gen > ? LIMIT ?)'),
      countDeleted: db.prepare<[number, number], { n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM paper_tombstones WHERE gen > ? LIMIT ?)'),
      deleteAliases: db.prepare<[string]>('DELETE FROM paper_aliases WHERE paper_id = ?'),
      putHarvest: db.prepare<[string, string, string, string]>(PUT_HARVEST),
      docOf: db.prepare<[string], { doc: number }>('SELECT doc FROM papers WHERE id = ?'),
      docsOf: db.prepare<[string], { id: string; doc: number }>('SELECT id, doc FROM papers WHERE id IN (SELECT value FROM json_each(?))'),
      abstracts: db.prepare<[string], { doc: number; abstract: string }>('SELECT doc, abstract FROM papers WHERE doc IN (SELECT value FROM json_each(?))'),
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
      page: db.prepare<[number, number], IndexedRow>(`SELECT ${INDEX_COLUMNS} FROM ${INDEX_FROM} WHERE p.doc > ? ORDER BY p.doc LIMIT ?`),
      // The page's documents are picked from the generation index alone (sorting only numbers),
      // then read: sorting the rows themselves for each page took 1.7x as long (60k rows at 1M).
      changed: db.prepare<[number, number, number, number], IndexedRow>(
        `SELECT ${INDEX_COLUMNS} FROM ${INDEX_FROM} WHERE p.doc IN
          (SELECT doc FROM papers INDEXED BY papers_gen WHERE gen > ? AND gen <= ? AND doc > ? ORDER BY doc LIMIT ?) ORDER BY p.doc`,
      ),
    };
  }

  async count(): Promise<number> {
    return this.stmts.count.get()!.n;
  }

  async statusCounts(): Promise<Array<[string, number]>> {
    return this.stmts.statusCounts.all().map((r) => [r.status, r.n]);
  }

  async generation(): Promise<number> {
    return this.generationNow();
  }

  async getMeta(key: string): Promise<string | undefined> {
    return this.stmts.getMeta.get(key)?.value;
  }

  async setMeta(key: string, value: string): Promise<void> {
    this.stmts.setMeta.run(key, value);
  }

  async get(id: string): Promise<Paper | undefined> {
    const row = this.stmts.byId.get(id);
    return row && toPaper(row);
  }

  async docOf(id: string): Promise<number | undefined> {
    return this.stmts.docOf.get(id)?.doc;
  }

  async papersByDocs(docs: readonly number[]): Promise<Map<number, Paper>> {
    const out = new Map<number, Paper>();
    if (docs.length > 0) for (const row of this.stmts.byDocs.all(JSON.stringify(docs))) out.set(row.doc, toPaper(row));
    return out;
  }

  async papersByIds(ids: readonly string[]): Promise<Map<string, StoredPaper>> {
    const out = new Map<string, StoredPaper>();
    if (ids.length > 0) for (const row of this.stmts.byIds.all(JSON.stringify(ids))) out.set(row.id, { doc: row.doc, paper: toPaper(row) });
    return out;
  }

  async docsOf(ids: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (ids.length > 0) for (const row of this.stmts.docsOf.all(JSON.stringify(ids))) out.set(row.id, row.doc);
    return out;
  }

  async abstractsOf(docs: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (docs.length > 0) for (const row of this.stmts.abstracts.all(JSON.stringify(docs))) out.set(row.doc, row.abstract);
    return out;
  }

  async findByRef(ref: PaperRef): Promise<StoredPaper | undefined> {
    const alias = refAlias(ref);
    const owner = this.stmts.aliasOwner.get(alias)?.paper_id ?? alias;
    const row = this.stmts.byId.get(owner);
    return row && { doc: row.doc, paper: toPaper(row) };
  }

  async papersByAliases(aliases: readonly string[]): Promise<Map<string, StoredPaper>> {
    const out = new Map<string, StoredPaper>();
    const keys = [...new Set(aliases.filter((a) => typeof a === 'string'))];
    for (let i = 0; i < keys.length; i += LOOKUP_CHUNK) {
      for (const row of this.stmts.byAliases.all(JSON.stringify(keys.slice(i, i + LOOKUP_CHUNK)))) out.set(row.matched_alias, { doc: row.doc, paper: toPaper(row) });
    }
    return out;
  }

  async findByTitle(title: string, firstAuthor: string | undefined): Promise<Paper | undefined> {
    const alias = titleAuthorAlias(title, firstAuthor);
    const owner = alias && this.stmts.aliasOwner.get(alias)?.paper_id;
    const row = owner ? this.stmts.byId.get(owner) : undefined;
    return row && toPaper(row);
  }

  write<T>(fn: (tx: PaperWriter) => Promise<T>): Promise<T> {
    const run = this.writing.then(() => this.transaction(fn));
    this.writing = run.catch(() => undefined);
    return run;
  }

  async reclassify(classify: UpsertOptions['classify']): Promise<number> {
    const select = this.db.prepare<[], PaperRow>('SELECT * FROM papers ORDER BY doc');
    const update = this.db.prepare<[string, string, number, number]>('UPDATE papers SET topics = ?, content_hash = ?, gen = ? WHERE doc = ?');
    return this.write(async () => {
      const changes: Array<[string, string, number]> = [];
      for (const row of select.iterate()) {
        const changed = reclassified(row, classify);
        if (changed) changes.push([changed.topics, changed.contentHash, row.doc]);
      }
      if (changes.length === 0) return 0;
      const gen = this.generationNow() + 1;
      this.stmts.setMeta.run('generation', String(gen));
      for (const [topics, hash, doc] of changes) update.run(topics, hash, gen, doc);
      return changes.length;
    });
  }

  async upgradeText(classify: UpsertOptions['classify']): Promise<TextUpgrade | undefined> {
    const stored = await this.getMeta(TEXT_VERSION_KEY);
    if (stored !== undefined && Number(stored) >= TEXT_VERSION) return undefined;
    if (stored === undefined && (await this.count()) === 0) {
      await this.setMeta(TEXT_VERSION_KEY, String(TEXT_VERSION));
      return undefined;
    }
    const update = this.db.prepare('UPDATE papers SET title = ?, authors = ?, abstract = ?, topics = ?, content_hash = ?, gen = ? WHERE doc = ?');
    const titleAliases = this.db.prepare<[], { alias: string; paper_id: string }>("SELECT alias, paper_id FROM paper_aliases WHERE alias >= 'title:' AND alias < 'title;'");
    const deleteAlias = this.db.prepare<[string]>('DELETE FROM paper_aliases WHERE alias = ?');
    return this.write(async () => {
      const planner = new TextUpgradePlanner(Number(stored ?? 1), classify);
      const select = this.db.prepare<[], TextUpgradeRow>(`SELECT ${planner.readsAll ? '*' : TITLE_COLUMNS} FROM papers ORDER BY doc`);
      // Everything is read before anything is written: SQLite cannot write to the table a statement is still reading.
      for (const row of select.iterate()) planner.add(row);
      const plan = planner.plan(titleAliases.all());
      for (const alias of plan.removeAliases) deleteAlias.run(alias);
      if (plan.decoded.length > 0) {
        const gen = this.generationNow() + 1;
        this.stmts.setMeta.run('generation', String(gen));
        for (const { doc, columns } of plan.decoded) update.run(columns.title, columns.authors, columns.abstract, columns.topics, columns.content_hash, gen, doc);
      }
      for (const [alias, id] of plan.fileAliases) this.stmts.insertAlias.run(alias, id);
      const filed = [...new Set(plan.fileAliases.map(([alias]) => alias))];
      const owners = new Map(this.stmts.aliasOwners.all(JSON.stringify(filed)).map((o) => [o.alias, o.paper_id]));
      this.stmts.setMeta.run(TEXT_VERSION_KEY, String(TEXT_VERSION));
      return { ...plan.result, shared: sharedAliases(plan.fileAliases, owners) };
    });
  }

  async upgradeStatuses(): Promise<StatusUpgrade | undefined> {
    const stored = await this.getMeta(STATUS_VERSION_KEY);
    if (stored !== undefined && Number(stored) >= STATUS_VERSION) return undefined;
    const select = this.db.prepare<[string], PaperRow>('SELECT * FROM papers WHERE status IN (SELECT value FROM json_each(?)) ORDER BY doc');
    const update = this.db.prepare<[string, string, number, number]>('UPDATE papers SET status = ?, content_hash = ?, gen = ? WHERE doc = ?');
    return this.write(async () => {
      const renamed = statusRenames(await this.statusCounts());
      this.stmts.setMeta.run(STATUS_VERSION_KEY, String(STATUS_VERSION));
      if (renamed.length === 0) return undefined;
      // Read first: SQLite cannot write to the table a statement is still reading.
      const changes = select.all(JSON.stringify(renamed.map(([from]) => from))).map((row) => ({ doc: row.doc, change: restatusedRow(row)! }));
      const gen = this.generationNow() + 1;
      this.stmts.setMeta.run('generation', String(gen));
      for (const { doc, change } of changes) update.run(change.status, change.contentHash, gen, doc);
      return { from: Number(stored ?? 0), to: STATUS_VERSION, papers: changes.length, renamed };
    });
  }

  async *rowsForIndex(): AsyncIterable<IndexRow> {
    // Pages, not one open cursor: the connection stays free for others between them.
    for (let after = 0; ; ) {
      const rows = this.stmts.page.all(after, INDEX_PAGE_ROWS);
      for (const row of rows) yield toIndexRow(row);
      if (rows.length < INDEX_PAGE_ROWS) return;
      after = rows.at(-1)!.doc;
    }
  }

  async rowsChanged(from: number, to: number, afterDoc: number, limit: number): Promise<IndexRow[]> {
    return this.stmts.changed.all(from, to, afterDoc, limit).map(toIndexRow);
  }

  async deletedDocs(from: number, to: number): Promise<number[]> {
    return this.stmts.deleted.all(from, to).map((r) => r.doc);
  }

  async countChanged(from: number, limit = Number.MAX_SAFE_INTEGER): Promise<number> {
    return this.stmts.countChanged.get(from, limit)!.n + this.stmts.countDeleted.get(from, limit)!.n;
  }

  async close(): Promise<void> {
    if (this.options.ownsDatabase && this.db.open) this.db.close();
  }

  private generationNow(): number {
    return Number(this.stmts.getMeta.get('generation')?.value ?? 0);
  }

  /** BEGIN IMMEDIATE, `fn` with a writer, COMMIT (ROLLBACK on a throw). */
  private async transaction<T>(fn: (tx: PaperWriter) => Promise<T>): Promise<T> {
    this.db.prepare('BEGIN IMMEDIATE').run();
    let gen: number | undefined;
    const generation = () => {
      if (gen === undefined) {
        gen = this.generationNow() + 1;
        this.stmts.setMeta.run('generation', String(gen));
      }
      return gen;
    };
    const writer: PaperWriter = {
      upsertBatch: async (records, options) => this.upsertBatch(records, options, generation),
      findByRef: async (ref) => (await this.findByRef(ref))?.paper,
      remove: async (id) => {
        const gone = this.stmts.deletePaper.get(id);
        if (!gone) return false;
        this.stmts.tombstone.run(gone.doc, generation());
        this.stmts.deleteAliases.run(id);
        this.forgetCitations(gone.doc);
        return true;
      },
      setMeta: (key, value) => this.setMeta(key, value),
      putHarvest: async (key, source, state, now) => void this.stmts.putHarvest.run(key, source, JSON.stringify(state), now.toISOString()),
    };
    try {
      const result = await fn(writer);
      this.db.prepare('COMMIT').run();
      return result;
    } catch (err) {
      if (this.db.inTransaction) this.db.prepare('ROLLBACK').run();
      throw err;
    }
  }

  private upsertBatch(records: readonly PaperRecord[], options: UpsertOptions, generation: () => number): UpsertResult[] {
    const lookups = lookupsFor(records, options.prepared);
    const owners = new Map<string, string>();
    const readOwners = (aliases: readonly string[]) => {
      for (let i = 0; i < aliases.length; i += LOOKUP_CHUNK) {
        for (const row of this.stmts.aliasOwners.all(JSON.stringify(aliases.slice(i, i + LOOKUP_CHUNK)))) owners.set(row.alias, row.paper_id);
      }
    };
    readOwners(lookups.aliases);
    // Records that none of their identifiers found may belong to a paper of the same title whose first author is another of theirs.
    readOwners(fallbackLookups(records, lookups.aliasLists, owners));
    const rows = new Map<string, PaperRow | PaperWrite>();
    const ids = [...new Set([...owners.values(), ...lookups.ids])];
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      for (const row of this.stmts.rowsByIds.all(JSON.stringify(ids.slice(i, i + LOOKUP_CHUNK)))) rows.set(row.id, row);
    }
    const plan = planUpserts(records, lookups.aliasLists, owners, rows, options);
    if (plan.inserts.length + plan.updates.length > 0) {
      const gen = generation();
      const inserted = new Map<string, number>();
      // The plan's rows are this batch's own: `gen` is added to each, not spread into a copy
      // (which costs V8 ~6 µs a row; see toColumns).
      for (const row of plan.inserts) inserted.set(row.id, Number(this.stmts.insert.run(Object.assign(row, { gen })).lastInsertRowid));
      for (const row of plan.updates) this.stmts.update.run(Object.assign(row, { gen }));
      settleDocs(plan.results, inserted);
    }
    for (const [alias, id] of plan.aliases) this.stmts.insertAlias.run(alias, id);
    for (const [alias, id] of plan.refiled) this.stmts.fileAlias.run(alias, id);
    return plan.results;
  }
}
