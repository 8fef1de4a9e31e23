/**
 * Builds one segment from store rows: tokenize each field once, collect (term, doc, tf) triples
 * in flat typed arrays, then renumber terms in sorted order and counting-sort the triples into
 * posting lists. Rows can be fed a few at a time (a running bot builds a delta in slices).
 */
import type { IndexRow } from '../../store/papers.js';
import { STOPWORDS, tokenize } from '../../text.js';
import { FIELD_COUNT, Field, type FieldPostings, type SegmentData, type TextColumn } from './types.js';
import { TrieBuilder } from '../vocab.js';
import { GrowableArray, TextColumnBuilder, pushVarint } from './columns.js';
import { TermTable, forEachWord } from '../../termTable.js';
import { compoundTerm, forEachCompound } from '../compounds.js';
import { recordStanding } from '../rerank.js';
import { citedByColumn, paperNames, trackOf } from '../standing.js';
import { authorKeysOf } from '../librarySignals.js';
import { authorTable } from './authorTable.js';

export interface BuildOptions {
  /** Store generation the segment reflects. */
  generation: number;
  taxonomyHash: string;
  /** Topic ids of the taxonomy, in a fixed order (bit positions). */
  topicIds: readonly string[];
}

/**
 * Builds a segment over `rows` (ascending store document numbers).
 * @example const segment = buildSegment(rows, { generation: 12, taxonomyHash, topicIds });
 */
export function buildSegment(rows: Iterable<IndexRow>, options: BuildOptions): SegmentData {
  const builder = new SegmentBuilder(options);
  for (const row of rows) builder.add(row);
  return builder.finish();
}

/** Accumulates rows into a segment; {@link finish} sorts and packs them. */
export class SegmentBuilder {
  private readonly terms = new TermTable();
  private readonly tfOf: number[] = [];
  private readonly stopwordCount: number;
  private readonly triples = Array.from({ length: FIELD_COUNT }, () => new TripleBuffer());
  private readonly lengths = Array.from({ length: FIELD_COUNT }, () => new GrowableArray(Uint16Array));
  private readonly lengthSums = new Array<number>(FIELD_COUNT).fill(0);
  private readonly forwardIds = new GrowableArray(Uint32Array, 1 << 16);
  private readonly forwardEnds = new GrowableArray(Uint32Array);
  private readonly docMark: number[] = [];
  private readonly storeDocs = new GrowableArray(Uint32Array);
  private readonly years = new GrowableArray(Uint16Array);
  private readonly standing = new GrowableArray(Uint8Array);
  private readonly track = new GrowableArray(Uint8Array);
  private readonly citedBy = new GrowableArray(Uint32Array);
  private readonly venueOf = new GrowableArray(Uint32Array);
  private readonly firstSeen = new GrowableArray(Float64Array);
  private readonly topicBits = new GrowableArray(Uint32Array);
  private readonly ids = new TextColumnBuilder();
  private readonly titles = new TextColumnBuilder();
  private readonly authors = new TextColumnBuilder();
  private readonly names = new TextColumnBuilder();
  private readonly authorKeys = new GrowableArray(Float64Array);
  private readonly authorEnds = new GrowableArray(Uint32Array);
  private readonly normalizedTitles: Buffer[] = [];
  private readonly venues: string[] = [];
  private readonly venueIndex = new Map<string, number>();
  private readonly topicIndex: Map<string, number>;
  private readonly topicWords: number;
  private readonly touched: number[] = [];
  private maxFirstSeen = 0;
  private doc = 0;

  constructor(private readonly options: BuildOptions) {
    // Stopwords get the first ids so one lookup answers both "which term" and "is it a stopword".
    for (const word of STOPWORDS) this.idOf(word);
    this.stopwordCount = this.terms.size;
    this.topicIndex = new Map(options.topicIds.map((id, i) => [id, i]));
    this.topicWords = Math.max(1, Math.ceil(options.topicIds.length / 32));
  }

  /** Documents added so far. */
  get size(): number {
    return this.doc;
  }

