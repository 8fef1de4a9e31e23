/**
 * Ctrl-C for long CLI jobs: the first press asks the job to stop at its next safe point (the
 * signal it watches) and prints `message` (which says that a second press quits), the second
 * quits at once.
 */
export function abortOnSignal(message: string): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`\n${message}\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
