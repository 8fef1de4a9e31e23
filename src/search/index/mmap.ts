/**
 * Memory-maps a file read-only as an ArrayBuffer, through the project's own N-API addon
 * (native/mmap, built by node-gyp at `npm ci`). Without the addon the file is read into memory
 * instead: the same bytes, but opening costs a full read and the heap holds a copy.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface MmapAddon {
  map(path: string): ArrayBuffer;
  release?(buffer: ArrayBuffer): void;
}

const mapped = new WeakSet<ArrayBuffer>();

let addon: MmapAddon | null | undefined;
let warned = false;

function loadAddon(): MmapAddon | null {
  if (addon !== undefined) return addon;
  addon = null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'native/mmap/build/Release/mmap.node');
    if (existsSync(candidate)) {
      try {
        addon = createRequire(import.meta.url)(candidate) as MmapAddon;
      } catch {
        addon = null;
      }
      break;
    }
    dir = dirname(dir);
  }
  return addon;
}

/** Whether files are memory-mapped (the addon is built) rather than read. */
export function canMap(): boolean {
  return loadAddon() !== null;
}

/**
 * The whole file at `path` as an ArrayBuffer: mapped when the addon is there, else read.
 * @example new Uint32Array(mapFile('data/index.bin'), 64, 10)
 */
export function mapFile(path: string): ArrayBuffer {
  const mmap = loadAddon();
  if (mmap) {
    const buffer = mmap.map(path);
    mapped.add(buffer);
    return buffer;
  }
  if (!warned) {
    warned = true;
    process.emitWarning('the mmap addon is not built (npm ci builds it with node-gyp): the index snapshot is read into memory instead of mapped');
  }
  const file = readFileSync(path);
  if (file.byteOffset === 0 && file.byteLength === file.buffer.byteLength) return file.buffer as ArrayBuffer;
  const copy = new ArrayBuffer(file.byteLength);
  new Uint8Array(copy).set(file);
  return copy;
}

/** Whether `buffer` is a mapped file (not one read into memory). */
export function isMapped(buffer: ArrayBufferLike): buffer is ArrayBuffer {
  return buffer instanceof ArrayBuffer && mapped.has(buffer);
}

/**
 * Lets the pages of a mapped file go (they come back from the page cache when touched again):
 * a merge streaming through inputs larger than memory calls it between passes. A no-op for a
 * file that was read rather than mapped.
 */
export function releasePages(buffer: ArrayBufferLike): void {
  if (isMapped(buffer)) loadAddon()?.release?.(buffer);
}
