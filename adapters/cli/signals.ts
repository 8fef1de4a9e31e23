/**
 * Stopping a long CLI job (sync, ingest): the first stop request asks the job to stop at its next
 * safe point (the signal it watches) and prints `message` (which says that a second request
 * quits), a second one quits at once. A request is what `onShutdownSignals` says it is: Ctrl-C
 * under `npm run cli` reaches the CLI twice (from the terminal and from npm), and that is one
 * request.
 */
import { onShutdownSignals } from '../ops/signals.js';

export function abortOnSignal(message: string): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const dispose = onShutdownSignals({
    graceful: () => {
      process.stderr.write(`\n${message}\n`);
      controller.abort();
    },
    immediate: (_, code) => process.exit(code),
  });
  return { signal: controller.signal, dispose };
}
