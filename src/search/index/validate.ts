/**
 * The shape an index must have before a query may touch it. Checksums catch damage to a file;
 * these checks make sure that nothing else (a writer's bug, a checksum that happens to match)
 * can send a query out of bounds or into a loop: every posting range lies inside its arrays,
 * every document number is a document, and every step of the trie walk moves forward.
 */
import { MAX_TOKEN_LENGTH } from '../../text.js';
import { NO_TERM } from '../vocab.js';
import { FIELD_COUNT, FIELD_NAMES, type IndexData } from './types.js';

/**
 * What is wrong with `data`, or undefined when a query can use it safely. One pass over each
 * array: about 50 ms for 95k papers.
 * @example const problem = validateIndex(readSnapshotArrays(file)); if (problem) rebuild();
 */
export function validateIndex(data: IndexData): string | undefined {
  const docs = data.docCount;
  const terms = data.terms.length;
  if (!Number.isSafeInteger(docs) || docs < 0) return `the document count ${docs} is not a count`;
  const perDoc: Array<[string, { length: number }]> = [
    ['storeDocs', data.storeDocs],
    ['ids', data.ids],
    ['titles', data.titles],
    ['titleOrder', data.titleOrder],
    ['authors', data.authors],
    ['years', data.years],
    ['standing', data.standing],
    ['venueOf', data.venueOf],
    ['firstSeen', data.firstSeen],
  ];
  for (const [name, array] of perDoc) if (array.length !== docs) return `${name} has ${array.length} entries for ${docs} documents`;
  if (data.docFreq.length !== terms) return `docFreq has ${data.docFreq.length} entries for ${terms} terms`;
  if (data.fields.length !== FIELD_COUNT) return `${data.fields.length} fields instead of ${FIELD_COUNT}`;
  if (data.topicWords < 1 || data.topicBits.length !== docs * data.topicWords) return 'the topic bitsets do not match the documents';
  if (data.topicWords * 32 < data.topics.length) return 'the topic bitsets are narrower than the topic list';
  if (!below(data.titleOrder, docs)) return 'titleOrder names a document that does not exist';
  if (!below(data.venueOf, data.venues.length)) return 'venueOf names a venue that does not exist';
  for (let f = 0; f < FIELD_COUNT; f++) {
    const problem = checkPostings(data, f);
    if (problem) return `${FIELD_NAMES[f]} postings: ${problem}`;
  }
  return checkTrie(data);
}

function checkPostings(data: IndexData, f: number): string | undefined {
  const { offsets, docs, tfs, lengths, avgLength } = data.fields[f]!;
  if (offsets.length !== data.terms.length + 1) return `${offsets.length} offsets for ${data.terms.length} terms`;
  if (docs.length !== tfs.length) return 'documents and term frequencies differ in length';
  if (lengths.length !== data.docCount) return 'field lengths do not match the documents';
  if (!(avgLength > 0 && Number.isFinite(avgLength))) return `average length ${avgLength}`;
  if (offsets[0] !== 0 || offsets[offsets.length - 1] !== docs.length) return 'offsets do not span the postings';
  for (let t = 1; t < offsets.length; t++) if (offsets[t]! < offsets[t - 1]!) return `offsets go backwards at term ${t}`;
  if (!below(docs, data.docCount)) return 'a posting names a document that does not exist';
  return undefined;
}

function checkTrie(data: IndexData): string | undefined {
  const { chars, depth, end, term } = data.trie;
  const nodes = chars.length;
  if (depth.length !== nodes || end.length !== nodes || term.length !== nodes) return 'the term trie arrays differ in length';
  for (let n = 1; n < nodes; n++) {
    // The fuzzy walk jumps to end[n] or steps to n+1: both must move forward and stay in range.
    if (end[n]! <= n || end[n]! > nodes) return `term trie node ${n} ends outside its subtree`;
    if (depth[n]! < 1 || depth[n]! > MAX_TOKEN_LENGTH + 1) return `term trie node ${n} is ${depth[n]} deep`;
    if (term[n] !== NO_TERM && term[n]! >= data.terms.length) return `term trie node ${n} names a term that does not exist`;
  }
  return undefined;
}

/** Every value is less than `limit`. */
function below(values: ArrayLike<number>, limit: number): boolean {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  return values.length === 0 || max < limit;
}
