import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discordChoices } from '../../../adapters/discord/interactions.js';
import { escapeMarkdown, markdown, safeUrl, type Inline } from '../../../adapters/discord/markdown.js';
import { embedLength, renderMessage, shortAuthors, waterLevel, type DiscordMessage } from '../../../adapters/discord/render.js';
import { messageReply, type PaperCard, type Reply } from '../../../src/reply.js';
import { choicesProblems, messageProblems } from './discordRules.js';

const RESULTS: Reply = {
  fallback: 'Papers for “diffusion”: 1. Denoising Diffusion Probabilistic Models; 2. Scalable Diffusion Models with Transformers',
  blocks: [
    { kind: 'heading', text: 'Papers for “diffusion”' },
    { kind: 'note', text: '2 papers · page 1 of 1' },
    {
      kind: 'paper',
      paper: {
        id: 'arxiv:2006.11239',
        doc: 4,
        title: 'Denoising Diffusion Probabilistic Models',
        url: 'https://arxiv.org/abs/2006.11239',
        authors: ['Jonathan Ho', 'Ajay Jain', 'Pieter Abbeel', 'X Y'],
        venue: 'NeurIPS',
        year: 2020,
        status: 'Poster',
        topics: ['Deep Learning · Generative Models and Autoencoders'],
        snippet: [{ text: 'High quality image synthesis with ' }, { text: 'diffusion', match: true }, { text: ' probabilistic models.' }],
        links: [
          { kind: 'pdf', label: 'PDF', url: 'https://arxiv.org/pdf/2006.11239' },
          { kind: 'code', label: 'Code', url: 'https://github.com/hojonathanho/diffusion' },
          { kind: 'openreview', label: 'OpenReview', url: 'https://openreview.net/forum?id=x' },
        ],
        position: 1,
      },
    },
    { kind: 'paper', paper: { id: 'p2', doc: 5, title: 'Scalable Diffusion Models with Transformers', authors: [], venue: '', year: null, status: '', topics: [], links: [], position: 2 } },
  ],
  buttons: [
    [
      { label: '◀ Prev', action: 'paper:page:k3f9x2abcd:-1', disabled: true },
      { label: 'Next ▶', action: 'paper:page:k3f9x2abcd:1' },
    ],
  ],
  menu: {
    placeholder: 'Open a paper…',
    choices: [
      { label: '1. Denoising Diffusion Probabilistic Models', action: 'paper:open:4:k3f9x2abcd:0', description: 'Jonathan Ho · NeurIPS · 2020' },
      { label: '2. Scalable Diffusion Models with Transformers', action: 'paper:open:5:k3f9x2abcd:0' },
    ],
  },
  shareable: true,
};

const ATTENTION: PaperCard = {
  id: 'arxiv:1706.03762',
  doc: 0,
  title: 'Attention Is All You Need',
  url: 'https://arxiv.org/abs/1706.03762',
  authors: ['Ashish Vaswani', 'Noam Shazeer', 'Niki Parmar', 'Jakob Uszkoreit', 'Llion Jones', 'Aidan N. Gomez', 'Lukasz Kaiser', 'Illia Polosukhin'],
  venue: 'NeurIPS',
  year: 2017,
  status: 'Oral',
  topics: ['Deep Learning · Attention Mechanisms and Transformers', 'Natural Language Processing · Machine Translation'],
  abstract: 'We propose the Transformer, built only on attention.\n\nIt is *fast*.',
  links: [
    { kind: 'pdf', label: 'PDF', url: 'https://arxiv.org/pdf/1706.03762' },
    { kind: 'code', label: 'Code', url: 'https://github.com/tensorflow/tensor2tensor' },
  ],
};

