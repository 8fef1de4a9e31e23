/**
 * vitest globalSetup: the tests that spawn `npm start` run the compiled build (dist/), as users
 * do; this rebuilds it first when a source is newer than it (`npm ci` built it; an edit since
 * makes it stale). Nothing happens when it is current.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export function setup(): void {
  const built = (() => {
    try {
      return statSync(join(root, 'dist/adapters/main.js')).mtimeMs;
    } catch {
      return 0;
    }
  })();
  const sources = Math.max(newestSource(join(root, 'src')), newestSource(join(root, 'adapters')), statSync(join(root, 'tsconfig.build.json')).mtimeMs);
  if (sources <= built) return;
  process.stderr.write('dist/ is older than the sources: building (npm run build) for the tests that spawn npm start…\n');
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
}
