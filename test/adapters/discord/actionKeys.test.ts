/**
 * Component ids are request text: a button's custom_id or a menu's value naming what every
 * object inherits (`paper:constructor`, `library:hasOwnProperty`), or one that is no text at
 * all, goes over the gateway through discord.js and is answered as a button that does nothing
 * here: a new private message, the message clicked left alone. Never an apology.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CommandEvent } from '../../../src/observer.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { PROTOTYPE_NAMES, hostileHandles } from '../../commands/hostileHandles.js';
import { expectWellBehaved, messageOf, startBot, type Bot } from './harness.js';
import { botMessage, buttonClick, menuChoice, slashCommand } from './payloads.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

const STALE = 'That button no longer does anything here. Run the command again.';

let app: TestApp;
let bot: Bot;
let results: any;
const outcomes: CommandEvent[] = [];
beforeAll(async () => {
  app = await createTestApp({ observer: { command: (e) => outcomes.push(e), search: () => undefined } });
  bot = await startBot(app);
  results = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'learning' })));
});
afterAll(async () => {
  await bot?.stop();
  await app?.dispose();
});
afterEach(() => expectWellBehaved(bot.fake));

/** What a click with this custom_id (or a menu choice with these values) was answered with. */
async function answerTo(payload: any): Promise<any> {
  const callback = await bot.fake.interact(payload);
  expect(callback.body.type).toBe(4);
  return messageOf(callback);
}

describe('custom ids and menu values naming what every object inherits', () => {
  it.each(PROTOTYPE_NAMES)('%s as a command, a verb or both is a button that does nothing here', async (name) => {
    for (const handle of hostileHandles(name)) {
      expect(await answerTo(buttonClick(bot.fake, handle, botMessage(bot.fake, results))), handle).toMatchObject({ content: STALE, flags: 64 });
      expect(await answerTo(menuChoice(bot.fake, 'menu', [handle], botMessage(bot.fake, results))), handle).toMatchObject({ content: STALE, flags: 64 });
    }
  });
});

describe('custom ids and values that are no text', () => {
  const notText: unknown[] = [42, 0, true, null, {}, [], ['paper:page:x:1'], { toString: 'paper:open:1' }];

  it('a button whose custom_id is no text is a button that does nothing here', async () => {
    for (const customId of notText) {
      expect(await answerTo(buttonClick(bot.fake, customId as any, botMessage(bot.fake, results))), JSON.stringify(customId)).toMatchObject({ content: STALE, flags: 64 });
    }
  });

  it('a menu choice whose values are no text, or no list, is answered the same', async () => {
    for (const values of [...notText.map((v) => [v]), [], 'paper:open:1', 42, { 0: 'paper:open:1' }]) {
      expect(await answerTo(menuChoice(bot.fake, 'menu', values as any, botMessage(bot.fake, results))), JSON.stringify(values)).toMatchObject({ content: STALE, flags: 64 });
    }
  });

  it('any custom id at all gets an answer and never an apology (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.constantFrom(...PROTOTYPE_NAMES.flatMap(hostileHandles)), fc.string()), async (customId) => {
        const message = await answerTo(buttonClick(bot.fake, customId as any, botMessage(bot.fake, results)));
        expect(String(message.content)).not.toMatch(/went wrong/);
      }),
      { numRuns: 60 },
    );
    expect(outcomes.filter((e) => e.outcome === 'error')).toEqual([]);
  });
});
