/**
 * Expanding the paths given to `paperscout ingest` into the files to read, in a stable order.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, extname, resolve } from 'node:path';

/** Extensions picked up when walking a directory (also under `.gz`); a file named explicitly is read whatever its name. */
export const INGEST_EXTENSIONS: ReadonlySet<string> = new Set(['.json', '.jsonl', '.ndjson', '.csv', '.tsv']);

/**
 * Whether a directory walk picks up a file of this name.
 * @example ingestible('iclr2024.json.gz') // true
 */
export function ingestible(name: string): boolean {
  const inner = name.toLowerCase().replace(/\.gz$/, '');
  return INGEST_EXTENSIONS.has(extname(inner));
}

export interface InputFiles {
  /** Files with their sizes in bytes, each once, in the order given (directories expanded in name order). */
  files: Array<{ path: string; bytes: number }>;
  /** Paths that could not be read, with why. */
  problems: Array<{ file: string; reason: string }>;
}

/** Why a folder given holds nothing to import. */
const NO_FILES_IN_FOLDER = `no file to import in this folder (${[...INGEST_EXTENSIONS].join(', ')}, gzipped or not)`;

/**
 * Lists the files under `paths`: files as given, directories walked recursively in sorted name
 * order (code-unit order, the same on every machine), skipping dot-entries and symbolic links
 * to directories. A directory with no file to import is a problem, as a missing path is.
 * @example const { files } = await listInputFiles(['corpus/paperlists']); // [{ path: 'corpus/paperlists/3dv/3dv2025.json', bytes: 412345 }, …]
 */
export async function listInputFiles(paths: readonly string[]): Promise<InputFiles> {
  const result: InputFiles = { files: [], problems: [] };
  const seen = new Set<string>();
  const add = (path: string, bytes: number) => {
    const key = resolve(path);
    if (seen.has(key)) return;
    seen.add(key);
    result.files.push({ path, bytes });
  };
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if ((entry.isFile() || entry.isSymbolicLink()) && ingestible(entry.name)) {
        const info = await stat(path).catch(() => undefined);
        if (info?.isFile()) add(path, info.size);
      }
    }
  };
  for (const path of paths) {
    try {
      const info = await stat(path);
      if (info.isDirectory()) {
        const before = result.files.length;
        await walk(path);
        if (result.files.length === before) result.problems.push({ file: path, reason: NO_FILES_IN_FOLDER });
      } else add(path, info.size);
    } catch (error) {
      result.problems.push({ file: path, reason: describeFsError(error) });
    }
  }
  return result;
}

/**
 * A file-system error as a short message.
 * @example describeFsError(Object.assign(new Error('ENOENT: …'), { code: 'ENOENT' })) // 'no such file or directory'
 */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    default:
      return (error as Error).message;
  }
}
