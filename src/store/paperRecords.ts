/**
 * How records become papers, whichever store keeps them: the identifiers a record is filed
 * under, the id a new paper gets, how a record merges into the paper it shares an identifier
 * with, and the row a paper is stored as. Pure functions; `planUpserts` turns a batch of records,
 * and what the store already holds under their identifiers, into the rows to write. What the
 * upgrades of a stored library do to its rows is in `paperUpgrades.ts`.
 */
import { hash } from 'node:crypto';
import { standingOf, venueKey, type Paper, type PaperRecord } from '../papers/model.js';
import { normalizeUrl, titleAuthorAlias } from '../papers/ids.js';
import { MAX_AUTHORS_COMPARED, fitByTitle, isGenericTitle, nameLookupWords, rankFits, type TitleFit } from '../papers/sameWork.js';
import type { IndexRow, KeptApart, PaperColumns, PreparedRecord, StrongKind, UpsertOptions, UpsertResult } from './papers.js';

/** A paper as both stores keep it: its columns, document number, source and first sighting (ISO time). */
export interface PaperRow extends PaperColumns {
  doc: number;
  source: string;
  first_seen: string;
}

/** A paper row to write: all but its document number (the store numbers new papers). */
export type PaperWrite = Omit<PaperRow, 'doc'> & { updated_at: string };

/**
 * The citation columns a paper is read with (see {@link PAPERS_READ}): NULL for a paper without
 * a match, and absent from a row read for merging.
 */
export interface CitationColumns {
  cite_openalex?: number | null;
  cite_count?: number | null;
  cite_fetched?: string | null;
}

/** A paper's columns as callers read them, `p` the paper and `c` its citations (joined by {@link CITATIONS_JOIN}). */
export const PAPER_READ_COLUMNS = 'p.*, c.openalex AS cite_openalex, c.cited_by AS cite_count, c.fetched AS cite_fetched';
/** What joins a paper `p` to its citations `c`, if it has any (`citationRows.ts`). */
export const CITATIONS_JOIN = 'LEFT JOIN paper_citations c ON c.doc = p.doc';
/** Papers as callers read them (`SELECT ${PAPERS_READ} WHERE p.…`): each row with its count, if it has one. */
export const PAPERS_READ = `${PAPER_READ_COLUMNS} FROM papers p ${CITATIONS_JOIN}`;

/** The columns of the index's rows and where they come from, for a SELECT (`p` the papers, `c` their citations). */
export const INDEX_COLUMNS = 'p.doc, p.id, p.title, p.authors, p.abstract, p.keywords, p.venue, p.year, p.status, p.topics, p.first_seen, c.cited_by';
export const INDEX_FROM = 'papers p LEFT JOIN paper_citations c ON c.doc = p.doc';

/** Alias kinds in the order that decides which existing paper a record merges into. */
const ALIAS_PRIORITY = ['arxiv:', 'doi:', 'openreview:', 'key:', 'title:', 'url:'];

/**
 * The identifiers that name one paper only. A record never merges into a paper that has one of
 * the same kind with another value, whatever else they share: two OpenReview submissions are two
 * papers even when their records give the same pdf link or title.
 */
const STRONG_KINDS: readonly StrongKind[] = ['arxiv', 'doi', 'openreview'];

/**
 * The owner filed for a link that papers with different identifiers share (a proceedings
 * volume, a venue's page, a placeholder pdf): no paper, so the link identifies none of them and
 * finds none. No paper has the empty id.
 */
export const SHARED_OWNER = '';

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

/** The id a new paper gets: its most stable identifier. */
export function preferredId(record: PaperRecord, aliases: readonly string[] = aliasesOf(record)): string {
  const { arxiv, doi, openreview } = record.externalIds;
  if (arxiv) return `arxiv:${arxiv}`;
  if (openreview) return `openreview:${openreview}`;
  if (doi) return `doi:${doi}`;
  if (record.sourceKey) return record.sourceKey;
  return `t:${hash('sha1', aliases.find((a) => a.startsWith('title:')) ?? record.title, 'hex').slice(0, 16)}`;
}

/**
 * @example const prepared = prepareRecord(record, classify(record));
 */
