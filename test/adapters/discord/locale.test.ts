/**
 * Discord in the member's language, through discord.js against the loopback Discord: a zh-CN
 * member in an English server and an English member in a Chinese server, every command and
 * button, autocomplete, and a digest subscribed in Chinese.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordSender } from '../../../adapters/discord/digestSender.js';
import { runDueDigests } from '../../../src/digest/runner.js';
import { seedPath } from '../../../src/paths.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { button, expectWellBehaved, menuValues, messageOf, startBot, type Bot } from './harness.js';
import { autocomplete, botMessage, buttonClick, menuChoice, slashCommand } from './payloads.js';

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
const MANAGE = String(1n << 4n | 1n << 10n | 1n << 11n | 1n << 14n);

describe('a zh-CN member in an English server', () => {
  it('/paper, Next, a paper from the menu and Back all answer in Chinese', async () => {
    const first = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'paper', { query: '强化学习' }), 'zh-CN')));
    expect(first.content).toMatch(/^\*\*“强化学习”的检索结果\*\*\n-# \d+ 篇论文 · 第 1\/\d+ 页 · 按以下英文检索：强化学习 → reinforcement learning。/);
    expect(button(first, /上一页/).disabled).toBe(true);
    const menu = first.components[0].components[0];
    expect(menu.placeholder).toBe('打开一篇论文…');
    const second = messageOf(await bot.fake.interact(as(buttonClick(bot.fake, button(first, /下一页/).custom_id, botMessage(bot.fake, first)), 'zh-CN')));
    expect(second.content).toMatch(/第 2\/\d+ 页/);
    const detail = messageOf(await bot.fake.interact(as(menuChoice(bot.fake, 'menu', [menuValues(first)[0]!], botMessage(bot.fake, first)), 'zh-CN')));
    expect(detail.embeds[1].title).toBe('相似论文');
    expect(detail.embeds[0].footer.text).toMatch(/强化学习 · /);
    const back = messageOf(await bot.fake.interact(as(buttonClick(bot.fake, button(detail, /返回结果/).custom_id, botMessage(bot.fake, detail)), 'zh-CN')));
    expect(back.content).toBe(first.content);
  });

  it('/topic 大语言模型, /topic and /help in Chinese', async () => {
    const topic = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'topic', { name: '大语言模型' }), 'zh-CN')));
    expect(topic.content).toMatch(/^\*\*深度学习 · 大语言模型\*\*/);
    const list = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'topic'), 'zh-CN')));
    expect(list.content).toMatch(/^\*\*研究方向\*\*/);
    expect(list.embeds[0].fields[0].name).toBe('深度学习');
    const help = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'help'), 'zh-CN')));
    expect(help.content).toBe('**Paper Scout 论文检索**');
    expect(help.embeds[0].fields[0].value).toContain('/paper：按标题、作者或关键词检索论文');
  });

  it('autocomplete suggests topics named in Chinese', async () => {
    const reply = await bot.fake.interact(as(autocomplete(bot.fake, 'topic', 'name', '大语'), 'zh-CN'));
    expect(reply.body.data.choices[0]).toEqual({ name: '深度学习 · 大语言模型', value: 'deep-learning/large-language-models' });
  });

  it('mistakes are explained in Chinese, privately', async () => {
    const reply = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'topic', { name: 'qwzx blorf' }), 'zh-CN')));
    expect(reply).toMatchObject({ content: '没有与“qwzx blorf”匹配的方向。不带名称运行 /topic 可查看全部方向。', flags: 64 });
  });

  it('a digest subscribed by a Chinese reader keeps their language', async () => {
    const payload = as(slashCommand(bot.fake, 'digest', { topic: '大语言模型', timezone: 'Asia/Shanghai' }, { subcommand: 'subscribe', permissions: MANAGE }), 'zh-CN');
    const reply = messageOf(await bot.fake.interact(payload));
    expect(reply.content).toMatch(/^已订阅：深度学习 · 大语言模型，每天 09:00（Asia\/Shanghai），最多 5 篇论文。下次推送：\d{4}年\d+月\d+日星期./);
    const [sub] = await app.digests.forChannel('discord', payload.channel_id ?? payload.channel?.id);
    expect(sub?.locale).toBe('zh-CN');
  });
});

describe('the rest of the commands and menus in Chinese', () => {
  it('/topic with several matches offers a menu whose choice opens the topic', async () => {
    const offer = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'topic', { name: '强化学习' }), 'zh-CN')));
    expect(offer.content).toBe('有多个方向与“强化学习”匹配，请选择一个：');
    expect(offer.components[0].components[0].placeholder).toBe('选择一个方向…');
    const chosen = await bot.fake.interact(as(menuChoice(bot.fake, 'menu', [menuValues(offer)[0]!]), 'zh-CN'));
    expect(messageOf(chosen).content).toMatch(/^\*\*强化学习 · 深度强化学习\*\*/);
  });

  it('/digest list and unsubscribe, its menu and stopping one', async () => {
    const channel = { subcommand: 'subscribe', permissions: MANAGE };
    await bot.fake.interact(as(slashCommand(bot.fake, 'digest', { topic: '联邦学习' }, channel), 'zh-CN'));
    const list = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'digest', {}, { subcommand: 'list', permissions: MANAGE }), 'zh-CN')));
    expect(list.content).toBe('**本频道的推送**');
    expect(list.embeds[0].description).toContain('优化 · 大规模、分布式与联邦优化 — 优化 · 大规模、分布式与联邦优化，每天 09:00');
    const which = messageOf(await bot.fake.interact(as(slashCommand(bot.fake, 'digest', {}, { subcommand: 'unsubscribe', permissions: MANAGE }), 'zh-CN')));
    expect(which.content).toBe('本频道有多个推送。要停止哪一个？');
    const stopChoice = which.components[0].components[0].options.find((o: any) => o.label === '优化 · 大规模、分布式与联邦优化');
    const stopped = await bot.fake.interact(as({ ...menuChoice(bot.fake, 'menu', [stopChoice.value]), member: { ...menuChoice(bot.fake, 'menu', []).member, permissions: MANAGE } }, 'zh-CN'));
    expect(messageOf(stopped).content).toBe('已停止本频道关于优化 · 大规模、分布式与联邦优化的每日推送。');
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