const DETAIL: Reply = {
  fallback: 'Attention Is All You Need (NeurIPS 2017)',
  blocks: [
    { kind: 'paper', paper: ATTENTION },
    {
      kind: 'list',
      heading: 'Similar papers',
      items: [
        { text: 'BERT: Pre-training of Deep Bidirectional Transformers', detail: 'NAACL 2019', action: 'paper:open:1', url: 'https://arxiv.org/abs/1810.04805' },
        { text: 'Graph Attention Networks', detail: 'ICLR 2018', action: 'paper:open:25' },
      ],
    },
  ],
  buttons: [[{ label: '◀ Back to results', action: 'paper:page:k3f9x2abcd:0' }]],
  menu: { placeholder: 'Open a similar paper…', choices: [{ label: 'BERT: Pre-training of Deep Bidirectional Transformers', action: 'paper:open:1', description: 'Jacob Devlin · NAACL · 2019' }] },
  shareable: true,
};

const HOSTILE = '@everyone <b>Markdown</b> **bold** `code` <@123> <!channel> [link](http://evil.example)';
const SITE = 'https://papers.lab.example';

/** An opened paper with its count, its references and citing papers in the library, as `showPaper` makes it. */
const CITED: Reply = {
  fallback: 'Attention Is All You Need (NeurIPS 2017)',
  blocks: [
    { kind: 'paper', paper: { ...ATTENTION, url: `${SITE}/paper/arxiv%3A1706.03762`, authors: ['Ashish Vaswani', 'Noam Shazeer'], topics: [], links: [], abstract: 'We propose the Transformer.', citedBy: { count: 123456, text: 'cited by 123,456' } } },
    {
      kind: 'list',
      heading: 'References in the library (6)',
      items: [
        { text: 'Deep Residual Learning for Image Recognition', detail: 'CVPR 2016 · cited by 201k', action: 'paper:open:11', url: `${SITE}/paper/arxiv%3A1512.03385` },
        { text: 'All 6 references in the library ↗', url: `${SITE}/paper/arxiv%3A1706.03762/references` },
      ],
    },
    { kind: 'list', heading: 'Cited by, in the library (1)', items: [{ text: HOSTILE, detail: 'HOSTILE 2024 · cited by 50k', action: 'paper:open:29' }] },
    { kind: 'list', heading: 'Similar papers', items: [{ text: 'Graph Attention Networks', detail: 'ICLR 2018', action: 'paper:open:26' }] },
  ],
  menu: {
    placeholder: 'Open a paper…',
    choices: [
      { label: 'Deep Residual Learning for Image Recognition', action: 'paper:open:11', description: 'Kaiming He · CVPR · 2016' },
      { label: HOSTILE, action: 'paper:open:29' },
      { label: 'Graph Attention Networks', action: 'paper:open:26' },
    ],
  },
  shareable: true,
};

