/**
 * The library's titles and abstracts as term-id documents, for the offline comparison of ways to
 * search by meaning (compare.ts). Terms are the engine's folded words (`src/text.ts`), stop words
 * out, a plural read as its singular ("networks" → network), as the engine matches them.
 */
import Database from 'better-sqlite3';
import { tokenize } from '../../src/text.js';
import { ENGLISH_STOP_WORDS } from '../anchor/stopWords.js';

export interface Corpus {
  titles: string[];
  /** Each row's store document number. */
  storeDocs: Uint32Array;
  terms: string[];
  termId: Map<string, number>;
  /** Each document's terms, title words counted twice (CSR: docStart[d]..docStart[d+1] into docTerms/docTf). */
  docStart: Uint32Array;
  docTerms: Uint32Array;
  docTf: Float32Array;
  df: Uint32Array;
  docLen: Float32Array;
  /** Each document's distinct title terms (CSR), and in how many titles a term is. */
  titleStart: Uint32Array;
  titleTerms: Uint32Array;
  titleDf: Uint32Array;
}

/** The term a word is searched as (undefined for a stop word or a lone letter). */
export function termOf(word: string): string | undefined {
  if (word.length < 2 || ENGLISH_STOP_WORDS.has(word)) return undefined;
  if (word.length > 4 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) {
    return word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.slice(0, -1);
  }
  return word;
}

/** Terms of a text, in order (repeats kept). */
export function textTerms(text: string): string[] {
  const out: string[] = [];
  for (const w of tokenize(text)) {
    const t = termOf(w);
    if (t !== undefined) out.push(t);
  }
  return out;
}

/** Reads every paper's title and abstract from the SQLite store at `dbPath`. */
export function loadCorpus(dbPath: string): Corpus {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  const rows = db.prepare('SELECT doc, title, abstract FROM papers ORDER BY doc').all() as Array<{ doc: number; title: string; abstract: string }>;
  db.close();
  const termId = new Map<string, number>();
  const terms: string[] = [];
  const docStart = new Uint32Array(rows.length + 1);
  const ids: number[] = [];
  const tfs: number[] = [];
  const docLen = new Float32Array(rows.length);
  const titles: string[] = [];
  const titleStart = new Uint32Array(rows.length + 1);
  const titleIds: number[] = [];
  rows.forEach((row, d) => {
    titles.push(row.title);
    const counts = new Map<number, number>();
    const add = (text: string, weight: number) => {
      for (const t of textTerms(text)) {
        let id = termId.get(t);
        if (id === undefined) {
          id = terms.length;
          terms.push(t);
          termId.set(t, id);
        }
        counts.set(id, (counts.get(id) ?? 0) + weight);
        docLen[d]! += weight;
      }
    };
    add(row.title, 2);
    for (const id of counts.keys()) titleIds.push(id);
    titleStart[d + 1] = titleIds.length;
    add(row.abstract, 1);
    for (const [id, tf] of counts) {
      ids.push(id);
      tfs.push(tf);
    }
    docStart[d + 1] = ids.length;
  });
  const docTerms = Uint32Array.from(ids);
  const df = new Uint32Array(terms.length);
  for (const id of docTerms) df[id]!++;
  const titleTerms = Uint32Array.from(titleIds);
  const titleDf = new Uint32Array(terms.length);
  for (const id of titleTerms) titleDf[id]!++;
  return { titleStart, titleTerms, titleDf, titles, storeDocs: Uint32Array.from(rows, (r) => r.doc), terms, termId, docStart, docTerms, docTf: Float32Array.from(tfs), df, docLen };
}
