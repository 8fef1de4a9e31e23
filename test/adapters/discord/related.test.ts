/**
 * Related work on Discord, through discord.js and the loopback Discord: `/paper` typed bare, and
 * the "Paste a text…" button of related results and of /help, open a modal with a paragraph text
 * box (callback type 9); the submitted modal (interaction type 5) answers with related work,
 * which pages as any results do. Hostile submissions (another custom_id, no text box, a text of
 * mentions) answer with a line, never a ping or an error.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_INPUT_MAX } from '../../../adapters/discord/limits.js';
import type { CommandRegistry } from '../../../src/commands/registry.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { button, expectWellBehaved, messageOf, startBot, type Bot } from './harness.js';
import { botMessage, buttonClick, modalSubmit, slashCommand } from './payloads.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

let app: TestApp;
let bot: Bot;

beforeAll(async () => {
  app = await createTestApp();
  bot = await startBot(app);
});
afterAll(async () => {
  await bot?.stop();
  await app?.dispose();
});
afterEach(() => expectWellBehaved(bot.fake));

const DESCRIPTION = 'A class of latent variable models trained with a weighted variational bound.\n\nConnected to denoising score matching, it gives high quality image synthesis.';
const SURVEY =
  'Offline reinforcement learning learns policies from previously collected data with expectile regression. Graph attention lets nodes weigh their neighbours. Residual connections train very deep convolutional networks. Promptable segmentation masks transfer zero-shot. A generator and a discriminator play a minimax game. Masked language modeling pre-trains bidirectional representations.';

/** The modal Discord shows for /paper's form, in English. */
const MODAL = {
  type: 9,
  data: {
    custom_id: 'paper:form',
    title: 'Related work for a text',
    components: [
      {
        type: 18,
        label: 'Abstract or paragraph',
        component: { type: 4, custom_id: 'text', style: 2, required: true, max_length: 4000, placeholder: 'Paste an abstract or a paragraph, in English or Chinese: the closest papers come back' },
      },
    ],
  },
};

