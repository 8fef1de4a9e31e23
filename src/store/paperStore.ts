/**
 * PaperStore: papers in SQLite, keyed by a stable id, with every other identifier a paper has
 * (arXiv id, DOI, OpenReview id, title + first author, page and pdf URLs) filed as an alias so
 * the same paper from two sources is one record.
 */
import { createHash } from 'node:crypto';
import type { Db } from './sqlite/db.js';
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

/** Alias kinds in the order that decides which existing paper a record merges into. */
const ALIAS_PRIORITY = ['arxiv:', 'doi:', 'openreview:', 'key:', 'title:', 'url:'];

export class PaperStore {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      byId: db.prepare<[string], PaperRow>('SELECT * FROM papers WHERE id = ?'),
      byDoc: db.prepare<[number], PaperRow>('SELECT * FROM papers WHERE doc = ?'),
      aliasOwner: db.prepare<[string], { paper_id: string }>('SELECT paper_id FROM paper_aliases WHERE alias = ?'),
      insertAlias: db.prepare('INSERT OR IGNORE INTO paper_aliases (alias, paper_id) VALUES (?, ?)'),
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
    const aliases = aliasesOf(record);
    const existingId = this.findOwner(aliases);
    const now = options.now.toISOString();
    if (existingId === undefined) {
      const id = preferredId(record, aliases);
      const content = withTopics(record, options.classify);
      this.stmts.insert.run({
        ...toColumns(id, content),
        source: options.source,
        first_seen: now,
        updated_at: now,
        gen,
      });
      for (const alias of aliases) this.stmts.insertAlias.run(alias, id);
      return { outcome: 'added', id };
    }
    const row = this.stmts.byId.get(existingId)!;
    const existing = toPaper(row);
    // The record that is (or, superseding a preprint or a rejection, becomes) the paper's source
    // replaces its fields; any other record only fills gaps. "Same source" alone is not enough: a
    // listing's duplicate would replace the original and be replaced back on every re-ingest.
    const owns = row.source === options.source ? preferredId(record, aliases) === existingId : supersedes(existing, record);
    const merged = withTopics(mergeRecords(existing, record, owns), options.classify);
    const columns = toColumns(existingId, merged);
    for (const alias of aliases) this.stmts.insertAlias.run(alias, existingId);
    if (columns.content_hash === row.content_hash) return { outcome: 'unchanged', id: existingId };
    const source = owns ? options.source : row.source;
    this.stmts.update.run({ ...columns, source, updated_at: now, gen });
    return { outcome: 'updated', id: existingId };
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
    const stmt = this.db.prepare<[], Pick<PaperRow, 'doc' | 'id' | 'title' | 'authors' | 'abstract' | 'keywords' | 'venue' | 'year' | 'status' | 'topics' | 'first_seen'>>(
      'SELECT doc, id, title, authors, abstract, keywords, venue, year, status, topics, first_seen FROM papers ORDER BY doc',
    );
    for (const row of stmt.iterate()) {
      yield {
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
  }

  private findOwner(aliases: readonly string[]): string | undefined {
    for (const prefix of ALIAS_PRIORITY) {
      for (const alias of aliases) {
        if (!alias.startsWith(prefix)) continue;
        const owner = this.stmts.aliasOwner.get(alias);
        if (owner) return owner.paper_id;
      }
    }
    return undefined;
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
