/**
 * How records become papers, whichever store keeps them: the identifiers a record is filed
 * under, the id a new paper gets, how a record merges into the paper it shares an identifier
 * with, and the row a paper is stored as. Pure functions; `planUpserts` turns a batch of records,
 * and what the store already holds under their identifiers, into the rows to write.
 */
import { hash } from 'node:crypto';
import { decodeRecordText, standingOf, venueKey, type Paper, type PaperRecord } from '../papers/model.js';
import { normalizeUrl, titleAuthorAlias, titleAuthorAliasAs } from '../papers/ids.js';
import { isAscii } from '../text.js';
import type { IndexRow, UpsertOptions, UpsertResult } from './papers.js';

/** A paper as both stores keep it: lists and maps as JSON text, times as ISO strings. */
export interface PaperRow {
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
  /** The authors' TL;DR, where the venue has one (OpenReview). */
  tldr: string | null;
  source: string;
  content_hash: string;
  first_seen: string;
}

/** A paper row to write: all but its document number (the store numbers new papers). */
export type PaperWrite = Omit<PaperRow, 'doc'> & { updated_at: string };

/** The columns of the index's rows, for a SELECT. */
export const INDEX_COLUMNS = 'doc, id, title, authors, abstract, keywords, venue, year, status, topics, first_seen';

/** Alias kinds in the order that decides which existing paper a record merges into. */
const ALIAS_PRIORITY = ['arxiv:', 'doi:', 'openreview:', 'key:', 'title:', 'url:'];

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
 * What a record needs to become a new paper, worked out ahead (off the import thread): its
 * identifiers, the id it would get, its topics and the row it would be stored as. A record that
 * merges into a stored paper is planned again from the stored row, with these topics when the
 * merge leaves the text they come from as it was.
 */
export interface PreparedRecord {
  aliases: string[];
  id: string;
  topics: string[];
  columns: ReturnType<typeof toColumns>;
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

/** The rows a batch writes, in the order to write them, and each record's outcome. */
export interface UpsertPlan {
  results: UpsertResult[];
  /** New papers, in the order their records came. */
  inserts: PaperWrite[];
  /** Changed papers already stored (one row each, as the batch left it). */
  updates: PaperWrite[];
  /** Identifiers no paper had: [alias, paper id]. */
  aliases: Array<[string, string]>;
}

/**
 * Plans a batch of upserts with the same outcomes as one after the other: `owners` (alias →
 * paper id) and `rows` (id → row) hold what the store had under the batch's identifiers and
 * preferred ids ({@link lookupsFor}), and are updated as the batch goes, so a later record sees
 * the earlier ones. A record with no identifier an existing paper has, whose derived id another
 * paper already has, is refused.
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
    const existingId = findOwner(list, owners);
    const row = existingId === undefined ? undefined : rows.get(existingId);
    const ahead = options.prepared?.(record);
    if (!row) {
      const id = ahead?.id ?? preferredId(record, list);
      if (rows.has(id)) return { refused: `another paper already has the id ${id}, and nothing else identifies this record` };
      const columns = ahead?.columns ?? toColumns(id, record, options.classify(record));
      const write = toWrite(columns, options.source, now, now);
      rows.set(id, write);
      inserts.set(id, write);
      file(list, id);
      return { outcome: 'added', id };
    }
    const id = existingId!;
    const existing = toPaper(row);
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
    if (columns.content_hash === row.content_hash) return { outcome: 'unchanged', id };
    const write = toWrite(columns, owns ? options.source : row.source, row.first_seen, now);
    rows.set(id, write);
    (inserts.has(id) ? inserts : updates).set(id, write);
    return { outcome: 'updated', id };
  });
  return { results, inserts: [...inserts.values()], updates: [...updates.values()], aliases };
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
export function toColumns(id: string, p: PaperRecord, topics: readonly string[]) {
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
function toWrite(columns: ReturnType<typeof toColumns>, source: string, firstSeen: string, updatedAt: string): PaperWrite {
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

/**
 * A paper's topics recomputed: the new topics and content hash, or undefined when they are the same.
 * @example const changed = reclassified(row, classify);
 */
export function reclassified(row: PaperRow, classify: UpsertOptions['classify']): { topics: string; contentHash: string } | undefined {
  const paper = toPaper(row);
  const topics = JSON.stringify(classify(paper));
  if (topics === row.topics) return undefined;
  return { topics, contentHash: toColumns(paper.id, paper, JSON.parse(topics) as string[]).content_hash };
}

export function toPaper(row: Omit<PaperRow, 'doc'>): Paper {
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
  };
}

export function toIndexRow(row: Pick<PaperRow, 'doc' | 'id' | 'title' | 'authors' | 'abstract' | 'keywords' | 'venue' | 'year' | 'status' | 'topics' | 'first_seen'>): IndexRow {
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

/**
 * For a library of text normalization 1 or 2, the title alias a stored paper was filed under and
 * the one it is filed under now, where they differ: a title or first author with a compatibility
 * character ("ℒ1", "ℝ", "Whegs™") that normalization 3 reads otherwise, in a way refolding the
 * key cannot undo (1 read such characters as 2 did). Undefined otherwise.
 */
export function realiasedRow(row: Pick<PaperRow, 'title' | 'authors'>, from: number): { old: string | undefined; now: string } | undefined {
  if (from >= 3 || (isAscii(row.title) && isAscii(row.authors))) return undefined;
  const first = (JSON.parse(row.authors) as string[])[0];
  const now = titleAuthorAlias(row.title, first);
  const old = titleAuthorAliasAs(2, row.title, first);
  return now === undefined || now === old ? undefined : { old, now };
}

/**
 * A stored paper with the LaTeX left in its title, authors and abstract decoded (what the text
 * upgrade does to a library written before decoding at import): its new row columns and title
 * alias, or undefined when nothing needed decoding.
 * @example const decoded = decodedRow(row, classify);
 */
export function decodedRow(row: Omit<PaperRow, 'doc'>, classify: UpsertOptions['classify']): { columns: ReturnType<typeof toColumns>; titleAlias: string | undefined } | undefined {
  const paper = toPaper(row);
  const title = decodeRecordText(paper.title);
  const authors = paper.authors.map(decodeRecordText);
  const abstract = decodeRecordText(paper.abstract);
  if (title === paper.title && abstract === paper.abstract && authors.every((a, i) => a === paper.authors[i])) return undefined;
  const next = { ...paper, title, authors, abstract };
  return { columns: toColumns(paper.id, next, classify(next)), titleAlias: titleAuthorAlias(title, authors[0]) };
}
