/**
 * The Discord adapter through the real discord.js code path: interactions are dispatched by a
 * loopback Discord over the gateway, and the tests read the callbacks and edits discord.js
 * sends back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { button, expectWellBehaved, menuValues, messageOf, startBot, type Bot } from './harness.js';
import { autocomplete, botMessage, buttonClick, menuChoice, slashCommand } from './payloads.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

let app: TestApp;
let bot: Bot;
const locales: Array<string | undefined> = [];

beforeAll(async () => {
  app = await createTestApp();
  // The core as is, noting the locale each command context is made with.
  const noting: App = { ...app, context: (platform, user, extra) => (locales.push(extra?.locale), app.context(platform, user, extra)) };
  bot = await startBot(noting);
});
afterAll(async () => {
  await bot?.stop();
  await app?.dispose();
});
afterEach(() => expectWellBehaved(bot.fake));

describe('Discord adapter', () => {
  it('logs in over the gateway with the Guilds intent only', () => {
    expect(bot.fake.identifies).toHaveLength(1);
    expect(bot.fake.identifies[0].intents).toBe(1);
    expect(bot.fake.sessions).toBe(1);
  });

  it('/paper answers at once with a card per paper, the menu, and Prev/Next', async () => {
    const reply = await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'learning' }));
    expect(reply.body.type).toBe(4);
    const message = messageOf(reply);
    expect(message.flags).toBeUndefined();
    expect(message.content).toBe('**Papers for “learning”**\n-# 12 papers · page 1 of 3');
    expect(message.embeds).toHaveLength(5);
    expect(message.embeds.map((e: any) => e.title.slice(0, 3))).toEqual(['1. ', '2. ', '3. ', '4. ', '5. ']);
    expect(message.embeds.some((e: any) => /\*\*learning\*\*/i.test(e.description))).toBe(true);
    expect(menuValues(message)).toHaveLength(5);
    expect(button(message, /Prev/).disabled).toBe(true);
    expect(button(message, /Next/).disabled).toBeUndefined();
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('Next and Prev page through the results, updating the message in place', async () => {
    const first = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'learning' })));
    const next = await bot.fake.interact(buttonClick(bot.fake, button(first, /Next/).custom_id, botMessage(bot.fake, first)));
    expect(next.body.type).toBe(7);
    const second = messageOf(next);
    expect(second.content).toBe('**Papers for “learning”**\n-# 12 papers · page 2 of 3');
    expect(second.embeds[0].title).toMatch(/^6\. /);
    const back = await bot.fake.interact(buttonClick(bot.fake, button(second, /Prev/).custom_id, botMessage(bot.fake, second)));
    expect(back.body.type).toBe(7);
    expect(messageOf(back).content).toBe(first.content);
    expect(messageOf(back).embeds.map((e: any) => e.title)).toEqual(first.embeds.map((e: any) => e.title));
  });

  it('a paper chosen in the menu opens in place, with its abstract, links, similar papers and Back', async () => {
    const page = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'attention is all you need' })));
    expect(page.embeds[0].title).toBe('1. Attention Is All You Need');
    const opened = await bot.fake.interact(menuChoice(bot.fake, 'menu', [menuValues(page)[0]!], botMessage(bot.fake, page)));
    expect(opened.body.type).toBe(7);
    const detail = messageOf(opened);
    expect(detail.content).toBe('');
    expect(detail.embeds[0]).toMatchObject({ title: 'Attention Is All You Need', url: 'https://arxiv.org/abs/1706.03762' });
    expect(detail.embeds[0].author.name).toBe('Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, Lukasz Kaiser, Illia Polosukhin');
    expect(detail.embeds[0].description).toContain('We propose the Transformer');
    expect(detail.embeds[0].description).toContain('[PDF](https://arxiv.org/pdf/1706.03762)');
    expect(detail.embeds[1].title).toBe('Similar papers');
    expect(menuValues(detail).length).toBeGreaterThan(0);
    expect(menuValues(detail).every((v) => /^paper:open:\d+$/.test(v))).toBe(true);
    const back = await bot.fake.interact(buttonClick(bot.fake, button(detail, /Back/).custom_id, botMessage(bot.fake, detail)));
    expect(messageOf(back).embeds[0].title).toBe('1. Attention Is All You Need');
    expect(messageOf(back).content).toBe(page.content);
  });

  it('autocomplete on /paper suggests titles, and choosing one opens exactly that paper', async () => {
    const suggested = await bot.fake.interact(autocomplete(bot.fake, 'paper', 'query', 'attention is'));
    expect(suggested.body).toEqual({
      type: 8,
      data: {
        choices: [
          { name: 'Attention Is All You Need', value: expect.stringMatching(/^doc:\d+$/) },
          { name: 'Graph Attention Networks', value: expect.stringMatching(/^doc:\d+$/) },
          { name: 'Graph Attention Networks for Robot Navigation', value: expect.stringMatching(/^doc:\d+$/) },
        ],
      },
    });
    const chosen = suggested.body.data.choices[0].value;
    const opened = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: chosen })));
    expect(opened.embeds).toHaveLength(2);
    expect(opened.embeds[0].title).toBe('Attention Is All You Need');
    expect(opened.embeds[0].description).toContain('We propose the Transformer');
  });

  it('autocomplete on /topic suggests topics from the taxonomy, and a suggestion opens the topic', async () => {
    const suggested = await bot.fake.interact(autocomplete(bot.fake, 'topic', 'name', 'lang'));
    expect(suggested.body.type).toBe(8);
    expect(suggested.body.data.choices[0]).toEqual({ name: 'Deep Learning · Large Language Models', value: 'deep-learning/large-language-models' });
    expect(suggested.body.data.choices.length).toBeLessThanOrEqual(25);
    const topic = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'topic', { name: 'deep-learning/large-language-models' })));
    expect(topic.content).toMatch(/^\*\*Deep Learning · Large Language Models\*\*\n-# \d+ papers? · page 1 of \d+$/);
    expect(topic.embeds.length).toBeGreaterThan(0);
    expect(topic.embeds[0].footer.text).toContain('Deep Learning · Large Language Models');
  });

  it('/topic with no name lists the taxonomy, privately', async () => {
    const message = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'topic')));
    expect(message.flags).toBe(64);
    expect(message.content).toMatch(/^\*\*Topics\*\*/);
    expect(message.embeds).toHaveLength(1);
    expect(message.embeds[0].fields).toHaveLength(11);
    expect(message.embeds[0].fields[0]).toMatchObject({ name: 'Deep Learning', inline: true });
  });

  it('/help explains the commands and the search syntax, privately', async () => {
    const message = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'help')));
    expect(message.flags).toBe(64);
    expect(message.content).toBe('**Paper Scout**');
    expect(message.embeds[0].fields.map((f: any) => f.name)).toEqual(['Commands', 'Search syntax']);
    expect(message.embeds[0].fields[0].value).toContain('• /paper: Search papers by title, author or keywords');
  });

  it('errors the user can fix come back privately, saying what to do', async () => {
    const empty = await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: '   ' }));
    expect(empty.body).toEqual({
      type: 4,
      data: expect.objectContaining({ content: 'Type what to look for: a title, an author or some keywords.', embeds: [], components: [], flags: 64 }),
    });
    const topic = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'topic', { name: 'zzqx qqzv' })));
    expect(topic).toMatchObject({ content: 'No topic matches "zzqx qqzv". Run /topic with no name to see them all.', flags: 64 });
    const none = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'zzqxqqzv' })));
    expect(none.flags).toBe(64);
    expect(none.content).toMatch(/^No papers found for “zzqxqqzv”/);
  });

  it('a button whose action fails answers with a new private message and leaves the results alone', async () => {
    const page = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'learning' })));
    const expired = await bot.fake.interact(buttonClick(bot.fake, 'paper:page:nosuchstate:1', botMessage(bot.fake, page)));
    expect(expired.body.type).toBe(4);
    expect(messageOf(expired)).toMatchObject({ content: 'These results have expired. Run the search again to page through it.', flags: 64 });
    const unknown = await bot.fake.interact(buttonClick(bot.fake, 'nope', botMessage(bot.fake, page)));
    expect(messageOf(unknown)).toMatchObject({ content: 'That button no longer does anything here. Run the command again.', flags: 64 });
  });

  it('a hostile paper is escaped, pings no one, and keeps every limit', async () => {
    const reply = await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: '@everyone markdown' }));
    const message = messageOf(reply);
    expect(message.allowed_mentions).toEqual({ parse: [] });
    expect(message.content).toBe('**Papers for “@\u200beveryone markdown”**\n-# 1 paper · page 1 of 1');
    const card = message.embeds[0];
    expect(card.title).toBe('1. @\u200beveryone \\<b\\>Markdown\\<\u200b/b\\> \\*\\*bold\\*\\* \\`code\\` \\<\u200b@123\\> \\<\u200b!channel\\> &amp; \\[link\\](http://evil.example)');
    expect(card.author.name).toBe("Robert'); DROP TABLE papers;--, <script>alert(1)<\u200b/script>");
    expect(card.description).toContain('@\u200bhere \\|\\|spoiler\\|\\| \\~\\~strike\\~\\~ \\> quote \\*emphasis\\* \\_under\\_ \\<\u200bhttps://example.com\\|label\\> \\<\u200b#C123\\> \\<\u200b@U123\\>');
    const opened = messageOf(await bot.fake.interact(menuChoice(bot.fake, 'menu', [menuValues(message)[0]!], botMessage(bot.fake, message))));
    expect(opened.allowed_mentions).toEqual({ parse: [] });
    expect(opened.embeds[0].title).toMatch(/^@\u200beveryone/);
  });

  it('runs subcommands with their options, and tells the core what the member may do', async () => {
    const empty = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'digest', {}, { subcommand: 'list' })));
    expect(empty).toMatchObject({ content: expect.stringMatching(/^This channel has no digests yet/), flags: 64 });
    const refused = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'digest', { topic: 'llm', count: 3 }, { subcommand: 'subscribe' })));
    expect(refused).toMatchObject({ content: expect.stringMatching(/Manage Channels permission/), flags: 64 });
    const manageChannels = String(1n << 4n);
    const subscribed = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'digest', { topic: 'llm', count: 3 }, { subcommand: 'subscribe', permissions: manageChannels })));
    expect(subscribed.flags).toBeUndefined();
    expect(subscribed.content).toMatch(/^Subscribed: Deep Learning · Large Language Models, every day at 09:00 UTC, up to 3 papers\./);
  });

  it("passes the user's locale to the core", async () => {
    locales.length = 0;
    await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'bert' }, { locale: 'de' }));
    await bot.fake.interact(autocomplete(bot.fake, 'paper', 'query', 'ber'));
    expect(locales).toEqual(['de', 'en-GB']);
  });
});