  add(row: IndexRow): void {
    const doc = this.doc;
    if (doc > 0 && row.doc <= this.storeDocs.raw[doc - 1]!) throw new Error(`index rows out of order: store doc ${row.doc} after ${this.storeDocs.raw[doc - 1]}`);
    const titleWords = tokenize(row.title);
    this.addField(doc, Field.Title, [titleWords], false, row.title);
    const names = row.authors.map((name) => tokenize(name));
    this.addField(doc, Field.Authors, names, false);
    // The first author is a field of its own: "Vaswani attention" means the first author.
    this.addField(doc, Field.FirstAuthor, names.slice(0, 1), false);
    this.addText(doc, Field.Keywords, row.keywords.join(' '), true);
    this.addText(doc, Field.Abstract, row.abstract, true);
    this.forwardEnds.push(this.forwardIds.length);
    this.ids.add(row.id);
    const title = row.title.replace(/\s+/g, ' ');
    this.titles.add(title);
    // normalizeTitle(row.title), from the words already split.
    this.normalizedTitles.push(Buffer.from(titleWords.join(' '), 'utf8'));
    const authors = names.map((n) => n.join(' ')).join(';');
    this.authors.add(authors);
    // What the library's signals read of it (librarySignals.ts), from the columns as stored.
    this.names.add(paperNames(title).slice(0, 2).join(';'));
    for (const key of authorKeysOf(authors)) this.authorKeys.push(key);
    this.authorEnds.push(this.authorKeys.length);
    this.storeDocs.push(row.doc);
    this.years.push(row.year ?? 0);
    this.standing.push(recordStanding(row.status, row.authors));
    this.track.push(trackOf(row.status, row.authors));
    this.citedBy.push(citedByColumn(row.citedBy));
    let venue = this.venueIndex.get(row.venue);
    if (venue === undefined) {
      venue = this.venues.length;
      this.venueIndex.set(row.venue, venue);
      this.venues.push(row.venue);
    }
    this.venueOf.push(venue);
    const seen = Date.parse(row.firstSeen) / 1000 || 0;
    if (seen > this.maxFirstSeen) this.maxFirstSeen = seen;
    this.firstSeen.push(seen);
    const bits = new Uint32Array(this.topicWords);
    for (const topic of row.topics) {
      const bit = this.topicIndex.get(topic);
      if (bit !== undefined) bits[bit >>> 5]! |= 1 << (bit & 31);
    }
    this.topicBits.pushAll(bits);
    this.doc++;
  }

  /** The segment's author table and each document's authors' places in it (authorTable.ts). */
  private authorColumns(): { authorKeys: Float64Array; authorIds: TextColumn } {
    const { table, ids } = authorTable(this.authorKeys.toArray());
    const ends = this.authorEnds.toArray();
    const offsets = new Uint32Array(ends.length + 1);
    for (let d = 0; d < ends.length; d++) offsets[d + 1] = 4 * ends[d]!;
    return { authorKeys: table, authorIds: { bytes: new Uint8Array(ids.buffer, ids.byteOffset, ids.byteLength), offsets } };
  }

  finish(): SegmentData {
    const termList = this.terms.words;
    const docCount = this.doc;
    // Renumber terms so that ids follow sorted order (prefix ranges become contiguous), dropping
    // the stopwords that were registered up front but never kept.
    const used = new Uint8Array(termList.length);
    const fwd = this.forwardIds.raw;
    for (let i = 0; i < this.forwardIds.length; i++) used[fwd[i]!] = 1;
    const order = termList
      .map((_, i) => i)
      .filter((i) => used[i] === 1)
      .sort((a, b) => (termList[a]! < termList[b]! ? -1 : 1));
    const remap = new Uint32Array(termList.length);
    order.forEach((oldId, newId) => (remap[oldId] = newId));
    const terms = new TextColumnBuilder();
    const trie = new TrieBuilder();
    for (const oldId of order) {
      terms.add(termList[oldId]!);
      trie.push(termList[oldId]!);
    }

    const fields: FieldPostings[] = this.triples.map((buffer, field) =>
      toPostings(buffer, remap, order.length, this.lengths[field]!.toArray(), this.lengthSums[field]!),
    );

    // Forward index and document frequencies from the same per-document term sets.
    const docFreq = new Uint32Array(order.length);
    const forward = new TextColumnBuilder();
    const bytes = new GrowableArray(Uint8Array, 256);
    const ends = this.forwardEnds.raw;
    let start = 0;
    for (let d = 0; d < docCount; d++) {
      const end = ends[d]!;
      const local = new Uint32Array(end - start);
      for (let i = start; i < end; i++) local[i - start] = remap[fwd[i]!]!;
      local.sort();
      bytes.length = 0;
      let prev = 0;
      for (const t of local) {
        docFreq[t]!++;
        pushVarint(bytes, t - prev);
        prev = t;
      }
      forward.addBytes(bytes.raw.subarray(0, bytes.length));
      start = end;
    }

    const keys = this.normalizedTitles;
    const titleOrder = Uint32Array.from(keys.keys()).sort((a, b) => Buffer.compare(keys[a]!, keys[b]!) || a - b);
    const titleKeys = new TextColumnBuilder();
    for (const d of titleOrder) titleKeys.addBytes(keys[d]!);

    const years = this.years.toArray();
    const standing = this.standing.toArray();
    const firstSeen = this.firstSeen.toArray();
    const storeDocs = this.storeDocs.toArray();
    return {
      generation: this.options.generation,
      taxonomyHash: this.options.taxonomyHash,
      docCount,
      storeDocs,
      terms: terms.finish(),
      trie: trie.finish(),
      docFreq,
      fields,
      forward: forward.finish(),
      ids: this.ids.finish(),
      titles: this.titles.finish(),
      authors: this.authors.finish(),
      names: this.names.finish(),
      ...this.authorColumns(),
      titleKeys: titleKeys.finish(),
      titleOrder,
      newestOrder: newestOrder(docCount, (d) => years[d]!, (d) => standing[d]!, (d) => firstSeen[d]!, (d) => storeDocs[d]!),
      years,
      standing,
      track: this.track.toArray(),
      citedBy: this.citedBy.toArray(),
      venueOf: this.venueOf.toArray(),
      venues: this.venues,
      firstSeen,
      maxFirstSeen: this.maxFirstSeen,
      topics: [...this.options.topicIds],
      topicWords: this.topicWords,
      topicBits: this.topicBits.toArray(),
    };
  }

