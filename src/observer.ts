/**
 * What the core reports about its work to whoever watches it (metrics, health): each command
 * (button, autocomplete, unfurl) with its outcome and duration, each search with its duration. The core only calls this
 * interface; the front end that serves metrics implements it (adapters/ops), so nothing in src/
 * knows about Prometheus.
 */
import type { Platform } from './platform.js';

/** How a command ended: a reply, a {@link UserError} shown to the user, a write refused because another process held the lock, or a failure of ours. */
export type CommandOutcome = 'ok' | 'user_error' | 'busy' | 'error';

export interface CommandEvent {
  platform: Platform;
  /** The registry's name of the command (a button or an unfurl counts for the command it belongs to), or `unknown`. */
  command: string;
  kind: 'command' | 'action' | 'autocomplete' | 'unfurl';
  outcome: CommandOutcome;
  seconds: number;
}

export interface Observer {
  /** A command, button action, autocomplete or unfurl has its answer. */
  command(event: CommandEvent): void;
  /** A search ran (a command's, a digest's, a similar-papers lookup). */
  search(event: { seconds: number; hits: number }): void;
}

/** The observer of a core nobody watches (the CLI, tests). */
export const silentObserver: Observer = {
  command: () => undefined,
  search: () => undefined,
};
