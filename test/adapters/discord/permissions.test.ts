/**
 * What the bot may do in a channel, worked out from a server's roles and a channel's overwrites
 * as Discord documents it (adapters/discord/permissions.ts): table-driven, one rule a row.
 */
import { describe, expect, it } from 'vitest';
import { channelPermissions, has, PERMISSION, type ChannelPermissionsInput, type Overwrite } from '../../../adapters/discord/permissions.js';

const GUILD = '100';
const BOT = '900';
const ROLE = '801';
const OTHER_ROLE = '802';
const { viewChannel: VIEW, readMessageHistory: HISTORY, sendMessages: SEND, administrator: ADMIN } = PERMISSION;

const role = (id: string, bits: bigint) => ({ id, permissions: String(bits) });
const overwrite = (id: string, type: 0 | 1, allow: bigint, deny: bigint): Overwrite => ({ id, type, allow: String(allow), deny: String(deny) });

function input(over: Partial<ChannelPermissionsInput> = {}): ChannelPermissionsInput {
  return {
    guildId: GUILD,
    ownerId: '1',
    roles: [role(GUILD, VIEW | SEND | HISTORY), role(ROLE, VIEW | SEND), role(OTHER_ROLE, 0n)],
    member: { id: BOT, roles: [ROLE, OTHER_ROLE] },
    overwrites: [],
    ...over,
  };
}

describe('channelPermissions', () => {
  const CASES: Array<[string, ChannelPermissionsInput, boolean]> = [
    ['@everyone may read the history', input(), true],
    ['nobody may, not even the bot’s role', input({ roles: [role(GUILD, VIEW), role(ROLE, VIEW | SEND)] }), false],
    ['the bot’s role may where @everyone may not', input({ roles: [role(GUILD, VIEW), role(ROLE, VIEW | HISTORY)] }), true],
    ['the channel denies it to @everyone', input({ overwrites: [overwrite(GUILD, 0, 0n, HISTORY)] }), false],
    ['the channel denies it to @everyone and allows it to the bot’s role', input({ overwrites: [overwrite(GUILD, 0, 0n, HISTORY), overwrite(ROLE, 0, HISTORY, 0n)] }), true],
    ['one role of the bot is denied it, another allowed it: allowed', input({ overwrites: [overwrite(OTHER_ROLE, 0, 0n, HISTORY), overwrite(ROLE, 0, HISTORY, 0n)] }), true],
    ['the channel denies it to the bot itself, whatever its roles', input({ overwrites: [overwrite(ROLE, 0, HISTORY, 0n), overwrite(BOT, 1, 0n, HISTORY)] }), false],
    ['a member overwrite is not a role overwrite of the same id', input({ overwrites: [overwrite(BOT, 0, 0n, HISTORY)] }), true],
    ['without View Channel nothing else counts', input({ overwrites: [overwrite(GUILD, 0, HISTORY, VIEW)] }), false],
    ['Administrator overrides every overwrite', input({ roles: [role(GUILD, 0n), role(ROLE, ADMIN)], overwrites: [overwrite(BOT, 1, 0n, VIEW | HISTORY)] }), true],
    ['the server’s owner may do everything', input({ ownerId: BOT, roles: [role(GUILD, 0n)] }), true],
    ['bitfields that are not numbers count as none', input({ roles: [role(GUILD, VIEW), { id: ROLE, permissions: 'lots' }] }), false],
  ];
  it.each(CASES)('%s', (_, given, readable) => {
    expect(has(channelPermissions(given), VIEW, HISTORY)).toBe(readable);
  });
});
