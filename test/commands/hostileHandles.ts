/**
 * Action handles that name what every JavaScript object inherits, for the tests that send them
 * through the registry and both adapters: a lookup on a plain object finds these where a Map or
 * an own-property check finds nothing.
 */
import { COMMANDS } from '../../src/commands/registry.js';

/** Every name `Object.prototype` gives an object, `__proto__` among them. */
export const PROTOTYPE_NAMES: readonly string[] = Object.getOwnPropertyNames(Object.prototype).sort();

/**
 * Handles with `name` as the command, as the verb of each command, and as both, with and
 * without arguments.
 * @example hostileHandles('constructor') // ['constructor:page', 'paper:constructor', 'paper:constructor:1', …]
 */
export function hostileHandles(name: string): string[] {
  const commands = COMMANDS.map((c) => c.name);
  return [`${name}:page`, `${name}:${name}`, `${name}:${name}:1`, ...commands.flatMap((c) => [`${c}:${name}`, `${c}:${name}:1`])];
}