export function prepareRecord(record: PaperRecord, topics: string[]): PreparedRecord {
  const aliases = aliasesOf(record);
  const id = preferredId(record, aliases);
  return { aliases, id, topics, columns: toColumns(id, record, topics) };
}

/**
 * What the store must look up before planning a batch: the records' identifiers and the ids new
 * papers would get (from `prepared` where it has them).
 */
export function lookupsFor(records: readonly PaperRecord[], prepared?: UpsertOptions['prepared']): { aliases: string[]; ids: string[]; aliasLists: string[][] } {
  const ahead = records.map((r) => prepared?.(r));
  const aliasLists = records.map((r, i) => ahead[i]?.aliases ?? aliasesOf(r));
  const ids = records.map((r, i) => ahead[i]?.id ?? preferredId(r, aliasLists[i]));
  return { aliasLists, aliases: [...new Set(aliasLists.flat())], ids: [...new Set(ids)] };
}

/**
 * The title keys a record's paper may be filed under when its first author is not the paper's:
 * its title with each word of each author's name (the title alias keeps the paper's first
 * author's last word). None for a record without a year or with a title that names no paper by
 * itself (`isGenericTitle`): the fallback that reads them needs both.
 * @example titleFallbacks(record) // ['title:image transformer|ashish', 'title:image transformer|vaswani', 'title:image transformer|niki', …]
 */
export function titleFallbacks(record: PaperRecord): string[] {
  if (record.year === null || isGenericTitle(record.title)) return [];
  const keys = new Set<string>();
  for (const name of record.authors.slice(0, MAX_AUTHORS_COMPARED)) {
    for (const word of nameLookupWords(name)) {
      const key = titleAuthorAlias(record.title, word);
      if (key) keys.add(key);
    }
  }
  return [...keys];
}

/**
 * What the store must also look up, once it has read the owners of the batch's identifiers
 * (`owners`): the {@link titleFallbacks} of the records that none of their identifiers found,
 * and that it has not read.
 * @example const more = fallbackLookups(records, lookups.aliasLists, owners);
 */
export function fallbackLookups(records: readonly PaperRecord[], aliasLists: readonly string[][], owners: ReadonlyMap<string, string>): string[] {
  const out = new Set<string>();
  for (const [i, record] of records.entries()) {
    if (aliasLists[i]!.some((alias) => owners.has(alias))) continue;
    for (const key of titleFallbacks(record)) if (!owners.has(key)) out.add(key);
  }
  return [...out];
}

/** The rows a batch writes, in the order to write them, and each record's outcome. */
export interface UpsertPlan {
  /** Each record's outcome; a new paper's `doc` is 0 until the store has written it ({@link settleDocs}). */
  results: UpsertResult[];
  /** New papers, in the order their records came. */
  inserts: PaperWrite[];
  /** Changed papers already stored (one row each, as the batch left it). */
  updates: PaperWrite[];
  /** Identifiers no paper had: [alias, paper id]. */
  aliases: Array<[string, string]>;
  /**
   * Identifiers filed anew, after `aliases`, whoever had them: links found shared by papers that
   * differ, under {@link SHARED_OWNER}; and an arXiv id, DOI or OpenReview id that names a paper
   * with another one of that kind (a merge a previous version made), under the record's paper.
   */
  refiled: Array<[string, string]>;
}

/**
 * Plans a batch of upserts with the same outcomes as one after the other: `owners` (alias →
 * paper id) and `rows` (id → row) hold what the store had under the batch's identifiers and
 * preferred ids ({@link lookupsFor}), and are updated as the batch goes, so a later record sees
 * the earlier ones. A record merges into the paper its most specific identifier names, unless
 * they differ in an arXiv id, DOI or OpenReview id (or, sharing only a link, in title): then the
 * next identifier is tried, and the record is a paper of its own if none fits. Its result says
 * what it was kept apart from; a link found shared that way is filed as no paper's, and an id of
 * its own found filed under the other paper is filed under its paper. A record with no
 * identifier an existing paper has, whose derived id another paper already has, is refused.
 * @example const plan = planUpserts(records, lookups.aliasLists, owners, rows, options);
 */
