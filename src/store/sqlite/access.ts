/**
 * Storage that the bot cannot write, explained in one line: which file or directory, the user
 * the process runs as, and the command that fixes it. SQLite alone only says "attempt to write
 * a readonly database", which names neither the file (the database, its `-wal` or its `-shm`)
 * nor the user.
 */
import { accessSync, constants, mkdirSync, statSync, type Stats } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';
import { SetupError } from '../../errors.js';

/** The files SQLite writes for the database at `dbPath`, the database itself first. */
export function databaseFiles(dbPath: string): string[] {
  return [dbPath, `${dbPath}-wal`, `${dbPath}-shm`];
}

/** The user this process runs as, for messages: `paperscout (uid 1000)`. */
export function processUser(): { name: string; uid: number | undefined; label: string } {
  const uid = process.getuid?.();
  let name: string;
  try {
    name = userInfo().username;
  } catch {
    // A uid with no passwd entry (containers often run as one).
    name = uid === undefined ? 'this user' : String(uid);
  }
  return { name, uid, label: uid === undefined ? name : `${name} (uid ${uid})` };
}

/**
 * Creates `dir` (and its parents) unless it exists; a directory that cannot be created, or a
 * file in its place, is a {@link SetupError} naming the fix.
 * @example ensureDirectory('/var/lib/paperscout', 'DATA_DIR');
 */
export function ensureDirectory(dir: string, what: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const user = processUser();
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new SetupError(`${what} ${dir} is not a directory (a file is in its way): move that file or point ${what} elsewhere.`);
    }
    if (code === 'EROFS') throw new SetupError(`${what} ${dir} cannot be created: the file system is read-only. Point ${what} at a writable directory.`);
    if (code === 'EACCES' || code === 'EPERM') {
      throw new SetupError(
        `${what} ${dir} cannot be created by ${user.label}: its parent is not writable for that user. ` +
          `Create it for that user (sudo mkdir -p ${dir} && sudo chown ${user.name} ${dir}) or point ${what} at a writable directory.`,
      );
    }
    throw err;
  }
}

/**
 * Checks that this process can write the database at `dbPath`: its directory (SQLite creates the
 * `-wal` and `-shm` files there) and whichever of the database, `-wal` and `-shm` exist.
 * Throws a {@link SetupError} naming the first one it cannot write.
 */
export function checkDatabaseWritable(dbPath: string): void {
  const dir = dirname(dbPath);
  const problem = unwritable(dir, constants.W_OK | constants.X_OK) ?? firstUnwritable(databaseFiles(dbPath));
  if (problem) throw new SetupError(describeUnwritable(problem.path, problem.code, problem.stats, dir));
}

/**
 * The one-line explanation for an SQLite error that comes from file access (read-only database,
 * `-wal` or `-shm`, or a file it cannot open), or undefined for any other error.
 */
export function explainDatabaseError(err: unknown, dbPath: string): SetupError | undefined {
  const code = String((err as { code?: unknown }).code ?? '');
  if (!/^SQLITE_(READONLY|CANTOPEN|PERM|IOERR)/.test(code)) return undefined;
  try {
    checkDatabaseWritable(dbPath);
  } catch (explained) {
    if (explained instanceof SetupError) return explained;
  }
  const user = processUser();
  return new SetupError(
    `The database ${dbPath} cannot be opened or written by ${user.label} (${code}: ${(err as Error).message}). ` +
      `Check the disk, and that ${dirname(dbPath)} and every paperscout.db* file in it belong to that user (sudo chown -R ${user.name} ${dirname(dbPath)}).`,
  );
}

interface Unwritable {
  path: string;
  code: string;
  stats: Stats | undefined;
}

function firstUnwritable(paths: readonly string[]): Unwritable | undefined {
  for (const path of paths) {
    const problem = unwritable(path, constants.W_OK);
    if (problem) return problem;
  }
  return undefined;
}

function unwritable(path: string, mode: number): Unwritable | undefined {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    return undefined; // not there yet: SQLite creates it
  }
  try {
    accessSync(path, mode);
    return undefined;
  } catch (err) {
    return { path, code: (err as NodeJS.ErrnoException).code ?? 'EACCES', stats };
  }
}

function describeUnwritable(path: string, code: string, stats: Stats | undefined, dataDir: string): string {
  const user = processUser();
  if (code === 'EROFS') return `${path} is on a read-only file system: remount it read-write or point DATA_DIR at a writable directory.`;
  const kind = stats?.isDirectory() ? 'directory' : 'file';
  if (code === 'EPERM') return `The ${kind} ${path} is marked immutable, so ${user.label} cannot write it: clear the flag (sudo chattr -i ${path}).`;
  const owner = stats ? `it belongs to uid ${stats.uid} with mode ${(stats.mode & 0o777).toString(8).padStart(3, '0')}` : 'it is not writable';
  const fix = stats?.isDirectory()
    ? `sudo chown ${user.name} ${path}`
    : `sudo chown ${user.name} ${path}, or for every file of the library: sudo chown -R ${user.name} ${dataDir}`;
  return `Paper Scout runs as ${user.label} and cannot write the ${kind} ${path}: ${owner}. Give it to that user (${fix}) or run Paper Scout as the owner.`;
}
