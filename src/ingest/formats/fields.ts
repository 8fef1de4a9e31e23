/**
 * Small pure helpers the format mappers share: reading typed fields out of an untyped record,
 * splitting lists, keeping only http(s) links, and validating the result against the model.
 */
import { PaperRecordSchema, type PaperRecord, type PaperRecordInput } from '../../papers/model.js';
import { collapseWhitespace } from '../../text.js';

/** What a mapper makes of one source record: a valid record, or why it was turned away. */
export type MapResult = { ok: true; record: PaperRecord } | { ok: false; reason: string };

/** Maps one parsed source value (an array element, a JSONL line, a CSV row) to a record. */
export type Mapper = (value: unknown) => MapResult;

/** `PaperRecordSchema`'s author limit; collaboration papers on arXiv list thousands. */
export const MAX_AUTHORS = 1000;

/** A field that is present but unusable; the mapper's caller turns it into a rejection. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
  }
}

export type Fields = Record<string, unknown>;

/** A field's value with the name it was found under (for messages about it). */
export interface Found {
  key: string;
  value: unknown;
}

/**
 * The record as a plain object, or a {@link FieldError} saying what it is instead.
 * @example asFields(['x']) // throws FieldError('record', 'expected an object, got an array')
 */
export function asFields(value: unknown): Fields {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Fields;
  throw new FieldError('record', `expected an object, got ${typeName(value)}`);
}

/**
 * The first of `keys` present with a non-empty value (`null` and blank strings count as
 * absent), with the key it was found under.
 * @example pick({ page: '', url: 'https://a.b' }, 'page', 'url') // { key: 'url', value: 'https://a.b' }
 */
export function pick(fields: Fields, ...keys: string[]): Found | undefined {
  for (const key of keys) {
    const value = fields[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    return { key, value };
  }
  return undefined;
}

/**
 * A trimmed string field (numbers are accepted as their decimal text when `numbers` is set);
 * any other type is a {@link FieldError}.
 * @example text({ id: 42 }, 'id', { numbers: true }) // '42'
 */
export function text(fields: Fields, key: string, options: { numbers?: boolean } = {}): string | undefined {
  return textOf(pick(fields, key), options);
}

/**
 * Like {@link text}, for a value already found with {@link pick}.
 * @example textOf(pick({ url: ' https://a.b ' }, 'page', 'url')) // 'https://a.b'
 */
export function textOf(found: Found | undefined, options: { numbers?: boolean } = {}): string | undefined {
  if (found === undefined) return undefined;
  const { key, value } = found;
  if (typeof value === 'string') return value.trim();
  if (options.numbers && typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new FieldError(key, `expected a string, got ${typeName(value)}`);
}

/**
 * Splits a separated list, trimming items, collapsing their whitespace and dropping empty ones.
 * @example splitList(' graph neural networks;;  GNN ', ';') // ['graph neural networks', 'GNN']
 */
export function splitList(value: string | undefined, separator: string | RegExp): string[] {
  if (value === undefined) return [];
  const out: string[] = [];
  for (const part of value.split(separator)) {
    const item = collapseWhitespace(part);
    if (item.length > 0) out.push(item);
  }
  return out;
}

/**
 * A list field given either as an array of strings or as one `separator`-separated string.
 * @example listOf(pick({ keywords: 'a; b' }, 'keywords'), ';') // ['a', 'b']
 */
export function listOf(found: Found | undefined, separator: string | RegExp): string[] {
  if (found === undefined) return [];
  const { key, value } = found;
  if (typeof value === 'string') return splitList(value, separator);
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const [i, item] of value.entries()) {
      if (typeof item !== 'string') throw new FieldError(`${key}[${i}]`, `expected a string, got ${typeName(item)}`);
      const clean = collapseWhitespace(item);
      if (clean.length > 0) out.push(clean);
    }
    return out;
  }
  throw new FieldError(key, `expected a list or a '${String(separator)}'-separated string, got ${typeName(value)}`);
}

/**
 * Removes repeated entries, keeping the first of each in order.
 * @example unique(['A', 'B', 'A', 'B']) // ['A', 'B']
 */
export function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/**
 * The value if it is an http(s) URL the model accepts, else `undefined` (links that are not
 * URLs are dropped, not fatal: sources put markdown badges and bare host names in link fields).
 * @example httpUrl('github.com/x/y') // undefined
 */
export function httpUrl(value: string | undefined): string | undefined {
  return value !== undefined && value.length <= 2048 && /^https?:\/\/\S+$/i.test(value) ? value : undefined;
}

/**
 * Drops the keys whose value is `undefined`, so records compare and hash the same.
 * @example defined({ page: 'https://a.b', pdf: undefined }) // { page: 'https://a.b' }
 */
export function defined<T extends object>(obj: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/**
 * Validates a mapped record against {@link PaperRecordSchema}; a failure becomes a readable reason
 * such as `title: title is empty`.
 * @example validate({ title: ' ', authors: [] }) // { ok: false, reason: 'title: title is empty' }
 */
export function validate(input: PaperRecordInput): MapResult {
  const parsed = PaperRecordSchema.safeParse(input);
  if (parsed.success) return { ok: true, record: parsed.data };
  const reason = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || 'record'}: ${issue.message}`).join('; ');
  return { ok: false, reason };
}

/**
 * Runs a mapping function, turning a {@link FieldError} it throws into a rejection.
 * @example guard(() => { throw new FieldError('year', 'expected a year') }) // { ok: false, reason: 'year: expected a year' }
 */
export function guard(map: () => MapResult): MapResult {
  try {
    return map();
  } catch (error) {
    if (error instanceof FieldError) return { ok: false, reason: error.message };
    throw error;
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'boolean':
      return `the ${typeof value} ${String(value)}`;
    default:
      return typeof value;
  }
}
