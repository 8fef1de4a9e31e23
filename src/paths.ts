/**
 * Where the project's shipped data is, whether running from `src/` (tsx) or `dist/src/`
 * (compiled): the nearest `seeds/` folder above this file.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The path of a file in `seeds/`.
 * @example seedPath('demo-papers.jsonl') // '/app/seeds/demo-papers.jsonl'
 */
export function seedPath(file: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'seeds', file);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`seeds/${file} not found above ${fileURLToPath(import.meta.url)}: is the checkout complete?`);
}
