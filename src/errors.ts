/**
 * The two kinds of failure. A {@link UserError} is the user's to fix: adapters show its message
 * (privately where the platform allows) and log nothing alarming. Anything else is ours: it is
 * logged with its cause under a short reference, and the user sees an apology with that reference.
 */
import { randomBytes } from 'node:crypto';
import { msg, translate, type Message, type MessageKey, type MessageValues, type Messages } from './i18n/index.js';

export class UserError extends Error {
  override readonly name = 'UserError';
  /** What to tell the user, put into words in their language where it is shown. */
  readonly reason: Message;
  /**
   * @param key The catalog message: what happened and what to do instead, in one or two sentences.
   * @example throw new UserError('paper.queryEmpty');
   */
  constructor(key: MessageKey | Message, values?: MessageValues) {
    const reason = typeof key === 'string' ? msg(key, values) : key;
    // The English text, for logs and stack traces.
    super(translate('en', reason));
    this.reason = reason;
  }
}

/** A short id to quote in an apology and find in the logs. */
export function errorReference(): string {
  return randomBytes(4).toString('hex');
}

/** The apology shown for an internal error. */
export function apology(reference: string, messages: Messages): string {
  return messages.t('error.apology', { reference });
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
