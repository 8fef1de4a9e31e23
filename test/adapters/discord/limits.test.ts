/**
 * Every Discord limit, end to end, on a library of papers built to break them: titles of 1000
 * characters of markdown and mentions, 400 authors, abstracts of 100 kB, URLs that are too long
 * or full of parentheses. The loopback Discord checks each message as Discord would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedLength } from '../../../adapters/discord/render.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { writePapers, zebraPapers } from '../contract/hostilePapers.js';
import { button, expectWellBehaved, menuValues, messageOf, startBot, type Bot } from './harness.js';
import { autocomplete, botMessage, buttonClick, menuChoice, slashCommand } from './payloads.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

let corpus: ReturnType<typeof writePapers>;
let app: TestApp;
let bot: Bot;
beforeAll(async () => {
  corpus = writePapers(zebraPapers());
  app = await createTestApp({ paths: [corpus.file] });
  bot = await startBot(app);
});
afterAll(async () => {
  await bot?.stop();
  await app?.dispose();
  corpus?.remove();
});

describe('Discord limits with hostile papers', () => {
  it('a results page, its next page and a detail view all fit', async () => {
    const page = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'zebra' })));
    expect(page.embeds).toHaveLength(5);
    expect(page.embeds.reduce((n: number, e: any) => n + embedLength(e), 0)).toBeLessThanOrEqual(6000);
    for (const embed of page.embeds) {
      expect(embed.title.length).toBeLessThanOrEqual(256);
      expect(embed.title).toMatch(/…$/);
      expect(embed.url).toBe(`https://e.x/p/${/zebra (\d+)/.exec(embed.title)![1]}?q=(a)&r=**b**`);
      expect(embed.author.name).toMatch(/et al\.$/);
      // The snippet was cut to share the budget; the code link (well-formed) survived, the 1800-character PDF link did not.
      expect(embed.description).toMatch(/…\n\[Code\]\(https:\/\/e\.x\/code_%28\d+%29\)$/);
    }
    const next = messageOf(await bot.fake.interact(buttonClick(bot.fake, button(page, /Next/).custom_id, botMessage(bot.fake, page))));
    expect(next.content).toContain('page 2 of 3');

    const detail = messageOf(await bot.fake.interact(menuChoice(bot.fake, 'menu', [menuValues(page)[0]!], botMessage(bot.fake, page))));
    const card = detail.embeds[0];
    expect(card.fields).toEqual([{ name: 'Authors', value: expect.stringMatching(/…$/) }]);
    expect(card.fields[0].value.length).toBeLessThanOrEqual(1024);
    expect(detail.embeds.reduce((n: number, e: any) => n + embedLength(e), 0)).toBeLessThanOrEqual(6000);
    for (const option of (detail.components[0]?.components[0]?.options ?? []) as any[]) expect(option.label.length).toBeLessThanOrEqual(100);
    expectWellBehaved(bot.fake);
  });

  it('autocomplete names stay within 100 characters and break mentions', async () => {
    const suggested = await bot.fake.interact(autocomplete(bot.fake, 'paper', 'query', 'zebra'));
    const choices = suggested.body.data.choices as Array<{ name: string; value: string }>;
    expect(choices.length).toBeGreaterThan(0);
    for (const c of choices) {
      expect(c.name.length).toBeLessThanOrEqual(100);
      expect(c.name).not.toMatch(/@everyone|@here|<@/);
    }
    expectWellBehaved(bot.fake);
  });
});
