/**
 * /paper like:<text>: related work for a pasted text, paged as a search is (the text saved with
 * the page state, so Prev/Next redo related work after a restart), and the form that takes the
 * text where a platform has dialogs.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paperCommand } from '../../src/commands/paper.js';
import { z } from 'zod';
import { openApp } from '../../src/app.js';
import { CommandRegistry, createRegistry } from '../../src/commands/registry.js';
import { defineCommand, type CommandContext } from '../../src/commands/types.js';
import { loadConfig } from '../../src/config.js';
import { messages } from '../../src/i18n/index.js';
import type { Block, Button, Reply } from '../../src/reply.js';
import { MAX_RELATED_TEXT } from '../../src/search/meaning/related.js';
import { loadSearch, type SearchState } from '../../src/search/state.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { silentLog } from '../helpers/corpus.js';

let app: TestApp;
let ctx: CommandContext;

beforeAll(async () => {
  app = await createTestApp();
  ctx = app.context('terminal', { id: 'u1' });
});
afterAll(() => app.dispose());

const papers = (reply: Reply) => reply.blocks.flatMap((b: Block) => (b.kind === 'paper' ? [b.paper] : []));
const buttons = (reply: Reply): Button[] => reply.buttons?.flat() ?? [];
const button = (reply: Reply, id: string) => buttons(reply).find((b) => b.id === id);
const notes = (reply: Reply) => reply.blocks.flatMap((b) => (b.kind === 'note' ? [b.text] : [])).join(' · ');
/** The state a results page saved, read back from the store as a button would. */
const stateOf = async (reply: Reply) => loadSearch(app.states, button(reply, 'next')!.action!.split(':')[2]!, new Date());

/** A description of DDPM, with a paragraph break. */
const DESCRIPTION = 'A class of latent variable models trained with a weighted variational bound.\n\nConnected to denoising score matching, it gives high quality image synthesis.';
/** A paragraph of a survey, close to a dozen of the fixture's papers: pages of them. */
const SURVEY =
  'Offline reinforcement learning learns policies from previously collected data with expectile regression. Graph attention lets nodes weigh their neighbours. Residual connections train very deep convolutional networks. Promptable segmentation masks transfer zero-shot. A generator and a discriminator play a minimax game. Masked language modeling pre-trains bidirectional representations.';

