/** `--limit`, as every command that lists papers reads it. */
import { UserError } from '../../src/errors.js';

/**
 * `--limit`'s value: a whole number from 1 to 200.
 * @example parseLimit('20') // 20
 */
export function parseLimit(value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 200) throw new UserError('cli.badLimit');
  return n;
}
