/** Another process that holds a SQLite database's write lock (see lockHolder.ts) until released. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const holderScript = fileURLToPath(new URL('./lockHolder.ts', import.meta.url));

/**
 * Starts the holder and resolves once it has the lock.
 * @example const lock = await holdWriteLock(app.config.dbPath); try { … } finally { await lock.release(); }
 */
export async function holdWriteLock(dbPath: string): Promise<{ release(): Promise<void> }> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', holderScript, dbPath]);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  while (!out.includes('locked')) await once(child.stdout, 'data');
  return {
    async release() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin.write('release\n');
      await exited;
    },
  };
}