describe('/paper like:', () => {
  it('answers with the papers closest to the text, as result cards with the sentence nearest to it', async () => {
    const reply = await app.registry.runText(ctx, 'paper', `like: ${DESCRIPTION}`);
    expect(reply.blocks[0]).toEqual({ kind: 'heading', text: 'Related work for “A class of latent variable models trained with a weighted variational bound.…”' });
    const cards = papers(reply);
    expect(cards[0]!.title).toBe('Denoising Diffusion Probabilistic Models');
    expect(cards[0]!.snippet?.map((s) => s.text).join('')).toMatch(/variational bound/);
    expect(cards.map((c) => c.position)).toEqual(cards.map((_, i) => i + 1));
    expect(reply).toMatchObject({ shareable: true });
    expect(reply.ephemeral).toBeUndefined();
    // Related work is no search the site can run: its box for another text instead.
    expect(button(reply, 'another')).toEqual({ id: 'another', label: 'Paste a text…', form: 'paper' });
    expect(button(reply, 'all')).toBeUndefined();
  });

  it('takes the text as Discord gives it (an option of its own) and quoted', async () => {
    const typed = await app.registry.runText(ctx, 'paper', `like: ${DESCRIPTION}`);
    for (const reply of [await app.registry.run(ctx, 'paper', { like: DESCRIPTION }), await app.registry.runText(ctx, 'paper', `LIKE:"${DESCRIPTION}"`)]) {
      expect(papers(reply).map((p) => p.id)).toEqual(papers(typed).map((p) => p.id));
    }
  });

  it('pages as related work, from the text saved with the state, in another process too', async () => {
    const first = await app.registry.runText(ctx, 'paper', `like: ${SURVEY}`);
    expect(await stateOf(first)).toEqual({ query: '', like: SURVEY, locale: 'en' } satisfies SearchState);
    const next = button(first, 'next')!;
    expect(next.action!.length).toBeLessThanOrEqual(100);
    const second = await app.registry.act(ctx, next.action!);
    expect(second.blocks[0]).toEqual(first.blocks[0]);
    expect(papers(second)[0]!.position).toBe(6);

    // A restart: another app on the same DATA_DIR answers the same button with the same page.
    const later = await openApp(loadConfig({ LOOKUP_UPSTREAM: 'off', DATA_DIR: app.dataDir }), silentLog);
    try {
      const again = await later.registry.act(later.context('terminal', { id: 'u1' }), next.action!);
      expect(papers(again).map((p) => p.id)).toEqual(papers(second).map((p) => p.id));
    } finally {
      await later.close();
    }
    const back = await app.registry.act(ctx, button(second, 'prev')!.action!);
    expect(papers(back).map((p) => p.id)).toEqual(papers(first).map((p) => p.id));
  });

  it('reads a text too long for the search up to where it stops, saying so on every page, and saves no more of it', async () => {
    const long = `${SURVEY} `.repeat(Math.ceil((MAX_RELATED_TEXT * 1.5) / SURVEY.length));
    const first = await app.registry.run(ctx, 'paper', { like: long });
    expect(notes(first)).toContain('Only the first 10,000 characters of the query were read.');
    expect((await stateOf(first))!.like!.length).toBe(MAX_RELATED_TEXT + 1);
    const second = await app.registry.act(ctx, button(first, 'next')!.action!);
    expect(notes(second)).toContain('Only the first 10,000 characters of the query were read.');
    // A text the search reads whole is saved whole, and says nothing of it.
    const read = long.slice(0, MAX_RELATED_TEXT).trim();
    const whole = await app.registry.run(ctx, 'paper', { like: read });
    expect(notes(whole)).not.toContain('Only the first');
    expect((await stateOf(whole))!.like).toBe(read);
  });

  it('reads Chinese as English first', async () => {
    const reply = await app.registry.runText(ctx, 'paper', 'like: 我们用加权变分下界训练隐变量模型，与去噪分数匹配相联系，实现高质量的图像合成。');
    expect(papers(reply)[0]!.title).toBe('Denoising Diffusion Probabilistic Models');
    expect(notes(reply)).toMatch(/Read as/);
  });

  it('answers a text with nothing to read with a one-line hint, privately', async () => {
    for (const text of ['like:', 'like:   ', 'like: !!! ??? … —— ***', 'like: ""']) {
      const reply = await app.registry.runText(ctx, 'paper', text);
      expect(reply, text).toEqual({
        locale: 'en',
        fallback: 'Paste the text to find related work for after like: an abstract or a paragraph, in English or Chinese.',
        blocks: [{ kind: 'text', text: 'Paste the text to find related work for after like: an abstract or a paragraph, in English or Chinese.' }],
        ephemeral: true,
      });
    }
    expect((await app.registry.run(ctx, 'paper', {})).fallback).toMatch(/^Type what to look for/);
  });

  it('says privately when no paper is close, echoing the start of the text on one line', async () => {
    const reply = await app.registry.runText(ctx, 'paper', 'like: zzyzx\nqwxvb  plorf');
    expect(reply).toMatchObject({ ephemeral: true, fallback: 'No papers in the library are close to “zzyzx qwxvb plorf”. Paste a longer passage, or search by keywords with /paper <words>.' });
  });

  it('refuses a query and a text together, saying which does what', async () => {
    const reply = await app.registry.run(ctx, 'paper', { query: 'diffusion', like: DESCRIPTION });
    expect(reply).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/^Give a query or like:<text>, not both/) });
  });

  it('heads the results in the asker’s language', async () => {
    const zh = app.context('terminal', { id: 'u2' }, { locale: 'zh-CN' });
    const reply = await app.registry.runText(zh, 'paper', `like: ${DESCRIPTION}`);
    expect(reply.blocks[0]).toMatchObject({ kind: 'heading', text: expect.stringMatching(/^与“A class of latent variable models.*”相关的论文$/) });
    expect(button(reply, 'another')!.label).toBe('粘贴文本…');
  });
});

