/**
 * PaperStore: papers in SQLite, keyed by a stable id, with every other identifier a paper has
 * (arXiv id, DOI, OpenReview id, title + first author, page and pdf URLs) filed as an alias so
 * the same paper from two sources is one record.
 */
import { createHash } from 'node:crypto';
import type { Db } from './db.js';
import { standingOf, type Paper, type PaperRecord } from '../papers/model.js';
import { normalizeUrl, titleAuthorAlias, type PaperRef, refAlias } from '../papers/ids.js';

export type UpsertOutcome = 'added' | 'updated' | 'unchanged';

export interface UpsertOptions {
  /** Where the record came from, e.g. `paperlists:icml2019`; a record from the paper's own source replaces its fields. */
  source: string;
  /** Topic ids for the merged paper (the taxonomy's classifier). */
  classify: (paper: Omit<Paper, 'id' | 'topics' | 'firstSeen'>) => string[];
  now: Date;
}

/** The columns the search index is built from, one row a paper. */
export interface IndexRow {
  doc: number;
  id: string;
  title: string;
  authors: string[];
  abstract: string;
  keywords: string[];
  venue: string;
  year: number | null;
  status: string;
  topics: string[];
  firstSeen: string;
}

interface PaperRow {
  doc: number;
  id: string;
  title: string;
  authors: string;
  abstract: string;
  venue: string;
  year: number | null;
  status: string;
  topics: string;
  keywords: string;
  labels: string;
  links: string;
  external_ids: string;
  published: string | null;
  source: string;
  content_hash: string;
  first_seen: string;
}

const INDEX_COLUMNS = 'doc, id, title, authors, abstract, keywords, venue, year, status, topics, first_seen';
type IndexColumns = Pick<PaperRow, 'doc' | 'id' | 'title' | 'authors' | 'abstract' | 'keywords' | 'venue' | 'year' | 'status' | 'topics' | 'first_seen'>;

function toIndexRow(row: IndexColumns): IndexRow {
  return {
    doc: row.doc,
    id: row.id,
    title: row.title,
    authors: JSON.parse(row.authors) as string[],
    abstract: row.abstract,
    keywords: JSON.parse(row.keywords) as string[],
    venue: row.venue,
    year: row.year,
    status: row.status,
    topics: JSON.parse(row.topics) as string[],
    firstSeen: row.first_seen,
  };
}

/** Alias kinds in the order that decides which existing paper a record merges into. */
const ALIAS_PRIORITY = ['arxiv:', 'doi:', 'openreview:', 'key:', 'title:', 'url:'];
/** Identifiers looked up per query (one JSON array parameter). */
const LOOKUP_CHUNK = 5000;

/** Claims a paper's identifiers that no paper has yet (the first to claim one keeps it), for writing. */
function fileAliases(aliases: readonly string[], id: string, owners: Map<string, string>, filed: Array<[string, string]>): void {
  for (const alias of aliases) {
    if (owners.has(alias)) continue;
    owners.set(alias, id);
    filed.push([alias, id]);
  }
}

/** The paper an identifier of the record already names, by {@link ALIAS_PRIORITY}. */
function findOwner(aliases: readonly string[], owners: ReadonlyMap<string, string>): string | undefined {
  for (const prefix of ALIAS_PRIORITY) {
    for (const alias of aliases) {
      if (!alias.startsWith(prefix)) continue;
      const owner = owners.get(alias);
      if (owner) return owner;
    }
  }
  return undefined;
}

