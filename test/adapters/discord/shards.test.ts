/**
 * Discord sharding through the real discord.js client: DISCORD_SHARD_COUNT and DISCORD_SHARDS
 * become `shardCount` and `shards`; each instance identifies as its shards, and the fake Discord
 * routes each server's interactions to shard (guild_id >> 22) % count, as Discord does, so each
 * server is answered by the instance that runs its shard. Without the settings: one shard.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscord } from '../../../adapters/discord/index.js';
import type { RunningAdapter } from '../../../adapters/adapter.js';
import { loadConfig } from '../../../src/config.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { FakeDiscord, shardOf } from './fakeDiscord.js';
import { messageOf } from './harness.js';
import { fromFixture, slashCommand } from './payloads.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

let app: TestApp | undefined;
let fake: FakeDiscord | undefined;
const running: RunningAdapter[] = [];
afterEach(async () => {
  for (const adapter of running.splice(0)) await adapter.stop();
  await fake?.close();
  await app?.dispose();
});

/** A server whose events go to `shard` of `count`. */
function guildOnShard(shard: number, count: number): string {
  for (let n = 0n; ; n++) {
    const id = String((1190000000000000000n + (n << 22n)) | 100n);
    if (shardOf(id, count) === shard) return id;
  }
}

/** The chat-input fixture as typed in server `guildId`. */
function paperIn(f: FakeDiscord, guildId: string): any {
  const payload = slashCommand(f, 'paper', { query: 'learning' });
  payload.guild_id = guildId;
  payload.guild.id = guildId;
  payload.channel.guild_id = guildId;
  payload.authorizing_integration_owners = { 0: guildId };
  return payload;
}

/** Starts an instance's Discord adapter with the shard settings given, counting the interactions it handles. */
async function instance(env: Record<string, string>, handled: number[], index: number): Promise<void> {
  const config = loadConfig({ DISCORD_TOKEN: fake!.token, DISCORD_API_URL: fake!.apiUrl, ...env }).discord!;
  running.push(await startDiscord(app!, config, { track: () => void (handled[index] = (handled[index] ?? 0) + 1) }));
}

describe('Discord shards', () => {
  it("two instances, one shard each: each server is answered by its own shard's instance", async () => {
    app = await createTestApp();
    fake = await FakeDiscord.start();
    const handled = [0, 0];
    await instance({ DISCORD_SHARD_COUNT: '2', DISCORD_SHARDS: '0' }, handled, 0);
    await instance({ DISCORD_SHARD_COUNT: '2', DISCORD_SHARDS: '1' }, handled, 1);
    expect(fake.identifies.map((i) => i.shard)).toEqual([
      [0, 2],
      [1, 2],
    ]);
    const [even, odd] = [guildOnShard(0, 2), guildOnShard(1, 2)];
    for (const [guild, shard] of [[even, 0], [odd, 1], [odd, 1], [even, 0], [odd, 1]] as const) {
      const before = [...handled];
      const reply = messageOf(await fake.interact(paperIn(fake, guild)));
      expect(reply.content).toMatch(/^\*\*Papers for “learning”\*\*/);
      expect(fake.dispatched.at(-1)).toMatchObject({ event: 'INTERACTION_CREATE', shard, guildId: guild });
      expect(handled[shard]).toBe(before[shard]! + 1);
      expect(handled[1 - shard]).toBe(before[1 - shard]);
    }
    // A direct message belongs to no server: shard 0's instance answers it.
    const dm = fromFixture(fake, 'dm-chat-input');
    await fake.interact(dm);
    expect(handled).toEqual([3, 3]);
  });

  it('DISCORD_SHARD_COUNT alone: this instance runs every shard', async () => {
    app = await createTestApp();
    fake = await FakeDiscord.start();
    const handled = [0];
    await instance({ DISCORD_SHARD_COUNT: '3' }, handled, 0);
    expect(fake.identifies.map((i) => i.shard).sort()).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
    for (let shard = 0; shard < 3; shard++) {
      expect(messageOf(await fake.interact(paperIn(fake, guildOnShard(shard, 3)))).content).toMatch(/^\*\*Papers for/);
      expect(fake.dispatched.at(-1)!.shard).toBe(shard);
    }
    expect(handled).toEqual([3]);
  });

  it('by default, one process with the one shard', async () => {
    app = await createTestApp();
    fake = await FakeDiscord.start();
    await instance({}, [], 0);
    expect(fake.identifies.map((i) => i.shard ?? [0, 1])).toEqual([[0, 1]]);
    expect(messageOf(await fake.interact(paperIn(fake, guildOnShard(1, 2)))).content).toMatch(/^\*\*Papers for/);
  });
});