describe('/paper typed as text', () => {
  it.each([
    ['like: a text', { like: 'a text' }],
    ['  LIKE:a text\nover lines', { like: 'a text\nover lines' }],
    ['like: "quoted text"  ', { like: 'quoted text' }],
    ['like: "a quote" in the middle', { like: '"a quote" in the middle' }],
    ['like:', { like: '' }],
    ['diffusion like: x', { query: 'diffusion like: x' }],
    ['likes: x', { query: 'likes: x' }],
    ['author:"Y. Bengio"', { query: 'author:"Y. Bengio"' }],
  ])('reads %j', (text, expected) => {
    expect(paperCommand.fromText(text)).toEqual(expected);
  });

  it('reads any text as a query or a text, quickly (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('like:', '"', ' ', '\n', 'x', '：', '\u0000') }), (text) => {
        const read = paperCommand.fromText(text) as { query?: string; like?: string };
        expect(typeof (read.like ?? read.query)).toBe('string');
      }),
      { numRuns: 300 },
    );
    const started = performance.now();
    for (const text of [`like:"${' "'.repeat(30_000)}x`, `${' '.repeat(60_000)}like`, `like: ${'"\n'.repeat(30_000)}`]) paperCommand.fromText(text);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('the form of /paper', () => {
  it('is opened by the bare command and by its handle, in the reader’s language', () => {
    expect(app.registry.formOf('paper', messages('en'))).toEqual({
      handle: 'paper:form',
      title: 'Related work for a text',
      label: 'Abstract or paragraph',
      placeholder: 'Paste an abstract or a paragraph, in English or Chinese: the closest papers come back',
    });
    expect(app.registry.formAt('paper:form', messages('zh-CN'))?.title).toBe('查找相关工作');
    for (const handle of ['paper:page:abc:1', 'paper:form:extra', 'topic:form', 'nope:form', 'constructor:form', '', 42, null, undefined, 'x'.repeat(500)]) {
      expect(app.registry.formAt(handle, messages('en')), String(handle)).toBeUndefined();
    }
    expect(app.registry.formOf('topic', messages('en'))).toBeUndefined();
  });

  it('runs the command with the text submitted; a handle that names no form is a stale button', async () => {
    const submitted = await app.registry.submit(ctx, 'paper:form', DESCRIPTION);
    expect(papers(submitted)[0]!.title).toBe('Denoising Diffusion Probabilistic Models');
    expect((await app.registry.submit(ctx, 'paper:form', 42)).fallback).toMatch(/^Paste the text to find related work/);
    for (const handle of ['topic:form', 'paper:page', 'paper:form:1', 7]) {
      expect((await app.registry.submit(ctx, handle, DESCRIPTION)).fallback, String(handle)).toBe('That button no longer does anything here. Run the command again.');
    }
  });

  it('has a button in /help', async () => {
    const help = await app.registry.runText(ctx, 'help', '');
    expect(buttons(help)).toEqual([{ label: 'Paste a text…', form: 'paper' }]);
    expect(help.blocks.some((b) => b.kind === 'list' && b.items.some((i) => i.text === 'like: <an abstract or a paragraph>'))).toBe(true);
  });

  it('is refused where its option is missing, or where a command claims its verb', () => {
    const base = { name: 'x', options: z.object({ text: z.string() }), fromText: (text: string) => ({ text }), run: () => ({ fallback: '', blocks: [] }) };
    expect(() => new CommandRegistry([defineCommand({ ...base, form: { option: 'other' } })])).toThrow(/fills "other", which is none of its options/);
    expect(() => new CommandRegistry([defineCommand({ ...base, actions: { form: () => ({ fallback: '', blocks: [] }) } })])).toThrow(/has an action named "form"/);
    expect(createRegistry().get('paper')?.form).toEqual({ option: 'like' });
  });
});
