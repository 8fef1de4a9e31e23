/**
 * Reading raw interaction payloads (adapters/discord/incoming.ts): where an interaction happened
 * and what the bot may do there, table-driven over the recorded shapes, and never a throw on
 * hostile input.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeInteraction, placeOf, type Place } from '../../../adapters/discord/incoming.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

const fixture = (name: string): any => JSON.parse(readFileSync(fileURLToPath(new URL(`../../fixtures/discord/${name}.json`, import.meta.url)), 'utf8'));
const ALL = { canView: true, canSend: true, canEmbed: true, canReadHistory: true };

describe('placeOf', () => {
  const CASES: Array<[string, any, Place]> = [
    ['a server channel (with its name, for "Save to #papers")', fixture('chat-input'), { channelId: '1190000000000000200', name: 'papers', kind: 'channel', bot: { inServer: true, ...ALL } }],
    ['Discord’s documented example (no channel object, no context)', fixture('docs-chat-input'), { channelId: '1190000000000000200', kind: 'channel', bot: { canView: false, canSend: false, canEmbed: true, canReadHistory: false } }],
    ['a DM with the bot', fixture('dm-chat-input'), { channelId: '1190000000000000210', kind: 'dm', bot: { canView: false, canSend: false, canEmbed: true, canReadHistory: false } }],
    ['a group DM', fixture('group-dm-chat-input'), { channelId: '1190000000000000220', kind: 'group-dm', bot: { canView: false, canSend: false, canEmbed: true, canReadHistory: false } }],
    ['a server that has not added the bot', fixture('user-install-chat-input'), { channelId: '1190000000000000230', name: 'general', kind: 'channel', bot: { inServer: false, canView: false, canSend: false, canEmbed: true, canReadHistory: false } }],
    ['a private channel without its channel object', { context: 2, channel_id: '5', user: { id: '1' } }, { channelId: '5', kind: 'dm' }],
    ['a DM told only by `user` instead of `member`', { channel_id: '6', user: { id: '1' } }, { channelId: '6', kind: 'dm' }],
    ['a thread: Send Messages in Threads counts, not Send Messages', { guild_id: '1', channel: { id: '7', type: 11 }, app_permissions: String((1n << 10n) | (1n << 38n)) }, { channelId: '7', kind: 'channel', bot: { canView: true, canSend: true, canEmbed: false, canReadHistory: false } }],
    ['Read Message History, and nothing else', { guild_id: '1', channel_id: '8', app_permissions: String(1n << 16n) }, { channelId: '8', kind: 'channel', bot: { canView: false, canSend: false, canEmbed: false, canReadHistory: true } }],
    ['Administrator grants everything', { guild_id: '1', channel_id: '8', app_permissions: '8' }, { channelId: '8', kind: 'channel', bot: ALL }],
    ['a user install next to a guild install: the bot is there', { guild_id: '1', channel_id: '9', authorizing_integration_owners: { '0': '1', '1': '2' } }, { channelId: '9', kind: 'channel', bot: { inServer: true } }],
    ['app_permissions that is not a bitfield is unknown, not none', { guild_id: '1', channel_id: '9', app_permissions: 'all of them' }, { channelId: '9', kind: 'channel' }],
    ['a channel id that is not a snowflake is no channel', { guild_id: '1', channel_id: '../../etc' }, { kind: 'channel' }],
    ['nothing', {}, {}],
  ];
  it.each(CASES)('%s', (_, raw, place) => {
    expect(placeOf(raw)).toEqual(place);
  });

  it('never throws, whatever the payload', () => {
    fc.assert(fc.property(fc.anything(), (raw) => void placeOf(raw)));
    fc.assert(fc.property(fc.dictionary(fc.constantFrom('channel', 'channel_id', 'context', 'guild_id', 'user', 'member', 'app_permissions', 'authorizing_integration_owners'), fc.anything()), (raw) => void placeOf(raw)));
  });
});

describe('normalizeInteraction', () => {
  it('fills in what discord.js reads unconditionally, and keeps what is there', () => {
    const documented = fixture('docs-chat-input');
    const normalized = normalizeInteraction(documented, '99') as any;
    expect(normalized).toEqual({ ...documented, entitlements: [], authorizing_integration_owners: {}, application_id: '99' });
    expect(documented.entitlements).toBeUndefined(); // a copy: the packet itself is not changed
    const recorded = fixture('chat-input');
    expect(normalizeInteraction(recorded, '99')).toEqual(recorded);
  });

  it('replaces fields of the wrong shape, and leaves non-objects alone', () => {
    expect(normalizeInteraction({ entitlements: 'none', authorizing_integration_owners: [1] }, undefined)).toEqual({ entitlements: [], authorizing_integration_owners: {} });
    for (const raw of [null, undefined, 3, 'x', [1]]) expect(normalizeInteraction(raw, '99')).toBe(raw);
    fc.assert(fc.property(fc.anything(), (raw) => void normalizeInteraction(raw, '99')));
  });
});
