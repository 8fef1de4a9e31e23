/**
 * manifest.yml agrees with the code: its commands exist, it asks for the scopes and events the
 * adapter uses, and every URL is Bolt's endpoint. (Read with patterns: it is a small, flat file.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVENTS_PATH } from '../../../adapters/slack/index.js';
import { botScopes } from '../../../adapters/slack/manifest.js';
import { REDIRECT_PATH } from '../../../adapters/slack/oauth.js';
import { COMMANDS, commandDescription } from '../../../src/commands/registry.js';
import { messages } from '../../../src/i18n/index.js';

const manifest = readFileSync(fileURLToPath(new URL('../../../manifest.yml', import.meta.url)), 'utf8');
const listUnder = (key: string) => {
  const block = new RegExp(`\\n(\\s*)${key}:\\n((?:\\1\\s+- .*\\n)+)`).exec(manifest)?.[2] ?? '';
  return [...block.matchAll(/- ([^\s#]+)/g)].map((m) => m[1]);
};

describe('manifest.yml', () => {
  it('declares every command of the registry, and only those', () => {
    const commands = [...manifest.matchAll(/- command: \/(\S+)/g)].map((m) => m[1]);
    expect(commands).toEqual(COMMANDS.map((c) => c.name));
  });

  it('asks for the scopes and events the adapter uses, with unfurl domains', () => {
    expect(listUnder('bot')).toEqual(['commands', 'chat:write', 'chat:write.public', 'app_mentions:read', 'links:read', 'links:write', 'users:read', 'channels:history', 'groups:history', 'files:write', 'im:write']);
    expect(listUnder('bot_events')).toEqual(['app_mention', 'link_shared', 'message.channels', 'message.groups', 'app_uninstalled', 'tokens_revoked']);
    expect(listUnder('unfurl_domains')).toEqual(['arxiv.org', 'openreview.net', 'doi.org']);
    expect(manifest).toMatch(/\n {2}socket_mode_enabled: false\n/);
    expect(manifest).toMatch(/interactivity:\n {4}is_enabled: true\n/);
  });

  it('sends commands, events and interactivity to Bolt’s endpoint', () => {
    const urls = [...manifest.matchAll(/(?:url|request_url): (\S+)/g)].map((m) => m[1]);
    expect(urls).toHaveLength(COMMANDS.length + 2);
    for (const url of urls) expect(url).toBe(`https://YOUR-HOST${EVENTS_PATH}`);
  });

  it("sends installers back to the install flow's redirect path, and the flow asks for the manifest's scopes", () => {
    expect(listUnder('redirect_urls')).toEqual([`https://YOUR-HOST${REDIRECT_PATH}`]);
    expect(botScopes(manifest)).toEqual(listUnder('bot'));
  });

  it('describes each command as the catalog does in English (Slack has no localized commands)', () => {
    const described = [...manifest.matchAll(/- command: \/(\S+)\n\s+url: \S+\n\s+description: (.+)\n/g)].map((m) => [m[1], m[2]]);
    expect(described).toEqual(COMMANDS.map((c) => [c.name, commandDescription(c, messages('en'))]));
  });
});
