/**
 * The two kinds of failure. A {@link UserError} is the user's to fix: adapters show its message
 * (privately where the platform allows) and log nothing alarming. Anything else is ours: it is
 * logged with its cause under a short reference, and the user sees an apology with that reference.
 */
import { randomBytes } from 'node:crypto';

export class UserError extends Error {
  override readonly name = 'UserError';
  /**
   * @param message What happened and what to do instead, in one or two sentences.
   * @example throw new UserError('Type some words to search for, e.g. /paper diffusion transformers.');
   */
  constructor(message: string) {
    super(message);
  }
}

/** A short id to quote in an apology and find in the logs. */
export function errorReference(): string {
  return randomBytes(4).toString('hex');
}

/**
 * Shown when a command had to write while another process (an import, a re-index) held the
 * database's write lock for longer than the bot may wait.
 */
export const BUSY_MESSAGE =
  'The library is busy with a long write (an import or a re-index), so this could not be saved. Nothing was changed: try again in a minute.';

/** The apology shown for an internal error. */
export function apology(reference: string): string {
  return `Sorry, something went wrong on our side. If it keeps happening, tell the bot's admin reference ${reference}.`;
}

/**
 * A problem with the installation that whoever runs the bot must fix (a file it cannot write, a
 * directory where a file belongs). Its message is one line naming the path and the fix; entry
 * points print it as it is, without a stack trace.
 * @example throw new SetupError('/data/index.bin is a directory, not the search index: remove it (rm -r /data/index.bin) and start again.');
 */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}
