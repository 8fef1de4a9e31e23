/**
 * Deciding how to read a file from its name and its first few hundred kilobytes, and turning
 * that decision into a reader, a mapper and a source name.
 */
import { basename, extname } from 'node:path';
import { JsonArraySplitter, readJsonArray } from './jsonArray.js';
import { JsonLinesSplitter, readJsonLines } from './jsonLines.js';
import { readCsv, sniffDelimiter, type CsvDelimiter } from './csv.js';
import { describeStart, type SourceItem, type TextChunks } from './types.js';
import { mapPaperlists, parsePaperlistsFileName } from './formats/paperlists.js';
import { mapArxiv } from './formats/arxiv.js';
import { isOpenAlexWork } from './formats/openalex.js';
import { csvColumns, mapGeneric } from './formats/generic.js';
import type { Mapper } from './formats/fields.js';

/** What a file holds, as far as its name and first bytes tell. */
export type Detection =
  | { kind: 'paperlists'; venueCode: string; year: number }
  | { kind: 'arxiv' }
  /** OpenAlex works, one a line or in an array: citations for the papers they match (`works.ts`), not papers. */
  | { kind: 'openalex-works'; container: 'json-array' | 'jsonl' }
  | { kind: 'generic'; container: 'json-array' | 'jsonl' }
  | { kind: 'generic'; container: 'csv'; delimiter: CsvDelimiter }
  | { kind: 'empty' }
  | { kind: 'unknown'; reason: string };

/** How many complete records of the head are looked at to recognize a format. */
const SAMPLE_RECORDS = 20;

/** Extensions of delimited text, whose separator is sniffed. */
const CSV_EXTENSIONS: ReadonlySet<string> = new Set(['.csv', '.tsv']);

/**
 * Recognizes a file's format: `.csv` and `.tsv` by name (the separator sniffed from the head); a first character `[` as a JSON array (paperlists
 * when the name is `<venue><year>.json` and its records have an `author` string); `{` as JSON
 * Lines (the arXiv snapshot when records carry `authors_parsed` or `versions`). Records that are
 * OpenAlex works (an OpenAlex work id and a field only works have), a line each or in an array,
 * are a works file.
 * @example detectFormat('icml2019.json', '[{"title":"T","author":"A; B"}]') // { kind: 'paperlists', venueCode: 'icml', year: 2019 }
 */
export function detectFormat(fileName: string, head: string): Detection {
  const name = basename(fileName);
  if (CSV_EXTENSIONS.has(extname(name).toLowerCase())) return { kind: 'generic', container: 'csv', delimiter: sniffDelimiter(head) };
  const start = head.replace(/^[\s\uFEFF]+/, '');
  if (start.length === 0) return { kind: 'empty' };
  if (start[0] === '[') {
    const file = parsePaperlistsFileName(name);
    const sample = sampleValues(new JsonArraySplitter().push(head));
    const hasAuthor = sample.length > 0 ? sample.some((v) => typeof v['author'] === 'string') : /"author"\s*:\s*"/.test(head);
    if (file && hasAuthor) return { kind: 'paperlists', ...file };
    return sample[0] && isOpenAlexWork(sample[0]) ? { kind: 'openalex-works', container: 'json-array' } : { kind: 'generic', container: 'json-array' };
  }
  if (start[0] === '{') {
    const lines = new JsonLinesSplitter();
    const sample = sampleValues([...lines.push(head), ...lines.end()]);
    if (sample.length === 0) {
      return {
        kind: 'unknown',
        reason: 'starts with "{" but its first lines are not complete JSON objects: expected JSON Lines (one object per line) or a JSON array of records',
      };
    }
    const first = sample[0]!;
    if ('authors_parsed' in first || 'versions' in first) return { kind: 'arxiv' };
    return isOpenAlexWork(first) ? { kind: 'openalex-works', container: 'jsonl' } : { kind: 'generic', container: 'jsonl' };
  }
  return {
    kind: 'unknown',
    reason: `unrecognized format: starts with ${describeStart(start)}; expected a JSON array ("["), JSON Lines ("{") or a .csv file`,
  };
}

/** How to import a detected file. */
export interface FilePlan {
  /** Source name recorded with the papers: `paperlists:icml2019`, `arxiv`, `file:mine`. */
  source: string;
  read: (chunks: TextChunks) => AsyncGenerator<SourceItem, void, undefined>;
  map: Mapper;
}

/**
 * The reader, mapper and source name for a file of a recognized format.
 * @example planFile('data/mine.csv', { kind: 'generic', container: 'csv', delimiter: ';' }).source // 'file:mine'
 */
export function planFile(path: string, detection: Extract<Detection, { kind: 'paperlists' | 'arxiv' | 'generic' }>): FilePlan {
  // (A works file is not a file of papers: ingest.ts reads it with works.ts.)
  switch (detection.kind) {
    case 'paperlists': {
      const file = { venueCode: detection.venueCode, year: detection.year };
      return { source: `paperlists:${file.venueCode}${file.year}`, read: readJsonArray, map: (value) => mapPaperlists(value, file) };
    }
    case 'arxiv':
      return { source: 'arxiv', read: readJsonLines, map: mapArxiv };
    case 'generic': {
      const fileKey = basename(path, extname(path));
      const read =
        detection.container === 'csv'
          ? (chunks: TextChunks) => readCsv(chunks, { delimiter: detection.delimiter, columns: csvColumns })
          : { 'json-array': readJsonArray, jsonl: readJsonLines }[detection.container];
      return { source: `file:${fileKey}`, read, map: (value) => mapGeneric(value, fileKey) };
    }
  }
}

/** The first parsed records that are objects, up to {@link SAMPLE_RECORDS}. */
function sampleValues(items: readonly SourceItem[]): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const item of items) {
    const value = item.value;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) out.push(value as Record<string, unknown>);
    if (out.length >= SAMPLE_RECORDS) break;
  }
  return out;
}