export function planUpserts(
  records: readonly PaperRecord[],
  aliasLists: readonly string[][],
  owners: Map<string, string>,
  rows: Map<string, PaperRow | PaperWrite>,
  options: UpsertOptions,
): UpsertPlan {
  const now = options.now.toISOString();
  const inserts = new Map<string, PaperWrite>();
  const updates = new Map<string, PaperWrite>();
  const aliases: Array<[string, string]> = [];
  const refiled: Array<[string, string]> = [];
  const docs = new Map<string, number>();
  for (const [id, row] of rows) if ('doc' in row) docs.set(id, row.doc);
  const file = (list: readonly string[], id: string) => {
    // The first paper to claim an identifier keeps it.
    for (const alias of list) {
      if (owners.has(alias)) continue;
      owners.set(alias, id);
      aliases.push([alias, id]);
    }
  };
  const results = records.map((record, i): UpsertResult => {
    const list = aliasLists[i]!;
    const { owner, apart, stale } = findOwner(record, list, owners, rows, refiled);
    const ahead = options.prepared?.(record);
    const refile = (id: string) => {
      for (const alias of stale) {
        owners.set(alias, id);
        refiled.push([alias, id]);
      }
    };
    if (!owner) {
      const id = ahead?.id ?? preferredId(record, list);
      if (rows.has(id)) return { refused: `another paper already has the id ${id}, and nothing else identifies this record` };
      const columns = ahead?.columns ?? toColumns(id, record, options.classify(record));
      const write = toWrite(columns, options.source, now, now);
      rows.set(id, write);
      inserts.set(id, write);
      refile(id);
      file(list, id);
      return apart ? { outcome: 'added', id, doc: 0, apart } : { outcome: 'added', id, doc: 0 };
    }
    const { id, row, paper: existing } = owner;
    const doc = docs.get(id) ?? 0;
    refile(id);
    // The record that is (or, superseding a preprint or a rejection, becomes) the paper's source
    // replaces its fields; any other record only fills gaps. "Same source" alone is not enough: a
    // listing's duplicate would replace the original and be replaced back on every re-ingest.
    const owns = row.source === options.source ? (ahead?.id ?? preferredId(record, list)) === id : supersedes(existing, record);
    const merged = mergeRecords(existing, record, owns);
    // A record read again (a re-import, a daily sync) merges into the same text: its topics,
    // worked out ahead, are the merged paper's, and the import thread need not classify it.
    const topics = ahead && sameTopicText(merged, record) ? ahead.topics : options.classify(merged);
    const columns = toColumns(id, merged, topics);
    file(list, id);
    const outcome = columns.content_hash === row.content_hash ? 'unchanged' : 'updated';
    if (outcome === 'updated') {
      const write = toWrite(columns, owns ? options.source : row.source, row.first_seen, now);
      rows.set(id, write);
      (inserts.has(id) ? inserts : updates).set(id, write);
    }
    return apart ? { outcome, id, doc, apart } : { outcome, id, doc };
  });
  return { results, inserts: [...inserts.values()], updates: [...updates.values()], aliases, refiled };
}

/**
 * Gives the results of new papers (and of records merged into them) the document numbers the
 * store gave those papers when it wrote them.
 * @example settleDocs(plan.results, new Map([['arxiv:2401.00001', 42]]));
 */
export function settleDocs(results: UpsertResult[], inserted: ReadonlyMap<string, number>): void {
  for (const result of results) if ('outcome' in result && result.doc === 0) result.doc = inserted.get(result.id) ?? 0;
}

/**
 * The paper the record merges into: the first, by {@link ALIAS_PRIORITY}, that one of its
 * identifiers names and that does not differ from it ({@link differsFrom}); the first paper it
 * was kept apart from, if any; and its strong identifiers that name a paper with another of
 * that kind (`stale`: the caller files them under the record's paper). A link that names a
 * paper the record differs from is shared by papers that differ: it is filed as no paper's,
 * here (`owners`) and in the store (`refiled`).
 */
