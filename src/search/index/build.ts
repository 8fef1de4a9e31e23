/**
 * Builds the search index from the store's rows in one pass: tokenize each field once, collect
 * (term, doc, tf) triples in flat typed arrays, then renumber terms in sorted order and
 * counting-sort the triples into posting lists.
 */
import type { IndexRow } from '../../store/papers.js';
import { STOPWORDS, normalizeTitle, tokenize } from '../../text.js';
import { FIELD_COUNT, Field, type FieldPostings, type IndexData } from './types.js';
import { buildTermTrie } from '../vocab.js';
import { standingOf } from '../../papers/model.js';

export interface BuildOptions {
  generation: number;
  taxonomyHash: string;
  /** Topic ids of the taxonomy, in a fixed order (bit positions). */
  topicIds: readonly string[];
}

/**
 * Builds an index over `rows` (in store order), read as they come.
 * @example const data = await buildIndex(store.rowsForIndex(), { generation: await store.generation(), taxonomyHash, topicIds });
 */
export async function buildIndex(rows: AsyncIterable<IndexRow> | Iterable<IndexRow>, options: BuildOptions): Promise<IndexData> {
  const termIds = new Map<string, number>();
  const termList: string[] = [];
  const triples = Array.from({ length: FIELD_COUNT }, () => new TripleBuffer());
  const lengths = Array.from({ length: FIELD_COUNT }, () => new GrowableArray(Uint16Array));
  const storeDocs = new GrowableArray(Uint32Array);
  const years = new GrowableArray(Uint16Array);
  const standing = new GrowableArray(Uint8Array);
  const venueOf = new GrowableArray(Uint16Array);
  const firstSeen = new GrowableArray(Float64Array);
  const ids: string[] = [];
  const titles: string[] = [];
  const normalizedTitles: string[] = [];
  const authors: string[] = [];
  const venues: string[] = [];
  const venueIndex = new Map<string, number>();
  const topicIndex = new Map(options.topicIds.map((id, i) => [id, i]));
  const topicWords = Math.max(1, Math.ceil(options.topicIds.length / 32));
  const topicBits = new GrowableArray(Uint32Array);

  // Stopwords get the first ids so one map lookup answers both "which term" and "is it a stopword".
  const tfOf: number[] = [];
  const idOf = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = termList.length;
      termIds.set(term, id);
      termList.push(term);
      tfOf.push(0);
    }
    return id;
  };
  for (const word of STOPWORDS) idOf(word);
  const stopwordCount = termList.length;
  const touched: number[] = [];
  const addField = (doc: number, field: Field, tokens: readonly string[], skipStopwords: boolean): void => {
    let length = 0;
    for (const token of tokens) {
      const id = idOf(token);
      if (skipStopwords && id < stopwordCount) continue;
      length++;
      if (tfOf[id]++ === 0) touched.push(id);
    }
    const out = triples[field]!;
    for (const id of touched) {
      out.push(id, doc, Math.min(tfOf[id]!, 255));
      tfOf[id] = 0;
    }
    touched.length = 0;
    lengths[field]!.push(Math.min(length, 65535));
  };

  let doc = 0;
  for await (const row of rows) {
    addField(doc, Field.Title, tokenize(row.title), false);
    const names = row.authors.map((name) => tokenize(name));
    addField(doc, Field.Authors, names.flat(), false);
    // The first author is a field of its own: "Vaswani attention" means the first author.
    addField(doc, Field.FirstAuthor, names[0] ?? [], false);
    addField(doc, Field.Keywords, tokenize(row.keywords.join(' ')), true);
    addField(doc, Field.Abstract, tokenize(row.abstract), true);
    ids.push(row.id);
    titles.push(row.title.replace(/\s+/g, ' '));
    normalizedTitles.push(normalizeTitle(row.title));
    authors.push(names.map((n) => n.join(' ')).join(';'));
    storeDocs.push(row.doc);
    years.push(row.year ?? 0);
    standing.push(standingOf(row.status));
    let venue = venueIndex.get(row.venue);
    if (venue === undefined) {
      venue = venues.length;
      venueIndex.set(row.venue, venue);
      venues.push(row.venue);
    }
    venueOf.push(venue);
    firstSeen.push(Date.parse(row.firstSeen) / 1000 || 0);
    const bits = new Uint32Array(topicWords);
    for (const topic of row.topics) {
      const bit = topicIndex.get(topic);
      if (bit !== undefined) bits[bit >>> 5]! |= 1 << (bit & 31);
    }
    for (const word of bits) topicBits.push(word);
    doc++;
  }
  const docCount = doc;

  // Renumber terms so that ids follow sorted order (prefix ranges become contiguous), dropping
  // the stopwords that were registered up front but never kept.
  const used = new Uint8Array(termList.length);
  for (const buffer of triples) for (let i = 0; i < buffer.length; i++) used[buffer.terms[i]!] = 1;
  const order = termList
    .map((_, i) => i)
    .filter((i) => used[i] === 1)
    .sort((a, b) => (termList[a]! < termList[b]! ? -1 : 1));
  const remap = new Uint32Array(termList.length);
  order.forEach((oldId, newId) => (remap[oldId] = newId));
  const terms = order.map((oldId) => termList[oldId]!);

  const fields: FieldPostings[] = triples.map((buffer, field) =>
    toPostings(buffer, remap, terms.length, lengths[field]!.toArray()),
  );
  const docFreq = documentFrequencies(fields, terms.length, docCount);

  const titleOrder = Uint32Array.from(normalizedTitles.keys()).sort((a, b) =>
    normalizedTitles[a]! < normalizedTitles[b]! ? -1 : normalizedTitles[a]! > normalizedTitles[b]! ? 1 : a - b,
  );

  return {
    generation: options.generation,
    taxonomyHash: options.taxonomyHash,
    docCount,
    storeDocs: storeDocs.toArray(),
    terms,
    trie: buildTermTrie(terms),
    docFreq,
    fields,
    ids,
    titles,
    titleOrder,
    authors,
    years: years.toArray(),
    standing: standing.toArray(),
    venueOf: venueOf.toArray(),
    venues,
    firstSeen: firstSeen.toArray(),
    topics: [...options.topicIds],
    topicWords,
    topicBits: topicBits.toArray(),
  };
}