describe('renderMessage', () => {
  it('renders a results page: heading and count as content, a card per paper, the menu, then Prev/Next', () => {
    expect(renderMessage(RESULTS)).toEqual({
      content: '**Papers for “diffusion”**\n-# 2 papers · page 1 of 1',
      embeds: [
        {
          title: '1. Denoising Diffusion Probabilistic Models',
          url: 'https://arxiv.org/abs/2006.11239',
          author: { name: 'Jonathan Ho, Ajay Jain, Pieter Abbeel et al.' },
          description:
            'NeurIPS · 2020 · Poster\nHigh quality image synthesis with **diffusion** probabilistic models.\n[PDF](https://arxiv.org/pdf/2006.11239) · [Code](https://github.com/hojonathanho/diffusion)',
          footer: { text: 'Deep Learning · Generative Models and Autoencoders' },
          color: 0x3b6ea5,
        },
        { title: '2. Scalable Diffusion Models with Transformers', color: 0x3b6ea5 },
      ],
      components: [
        {
          type: 1,
          components: [
            {
              type: 3,
              custom_id: 'menu',
              placeholder: 'Open a paper…',
              options: [
                { label: '1. Denoising Diffusion Probabilistic Models', value: 'paper:open:4:k3f9x2abcd:0', description: 'Jonathan Ho · NeurIPS · 2020' },
                { label: '2. Scalable Diffusion Models with Transformers', value: 'paper:open:5:k3f9x2abcd:0' },
              ],
            },
          ],
        },
        {
          type: 1,
          components: [
            { type: 2, style: 2, label: '◀ Prev', custom_id: 'paper:page:k3f9x2abcd:-1', disabled: true },
            { type: 2, style: 2, label: 'Next ▶', custom_id: 'paper:page:k3f9x2abcd:1' },
          ],
        },
      ],
      allowed_mentions: { parse: [] },
    } satisfies DiscordMessage);
  });

  it('renders a detail view: every author, the whole abstract, all links, similar papers, Back', () => {
    expect(renderMessage(DETAIL)).toEqual({
      embeds: [
        {
          title: 'Attention Is All You Need',
          url: 'https://arxiv.org/abs/1706.03762',
          author: { name: 'Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, Lukasz Kaiser, Illia Polosukhin' },
          description:
            'NeurIPS · 2017 · Oral\nWe propose the Transformer, built only on attention.\n\nIt is \\*fast\\*.\n[PDF](https://arxiv.org/pdf/1706.03762) · [Code](https://github.com/tensorflow/tensor2tensor)',
          footer: { text: 'Deep Learning · Attention Mechanisms and Transformers | Natural Language Processing · Machine Translation' },
          color: 0x3b6ea5,
        },
        {
          title: 'Similar papers',
          description: '• [BERT: Pre-training of Deep Bidirectional Transformers](https://arxiv.org/abs/1810.04805) — NAACL 2019\n• Graph Attention Networks — ICLR 2018',
          color: 0x3b6ea5,
        },
      ],
      components: [
        {
          type: 1,
          components: [
            {
              type: 3,
              custom_id: 'menu',
              placeholder: 'Open a similar paper…',
              options: [{ label: 'BERT: Pre-training of Deep Bidirectional Transformers', value: 'paper:open:1', description: 'Jacob Devlin · NAACL · 2019' }],
            },
          ],
        },
        { type: 1, components: [{ type: 2, style: 2, label: '◀ Back to results', custom_id: 'paper:page:k3f9x2abcd:0' }] },
      ],
      allowed_mentions: { parse: [] },
    } satisfies DiscordMessage);
  });

  it('renders a count with venue, year and status', () => {
    const card = { ...RESULTS.blocks[2], paper: { ...(RESULTS.blocks[2] as { paper: PaperCard }).paper, citedBy: { count: 12345, text: 'cited by 12k' } } } as const;
    expect(renderMessage({ ...RESULTS, blocks: [card] }).embeds[0]!.description).toMatch(/^NeurIPS · 2020 · Poster · cited by 12k\n/);
  });

  it('renders an opened paper’s count, and its references and citing papers as fields beside the similar papers', () => {
    expect(renderMessage(CITED)).toEqual({
      embeds: [
        {
          title: 'Attention Is All You Need',
          url: `${SITE}/paper/arxiv%3A1706.03762`,
          author: { name: 'Ashish Vaswani, Noam Shazeer' },
          description: 'NeurIPS · 2017 · Oral · cited by 123,456\nWe propose the Transformer.',
          color: 0x3b6ea5,
        },
        {
          fields: [
            {
              name: 'References in the library (6)',
              value:
                `• [Deep Residual Learning for Image Recognition](${SITE}/paper/arxiv%3A1512.03385) — CVPR 2016 · cited by 201k\n` +
                `• [All 6 references in the library ↗](${SITE}/paper/arxiv%3A1706.03762/references)`,
            },
            {
              name: 'Cited by, in the library (1)',
              value: '• @\u200beveryone \\<b\\>Markdown\\<\u200b/b\\> \\*\\*bold\\*\\* \\`code\\` \\<\u200b@123\\> \\<\u200b!channel\\> \\[link\\](http://evil.example) — HOSTILE 2024 · cited by 50k',
            },
            { name: 'Similar papers', value: '• Graph Attention Networks — ICLR 2018' },
          ],
          color: 0x3b6ea5,
        },
      ],
      components: [
        {
          type: 1,
          components: [
            {
              type: 3,
              custom_id: 'menu',
              placeholder: 'Open a paper…',
              options: [
                { label: 'Deep Residual Learning for Image Recognition', value: 'paper:open:11', description: 'Kaiming He · CVPR · 2016' },
                { label: '@\u200beveryone <b>Markdown<\u200b/b> **bold** `code` <\u200b@123> <\u200b!channel> [link](http://evil.example)', value: 'paper:open:29' },
                { label: 'Graph Attention Networks', value: 'paper:open:26' },
              ],
            },
          ],
        },
      ],
      allowed_mentions: { parse: [] },
    } satisfies DiscordMessage);
  });

  it('keeps an opened paper with a long abstract and fifteen long listed titles within the embed limits, the lists’ last fields giving way before the abstract’s opening', () => {
    const long = (n: number) => `${HOSTILE} `.repeat(n);
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ text: long(12), detail: `VENUE 2024 · cited by ${i}k`, action: `paper:open:${i}`, url: `${SITE}/paper/${'x'.repeat(300)}${i}` }));
    const reply: Reply = {
      ...CITED,
      blocks: [
        { kind: 'paper', paper: { ...ATTENTION, abstract: long(60), citedBy: { count: 1, text: 'cited by 1' } } },
        { kind: 'list', heading: 'References in the library (600)', items: [...items(5), { text: 'All 600 references in the library ↗', url: `${SITE}/paper/x/references` }] },
        { kind: 'list', heading: 'Cited by, in the library (9000)', items: items(5) },
        { kind: 'list', heading: 'Similar papers', items: items(5) },
      ],
    };
    const message = renderMessage(reply);
    expect(messageProblems(message)).toEqual([]);
    expect(message.embeds.reduce((n, e) => n + embedLength(e), 0)).toBeLessThanOrEqual(6000);
    expect(message.embeds[0]!.description).toMatch(/^NeurIPS · 2017 · Oral · cited by 1\n/);
    expect(message.embeds[0]!.description!.length).toBeGreaterThanOrEqual(1000);
    expect(message.embeds[1]!.fields![0]!.name).toBe('References in the library (600)');
    expect(message.embeds[1]!.fields!.map((f) => f.name)).not.toContain('Similar papers');
    for (const shown of shownText(message)) expect(shown).not.toMatch(/@(everyone|here)|<[@#!]/i);
  });

  it('renders an error as private content only', () => {
    expect(renderMessage(messageReply('Type what to look for: a title, an author or some keywords.', { ephemeral: true }))).toEqual({
      content: 'Type what to look for: a title, an author or some keywords.',
      embeds: [],
      components: [],
      allowed_mentions: { parse: [] },
      flags: 64,
    });
  });

  it('puts several lists in one embed as fields, side by side when they are bare names', () => {
    const reply: Reply = {
      fallback: 'Topics: Theory, Robotics',
      blocks: [
        { kind: 'heading', text: 'Topics' },
        { kind: 'list', heading: 'Theory', items: [{ text: 'Learning Theory' }, { text: 'Optimization Theory' }] },
        { kind: 'list', heading: 'Robotics', items: [{ text: 'Manipulation' }] },
        { kind: 'note', text: 'Open one with /topic <name>, e.g. /topic llm.' },
      ],
      ephemeral: true,
    };
    expect(renderMessage(reply)).toEqual({
      content: '**Topics**\n-# Open one with /topic \\<name\\>, e.g. /topic llm.',
      embeds: [
        {
          fields: [
            { name: 'Theory', value: '• Learning Theory\n• Optimization Theory', inline: true },
            { name: 'Robotics', value: '• Manipulation', inline: true },
          ],
          color: 0x3b6ea5,
        },
      ],
      components: [],
      allowed_mentions: { parse: [] },
      flags: 64,
    });
  });

  it('escapes paper text and breaks mentions everywhere it shows', () => {
    const hostile = '@everyone <b>Markdown</b> **bold** `code` <@123> <#42> [link](http://evil.example)';
    const card: PaperCard = { ...ATTENTION, title: hostile, authors: ['@here', '<@&7>'], venue: '**V**', topics: ['@everyone'], abstract: `# ${hostile}\n> quote` };
    const message = renderMessage({
      fallback: hostile,
      blocks: [{ kind: 'heading', text: `Papers for “${hostile}”` }, { kind: 'paper', paper: card }],
      menu: { placeholder: '@everyone', choices: [{ label: hostile, action: 'paper:open:1', description: '<@123>' }] },
    });
    const embed = message.embeds[0]!;
    expect(embed.title).toBe('@\u200beveryone \\<b\\>Markdown\\<\u200b/b\\> \\*\\*bold\\*\\* \\`code\\` \\<\u200b@123\\> \\<\u200b#42\\> \\[link\\](http://evil.example)');
    expect(embed.author?.name).toBe('@\u200bhere, <\u200b@&7>');
    expect(embed.description).toMatch(/^\\\*\\\*V\\\*\\\* · 2017 · Oral\n\\# @\u200beveryone/);
    expect(embed.description).toContain('\n\\> quote');
    expect(embed.footer?.text).toBe('@\u200beveryone');
    expect(message.content).toContain('Papers for “@\u200beveryone \\<b\\>');
    for (const shown of shownText(message)) expect(shown).not.toMatch(/@(everyone|here)|<[@#]/i);
  });

  it('leaves out links that are not well-formed http(s) URLs', () => {
    const card: PaperCard = { ...ATTENTION, url: 'javascript:alert(1)', links: [{ kind: 'pdf', label: 'PDF', url: 'https://x.example/a b' }, { kind: 'code', label: 'Code', url: `https://x.example/${'a'.repeat(600)}` }] };
    const embed = renderMessage({ fallback: '', blocks: [{ kind: 'paper', paper: card }] }).embeds[0]!;
    expect(embed.url).toBeUndefined();
    expect(embed.description).not.toContain('](');
    expect(safeUrl('https://example.com/a(b)')).toBe('https://example.com/a(b)');
    expect(markdown([{ link: { label: 'x', url: 'https://example.com/a(b)' } }], 100)).toBe('[x](https://example.com/a%28b%29)');
  });

  it('shortens long descriptions to equal shares so that all embeds fit 6000 characters', () => {
    const long = 'word '.repeat(20_000);
    const cards = [1, 2, 3, 4, 5].map((position): PaperCard => ({ ...ATTENTION, position, abstract: undefined, snippet: [{ text: long }] }));
    const message = renderMessage({ fallback: '', blocks: cards.map((paper) => ({ kind: 'paper' as const, paper })) });
    const total = message.embeds.reduce((n, e) => n + embedLength(e), 0);
    expect(total).toBeLessThanOrEqual(6000);
    expect(total).toBeGreaterThan(5900);
    for (const embed of message.embeds) {
      expect(embed.description).toMatch(/^NeurIPS · 2017 · Oral\nword word .*…\n\[PDF\]\(https:\/\/arxiv\.org\/pdf\/1706\.03762\) · \[Code\]/s);
    }
    expect(messageProblems(message)).toEqual([]);
  });

  it('keeps within 5 rows, 5 buttons a row, 25 options and unique custom ids', () => {
    const buttons = Array.from({ length: 30 }, (_, i) => ({ label: `b${i}`, action: `x:y:${i % 25}` }));
    const message = renderMessage({
      fallback: 'x',
      blocks: [],
      buttons: [buttons],
      menu: { placeholder: 'p', choices: Array.from({ length: 40 }, (_, i) => ({ label: `o${i}`, action: `x:o:${i}` })) },
    });
    expect(message.components).toHaveLength(5);
    expect(message.components[0]!.components[0]).toMatchObject({ type: 3, options: expect.any(Array) });
    expect((message.components[0]!.components[0] as { options: unknown[] }).options).toHaveLength(25);
    expect(message.components.slice(1).map((r) => r.components.length)).toEqual([5, 5, 5, 5]);
    expect(message.content).toBe('x');
    expect(messageProblems(message)).toEqual([]);
  });
});

describe('escapeMarkdown', () => {
  it.each([
    ['plain words', 'plain words'],
    ['**bold** _it_ __u__ ~~s~~ ||spoiler|| `code`', '\\*\\*bold\\*\\* \\_it\\_ \\_\\_u\\_\\_ \\~\\~s\\~\\~ \\|\\|spoiler\\|\\| \\`code\\`'],
    ['# heading', '\\# heading'],
    ['-# subtext', '\\-# subtext'],
    ['- item\n  + item', '\\- item\n  \\+ item'],
    ['> quote\n>>> block', '\\> quote\n\\>\\>\\> block'],
    ['1. one\n2) two', '1\\. one\n2\\) two'],
    ['state-of-the-art #1 in 2017. ok', 'state-of-the-art #1 in 2017. ok'],
    ['[label](https://evil.example)', '\\[label\\](https://evil.example)'],
    ['back\\slash', 'back\\\\slash'],
    ['@everyone @here @Everyone', '@\u200beveryone @\u200bhere @\u200bEveryone'],
    ['<@123> <@!1> <@&2> <#3> </cmd:4> <t:5:R> <:e:6> <a:e:7> <id:home>', '\\<\u200b@123\\> \\<\u200b@!1\\> \\<\u200b@&2\\> \\<\u200b#3\\> \\<\u200b/cmd:4\\> \\<\u200bt:5:R\\> \\<\u200b:e:6\\> \\<\u200ba:e:7\\> \\<\u200bid:home\\>'],
  ])('%j', (input, expected) => {
    expect(escapeMarkdown(input)).toBe(expected);
  });

  it('leaves no markdown character unescaped, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('*', '_', '~', '`', '|', '[', ']', '<', '>', '\\', '#', '-', '\n', ' ', 'a', '1', '.') }), (text) => {
        const escaped = escapeMarkdown(text);
        // Drop escape pairs; what is left must hold no markdown character.
        const bare = escaped.replace(/\\[\s\S]/g, '');
        expect(bare).not.toMatch(/[*_~`|[\]<>\\]/);
        expect(escaped).not.toMatch(/(^|\n)[ \t]*([#+-]|\d+[.)])/);
      }),
    );
  });
});