export class PaperStore {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      byId: db.prepare<[string], PaperRow>('SELECT * FROM papers WHERE id = ?'),
      byDoc: db.prepare<[number], PaperRow>('SELECT * FROM papers WHERE doc = ?'),
      aliasOwner: db.prepare<[string], { paper_id: string }>('SELECT paper_id FROM paper_aliases WHERE alias = ?'),
      aliasOwners: db.prepare<[string], { alias: string; paper_id: string }>(
        'SELECT alias, paper_id FROM paper_aliases WHERE alias IN (SELECT value FROM json_each(?))',
      ),
      byIds: db.prepare<[string], PaperRow>('SELECT * FROM papers WHERE id IN (SELECT value FROM json_each(?))'),
      insertAliases: db.prepare(
        "INSERT OR IGNORE INTO paper_aliases (alias, paper_id) SELECT value ->> 0, value ->> 1 FROM json_each(?)",
      ),
      insert: db.prepare(`INSERT INTO papers (id, title, authors, abstract, venue, year, status, topics, keywords,
        labels, links, external_ids, published, source, content_hash, first_seen, updated_at, gen)
        VALUES (@id, @title, @authors, @abstract, @venue, @year, @status, @topics, @keywords, @labels, @links,
        @external_ids, @published, @source, @content_hash, @first_seen, @updated_at, @gen)`),
      update: db.prepare(`UPDATE papers SET title=@title, authors=@authors, abstract=@abstract, venue=@venue,
        year=@year, status=@status, topics=@topics, keywords=@keywords, labels=@labels, links=@links,
        external_ids=@external_ids, published=@published, source=@source, content_hash=@content_hash,
        updated_at=@updated_at, gen=@gen WHERE id=@id`),
      count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM papers'),
      docOf: db.prepare<[string], { doc: number }>('SELECT doc FROM papers WHERE id = ?'),
      abstractOf: db.prepare<[number], { abstract: string }>('SELECT abstract FROM papers WHERE doc = ?'),
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      changed: db.prepare<[number, number, number, number], IndexColumns>(
        `SELECT ${INDEX_COLUMNS} FROM papers INDEXED BY papers_gen WHERE gen > ? AND gen <= ? AND doc > ? ORDER BY doc LIMIT ?`,
      ),
      changedAll: db.prepare<[number, number], IndexColumns>(`SELECT ${INDEX_COLUMNS} FROM papers INDEXED BY papers_gen WHERE gen > ? AND gen <= ? ORDER BY doc`),
      deleted: db.prepare<[number, number], { doc: number }>('SELECT doc FROM paper_tombstones WHERE gen > ? AND gen <= ? ORDER BY doc'),
      countChanged: db.prepare<[number, number], { n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM papers INDEXED BY papers_gen WHERE gen > ? LIMIT ?)'),
      countDeleted: db.prepare<[number, number], { n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM paper_tombstones WHERE gen > ? LIMIT ?)'),
      deletePaper: db.prepare('DELETE FROM papers WHERE doc = ?'),
      deleteAliases: db.prepare('DELETE FROM paper_aliases WHERE paper_id = ?'),
      tombstone: db.prepare('INSERT OR REPLACE INTO paper_tombstones (doc, gen) VALUES (?, ?)'),
      setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
    };
  }

  /** Closes the database (for stores that own theirs, such as the in-memory demo store). */
  close(): void {
    this.db.close();
  }

  /**
   * Runs `fn` in one transaction: all of its writes land, or none do. It takes the write lock at
   * the start (BEGIN IMMEDIATE), waiting for it as long as the connection's busy timeout says; a
   * deferred transaction that has read fails at once (SQLITE_BUSY_SNAPSHOT, no waiting) when
   * another process committed in between, as an ingest does beside a running bot.
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** A counter that grows whenever papers change; the search index records the one it was built at. */
  generation(): number {
    return Number(this.stmts.getMeta.get('generation')?.value ?? 0);
  }

  /** Starts a new generation for the writes that follow; returns it. Call inside the writing transaction. */
  beginGeneration(): number {
    const next = this.generation() + 1;
    this.stmts.setMeta.run('generation', String(next));
    return next;
  }

  /**
   * Gives back a generation from {@link beginGeneration} that no write used, so the counter only
   * moves when papers change. Call in the same transaction, right after the writes that did not use it.
   */
  releaseGeneration(gen: number): void {
    if (this.generation() === gen) this.stmts.setMeta.run('generation', String(gen - 1));
  }

  getMeta(key: string): string | undefined {
    return this.stmts.getMeta.get(key)?.value;
  }

  setMeta(key: string, value: string): void {
    this.stmts.setMeta.run(key, value);
  }

  count(): number {
    return this.stmts.count.get()!.n;
  }

  get(id: string): Paper | undefined {
    const row = this.stmts.byId.get(id);
    return row && toPaper(row);
  }

  /** The paper with the index's document number `doc`. */
  getByDoc(doc: number): Paper | undefined {
    const row = this.stmts.byDoc.get(doc);
    return row && toPaper(row);
  }

  /** The document number of the paper with `id`. */
  docOf(id: string): number | undefined {
    return this.stmts.docOf.get(id)?.doc;
  }

  /** Just the abstract of a paper, for phrase checks over many candidates. */
  abstractOf(doc: number): string | undefined {
    return this.stmts.abstractOf.get(doc)?.abstract;
  }

  /** The paper filed under an identifier (arXiv id, DOI, OpenReview id or one of its URLs). */
  findByRef(ref: PaperRef): Paper | undefined {
    const owner = this.stmts.aliasOwner.get(refAlias(ref))?.paper_id ?? this.stmts.byId.get(refAlias(ref))?.id;
    return owner === undefined ? undefined : this.get(owner);
  }

  /** The paper whose normalized title and first author match, if the store has one. */
  findByTitle(title: string, firstAuthor: string | undefined): Paper | undefined {
    const alias = titleAuthorAlias(title, firstAuthor);
    const owner = alias && this.stmts.aliasOwner.get(alias)?.paper_id;
    return owner ? this.get(owner) : undefined;
  }

  /**
   * Adds a record as a new paper, or merges it into the paper that shares one of its identifiers.
   * Re-adding what is already there changes nothing and reports `unchanged`.
   * Call inside {@link transaction}, after {@link beginGeneration}.
   */
  upsert(record: PaperRecord, gen: number, options: UpsertOptions): { outcome: UpsertOutcome; id: string } {
    const [result] = this.upsertBatch([record], gen, options);
    if ('refused' in result!) throw result.refused;
    return result!;
  }

  /**
   * {@link upsert} for many records at once, with the same outcomes as one after the other: the
   * identifiers of the whole batch are looked up in one query, the stored papers they name read in
   * another, records merged in memory (a later record of the batch sees the earlier ones), then
   * written. A record the database refuses (a constraint) comes back as `refused`; the others go in.
   * Call inside {@link transaction}, after {@link beginGeneration}.
   * @example store.upsertBatch(records, gen, { source: 'paperlists:icml2019', classify, now })
   */
  upsertBatch(records: readonly PaperRecord[], gen: number, options: UpsertOptions): Array<{ outcome: UpsertOutcome; id: string } | { refused: Error }> {
    const aliasLists = records.map(aliasesOf);
    const owners = new Map<string, string>();
    const wanted = [...new Set(aliasLists.flat())];
    for (let i = 0; i < wanted.length; i += LOOKUP_CHUNK) {
      for (const row of this.stmts.aliasOwners.all(JSON.stringify(wanted.slice(i, i + LOOKUP_CHUNK)))) owners.set(row.alias, row.paper_id);
    }
    const rows = new Map<string, PaperRow>();
    const ids = [...new Set(owners.values())];
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      for (const row of this.stmts.byIds.all(JSON.stringify(ids.slice(i, i + LOOKUP_CHUNK)))) rows.set(row.id, row);
    }
    const now = options.now.toISOString();
    const filed: Array<[string, string]> = [];
    const results = records.map((record, i) => {
      const aliases = aliasLists[i]!;
      try {
        const existingId = findOwner(aliases, owners);
        if (existingId === undefined || !rows.has(existingId)) {
          const id = preferredId(record, aliases);
          const columns = toColumns(id, withTopics(record, options.classify));
          const row = { ...columns, source: options.source, first_seen: now, updated_at: now, gen };
          this.stmts.insert.run(row);
          rows.set(id, { ...row, doc: 0 });
          fileAliases(aliases, id, owners, filed);
          return { outcome: 'added' as const, id };
        }
        const row = rows.get(existingId)!;
        const existing = toPaper(row);
        // The record that is (or, superseding a preprint or a rejection, becomes) the paper's source
        // replaces its fields; any other record only fills gaps. "Same source" alone is not enough: a
        // listing's duplicate would replace the original and be replaced back on every re-ingest.
        const owns = row.source === options.source ? preferredId(record, aliases) === existingId : supersedes(existing, record);
        const columns = toColumns(existingId, withTopics(mergeRecords(existing, record, owns), options.classify));
        fileAliases(aliases, existingId, owners, filed);
        if (columns.content_hash === row.content_hash) return { outcome: 'unchanged' as const, id: existingId };
        const source = owns ? options.source : row.source;
        this.stmts.update.run({ ...columns, source, updated_at: now, gen });
        rows.set(existingId, { ...row, ...columns, source });
        return { outcome: 'updated' as const, id: existingId };
      } catch (error) {
        if (!String((error as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT')) throw error;
        return { refused: error as Error };
      }
    });
    // The batch's new identifiers in one statement: [[alias, paper id], …].
    if (filed.length > 0) this.stmts.insertAliases.run(JSON.stringify(filed));
    return results;
  }

  /**
   * Recomputes every paper's topics (after the taxonomy changed); returns how many changed.
   * Runs in one transaction and starts a generation only if something changed.
   */
  reclassify(classify: UpsertOptions['classify']): number {
    const select = this.db.prepare<[], PaperRow>('SELECT * FROM papers ORDER BY doc');
    const update = this.db.prepare('UPDATE papers SET topics = ?, content_hash = ?, gen = ? WHERE doc = ?');
    return this.transaction(() => {
      const changes: Array<[string, string, number]> = [];
      for (const row of select.iterate()) {
        const paper = toPaper(row);
        const topics = JSON.stringify(classify(paper));
        if (topics === row.topics) continue;
        const content_hash = toColumns(paper.id, { ...paper, topics: JSON.parse(topics) as string[] }).content_hash;
        changes.push([topics, content_hash, row.doc]);
      }
      if (changes.length === 0) return 0;
      const gen = this.beginGeneration();
      for (const [topics, hash, doc] of changes) update.run(topics, hash, gen, doc);
      return changes.length;
    });
  }

  /** Every paper in document order, with the fields the search index needs. */
  *rowsForIndex(): IterableIterator<IndexRow> {
    const stmt = this.db.prepare<[], IndexColumns>(`SELECT ${INDEX_COLUMNS} FROM papers ORDER BY doc`);
    for (const row of stmt.iterate()) yield toIndexRow(row);
  }

  /**
   * The papers written in generations (from, to], in document order, at most `limit` of them
   * after document `afterDoc`: what a search index at generation `from` lacks.
   * @example store.rowsChanged(41, store.generation(), 0, 500)
   */
  rowsChanged(from: number, to: number, afterDoc: number, limit: number): IndexRow[] {
    return this.stmts.changed.all(from, to, afterDoc, limit).map(toIndexRow);
  }

  /** The papers written in generations (from, to], in document order, read as they are needed. */
  *iterateChanged(from: number, to: number): IterableIterator<IndexRow> {
    for (const row of this.stmts.changedAll.iterate(from, to)) yield toIndexRow(row);
  }

  /**
   * How many papers were written, and how many deleted, after generation `from` (counting stops
   * past `limit`, so that asking "more than N?" costs N at most).
   */
  countChanged(from: number, limit = Number.MAX_SAFE_INTEGER): number {
    return this.stmts.countChanged.get(from, limit)!.n + this.stmts.countDeleted.get(from, limit)!.n;
  }

  /** Store documents deleted in generations (from, to]. */
  deletedDocs(from: number, to: number): number[] {
    return this.stmts.deleted.all(from, to).map((r) => r.doc);
  }

  /**
   * Removes papers (and the identifiers filed for them), leaving a tombstone under `gen` so that
   * search indexes following the store mask them. Call inside {@link transaction}. Returns how many were removed.
   */
  remove(ids: readonly string[], gen: number): number {
    let removed = 0;
    for (const id of ids) {
      const doc = this.docOf(id);
      if (doc === undefined) continue;
      this.stmts.deletePaper.run(doc);
      this.stmts.deleteAliases.run(id);
      this.stmts.tombstone.run(doc, gen);
      removed++;
    }
    return removed;
  }

}

/** Every identifier a record can be found by, most specific first. */
export function aliasesOf(record: PaperRecord): string[] {
  const out: string[] = [];
  const { arxiv, doi, openreview } = record.externalIds;
  if (arxiv) out.push(`arxiv:${arxiv}`);
  if (doi) out.push(`doi:${doi}`);
  if (openreview) out.push(`openreview:${openreview}`);
  if (record.sourceKey) out.push(`key:${record.sourceKey}`);
  const title = titleAuthorAlias(record.title, record.authors[0]);
  if (title) out.push(title);
  for (const link of [record.links.page, record.links.pdf]) {
    const url = link && normalizeUrl(link);
    if (url) out.push(`url:${url}`);
  }
  return out;
}

function preferredId(record: PaperRecord, aliases: readonly string[]): string {
  const { arxiv, doi, openreview } = record.externalIds;
  if (arxiv) return `arxiv:${arxiv}`;
  if (openreview) return `openreview:${openreview}`;
  if (doi) return `doi:${doi}`;
  if (record.sourceKey) return record.sourceKey;
  return `t:${createHash('sha1').update(aliases.find((a) => a.startsWith('title:')) ?? record.title).digest('hex').slice(0, 16)}`;
}

/**
 * Merges a record into a stored paper. The record that owns the paper (see `upsert`) replaces its
 * fields; any other fills gaps, except that a venue record replaces an arXiv preprint's
 * venue, year and status. Identifiers, links, keywords and labels are united.
 */
function mergeRecords(existing: Paper, incoming: PaperRecord, owns: boolean): PaperRecord {
  const pick = <T>(a: T, b: T, empty: (v: T) => boolean): T => (owns ? (empty(b) ? a : b) : empty(a) ? b : a);
  const emptyStr = (s: string | undefined | null) => !s;
  return {
    sourceKey: existing.sourceKey ?? incoming.sourceKey,
    title: pick(existing.title, incoming.title, emptyStr),
    authors: pick(existing.authors, incoming.authors, (a) => a.length === 0),
    abstract: pick(existing.abstract, incoming.abstract, emptyStr),
    venue: owns && incoming.venue ? incoming.venue : existing.venue || incoming.venue,
    year: owns && incoming.year !== null ? incoming.year : (existing.year ?? incoming.year),
    status: owns && incoming.status ? incoming.status : existing.status || incoming.status,
    keywords: union(existing.keywords, incoming.keywords),
    labels: union(existing.labels, incoming.labels),
    links: owns ? { ...existing.links, ...incoming.links } : { ...incoming.links, ...existing.links },
    externalIds: owns
      ? { ...existing.externalIds, ...incoming.externalIds }
      : { ...incoming.externalIds, ...existing.externalIds },
    published: pick(existing.published, incoming.published, emptyStr),
  };
}

/**
 * Whether a record from another source takes a paper over: a venue's record supersedes an arXiv
 * preprint, and an acceptance supersedes a rejection or withdrawal elsewhere.
 */
function supersedes(existing: Paper, incoming: PaperRecord): boolean {
  if (incoming.venue === '' || incoming.venue === 'arXiv') return false;
  return existing.venue === 'arXiv' || (standingOf(existing.status) === 0 && standingOf(incoming.status) > 0);
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

function withTopics(record: PaperRecord, classify: UpsertOptions['classify']): PaperRecord & { topics: string[] } {
  return { ...record, topics: classify(record) };
}

function toColumns(id: string, p: PaperRecord & { topics: string[] }) {
  const columns = {
    id,
    title: p.title,
    authors: JSON.stringify(p.authors),
    abstract: p.abstract,
    venue: p.venue,
    year: p.year,
    status: p.status,
    topics: JSON.stringify(p.topics),
    keywords: JSON.stringify(p.keywords),
    labels: JSON.stringify(p.labels),
    links: JSON.stringify(sortKeys(p.links)),
    external_ids: JSON.stringify(sortKeys(p.externalIds)),
    published: p.published ?? null,
  };
  const content_hash = createHash('sha1').update(JSON.stringify(columns)).digest('hex');
  return { ...columns, content_hash };
}

function sortKeys<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b))) as T;
}

function toPaper(row: PaperRow): Paper {
  return {
    id: row.id,
    title: row.title,
    authors: JSON.parse(row.authors) as string[],
    abstract: row.abstract,
    venue: row.venue,
    year: row.year,
    status: row.status,
    topics: JSON.parse(row.topics) as string[],
    keywords: JSON.parse(row.keywords) as string[],
    labels: JSON.parse(row.labels) as string[],
    links: JSON.parse(row.links) as Paper['links'],
    externalIds: JSON.parse(row.external_ids) as Paper['externalIds'],
    ...(row.published ? { published: row.published } : {}),
    firstSeen: row.first_seen,
  };
}