function toPostings(buffer: TripleBuffer, remap: Uint32Array, termCount: number, lengths: Uint16Array): FieldPostings {
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
  let total = 0;
  for (const length of lengths) total += length;
  return { offsets, docs, tfs, lengths, avgLength: lengths.length ? Math.max(1, total / lengths.length) : 1 };
}

function documentFrequencies(fields: readonly FieldPostings[], termCount: number, docCount: number): Uint32Array {
  const docFreq = new Uint32Array(termCount);
  const seen = new Int32Array(docCount).fill(-1);
  for (let t = 0; t < termCount; t++) {
    let df = 0;
    for (const f of fields) {
      for (let i = f.offsets[t]!; i < f.offsets[t + 1]!; i++) {
        const d = f.docs[i]!;
        if (seen[d] !== t) {
          seen[d] = t;
          df++;
        }
      }
    }
    docFreq[t] = df;
  }
  return docFreq;
}

type TypedArrayCtor<T> = { new (length: number): T; BYTES_PER_ELEMENT: number };
type NumericArray = Uint8Array | Uint16Array | Uint32Array | Float64Array;

/** An append-only typed array that doubles its capacity. */
class GrowableArray<T extends NumericArray> {
  private data: T;
  length = 0;
  constructor(private readonly ctor: TypedArrayCtor<T>) {
    this.data = new ctor(1024);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new this.ctor(this.data.length * 2);
      bigger.set(this.data as never);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }
  get raw(): T {
    return this.data;
  }
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