describe('markdown', () => {
  it('marks matches bold and cuts to the budget with an ellipsis, never inside an escape or a bold run', () => {
    expect(markdown(['We study ', { bold: 'diffusion' }, ' models'], 100)).toBe('We study **diffusion** models');
    expect(markdown(['We study ', { bold: 'diffusion models' }, ' today'], 24)).toBe('We study **diffusion…**');
    expect(markdown(['a*b*c*d'], 6)).toBe('a\\*b…');
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.record({ bold: fc.string() }), fc.record({ link: fc.record({ label: fc.string(), url: fc.webUrl() }) })), { maxLength: 8 }),
        fc.integer({ min: 0, max: 300 }),
        (pieces, max) => {
          const out = markdown(pieces as Inline[], max);
          expect(out.length).toBeLessThanOrEqual(max);
          // Link targets are not markdown; everything else must have balanced bold marks.
          const bare = out.replace(/\\[\s\S]/g, '').replace(/\]\(https?:\/\/[^)\s]*\)/g, ']');
          expect((bare.match(/\*\*/g) ?? []).length % 2).toBe(0);
          expect(out).not.toMatch(/(^|[^\\])\[\]\(/);
          expect(bare).not.toMatch(/\\$/);
        },
      ),
    );
  });
});

describe('helpers', () => {
  it('waterLevel gives the largest equal cap within the budget', () => {
    expect(waterLevel([100, 3000, 5000], 4100)).toBe(2000);
    expect(waterLevel([100, 200], 1000)).toBe(200);
    expect(waterLevel([500, 500], 0)).toBe(0);
  });

  it('shortAuthors keeps the first names and says et al.', () => {
    expect(shortAuthors(['A', 'B', 'C', 'D'], 3)).toBe('A, B, C et al.');
    expect(shortAuthors(['A', 'B'], 3)).toBe('A, B');
  });

  it('discordChoices keeps 25 choices, shortens names and drops values too long to send', () => {
    const choices = Array.from({ length: 40 }, (_, i) => ({ name: `@everyone ${'x'.repeat(i * 5)}`, value: i === 0 ? 'v'.repeat(101) : `doc:${i % 30}` }));
    const out = discordChoices(choices);
    expect(out).toHaveLength(25);
    expect(out[0]).toEqual({ name: '@\u200beveryone xxxxx', value: 'doc:1' });
    expect(choicesProblems({ choices: out })).toEqual([]);
    expect(new Set(out.map((c) => c.value)).size).toBe(25);
  });
});