describe('related work on Discord', () => {
  it('/paper alone opens the modal, in the member’s language', async () => {
    expect((await bot.fake.interact(slashCommand(bot.fake, 'paper'))).body).toEqual(MODAL);
    const zh = await bot.fake.interact(slashCommand(bot.fake, 'paper', {}, { locale: 'zh-CN' }));
    expect(zh.body.data).toMatchObject({ custom_id: 'paper:form', title: '查找相关工作', components: [{ label: '摘要或段落' }] });
  });

  it('the submitted modal answers with related work that pages, and a button for another text', async () => {
    const found = (await app.library.related(SURVEY, { limit: 50 })).hits.length;
    const pages = Math.ceil(found / 5);
    const answered = await bot.fake.interact(modalSubmit(bot.fake, 'paper:form', SURVEY));
    expect(answered.body.type).toBe(4);
    const first = messageOf(answered);
    expect(first.flags).toBeUndefined();
    expect(first.content).toMatch(new RegExp(`^\\*\\*Related work for “Offline reinforcement learning learns policies from previously collected data…”\\*\\*\\n-# ${found} papers · page 1 of ${pages}$`));
    expect(button(first, /Paste a text/).custom_id).toBe('paper:form');
    const next = await bot.fake.interact(buttonClick(bot.fake, button(first, /Next/).custom_id, botMessage(bot.fake, first)));
    expect(next.body.type).toBe(7);
    expect(messageOf(next).content).toMatch(new RegExp(`^\\*\\*Related work for “Offline.*\\n-# ${found} papers · page 2 of ${pages}$`));
    expect(messageOf(next).embeds[0].title).toMatch(/^6\. /);
    // Another text, from the results: the modal again (the results stay as they are).
    expect((await bot.fake.interact(buttonClick(bot.fake, 'paper:form', botMessage(bot.fake, first)))).body).toEqual(MODAL);
  });

  it('the slash option takes the text too, and finds what the modal finds', async () => {
    const byOption = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'paper', { like: DESCRIPTION })));
    const byModal = messageOf(await bot.fake.interact(modalSubmit(bot.fake, 'paper:form', DESCRIPTION)));
    expect(byOption.embeds[0].title).toBe('1. Denoising Diffusion Probabilistic Models');
    expect(byModal.embeds.map((e: any) => e.title)).toEqual(byOption.embeds.map((e: any) => e.title));
    const both = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'paper', { query: 'diffusion', like: DESCRIPTION })));
    expect(both).toMatchObject({ flags: 64, content: expect.stringMatching(/^Give a query or like:\\<text\\>, not both/) });
  });

  it('/help has the button that opens the modal', async () => {
    const help = messageOf(await bot.fake.interact(slashCommand(bot.fake, 'help')));
    expect(button(help, /Paste a text/).custom_id).toBe('paper:form');
    expect((await bot.fake.interact(buttonClick(bot.fake, 'paper:form', botMessage(bot.fake, help)))).body).toEqual(MODAL);
  });

  it('a slow answer to the modal is deferred, then edited in (or, private, followed up)', async () => {
    // The real registry, 80 ms late: past the (shortened) defer threshold below.
    const registry = Object.create(app.registry) as CommandRegistry;
    registry.submit = async (...args) => (await sleep(80), app.registry.submit(...args));
    const slow = await startBot({ ...app, registry }, { deferAfterMs: 10 });
    try {
      const payload = modalSubmit(slow.fake, 'paper:form', DESCRIPTION);
      expect((await slow.fake.interact(payload)).body).toEqual({ type: 5, data: { flags: 0 } });
      const edit = await slow.fake.waitFor((r) => r.token === payload.token && r.kind === 'edit');
      expect(edit.body.embeds[0].title).toBe('1. Denoising Diffusion Probabilistic Models');

      const stale = modalSubmit(slow.fake, 'nope:form', DESCRIPTION);
      expect((await slow.fake.interact(stale)).body.type).toBe(5);
      const followUp = await slow.fake.waitFor((r) => r.token === stale.token && r.kind === 'followup');
      expect(followUp.body).toMatchObject({ flags: 64, content: 'That button no longer does anything here. Run the command again.' });
      expectWellBehaved(slow.fake);
    } finally {
      await slow.stop();
    }
  });

  it('answers hostile submissions with a private line, and pings no one with the text', async () => {
    const said = async (payload: any) => messageOf(await bot.fake.interact(payload));
    const stale = 'That button no longer does anything here. Run the command again.';
    const hint = 'Paste the text to find related work for after like: an abstract or a paragraph, in English or Chinese.';
    for (const customId of ['nope:form', 'paper:page:k3f9x2abcd:1', 'paper:form:1', 'x'.repeat(100)]) {
      expect(await said(modalSubmit(bot.fake, customId, DESCRIPTION)), customId).toMatchObject({ flags: 64, content: stale });
    }
    const components = [
      [],
      [{ type: 18, id: 1, component: { type: 3, id: 2, custom_id: 'text', values: ['a'] } }],
      [{ type: 1, id: 1, components: [{ type: 4, id: 2, custom_id: 'other', value: DESCRIPTION }] }],
      [{ type: 18, id: 1, component: { type: 4, id: 2, custom_id: 'text', value: ' \n !!! ' } }],
    ];
    for (const c of components) expect(await said(modalSubmit(bot.fake, 'paper:form', '', { components: c })), JSON.stringify(c)).toMatchObject({ flags: 64, content: hint });
    // The legacy shape (a text input in an action row) is read as well.
    const legacy = await said(modalSubmit(bot.fake, 'paper:form', '', { components: [{ type: 1, id: 1, components: [{ type: 4, id: 2, custom_id: 'text', value: DESCRIPTION }] }] }));
    expect(legacy.embeds[0].title).toBe('1. Denoising Diffusion Probabilistic Models');

    // Shapes discord.js cannot read at all: the bot stays up and answers the next one.
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      for (const c of [[null], 'x', [{ type: 18 }], [{ type: 1, components: null }], [{ type: 18, component: null }], { length: 1 }]) {
        bot.fake.interactionCreate(modalSubmit(bot.fake, 'paper:form', '', { components: c }));
      }
      expect((await said(modalSubmit(bot.fake, 'paper:form', DESCRIPTION))).embeds[0].title).toBe('1. Denoising Diffusion Probabilistic Models');
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }

    const hostile = `@everyone @here <@123> <@&456> <#789> **bold** [link](https://evil.example) ${DESCRIPTION} `.repeat(40).slice(0, TEXT_INPUT_MAX);
    const answer = await said(modalSubmit(bot.fake, 'paper:form', hostile));
    expect(answer.content).toMatch(/^\*\*Related work for “@\u200beveryone @\u200bhere \\<\u200b@123\\> /);
    expect(answer.content).not.toMatch(/(?<!\u200b)@everyone|<@123>|\[link\]\(/);
    expect(answer.allowed_mentions).toEqual({ parse: [] });
  });
});
