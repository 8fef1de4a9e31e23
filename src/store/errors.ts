/**
 * Store failures that callers above `src/store/` tell apart from other errors, whichever store
 * raised them: the store is busy (another process holds the write lock a write needed), or it
 * cannot be reached (a PostgreSQL server that is down or restarting).
 */

/** How long a batch writer (ingest, reindex, the CLI) waits for another process's write lock. */
export const BATCH_LOCK_WAIT_MS = 5000;

/**
 * The store could not be reached (after the retries it makes itself). The message names the
 * server and what to check.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

/**
 * Whether an error means a write found the store locked by someone else: SQLite's
 * `SQLITE_BUSY`/`SQLITE_LOCKED`, PostgreSQL's lock_not_available (55P03).
 * @example if (isStoreBusy(err)) reply('The library is busy; nothing was changed.');
 */
export function isStoreBusy(err: unknown): boolean {
  const code = String((err as { code?: unknown } | undefined)?.code ?? '');
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code === '55P03';
}

/** Whether an error means the store could not be reached. */
export function isStoreUnavailable(err: unknown): boolean {
  return err instanceof StoreUnavailableError;
}
