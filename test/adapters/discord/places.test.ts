/**
 * Interactions as Discord really sends them, beyond what discord.js assumes: its own documented
 * example (no entitlements, no channel object, no application id), a DM with the bot, a group
 * DM and a server that never added the bot (a user-installed app), and packets discord.js cannot
 * read at all. Each is answered, and the next interaction too. Where `/digest` may and may not
 * run is the adapter contract's (test/adapters/contract/places.test.ts); here are the shapes
 * only Discord sends (a channel id without a channel object) and its permissions. All through
 * discord.js and the loopback Discord.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import type { CommandRegistry } from '../../../src/commands/registry.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { expectWellBehaved, messageOf, startBot, type Bot } from './harness.js';
import { autocomplete, fromFixture, slashCommand } from './payloads.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** Manage Channels on top of the chat-input fixture's member permissions: may set up digests. */
const MANAGER = String(2248473465835073n | (1n << 4n));
/** The chat-input fixture's app_permissions without Send Messages. */
const NO_SEND = String(2248473465835073n & ~(1n << 11n));

let app: TestApp;
let bot: Bot;
const lines: Array<Record<string, any>> = [];
beforeAll(async () => {
  app = await createTestApp();
  const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  bot = await startBot({ ...app, log });
});
afterAll(async () => {
  await bot?.stop();
  await app?.dispose();
});
afterEach(() => expectWellBehaved(bot.fake));

/** The interaction answered, then a plain /help after it (the bot is still there). */
async function answerOf(payload: any): Promise<any> {
  const answer = await bot.fake.interact(payload);
  const next = await bot.fake.interact(slashCommand(bot.fake, 'help'));
  expect(messageOf(next).embeds.length + (messageOf(next).content ?? '').length).toBeGreaterThan(0);
  return answer;
}

/** `/digest <subcommand>` where the fixture was typed, by someone allowed to manage the channel. */
function digest(from: string, subcommand: string, options: Record<string, string> = {}, edit: (p: any) => void = () => undefined): any {
  const payload = slashCommand(bot.fake, 'digest', options, { subcommand, from });
  if (payload.member) payload.member.permissions = MANAGER;
  edit(payload);
  return payload;
}

describe('payloads discord.js does not expect', () => {
  it('answers Discord’s documented slash-command example, then the next interaction', async () => {
    const answer = await answerOf(fromFixture(bot.fake, 'docs-chat-input'));
    expect(answer.body.type).toBe(4);
    expect(messageOf(answer).embeds[0].title).toBe('1. Attention Is All You Need');
  });

  it('answers /paper in a DM with the bot, a group DM, and a server that has not added the bot', async () => {
    for (const from of ['dm-chat-input', 'group-dm-chat-input', 'user-install-chat-input']) {
      const answer = await answerOf(fromFixture(bot.fake, from));
      expect(answer.body.type, from).toBe(4);
      expect(messageOf(answer).content, from).toMatch(/^\*\*Papers for “diffusion”\*\*/);
    }
  });

  it('apologizes, with a reference in one log line naming the packet, for an interaction discord.js cannot read', async () => {
    const unreadable = fromFixture(bot.fake, 'docs-chat-input');
    delete unreadable.data;
    const answer = await answerOf(unreadable);
    expect(answer.body).toMatchObject({ type: 4, data: { flags: 64, allowed_mentions: { parse: [] } } });
    const reference = /reference ([0-9a-f]{8})\.$/.exec(answer.body.data.content)![1];
    expect(lines.filter((l) => l.reference === reference)).toEqual([
      expect.objectContaining({ level: 50, packet: 'INTERACTION_CREATE', interactionType: 2, interaction: unreadable.id, msg: 'Discord: discord.js could not read a gateway packet; it was dropped' }),
    ]);
  });

  it('gives an unreadable autocomplete no choices rather than a message', async () => {
    const typing = autocomplete(bot.fake, 'paper', 'query', 'diff');
    delete typing.member;
    const answer = await answerOf(typing);
    expect(answer.body).toEqual({ type: 8, data: { choices: [] } });
  });

  it('drops any other packet discord.js throws on, naming it, and keeps answering', async () => {
    bot.fake.dispatch('GUILD_CREATE', null);
    const answer = await answerOf(slashCommand(bot.fake, 'paper', { query: 'learning' }));
    expect(answer.body.type).toBe(4);
    expect(lines.some((l) => l.packet === 'GUILD_CREATE' && l.level === 50)).toBe(true);
  });
});

