/**
 * SIGTERM and SIGINT, as a supervisor (Docker, systemd, Kubernetes) or Ctrl-C sends them: the
 * first asks for a graceful stop, a second one stops at once.
 *
 * `npm start` runs the bot as `exec node …`, so the bot is npm's child and gets the signals npm
 * passes on. A Ctrl-C on a terminal reaches it twice, though: from the terminal (it signals the
 * whole foreground process group) and again from npm. A SIGINT that follows the first within
 * {@link DUPLICATE_SIGNAL_MS} is that same Ctrl-C, not a second one.
 */
export const DUPLICATE_SIGNAL_MS = 500;

const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;
export type ShutdownSignal = keyof typeof SIGNAL_NUMBERS;

export interface SignalHandlers {
  /** The first signal: stop taking work, finish what is under way, exit. */
  graceful(signal: ShutdownSignal): void;
  /** A second signal: exit now, with this code (128 + the signal's number, as a shell reports it). */
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
  let first: { signal: ShutdownSignal; at: number } | undefined;
  const handle = (signal: ShutdownSignal) => {
    const at = now();
    if (!first) {
      first = { signal, at };
      handlers.graceful(signal);
      return;
    }
    if (signal === 'SIGINT' && first.signal === 'SIGINT' && at - first.at < DUPLICATE_SIGNAL_MS) return;
    handlers.immediate(signal, 128 + SIGNAL_NUMBERS[signal]);
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
