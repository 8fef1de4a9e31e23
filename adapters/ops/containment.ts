/**
 * No payload from one platform may take the process down. An error that escapes a platform
 * client (thrown inside discord.js's gateway handler, say, where nothing of ours can catch it)
 * reaches the process as an uncaught exception or an unhandled rejection; when its stack shows
 * which adapter's code it came from, that adapter is restarted and the rest keeps running.
 * An error nobody can attribute leaves the process in an unknown state: it exits.
 */
import type { Logger } from 'pino';

/** Where each adapter's code lives: its SDK's packages and its folder under adapters/. */
const OWNERS: Array<[name: string, frame: RegExp]> = [
  ['discord', /[\\/](?:node_modules[\\/](?:discord\.js|@discordjs)|adapters[\\/]discord)[\\/]/],
  ['slack', /[\\/](?:node_modules[\\/]@slack|adapters[\\/]slack)[\\/]/],
];

/**
 * The adapter whose code `err` was thrown from (the innermost frame that belongs to one), or
 * undefined.
 * @example attributeError(errorFromDiscordJs) // 'discord'
 */
export function attributeError(err: unknown): string | undefined {
  const stack = err instanceof Error ? (err.stack ?? '') : '';
  for (const line of stack.split('\n').slice(1)) {
    for (const [name, frame] of OWNERS) if (frame.test(line)) return name;
  }
  return undefined;
}

export interface ContainmentOptions {
  log: Logger;
  /** An adapter's client failed: restart it. */
  onAdapterCrash(name: string, err: Error): void;
  /** Nobody's to restart: the process must end (default: exit 1). */
  onUnknown?(err: unknown): void;
}

/**
 * Handles uncaught exceptions and unhandled rejections for the whole process; returns a
 * function that removes the handlers.
 */
export function containAdapterFailures(options: ContainmentOptions, target: Pick<NodeJS.Process, 'on' | 'off'> = process): () => void {
  const { log } = options;
  const handle = (err: unknown, origin: string) => {
    const adapter = attributeError(err);
    if (adapter && err instanceof Error) {
      log.error({ err, adapter, origin }, `the ${adapter} adapter failed; restarting it while the rest keeps running`);
      options.onAdapterCrash(adapter, err);
      return;
    }
    log.fatal({ err, origin }, 'an error escaped and no adapter owns it; exiting');
    (options.onUnknown ?? (() => process.exit(1)))(err);
  };
  const onException = (err: unknown) => handle(err, 'uncaughtException');
  const onRejection = (reason: unknown) => handle(reason, 'unhandledRejection');
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtException', onException);
    target.off('unhandledRejection', onRejection);
  };
}
