/**
 * OpenAlex's works files (the snapshot's `works/updated_date=…/part_000.gz`, or a query's
 * results saved one work a line): JSON Lines whose records are OpenAlex works. They describe
 * papers the library may already hold, so an import reads them as citations (`../works.ts`),
 * never as papers unless asked (`--add`).
 */
import { normalizeOpenAlexId } from '../../papers/ids.js';

/** Fields only OpenAlex's works carry, of which a record must have one besides its id. */
const WORK_FIELDS = ['cited_by_count', 'authorships', 'referenced_works', 'counts_by_year', 'primary_location'];

/**
 * Whether a record is an OpenAlex work: an OpenAlex work id (`https://openalex.org/W…` or
 * `W…`) and one of the fields only works have.
 * @example isOpenAlexWork({ id: 'https://openalex.org/W2741809807', cited_by_count: 12 }) // true
 * @example isOpenAlexWork({ id: 'W1', title: 'A paper' }) // false
 */
export function isOpenAlexWork(value: Record<string, unknown>): boolean {
  const id = value['id'];
  return typeof id === 'string' && normalizeOpenAlexId(id) !== undefined && WORK_FIELDS.some((field) => Object.hasOwn(value, field));
}