describe('hostile payloads', () => {
  const FIELDS = ['type', 'data', 'member', 'user', 'channel', 'channel_id', 'guild_id', 'guild', 'app_permissions', 'authorizing_integration_owners', 'context', 'entitlements', 'locale', 'application_id', 'version'];
  const mutation = fc.record({
    from: fc.constantFrom('docs-chat-input', 'chat-input', 'dm-chat-input', 'group-dm-chat-input', 'user-install-chat-input', 'button', 'string-select', 'autocomplete', 'modal-submit'),
    drop: fc.subarray(FIELDS),
    replace: fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  });

  it('stays up through 300 interactions with fields missing or of any shape, and answers the next one', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      for (const { from, drop, replace } of fc.sample(mutation, { seed: 20260412, numRuns: 300 })) {
        const payload = fromFixture(bot.fake, from);
        for (const field of drop) delete payload[field];
        bot.fake.interactionCreate(Object.assign(payload, replace));
      }
      const answer = await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'learning' }));
      expect(messageOf(answer).content).toMatch(/Papers for “learning”/);
      expect(rejections).toEqual([]);
      expect(lines.filter((l) => l.packet === 'INTERACTION_CREATE').length).toBeGreaterThan(0);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});

describe('/digest only where a digest can be posted', () => {
  it('subscribes a server channel where the bot may post, also when Discord sends channel_id without a channel object', async () => {
    const payload = digest('chat-input', 'subscribe', { topic: 'llm' }, (p) => {
      p.channel_id = '1190000000000000240';
      delete p.channel;
    });
    const answer = messageOf(await answerOf(payload));
    expect(answer.content).toMatch(/^Subscribed: Deep Learning · Large Language Models, every day at 09:00 UTC/);
    expect(await app.digests.forChannel('discord', '1190000000000000240')).toHaveLength(1);
  });

  it('lists a channel’s digests with why they cannot arrive once the bot lost Send Messages there', async () => {
    const channel = (p: any) => {
      p.channel_id = '1190000000000000250';
      p.channel.id = '1190000000000000250';
    };
    messageOf(await answerOf(digest('chat-input', 'subscribe', { topic: 'causality' }, channel)));
    const answer = messageOf(
      await answerOf(
        digest('chat-input', 'list', {}, (p) => {
          channel(p);
          p.app_permissions = NO_SEND;
        }),
      ),
    );
    expect(answer.flags).toBe(64);
    expect(answer.content).toContain('Digests in this channel');
    expect(answer.content).toContain('Paper Scout cannot post digests in this channel: it lacks the Send Messages permission here.');
    expect(JSON.stringify(answer.embeds)).toContain('General Machine Learning · Causality');
  });
});

describe('the documented example when the core is slow', () => {
  let slowApp: TestApp;
  let slowBot: Bot;
  beforeAll(async () => {
    slowApp = await createTestApp();
    const registry = Object.create(slowApp.registry) as CommandRegistry;
    registry.run = async (...args) => (await sleep(80), slowApp.registry.run(...args));
    const slow: App = { ...slowApp, registry };
    slowBot = await startBot(slow, { deferAfterMs: 10 });
  });
  afterAll(async () => {
    await slowBot?.stop();
    await slowApp?.dispose();
  });

  it('edits the deferred answer under the bot’s own application id, which the payload lacks', async () => {
    const payload = fromFixture(slowBot.fake, 'docs-chat-input');
    expect(payload.application_id).toBeUndefined();
    expect((await slowBot.fake.interact(payload)).body.type).toBe(5);
    const edit = await slowBot.fake.waitFor((r) => r.token === payload.token && r.kind === 'edit');
    expect(edit.path).toBe(`/webhooks/${slowBot.fake.applicationId}/${payload.token}/messages/@original`);
    expect(edit.body.embeds[0].title).toBe('1. Attention Is All You Need');
    expectWellBehaved(slowBot.fake);
  });
});