  /** A term's id; a new term gets its counters. */
  private idOf(term: string): number {
    return this.counted(this.terms.idOf(term));
  }

  private counted(id: number): number {
    if (id === this.tfOf.length) {
      this.tfOf.push(0);
      this.docMark.push(-1);
    }
    return id;
  }

  /**
   * Adds a field of already split words, in one or more parts (an author's names: `flat()` was
   * slow), and the compounds of `text`, the field as written.
   */
  private addField(doc: number, field: Field, parts: ReadonlyArray<readonly string[]>, skipStopwords: boolean, text?: string): void {
    let length = 0;
    for (const tokens of parts) for (const token of tokens) length += this.count(this.idOf(token), skipStopwords);
    if (text !== undefined) this.addCompounds(text);
    this.endField(doc, field, length);
  }

  /**
   * Adds a field's text, split as {@link tokenize} splits it. ASCII text (most abstracts) is
   * scanned in place: each word is looked up where it lies ({@link TermTable.idAt}), so only
   * words new to the segment become strings.
   */
  private addText(doc: number, field: Field, text: string, skipStopwords: boolean): void {
    let length = 0;
    forEachWord(text, (words, start, end, hash) => {
      length += this.count(this.counted(this.terms.idAt(words, start, end, hash)), skipStopwords);
    });
    this.addCompounds(text);
    this.endField(doc, field, length);
  }

  /**
   * Files the joined form of each compound of a field's text as one more term of the field
   * ("domain-level" → -domainlevel, beside domain and level; see compounds.ts). It adds nothing to the field's
   * length, which stays its count of words, so every other term scores as it did.
   */
  private addCompounds(text: string): void {
    forEachCompound(text, (joined) => this.count(this.idOf(compoundTerm(joined)), false));
  }

  /** One occurrence of term `id` in the field being added: 1 if it counts toward the field's length. */
  private count(id: number, skipStopwords: boolean): number {
    if (skipStopwords && id < this.stopwordCount) return 0;
    if (this.tfOf[id]++ === 0) this.touched.push(id);
    return 1;
  }

  /** Ends a field of `length` words: its postings, and the document's forward entries. */
  private endField(doc: number, field: Field, length: number): void {
    const { tfOf, touched, docMark } = this;
    const out = this.triples[field]!;
    for (const id of touched) {
      out.push(id, doc, Math.min(tfOf[id]!, 255));
      tfOf[id] = 0;
      if (docMark[id] !== doc) {
        docMark[id] = doc;
        this.forwardIds.push(id);
      }
    }
    touched.length = 0;
    const kept = Math.min(length, 65535);
    this.lengths[field]!.push(kept);
    this.lengthSums[field]! += kept;
  }
}

/** Document numbers 0..n-1 newest first (see {@link SegmentData.newestOrder}). */
export function newestOrder(
  n: number,
  year: (d: number) => number,
  standing: (d: number) => number,
  firstSeen: (d: number) => number,
  storeDoc: (d: number) => number,
): Uint32Array {
  const order = Array.from({ length: n }, (_, d) => d);
  order.sort((a, b) => year(b) - year(a) || standing(b) - standing(a) || firstSeen(b) - firstSeen(a) || storeDoc(a) - storeDoc(b));
  return Uint32Array.from(order);
}

function toPostings(buffer: TripleBuffer, remap: Uint32Array, termCount: number, lengths: Uint16Array, lengthSum: number): FieldPostings {
  const n = buffer.length;
  const offsets = new Uint32Array(termCount + 1);
  const ids = buffer.terms;
  for (let i = 0; i < n; i++) offsets[remap[ids[i]!]! + 1]!++;
  for (let t = 0; t < termCount; t++) offsets[t + 1]! += offsets[t]!;
  const cursor = offsets.slice(0, termCount);
  const docs = new Uint32Array(n);
  const tfs = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const at = cursor[remap[ids[i]!]!]!++;
    docs[at] = buffer.docs[i]!;
    tfs[at] = buffer.tfs[i]!;
  }
  return { offsets, docs, tfs, lengths, lengthSum };
}

class TripleBuffer {
  private readonly t = new GrowableArray(Uint32Array);
  private readonly d = new GrowableArray(Uint32Array);
  private readonly f = new GrowableArray(Uint8Array);
  push(term: number, doc: number, tf: number): void {
    this.t.push(term);
    this.d.push(doc);
    this.f.push(tf);
  }
  get length(): number {
    return this.t.length;
  }
  get terms(): Uint32Array {
    return this.t.raw;
  }
  get docs(): Uint32Array {
    return this.d.raw;
  }
  get tfs(): Uint8Array {
    return this.f.raw;
  }
}