describe('renderMessage with hostile data', () => {
  const text = fc.string({
    unit: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom('a', ' ', '*', '_', '`', '|', '~', '<', '>', '@', '#', '-', '[', ']', '(', ')', '\\', '\n', '1', '.', ':', '\u0000', '\u202e', '😀') },
      { weight: 1, arbitrary: fc.constantFrom('@everyone', '@here', '<@123>', '<#1>', '**', '||', '```', 'https://e.x/') },
    ),
    maxLength: 400,
  });
  const longText = fc.oneof(text, text.map((t) => t.repeat(30)));
  const url = fc.oneof(fc.webUrl(), text, fc.constant(`https://e.x/${'(a)'.repeat(300)}`));
  const card = fc.record({
    id: fc.string(),
    doc: fc.nat(),
    title: longText,
    url: fc.option(url, { nil: undefined }),
    authors: fc.array(text, { maxLength: 300 }),
    venue: text,
    year: fc.option(fc.integer({ min: 1900, max: 2100 }), { nil: null }),
    status: text,
    citedBy: fc.option(fc.record({ count: fc.nat(), text: longText }), { nil: undefined }),
    topics: fc.array(text, { maxLength: 10 }),
    snippet: fc.option(fc.array(fc.record({ text: longText, match: fc.boolean() }), { maxLength: 12 }), { nil: undefined }),
    abstract: fc.option(longText, { nil: undefined }),
    links: fc.array(fc.record({ label: text, url }), { maxLength: 8 }),
    position: fc.option(fc.nat(), { nil: undefined }),
  });
  const block = fc.oneof(
    card.map((paper) => ({ kind: 'paper' as const, paper })),
    text.map((t) => ({ kind: 'heading' as const, text: t })),
    longText.map((t) => ({ kind: 'note' as const, text: t })),
    longText.map((t) => ({ kind: 'text' as const, text: t })),
    fc.record({ kind: fc.constant('list' as const), heading: fc.option(text, { nil: undefined }), items: fc.array(fc.record({ text: longText, url: fc.option(url, { nil: undefined }), detail: fc.option(text, { nil: undefined }) }), { maxLength: 40 }) }),
  );
  const handle = fc.string({ minLength: 1, maxLength: 120 });
  const reply = fc.record({
    fallback: longText,
    blocks: fc.array(block, { maxLength: 14 }),
    buttons: fc.option(fc.array(fc.array(fc.record({ label: text, action: fc.option(handle, { nil: undefined }), url: fc.option(url, { nil: undefined }), disabled: fc.boolean() }), { maxLength: 8 }), { maxLength: 7 }), { nil: undefined }),
    menu: fc.option(fc.record({ placeholder: text, choices: fc.array(fc.record({ label: longText, action: handle, description: fc.option(text, { nil: undefined }) }), { maxLength: 40 }) }), { nil: undefined }),
    ephemeral: fc.option(fc.boolean(), { nil: undefined }),
  });

  it('keeps every Discord limit, pings no one and shows no live mention', () => {
    fc.assert(
      fc.property(reply, (r) => {
        const message = renderMessage(r as Reply);
        expect(messageProblems(message)).toEqual([]);
        expect(message.allowed_mentions).toEqual({ parse: [] });
        expect(messageProblems(message, { create: true })).toEqual([]);
        for (const shown of shownText(message)) expect(shown).not.toMatch(/@(everyone|here)|<[@#]/i);
      }),
      { numRuns: 1000 },
    );
  });
});

/** Every text Discord shows of a message (link targets, custom ids and option values are not shown). */
function shownText(message: DiscordMessage): string[] {
  const out = [message.content ?? ''];
  for (const e of message.embeds) {
    out.push(e.title ?? '', e.description ?? '', e.footer?.text ?? '', e.author?.name ?? '');
    for (const f of e.fields ?? []) out.push(f.name, f.value);
  }
  for (const row of message.components) {
    for (const c of row.components) {
      if (c.type === 2 && 'label' in c) out.push(c.label ?? '');
      if (c.type === 3) out.push(c.placeholder ?? '', ...c.options.flatMap((o) => [o.label, o.description ?? '']));
    }
  }
  return out.map((t) => t.replace(/\]\([^)\s]*\)/g, ']'));
}
