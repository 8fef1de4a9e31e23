/**
 * package.json's `engines.node` is the truth: every Node it admits is one every installed
 * package (the tools that build, test and lint included: vite, vitest, knip) says it runs on, so
 * `npm ci` never warns EBADENGINE and `npm run knip` runs on the oldest Node we name. Packages
 * the lockfile holds for other platforms (npm installs them only there, e.g. the wasm32 builds
 * and their runtime) are not installed here, and not counted.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const read = (file: string): unknown => JSON.parse(readFileSync(`${ROOT}${file}`, 'utf8'));
const pkg = read('package.json') as { engines: { node: string } };
const lock = read('package-lock.json') as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };
const nodeRange = (engines: { node?: string } | string[] | undefined): string | undefined => (engines && !Array.isArray(engines) ? engines.node : undefined);

describe('engines.node', () => {
  it('admits only Nodes every installed package runs on', () => {
    const ours = pkg.engines.node;
    expect(semver.validRange(ours), ours).not.toBeNull();
    const installed = Object.entries(lock.packages).filter(([path]) => path !== '' && existsSync(`${ROOT}${path}/package.json`));
    expect(installed.length).toBeGreaterThan(100);
    const narrower = installed.flatMap(([path, entry]) => {
      const theirs = nodeRange(entry.engines);
      return theirs === undefined || semver.subset(ours, theirs) ? [] : [`${path.replace(/^.*node_modules\//, '')}@${entry.version}: ${theirs}`];
    });
    expect(narrower, `engines.node "${ours}" admits Nodes these packages do not`).toEqual([]);
  });

  it('is what the lockfile records for the project', () => {
    expect(nodeRange(lock.packages['']?.engines)).toBe(pkg.engines.node);
  });
});