function findOwner(
  record: PaperRecord,
  aliases: readonly string[],
  owners: Map<string, string>,
  rows: ReadonlyMap<string, PaperRow | PaperWrite>,
  refiled: Array<[string, string]>,
): { owner?: { id: string; row: PaperRow | PaperWrite; paper: Paper }; apart?: KeptApart; stale: string[] } {
  let apart: KeptApart | undefined;
  const stale: string[] = [];
  for (const prefix of ALIAS_PRIORITY) {
    for (const alias of aliases) {
      if (!alias.startsWith(prefix)) continue;
      const id = owners.get(alias);
      if (id === undefined) continue;
      if (id === SHARED_OWNER) {
        apart ??= { alias };
        continue;
      }
      const row = rows.get(id);
      if (!row) continue;
      const paper = toPaper(row);
      const differs = differsFrom(record, aliases, paper, alias);
      if (differs === undefined) return apart ? { owner: { id, row, paper }, apart, stale } : { owner: { id, row, paper }, stale };
      apart ??= { alias, paper: id, differs };
      if (prefix === 'url:') {
        owners.set(alias, SHARED_OWNER);
        refiled.push([alias, SHARED_OWNER]);
      } else if (prefix === `${differs}:`) {
        // Its own id filed under a paper with another id of that kind: a merge a previous version made.
        owners.delete(alias);
        stale.push(alias);
      }
    }
  }
  const owner = ownerByTitle(record, owners, rows);
  if (owner) return apart ? { owner, apart, stale } : { owner, stale };
  return apart ? { apart, stale } : { stale };
}

/**
 * The paper a record belongs to that none of its identifiers named: the one its title, year
 * (within one) and an author fit best (`sameWork.ts`), among the papers filed under its
 * {@link titleFallbacks}, and never one whose arXiv id, DOI or OpenReview id differs. Papers
 * that fit equally well are ambiguous: the record is none of them.
 */
function ownerByTitle(record: PaperRecord, owners: ReadonlyMap<string, string>, rows: ReadonlyMap<string, PaperRow | PaperWrite>): { id: string; row: PaperRow | PaperWrite; paper: Paper } | undefined {
  const fits: Array<TitleFit<Paper & { row: PaperRow | PaperWrite }>> = [];
  const seen = new Set<string>();
  for (const key of titleFallbacks(record)) {
    const id = owners.get(key);
    if (id === undefined || id === SHARED_OWNER || seen.has(id)) continue;
    seen.add(id);
    const row = rows.get(id);
    if (!row) continue;
    const paper = toPaper(row);
    if (differsFrom(record, [], paper, key) !== undefined) continue;
    const fit = fitByTitle(record, { ...paper, row });
    if (fit) fits.push(fit);
  }
  const { best } = rankFits(fits);
  if (!best) return undefined;
  const { row, ...paper } = best.paper;
  return { id: paper.id, row, paper };
}

/**
 * What tells a record and a paper apart although `via` names both: a strong identifier of the
 * same kind with another value, or, when `via` is only a link, another title (the first author
 * may differ: a listing that reorders authors, an anonymous submission).
 */
function differsFrom(record: PaperRecord, aliases: readonly string[], paper: Paper, via: string): KeptApart['differs'] {
  for (const kind of STRONG_KINDS) {
    const mine = record.externalIds[kind];
    const theirs = paper.externalIds[kind];
    if (mine && theirs && mine !== theirs) return kind;
  }
  if (!via.startsWith('url:')) return undefined;
  const mine = aliases.find((alias) => alias.startsWith('title:'));
  const theirs = titleAuthorAlias(paper.title, paper.authors[0]);
  return mine && theirs && titleOf(mine) !== titleOf(theirs) ? 'title' : undefined;
}

/** The title part of a title alias (`title:<title>|<first author>`). */
function titleOf(alias: string): string {
  return alias.slice(0, alias.lastIndexOf('|'));
}

/**
 * Merges a record into a stored paper. The record that owns the paper (see `planUpserts`)
 * replaces its fields; any other fills gaps, except that a venue record replaces an arXiv
 * preprint's venue, year and status. Identifiers, links, keywords and labels are united.
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
    // A decision belongs to its venue: another venue's rejection is not this paper's status.
    status: owns && incoming.status ? incoming.status : existing.status || (sameVenue(existing.venue, incoming.venue) ? incoming.status : ''),
    keywords: union(existing.keywords, incoming.keywords),
    labels: union(existing.labels, incoming.labels),
    links: owns ? { ...existing.links, ...incoming.links } : { ...incoming.links, ...existing.links },
    externalIds: owns
      ? { ...existing.externalIds, ...incoming.externalIds }
      : { ...incoming.externalIds, ...existing.externalIds },
    published: pick(existing.published, incoming.published, emptyStr),
    tldr: pick(existing.tldr, incoming.tldr, emptyStr),
  };
}

/**
 * Whether a record from another source takes a paper over: a venue's record supersedes an arXiv
 * preprint, and an acceptance supersedes a rejection or withdrawal elsewhere.
 */
