/**
 * The last step of every clean exit: fold SQLite's write-ahead log back into the database
 * (`wal_checkpoint(TRUNCATE)`, so that a copy of DATA_DIR taken after the bot stopped is one
 * self-contained file), then close it.
 */
import type { App } from '../../src/app.js';

/** Checkpoints and closes the app's database; a checkpoint that cannot finish is logged, not fatal. */
export function checkpointAndClose(app: Pick<App, 'db' | 'log' | 'close'>): void {
  try {
    const [result] = app.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    if (result?.busy) app.log.warn({ ...result }, 'SQLite checkpoint incomplete: another process is using the database');
    else app.log.debug({ ...result }, 'SQLite checkpointed');
  } catch (err) {
    app.log.warn({ err }, 'SQLite checkpoint failed');
  }
  app.close();
}
