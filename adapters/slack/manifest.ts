/**
 * What manifest.yml says that the install flow needs: the bot scopes. The manifest is the one
 * source of truth (the app created from it asks for exactly these; the install link asks for
 * them too). Read with a pattern, as the manifest test does: it is a small, flat file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bot scopes under `oauth_config.scopes.bot` of the manifest.
 * @example botScopes() // ['commands', 'chat:write', …]
 */
export function botScopes(manifest: string = readManifest()): string[] {
  const block = /\noauth_config:\n(?:.*\n)*?\s+bot:\n((?:\s+- .*\n)+)/.exec(manifest)?.[1] ?? '';
  const scopes = [...block.matchAll(/- ([^\s#]+)/g)].map((m) => m[1]!);
  if (scopes.length === 0) throw new Error('manifest.yml: no bot scopes under oauth_config.scopes.bot');
  return scopes;
}

/** manifest.yml at the top of the checkout (above `adapters/` or `dist/adapters/`). */
export function readManifest(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'manifest.yml');
    if (existsSync(candidate)) return readFileSync(candidate, 'utf8');
    dir = dirname(dir);
  }
  throw new Error(`manifest.yml not found above ${fileURLToPath(import.meta.url)}: is the checkout complete?`);
}