function supersedes(existing: Paper, incoming: PaperRecord): boolean {
  if (incoming.venue === '' || incoming.venue === 'arXiv') return false;
  // A rejection, a withdrawal or a submission still under review never takes a paper over.
  if (standingOf(incoming.status) === 0) return false;
  return existing.venue === 'arXiv' || (standingOf(existing.status) === 0 && standingOf(incoming.status) > 0);
}

/** Whether two papers agree on everything the classifier reads (see `ClassifiablePaper`). */
function sameTopicText(a: PaperRecord, b: PaperRecord): boolean {
  return a.title === b.title && a.abstract === b.abstract && sameList(a.keywords, b.keywords) && sameList(a.labels, b.labels);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

function sameVenue(a: string, b: string): boolean {
  return a === '' || venueKey(a) === venueKey(b);
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/**
 * A paper's stored columns and the hash that tells whether a merge changed anything.
 *
 * Runs for every paper an import writes, so objects are built whole, never spread and then
 * added to: in V8 a literal such as `{ ...columns, tldr }` defines each property after the spread
 * through the runtime (~6 µs for a row), and leaves an object slower to read.
 */
export function toColumns(id: string, p: PaperRecord, topics: readonly string[]): PaperColumns {
  const columns = {
    id,
    title: p.title,
    authors: JSON.stringify(p.authors),
    abstract: p.abstract,
    venue: p.venue,
    year: p.year,
    status: p.status,
    topics: JSON.stringify(topics),
    keywords: JSON.stringify(p.keywords),
    labels: JSON.stringify(p.labels),
    links: JSON.stringify(sortKeys(p.links)),
    external_ids: JSON.stringify(sortKeys(p.externalIds)),
    published: p.published ?? null,
  };
  // The TL;DR is hashed only when set, so papers without one keep the hash they had before
  // TL;DRs existed; with one, the text hashed is that of the columns with `tldr` added last.
  const json = JSON.stringify(columns);
  const hashed = p.tldr ? `${json.slice(0, -1)},"tldr":${JSON.stringify(p.tldr)}}` : json;
  return Object.assign(columns, { tldr: p.tldr ?? null, content_hash: hash('sha1', hashed, 'hex') });
}

/** The row written for a paper's columns. */
function toWrite(columns: PaperColumns, source: string, firstSeen: string, updatedAt: string): PaperWrite {
  const c = columns;
  return {
    id: c.id, title: c.title, authors: c.authors, abstract: c.abstract, venue: c.venue, year: c.year, status: c.status,
    topics: c.topics, keywords: c.keywords, labels: c.labels, links: c.links, external_ids: c.external_ids,
    published: c.published, tldr: c.tldr, content_hash: c.content_hash, source, first_seen: firstSeen, updated_at: updatedAt,
  };
}

/**
 * The entries that are set, by key. The keys are the schema's lowercase names, which sort the
 * same by code unit as by `localeCompare` (which the stored hashes were first made with).
 */
function sortKeys<T extends object>(obj: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of (Object.keys(obj) as Array<keyof T>).sort()) if (obj[key] !== undefined) out[key] = obj[key];
  return out;
}

export function toPaper(row: Omit<PaperRow, 'doc'> & CitationColumns): Paper {
  const counted = row.cite_count !== undefined && row.cite_count !== null && row.cite_openalex !== undefined && row.cite_openalex !== null;
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
    ...(row.tldr ? { tldr: row.tldr } : {}),
    firstSeen: row.first_seen,
    ...(counted ? { citations: { count: Number(row.cite_count), openalex: `W${row.cite_openalex}`, fetched: row.cite_fetched! } } : {}),
  };
}

export function toIndexRow(row: Pick<PaperRow, 'doc' | 'id' | 'title' | 'authors' | 'abstract' | 'keywords' | 'venue' | 'year' | 'status' | 'topics' | 'first_seen'> & { cited_by: number | null }): IndexRow {
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
    citedBy: row.cited_by,
  };
}
