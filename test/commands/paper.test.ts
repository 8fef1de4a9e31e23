import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandContext } from '../../src/commands/types.js';
import type { Block, Reply } from '../../src/reply.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
let ctx: CommandContext;

beforeAll(async () => {
  app = await createTestApp();
  ctx = app.context('terminal', { id: 'u1' });
});
afterAll(() => app.dispose());

const papers = (reply: Reply) => reply.blocks.flatMap((b: Block) => (b.kind === 'paper' ? [b.paper] : []));
const buttonAction = (reply: Reply, label: RegExp) => reply.buttons?.flat().find((b) => label.test(b.label));

describe('/paper', () => {
  it('shows a page of result cards with authors, venue, year, topics, snippet and links', async () => {
    const reply = await app.registry.runText(ctx, 'paper', 'diffusion');
    const cards = papers(reply);
    expect(cards.length).toBe(3);
    expect(reply.blocks[0]).toEqual({ kind: 'heading', text: 'Papers for “diffusion”' });
    const ddpm = cards.find((c) => c.title === 'Denoising Diffusion Probabilistic Models')!;
    expect(ddpm).toMatchObject({ authors: ['Jonathan Ho', 'Ajay Jain', 'Pieter Abbeel'], venue: 'NeurIPS', year: 2020, url: 'https://arxiv.org/abs/2006.11239' });
    expect(ddpm.links.map((l) => l.label)).toEqual(['PDF', 'Code']);
    expect(ddpm.snippet?.some((s) => s.match && /diffusion/i.test(s.text))).toBe(true);
    expect(ddpm.topics.length).toBeGreaterThan(0);
    expect(reply.menu?.choices).toHaveLength(3);
    expect(reply.shareable).toBe(true);
  });

  it('pages with Next and Prev, whose state survives in SQLite', async () => {
    const first = await app.registry.runText(ctx, 'paper', 'learning');
    const next = buttonAction(first, /Next/)!;
    expect(buttonAction(first, /Prev/)!.disabled).toBe(true);
    expect(next.action!.length).toBeLessThanOrEqual(100);
    const second = await app.registry.act(ctx, next.action!);
    expect(papers(second)[0]!.position).toBe(6);
    expect(papers(second).map((p) => p.id)).not.toEqual(papers(first).map((p) => p.id));
    const back = await app.registry.act(ctx, buttonAction(second, /Prev/)!.action!);
    expect(papers(back).map((p) => p.id)).toEqual(papers(first).map((p) => p.id));
  });

  it('opens one paper with its abstract, links and similar papers, and goes back', async () => {
    const results = await app.registry.runText(ctx, 'paper', 'attention');
    const open = results.menu!.choices[0]!;
    const detail = await app.registry.act(ctx, open.action);
    const card = papers(detail)[0]!;
    expect(card.abstract).toBeTruthy();
    expect(detail.blocks.some((b) => b.kind === 'list' && b.heading === 'Similar papers')).toBe(true);
    expect(buttonAction(detail, /Back/)).toBeDefined();
  });

  it('opens exactly the paper an autocomplete choice names', async () => {
    const choices = app.registry.autocomplete(ctx, 'paper', 'query', 'attention is');
    expect(choices[0]!.name).toBe('Attention Is All You Need');
    const reply = await app.registry.run(ctx, 'paper', { query: choices[0]!.value });
    expect(papers(reply)[0]!.abstract).toMatch(/Transformer/);
  });

  it('keeps autocomplete choices within Discord limits', () => {
    for (const prefix of ['a', 'graph', 'x'.repeat(500), '"', '']) {
      const choices = app.registry.autocomplete(ctx, 'paper', 'query', prefix);
      expect(choices.length).toBeLessThanOrEqual(25);
      for (const c of choices) {
        expect(c.name.length).toBeLessThanOrEqual(100);
        expect(c.value.length).toBeLessThanOrEqual(100);
      }
    }
  });

  it('answers an empty query with a private hint, and no results with a private note', async () => {
    const empty = await app.registry.runText(ctx, 'paper', '   ');
    expect(empty).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/Type what to look for/) });
    const none = await app.registry.runText(ctx, 'paper', 'zzzzqqqq');
    expect(none).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/No papers found/) });
  });

  it('says a button has expired rather than failing', async () => {
    const reply = await app.registry.act(ctx, 'paper:page:nosuchstate:1');
    expect(reply).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/expired/) });
    const broken = await app.registry.act(ctx, 'nonsense');
    expect(broken.ephemeral).toBe(true);
  });

  it('turns an internal failure into an apology with a reference, logged', async () => {
    const failing = { ...ctx, library: { ...ctx.library, search: () => { throw new Error('disk on fire'); } } } as unknown as CommandContext;
    const reply = await app.registry.runText(failing, 'paper', 'x');
    expect(reply.ephemeral).toBe(true);
    expect(reply.fallback).toMatch(/Sorry, something went wrong on our side.*reference [0-9a-f]{8}/);
  });
});

