/**
 * Discord in the member's language where only Discord has one, through discord.js against the
 * loopback Discord: autocomplete in Chinese, an English member in a Chinese server (the member's
 * language wins), and digests of subscriptions without a language, headed in the server's. The
 * commands, buttons and digests in the member's language are the adapter contract's
 * (test/adapters/contract/locale.test.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordSender } from '../../../adapters/discord/digestSender.js';
import { runDueDigests } from '../../../src/digest/runner.js';
import { seedPath } from '../../../src/paths.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { button, expectWellBehaved, messageOf, startBot, type Bot } from './harness.js';
import { autocomplete, slashCommand } from './payloads.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

let app: TestApp;
let bot: Bot;
beforeAll(async () => {
  app = await createTestApp({ paths: [seedPath('demo-papers.jsonl')] });
  bot = await startBot(app);
});
afterAll(async () => {
  await bot?.stop();
  await app?.dispose();
});
afterEach(() => expectWellBehaved(bot.fake));

/** A payload as sent by a member whose Discord is in `locale`, in a server whose default is `guild`. */
function as<T extends Record<string, any>>(payload: T, locale: string, guild = 'en-US'): T {
  return { ...payload, locale, guild_locale: guild };
}

describe('a zh-CN member in an English server', () => {
  it('autocomplete suggests topics named in Chinese', async () => {
    const reply = await bot.fake.interact(as(autocomplete(bot.fake, 'topic', 'name', '大语'), 'zh-CN'));
    expect(reply.body.data.choices[0]).toEqual({ name: '深度学习 · 大语言模型', value: 'deep-learning/large-language-models' });
  });
});

describe('an English member in a Chinese server', () => {
  it('gets English, whatever the server’s language', async () => {
    const page = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'paper', { query: '强化学习' }), 'en-US', 'zh-CN')));
    expect(page.content).toMatch(/^\*\*Papers for “强化学习”\*\*\n-# \d+ papers · page 1 of \d+ · Read as 强化学习 → reinforcement learning\./);
    expect(button(page, /Next/).label).toBe('Next ▶');
    const topic = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'topic', { name: '大语言模型' }), 'en-GB', 'zh-CN')));
    expect(topic.content).toMatch(/^\*\*Deep Learning · Large Language Models\*\*/);
  });

  it('falls back to Chinese for zh-TW and to English for a language without a catalog', async () => {
    const tw = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'help'), 'zh-TW')));
    expect(tw.content).toBe('**Paper Scout 论文检索**');
    const fr = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'help'), 'fr', 'zh-CN')));
    expect(fr.content).toBe('**Paper Scout**');
  });
});

describe('digests on Discord', () => {
  const subscription = async (channel: string, workspace: string, locale?: string) =>
    await app.digests.subscribe({
      platform: 'discord', workspace, channel, query: 'topic:"deep-learning/large-language-models"', label: 'Deep Learning · Large Language Models',
      time: '09:00', timezone: 'Asia/Shanghai', days: 'daily', count: 3, fill: true, createdBy: 'u1', createdAt: '2026-11-01T00:00:00Z', ...(locale && { locale }),
    });

  it('are headed in the subscriber’s language, else in the server’s preferred one', async () => {
    await subscription('1190000000000000901', '1190000000000000111', 'zh-CN');
    await subscription('1190000000000000902', '1190000000000000222', 'en-US');
    // Made before subscriptions kept a language: the server's default decides.
    await subscription('1190000000000000903', '1190000000000000333');
    bot.fake.guildLocales.set('1190000000000000333', 'zh-CN');
    await subscription('1190000000000000904', '1190000000000000444');
    const sender = createDiscordSender({ token: bot.fake.token, apiUrl: bot.fake.apiUrl });
    const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders: { discord: sender }, log: app.log }, new Date('2026-11-30T01:00:00Z'));
    expect(summary.sent).toBeGreaterThanOrEqual(4);
    const first = (channel: string) => bot.fake.channelMessages.find((m) => m.channel === channel)!.body;
    expect(first('1190000000000000901').content).toMatch(/^\*\*深度学习 · 大语言模型 · 2026年11月30日星期一\*\*/);
    expect(first('1190000000000000902').content).toMatch(/^\*\*Deep Learning · Large Language Models · Monday, 30 November 2026\*\*/);
    expect(first('1190000000000000903').content).toMatch(/^\*\*深度学习 · 大语言模型 · /);
    expect(first('1190000000000000904').content).toMatch(/^\*\*Deep Learning · Large Language Models · /);
    const buttons = bot.fake.channelMessages.filter((m) => m.channel === '1190000000000000901').flatMap((m) => m.body.components ?? []).flatMap((r: any) => r.components);
    expect(buttons.map((b: any) => b.label)).toContain('更多：深度学习 · 大语言模型');
  });
});
