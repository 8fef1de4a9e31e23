/**
 * SIGTERM and SIGINT, as a supervisor (Docker, systemd, Kubernetes), `kill` or Ctrl-C sends
 * them: one stop request stops gracefully; only a second request forces the stop.
 *
 * One request often arrives as two signals. The usual ways to stop a process signal its whole
 * process group: a terminal's Ctrl-C (SIGINT to the foreground group), `systemctl stop` with the
 * default `KillMode=control-group` (SIGTERM to every process of the unit), `kill -TERM -<pgid>`.
 * Under `npm start` (and `npm run cli`) that group holds npm too, and npm passes on every SIGINT
 * and SIGTERM it gets to its child, the bot: the bot gets the signal once from the sender and
 * once from npm. So every signal within {@link DUPLICATE_SIGNAL_MS} of the first, whichever of the
 * two, belongs to the same request. npm relays within a millisecond when idle, but it and the bot
 * each run the handler only when their event loops get to it (a loaded machine, a long
 * synchronous step), so the copies can land hundreds of milliseconds apart: 1 s covers that,
 * and a person who means "now" presses again after reading that the stop is under way.
 */
export const DUPLICATE_SIGNAL_MS = 1000;

const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;
export type ShutdownSignal = keyof typeof SIGNAL_NUMBERS;

export interface SignalHandlers {
  /** The first signal: stop taking work, finish what is under way, exit. */
  graceful(signal: ShutdownSignal): void;
  /** Another copy of the same request (within {@link DUPLICATE_SIGNAL_MS}): nothing to do but say so. */
  repeated?(signal: ShutdownSignal): void;
  /** A second request: exit now, with this code (128 + the signal's number, as a shell reports it). */
  immediate(signal: ShutdownSignal, code: number): void;
}

/**
 * Installs the handlers on `target` (the process); returns a function that removes them.
 * @example onShutdownSignals({ graceful: () => void service.shutdown(), immediate: (_, code) => process.exit(code) });
 */
export function onShutdownSignals(
  handlers: SignalHandlers,
  target: Pick<NodeJS.Process, 'on' | 'off'> = process,
  now: () => number = () => performance.now(),
): () => void {
  let first: number | undefined;
  const handle = (signal: ShutdownSignal) => {
    const at = now();
    if (first === undefined) {
      first = at;
      handlers.graceful(signal);
    } else if (at - first < DUPLICATE_SIGNAL_MS) {
      handlers.repeated?.(signal);
    } else {
      handlers.immediate(signal, 128 + SIGNAL_NUMBERS[signal]);
    }
  };
  const onInt = () => handle('SIGINT');
  const onTerm = () => handle('SIGTERM');
  target.on('SIGINT', onInt);
  target.on('SIGTERM', onTerm);
  return () => {
    target.off('SIGINT', onInt);
    target.off('SIGTERM', onTerm);
  };
}