describe('/topic', () => {
  it('lists the taxonomy by area with no name', async () => {
    const reply = await app.registry.runText(ctx, 'topic', '');
    expect(reply.blocks.filter((b) => b.kind === 'list').length).toBe(app.taxonomy.areas.length);
  });

  it('resolves names forgivingly and shows the topic’s papers newest first', async () => {
    const reply = await app.registry.runText(ctx, 'topic', 'llm');
    expect(reply.blocks[0]).toEqual({ kind: 'heading', text: 'Deep Learning · Large Language Models' });
    const years = papers(reply).map((p) => p.year ?? 0);
    expect(years.length).toBeGreaterThan(0);
    expect([...years].sort((a, b) => b - a)).toEqual(years);
  });

  it('explains an unknown topic privately', async () => {
    const reply = await app.registry.runText(ctx, 'topic', 'qqqqzzzz');
    expect(reply).toMatchObject({ ephemeral: true, fallback: expect.stringMatching(/No topic matches/) });
  });

  it('autocompletes names from the taxonomy', () => {
    const choices = app.registry.autocomplete(ctx, 'topic', 'name', 'learning th');
    expect(choices.map((c) => c.name)).toContain('Theory · Learning Theory');
  });
});

describe('/help', () => {
  it('lists every command and the search syntax', async () => {
    const reply = await app.registry.runText(ctx, 'help', '');
    const text = JSON.stringify(reply.blocks);
    for (const name of ['/paper', '/topic', '/help', 'author:', 'year:', 'sort:new']) expect(text).toContain(name);
  });
});

describe('a store that cannot be reached', () => {
  it('answers privately that the database is away and nothing changed, not with an apology', async () => {
    const { StoreUnavailableError } = await import('../../src/store/errors.js');
    const away = new StoreUnavailableError('could not reach PostgreSQL at db:5432 (ECONNREFUSED)');
    const unreachable = app.context('terminal', { id: 'u1' }, { states: { ...ctx.states, put: () => Promise.reject(away) } });
    const reply = await app.registry.runText(unreachable, 'paper', 'diffusion');
    expect(reply.ephemeral).toBe(true);
    expect(reply.fallback).toBe('The library’s database cannot be reached right now, so this could not be answered. Nothing was changed: try again in a minute.');
  });
});

describe('statuses on cards', () => {
  it('shows a paperlists status in the one vocabulary, in the reader’s language, and a venue’s own word as stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paperscout-status-'));
    const listing = join(dir, 'iclr2018.json');
    writeFileSync(
      listing,
      JSON.stringify([
        { id: 'B1G6uM0WG', title: 'Tactical Decision Making for Lane Changing', author: 'Mustafa Mukadam', status: 'Withdraw', site: 'https://openreview.net/forum?id=B1G6uM0WG' },
        { id: 'Hk2aImxAb', title: 'Lane Keeping by Imitation', author: 'Ann Lee', status: 'Best Paper Honorable Mention' },
      ]),
    );
    const own = await createTestApp({ paths: [listing], demoWhenEmpty: false });
    try {
      const statuses = async (locale: string) =>
        papers(await own.registry.runText(own.context('terminal', { id: 'u1' }, { locale }), 'paper', 'lane'))
          .map((c) => c.status)
          .sort();
      expect(await statuses('en')).toEqual(['Best Paper Honorable Mention', 'Withdrawn']);
      expect(await statuses('zh-CN')).toEqual(['Best Paper Honorable Mention', '已撤稿']);
      expect(await own.store.statusCounts()).toEqual([
        ['Best Paper Honorable Mention', 1],
        ['Withdrawn', 1],
      ]);
    } finally {
      await own.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
